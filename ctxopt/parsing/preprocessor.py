"""C# (and C, C++) preprocessor directives blanked for a second parse (pure: bytes -> bytes).

tree-sitter-c-sharp parses an ``#if`` group between members, but not one inside a
declaration (``ILogger ForContext(...)`` then ``#if X => ... #else ; #endif``): the
declaration, and often the type around it, become ERROR nodes. ``first_branches`` gives
the text a compiler would read with each conditional's first live branch taken: the first
whose condition is not literally ``false`` or ``0`` (``#if false`` is how C# comments code
out; C's `#ifdef` and `#ifndef` open a conditional as `#if` does). Each directive line and
each other branch become spaces, so byte offsets and line numbers are unchanged.
"""
from __future__ import annotations

import re

__all__ = ["first_branches"]

# A directive line: `#` first on the line, then the directive's name and the rest.
_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*([a-z]+)(.*)")
# A condition that is never true: `false` or `0`, alone (a comment may follow).
_DEAD = re.compile(rb"[ \t]*(?:false|0)[ \t]*(?://.*)?\r?\n?")


def first_branches(source: bytes) -> bytes:
    """``source`` with its directive lines and all but the first live branch of each
    conditional blanked to spaces (line breaks kept).

    Examples
    --------
    >>> first_branches(b"int a;\\n#if X\\nint b;\\n#else\\nint c;\\n#endif\\n")
    b'int a;\\n     \\nint b;\\n     \\n      \\n      \\n'
    >>> first_branches(b"#if false\\nold();\\n#else\\nnew();\\n#endif\\n")
    b'         \\n      \\n     \\nnew();\\n      \\n'
    """
    out = bytearray(source)
    # per open conditional: [is its current branch dropped, was a branch taken]
    branches: list[list[bool]] = []
    position = 0
    for line in source.splitlines(keepends=True):
        directive = _DIRECTIVE.match(line)
        name = directive.group(1) if directive else None
        live = directive is not None and _DEAD.fullmatch(directive.group(2)) is None
        if name in (b"if", b"ifdef", b"ifndef"):
            branches.append([not live, live])
        elif name in (b"elif", b"else") and branches:
            taken = branches[-1][1]
            take = not taken and (name == b"else" or live)
            branches[-1] = [not take, taken or take]
        elif name == b"endif" and branches:
            branches.pop()
        if directive or any(dropped for dropped, _ in branches):
            end = position + len(line.rstrip(b"\r\n"))
            out[position:end] = b" " * (end - position)
        position += len(line)
    return bytes(out)
