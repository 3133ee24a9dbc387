"""C and C++ identifier-macros before a declaration, blanked for a second parse (pure).

tree-sitter-c and -cpp do not expand macros, so an all-caps macro that stands before a
declaration (``NLOHMANN_BASIC_JSON_TPL_DECLARATION`` for ``template <...>``, an attribute
such as ``JSON_HEDLEY_NON_NULL(3)``, ``LUA_API int f();``, ``static JSON_INLINE_VARIABLE
constexpr T npos``) is read as a type or a call: the declaration, and often the class around
it, become ERROR nodes (trial 13: nlohmann/json's ``basic_json`` was not indexed).
``blank_macros`` turns such macros into spaces, so byte offsets and line numbers are
unchanged. A macro that is the declaration's type (``DWORD n = 0;``, ``HANDLE Open();``) or
a function-like macro that opens a body (gtest's ``TEST(A, B) {``) is kept.
"""
from __future__ import annotations

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
# What a declaration's rest starts with once its macros are gone: a keyword, or a type
# then a name (`std::size_t npos`, `T* f(`, `basic_json& operator=`).
_KEYWORDS = (rb"void|bool|char|short|int|long|float|double|signed|unsigned|auto|class|struct"
             rb"|union|enum|typename|template|namespace|using|operator|decltype|" + _SPECIFIERS)
_DECLARATION = re.compile(
    rb"(?:%s)\b|~|[A-Za-z_][\w:]*(?:<[^;{}]*>)?(?:::\w+)*[ \t*&]+[A-Za-z_~]" % _KEYWORDS)
# A line after a macro alone on its line that continues it rather than a declaration.
_CONTINUES = re.compile(rb"[:;,=).?|&+\-<>\[]")


# A macro that stands for an access specifier (`JSON_PRIVATE_UNLESS_TESTED:`), colon and all.
_ACCESS = re.compile(rb"(?m)^[ \t]*([A-Z][A-Z0-9_]*[A-Z0-9_][ \t]*:)[ \t]*$")


def blank_macros(source: bytes) -> bytes:
    """``source`` with each all-caps macro in a declaration's head blanked to spaces.

    A macro alone on its line is blanked unless the next non-blank line continues it (``:``,
    an operator); a macro before the rest of a line is blanked when that rest still reads as
    a declaration; a macro before a ``{`` only when indented (``JSON_TRY {`` in a function,
    never a top-level ``TEST(A, B) {``). A macro alone with a colon is an access specifier.

    Examples
    --------
    >>> blank_macros(b"JSON_API\\nclass A {};\\n")
    b'        \\nclass A {};\\n'
    >>> blank_macros(b"static JSON_INLINE constexpr int npos = 0;\\n")
    b'static             constexpr int npos = 0;\\n'
    >>> blank_macros(b"DWORD n = 0;\\nTEST(A, B)\\n{\\n}\\n")
    b'DWORD n = 0;\\nTEST(A, B)\\n{\\n}\\n'
    """
    out = bytearray(source)
    for head in _HEAD.finditer(source):
        rest = b"" if head.group(3).startswith((b"//", b"/*")) else head.group(3)
        follower = rest or source[head.end():].lstrip(b"\r\n \t")
        if follower.startswith(b"{"):  # `JSON_TRY {` in a body; not gtest's `TEST(A, B) {`
            if not head.group(1):
                continue
        elif rest:
            if not _DECLARATION.match(rest):
                continue
        elif not follower or _CONTINUES.match(follower):
            continue
        start = head.start(2)
        for token in _TOKEN.finditer(head.group(2)):
            if token.group(1) is None:  # a macro, not a specifier
                out[start + token.start():start + token.end()] = b" " * (token.end() - token.start())
    for access in _ACCESS.finditer(source):
        out[access.start(1):access.end(1)] = b" " * (access.end(1) - access.start(1))
    return bytes(out)
