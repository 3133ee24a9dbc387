"""Cutting one tool result to a token allowance: code to signatures first, then lines.

Code in a result is reduced with ctxopt's own signature reduction (``source.outline``
over ``treesitter.extract_tags``: each top-level definition's header with its body
replaced by a placeholder, classes with their members' headers). The language comes
from a fence's tag (```` ```python ```` or ```` ```src/app.py ````), else from a file
name in the tool call's arguments or on the result's first line, else it is detected
(``detect_language``). If the result is still over its allowance, whole lines are cut
from its middle: about two thirds of what is kept from the head, where code and listings
begin, one third from the tail, where errors and summaries end. Every cut is marked with
a line starting ``⋮ [ctxopt]``.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..errors import GrammarError
from ..parsing.languages import LANGUAGES, language_for_path
from ..source import outline
from ..parsing.treesitter import extract_tags
from ..wording import counted
from .shapes import nested_strings

__all__ = ["cut_result", "detect_language", "language_hint", "reduce_code", "CUT_MARK"]

CUT_MARK = "⋮ [ctxopt]"
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
# `cat -n` (`    12\t`) and editor tools (`    12→`) number the lines they show.
_NUMBERED = re.compile(r"^\s*\d+(?:\t|→)")
_PATH = re.compile(r"(?:[\w.-]+/)*[\w.-]+\.[A-Za-z0-9+]{1,6}")
_NAMES = {lang.name for lang in LANGUAGES}
# Lines typical of one language, for results that name neither a file nor a fence.
_TELLS: dict[str, re.Pattern[str]] = {
    "python": re.compile(r"^\s*(?:def \w+\(.*\).*:|class \w+.*:|from [\w.]+ import |import \w)",
                         re.MULTILINE),
    "go": re.compile(r"^(?:func (?:\(.*?\) )?\w+\(|package \w+$|type \w+ struct)", re.MULTILINE),
    "rust": re.compile(r"^\s*(?:pub(?:\(\w+\))? )?(?:fn \w+|struct \w+|impl\b|use \w+::)",
                       re.MULTILINE),
    "typescript": re.compile(r"^\s*(?:export )?(?:interface \w+|type \w+ =|.*\): \w+ \{)",
                             re.MULTILINE),
    "javascript": re.compile(r"^\s*(?:export )?(?:async )?(?:function \w+|const \w+ = \()",
                             re.MULTILINE),
    "java": re.compile(r"^\s*(?:public|private|protected) (?:static )?[\w<>\[\]]+ \w+\(",
                       re.MULTILINE),
    "c": re.compile(r"^#include [<\"]", re.MULTILINE),
    "ruby": re.compile(r"^\s*(?:def \w+[?!]?$|module \w+$|end$)", re.MULTILINE),
}


def _fence_language(tag: str) -> str | None:
    """The language of a fence tag: a language name, an extension or a file name."""
    tag = tag.strip().split()[0].lower() if tag.strip() else ""
    if not tag:
        return None
    if tag in _NAMES:
        return tag
    language = language_for_path(tag if "." in tag else f"x.{tag}")
    return language.name if language else None


def language_hint(arguments: Any, text: str) -> str | None:
    """The language of a result from a file name in the call's ``arguments`` (any string
    value, nested) or on the result's first line; None when neither names one."""
    strings = nested_strings(arguments) + [text.split("\n", 1)[0]]
    for string in strings:
        for match in _PATH.finditer(string):
            language = language_for_path(match.group(0))
            if language is not None:
                return language.name
    return None


def detect_language(text: str) -> str | None:
    """The language whose telling lines (``def f():``, ``func f(``...) occur most in
    ``text``, if at least two do; C++ when a C-looking text has classes or namespaces."""
    counts = {name: len(pattern.findall(text)) for name, pattern in _TELLS.items()}
    best = max(counts, key=lambda name: counts[name])
    if counts[best] < 2:
        return None
    if best == "c" and re.search(r"^\s*(?:class|namespace|template)\b", text, re.MULTILINE):
        return "cpp"
    return best


def _strip_numbers(text: str) -> str:
    """The text without `cat -n` style line numbers, when every non-blank line has one."""
    lines = text.split("\n")
    if not all(_NUMBERED.match(line) for line in lines if line.strip()):
        return text
    return "\n".join(_NUMBERED.sub("", line, count=1) for line in lines)


def reduce_code(code: str, language: str) -> str | None:
    """``code``'s signature reduction in ``language``, or None when it has no definitions
    or the reduction is not shorter."""
    source = _strip_numbers(code)
    try:
        definitions = extract_tags("<tool result>", language, source.encode("utf-8")).definitions
    except (GrammarError, ValueError, LookupError):
        return None
    reduced = outline(definitions)
    if not reduced or len(reduced) >= len(source):
        return None
    lines = len(source.splitlines())  # (a final newline ends the last line)
    return (f"{CUT_MARK} {language} code reduced to signatures ({counted(lines, 'line')}, "
            f"{counted(len(definitions), 'definition')})\n{reduced}")


def _reduce_fences(text: str, default: str | None) -> str | None:
    """``text`` with each fenced code block reduced to signatures; None if none was."""
    changed = False

    def replace(match: re.Match[str]) -> str:
        nonlocal changed
        language = _fence_language(match.group(1)) or default
        reduced = reduce_code(match.group(2), language) if language else None
        if reduced is None:
            return match.group(0)
        changed = True
        return f"```{match.group(1)}\n{reduced}\n```"

    result = _FENCE.sub(replace, text)
    return result if changed else None


def _reduce(text: str, arguments: Any) -> str | None:
    """``text`` with its code reduced to signatures, or None when it holds no code."""
    hint = language_hint(arguments, text)
    if "```" in text:
        fenced = _reduce_fences(text, hint)
        if fenced is not None:
            return fenced
    language = hint or detect_language(_strip_numbers(text))
    return reduce_code(text, language) if language else None


def _cut_lines(text: str, allowance: int, count: Callable[[str], int]) -> str:
    """The most lines of ``text`` (two thirds from the head, one third from the tail)
    that fit ``allowance`` tokens with the cut marked; characters when no line fits."""
    lines = text.split("\n")

    def cut(keep: int) -> str:
        head = (2 * keep + 2) // 3
        tail = keep - head
        mark = f"{CUT_MARK} {len(lines) - keep} of {len(lines)} lines cut here"
        return "\n".join(lines[:head] + [mark] + (lines[len(lines) - tail:] if tail else []))

    low, high, best = 1, len(lines) - 1, None
    while low <= high:
        middle = (low + high) // 2
        candidate = cut(middle)
        if count(candidate) <= allowance:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    if best is not None:
        return best
    mark = f"\n{CUT_MARK} cut to {{}} of {len(text)} characters"
    low, high, chars = 0, len(text), 0
    while low <= high:
        middle = (low + high) // 2
        if count(text[:middle] + mark.format(middle)) <= allowance:
            chars, low = middle, middle + 1
        else:
            high = middle - 1
    return text[:chars] + mark.format(chars)


def cut_result(text: str, allowance: int, count: Callable[[str], int],
               arguments: Any = None) -> tuple[str, str]:
    """``text`` cut to at most ``allowance`` tokens (as ``count`` counts), and how:
    ``""`` (it fits), ``"signatures"``, ``"signatures+lines"`` or ``"lines"``.

    ``arguments`` are the tool call's (they may name the file the result shows). The
    result is over ``allowance`` only when not even the cut marker fits it.
    """
    if count(text) <= allowance:
        return text, ""
    reduced = _reduce(text, arguments)
    if reduced is not None:
        if count(reduced) <= allowance:
            return reduced, "signatures"
        return _cut_lines(reduced, allowance, count), "signatures+lines"
    return _cut_lines(text, allowance, count), "lines"
