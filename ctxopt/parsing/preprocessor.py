"""C# preprocessor directives blanked for a second parse (pure: bytes -> bytes).

tree-sitter-c-sharp parses an ``#if`` group between members, but not one inside a
declaration (``ILogger ForContext(...)`` then ``#if X => ... #else ; #endif``): the
declaration, and often the type around it, become ERROR nodes. ``first_branches`` gives
the text a compiler would read with every condition's first branch taken: each
directive line and each ``#elif``/``#else`` branch become spaces, so byte offsets and
line numbers are unchanged.
"""
from __future__ import annotations

import re

__all__ = ["conditional_lines", "first_branches"]

# A directive line: `#` first on the line, then the directive's name.
_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*([a-z]+)")
# A conditional directive's line, anywhere in a source.
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(?:if|elif|else|endif)\b", re.MULTILINE)


def conditional_lines(source: bytes) -> list[int]:
    """The 0-based lines of ``source``'s ``#if``, ``#elif``, ``#else`` and ``#endif``, in order.

    >>> conditional_lines(b"int a;\\n#if X\\nint b;\\n  #endif\\n")
    [1, 3]
    """
    lines: list[int] = []
    line = position = 0
    for match in _CONDITIONAL.finditer(source):
        line += source.count(b"\n", position, match.start())
        position = match.start()
        lines.append(line)
    return lines


def first_branches(source: bytes) -> bytes:
    """``source`` with its directive lines and the ``#elif`` and ``#else`` branches of its
    conditionals blanked to spaces (line breaks kept).

    Examples
    --------
    >>> first_branches(b"int a;\\n#if X\\nint b;\\n#else\\nint c;\\n#endif\\n")
    b'int a;\\n     \\nint b;\\n     \\n      \\n      \\n'
    """
    out = bytearray(source)
    skipping: list[bool] = []  # per open conditional: is its current branch dropped
    position = 0
    for line in source.splitlines(keepends=True):
        directive = _DIRECTIVE.match(line)
        name = directive.group(1) if directive else None
        if name == b"if":
            skipping.append(False)
        elif name in (b"elif", b"else") and skipping:
            skipping[-1] = True
        elif name == b"endif" and skipping:
            skipping.pop()
        if directive or any(skipping):
            end = position + len(line.rstrip(b"\r\n"))
            out[position:end] = b" " * (end - position)
        position += len(line)
    return bytes(out)
