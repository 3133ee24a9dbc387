"""C and C++ identifier-macros before a declaration, blanked for a second parse (pure).

tree-sitter-c and -cpp do not expand macros, so an all-caps macro that stands before a
declaration (``NLOHMANN_BASIC_JSON_TPL_DECLARATION`` for ``template <...>``, an attribute
such as ``JSON_HEDLEY_NON_NULL(3)``, ``LUA_API int f();``, ``static JSON_INLINE_VARIABLE
constexpr T npos``) is read as a type or a call: the declaration, and often the class around
it, become ERROR nodes (trial 13: nlohmann/json's ``basic_json`` was not indexed).
``blank_macros`` turns such macros into spaces, so byte offsets and line numbers are
unchanged. A macro that is the declaration's type (``DWORD n = 0;``, ``HANDLE Open();``, a
return type alone above its function's name: ``NTSTATUS`` / ``DriverEntry(...)``), a
function-like macro that opens a body (gtest's ``TEST(A, B) {``), and a word that is no
macro of a declaration (the last enumerator before ``};``, a goto label, an operand) are kept.
"""
from __future__ import annotations

import bisect
import re

__all__ = ["blank_macros"]

_MACRO = rb"[A-Z][A-Z0-9_]*[A-Z0-9_]\b(?:[ \t]*\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))?"
# Words that may stand before or between the macros of a declaration's head.
_SPECIFIERS = (rb"static|inline|constexpr|consteval|constinit|virtual|explicit|extern|friend"
               rb"|const|volatile|mutable|typedef|register|thread_local|__inline|_Noreturn")
_SPECIFIER = rb"(?:%s)\b" % _SPECIFIERS
# A line's leading run of specifiers and macros (the macros are group 1's tokens).
_HEAD = re.compile(rb"(?m)^([ \t]*)((?:(?:%s|%s)[ \t]+)*(?:%s|%s))[ \t]*(.*)$"
                   % (_SPECIFIER, _MACRO, _SPECIFIER, _MACRO))
_TOKEN = re.compile(rb"(%s)|%s" % (_SPECIFIER, _MACRO))
# What follows a declaration's macros once they are gone: a keyword, a conversion operator
# (`JSON_EXPLICIT operator T()`), or a type then a name (`std::size_t npos`, `T* f(`,
# `basic_json& operator=`), not a statement (`return x;`). A name alone (`DriverEntry(`,
# `Widget::Draw(`, `operator+`) means the macro before it is the type. Linear: no two
# repetitions can match the same text, and a template's brackets end with their line.
_KEYWORDS = (rb"void|bool|char|short|int|long|float|double|signed|unsigned|auto|class|struct"
             rb"|union|enum|typename|template|namespace|using|decltype|" + _SPECIFIERS)
_STATEMENTS = rb"return|goto|throw|delete|new|case|else|do|co_return|co_yield|co_await"
_DECLARATION = re.compile(
    rb"(?:%s)\b|~|operator[ \t]+[A-Za-z_]|(?!(?:%s)\b)[A-Za-z_]\w*(?:::\w+)*"
    rb"(?:<[^;{}\n]*>(?:::\w+)*)?[ \t*&]+[A-Za-z_~]" % (_KEYWORDS, _STATEMENTS))
# A macro that stands for an access specifier (`JSON_PRIVATE_UNLESS_TESTED:`), colon and all
# (a goto label `FAIL:` or a ternary's `FOO :` looks the same; what follows tells them apart).
_ACCESS = re.compile(rb"[ \t]*[A-Z][A-Z0-9_]*[A-Z0-9_][ \t]*:[ \t]*\r?")
_BLANKS = re.compile(rb"(?:[ \t\r\n]+|//[^\n]*)*")
_COMMENT_END = re.compile(rb"\*/")
# Another macro (a type is not followed by one: `NAMESPACE_BEGIN` above `DECLARE(begin);`),
# and a name called (after a function-like macro, which is no type).
_MACRO_THEN = re.compile(rb"[A-Z][A-Z0-9_]*[A-Z0-9_](?![\w:])")
_CALL = re.compile(rb"~?[A-Za-z_]\w*(?:::~?\w+)*[ \t]*\(")


def _code_after(source: bytes, position: int, comment_ends: list[int]) -> int:
    """The offset of the first byte from ``position`` on that is neither blank nor in a
    comment (``len(source)`` when there is none); ``comment_ends``: where each ``*/`` ends."""
    while True:
        position = _BLANKS.match(source, position).end()  # type: ignore[union-attr]
        if not source.startswith(b"/*", position):
            return position
        # (a search for the `*/` could read the rest of the file for each macro)
        end = bisect.bisect_left(comment_ends, position + 4)
        if end == len(comment_ends):
            return len(source)
        position = comment_ends[end]


def blank_macros(source: bytes) -> bytes:
    """``source`` with each all-caps macro in a declaration's head blanked to spaces.

    The macros before a line's rest, or alone on their line, are blanked when what follows
    them (comments skipped) still reads as a declaration: a keyword, or a type then a name,
    or more such macros that are blanked. So a return type on its own line (``NTSTATUS`` above
    ``DriverEntry(...)``), an enumerator before ``};`` and an expression's operand are kept.
    A macro before a ``{`` is blanked only when indented (``JSON_TRY {`` in a function, never
    a top-level ``TEST(A, B) {``). A macro alone with a colon before a declaration is an
    access specifier (a goto label is followed by a statement).

    Examples
    --------
    >>> blank_macros(b"JSON_API\\nclass A {};\\n")
    b'        \\nclass A {};\\n'
    >>> blank_macros(b"static JSON_INLINE constexpr int npos = 0;\\n")
    b'static             constexpr int npos = 0;\\n'
    >>> blank_macros(b"DWORD n = 0;\\nTEST(A, B)\\n{\\n}\\nNTSTATUS\\nDriverEntry(void);\\n")
    b'DWORD n = 0;\\nTEST(A, B)\\n{\\n}\\nNTSTATUS\\nDriverEntry(void);\\n'
    """
    out = bytearray(source)
    comment_ends = [m.end() for m in _COMMENT_END.finditer(source)] if b"/*" in source else []
    blanked: set[int] = set()  # where the macros of a blanked line start
    types: dict[int, tuple[int, int]] = {}  # a line kept as the type of a name after it
    for match in reversed(list(_HEAD.finditer(source))):  # (a line can depend on the next)
        start, macros = match.start(2), match.group(2)
        if match.group(3).startswith(b":") and _ACCESS.fullmatch(match.group(0)):
            # an access specifier before a declaration; not a label before a statement
            follower = _code_after(source, match.end(), comment_ends)
            if follower in blanked or _DECLARATION.match(source, follower):
                out[start:match.end(3)] = b" " * (match.end(3) - start)
                blanked.add(start)
            continue
        follower = _BLANKS.match(source, match.start(3)).end()  # type: ignore[union-attr]
        if source.startswith(b"/*", follower):
            follower = _code_after(source, follower, comment_ends)
        if follower in types and not macros.endswith(b")"):
            # `BOOL` / `WINAPI` / `DllMain(...)`: the first is the type, the next an attribute
            first, last = types.pop(follower)
            out[first:last] = b" " * (last - first)
        elif (follower in blanked or _DECLARATION.match(source, follower)
              or _MACRO_THEN.match(source, follower)
              or (match.group(1) and source.startswith(b"{", follower))  # `JSON_TRY {`
              or (macros.endswith(b")") and _CALL.match(source, follower))):  # `NON_NULL(3) C(`
            blanked.add(start)
            if macros[:1].isupper() and b" " not in macros and b"\t" not in macros:
                out[start:match.end(2)] = b" " * len(macros)  # (one macro: most often)
            else:
                out[start:match.end(2)] = _blanked_macros(macros)
        elif follower > match.end() and _CALL.match(source, follower):  # alone on its line
            types[start] = (start, match.end(2))
    return bytes(out)


def _blanked_macros(macros: bytes) -> bytes:
    """``macros`` (a head's run of macros and specifiers) with its macros blanked."""
    blanked = bytearray(macros)
    for token in _TOKEN.finditer(macros):
        if token.group(1) is None:  # a macro, not a specifier
            blanked[token.start():token.end()] = b" " * (token.end() - token.start())
    return bytes(blanked)
