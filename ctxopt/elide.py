"""Cuts of a block that keep the lines that matter (pure): block lines -> reveal order.

A block too large to show whole is cut to its definition's header (the code below its doc
comment, which comes later) plus the lines that matter (``Block.salient``: lines holding
the task's words or the names it seeds, a line the task points at, the headers of the
definitions inside it), each with the headers of the scopes around it (an ``if``, a loop, a method), the gaps between them shown as one
``⋮ N lines`` marker line each. Lines are revealed in *chunks*, one statement (its
continuation lines: open brackets, a trailing backslash, a triple-quoted string) with
its scope headers at a time, so a cut never ends inside a statement; after the salient
lines come the rest of the block's statements from its focus line down, then the lines
above it, so the last cut is the whole block.

Coordinates: indices are 0-based positions in the block's list of file lines (line
``block.start_line + index`` of the file); ``Block.salient`` holds file line numbers.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from .wording import elided

__all__ = ["HEADER_LINES", "cut_lines", "indent_width", "prose_lines", "reveal_chunks", "shown_runs",
           "statement_spans"]

# A definition's header (decorators, a signature over several lines) is at most this many
# lines before its body; a longer one is cut there.
HEADER_LINES = 12
# Openers whose lines continue a statement until they close; a brace holds a body.
_OPENERS = "(["
_BRACKETS = "([{"
_CLOSING = {")": "(", "]": "[", "}": "{"}  # a closer -> its opener
# What ends a definition header: Python's colon, a brace block, an arrow function.
_HEADER_ENDS = (":", "{", "=>", "->")
# What opens a comment line, or a docstring.
_PROSE_OPENERS = ("#", "//", "/*", "* ", "*/", '"""', "'''")


def indent_width(line: str) -> int:
    """The characters of leading white space of ``line`` (a tab counts as one)."""
    return len(line) - len(line.lstrip())


def statement_spans(lines: Sequence[str], comment: str | None = "#") -> list[tuple[int, int]]:
    """For each line, the (first, last) index of the statement holding it.

    A line continues the statement before it when a ``(`` or ``[`` opened above is
    still open or the line before ends with a backslash; each line of a triple-quoted
    string (a docstring) is a statement of its own. Braces hold bodies, not continuations:
    a statement is one line inside ``{ }``, also inside a ``{`` opened within brackets (a
    closure passed to a call: ``walker.run(|| {`` ... ``})``), and a closer with no
    opener of its kind open is ignored. Quotes on one line are skipped
    roughly (``'`` and ``"`` pairs), and so is a line comment, from ``comment`` (the
    language's: ``comment_opener``; None: the language has none) to the line's end."""
    return _scan(lines, comment)[0]


def prose_lines(lines: Sequence[str], comment: str | None = "#") -> set[int]:
    """Indices of the lines that are comments or inside a triple-quoted string (a
    docstring): a task's words there say less than in code. ``comment`` opens a line
    comment, as for ``statement_spans``."""
    return _scan(lines, comment)[1]


def _scan(lines: Sequence[str], comment: str | None) -> tuple[list[tuple[int, int]], set[int]]:
    """``statement_spans`` and ``prose_lines`` in one pass."""
    starts: list[int] = []
    prose: set[int] = set()
    # the open brackets, innermost last: a line continues a statement while the
    # innermost is ``(`` or ``[``, not when it is a ``{`` (a closure or callback body
    # passed as an argument holds statements of its own)
    stack: list[str] = []
    triple, backslash = "", False
    # inside a ``/* ... */`` comment, in the languages whose line comment is ``//``: its
    # lines need not start with ``*`` (trial 8: jsoup's Javadoc lines do not, and were
    # read as code, so a cut showed the doc before the method it documents)
    block, blocks = False, comment == "//"
    stops = _stops(comment)
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if triple or block or stripped == "*" or (stripped.startswith(_PROSE_OPENERS)
                                                  and not stripped.startswith("#[")):
            prose.add(i)
        # a docstring's lines are statements of their own: a word in it does not pull in
        # the whole docstring
        continues = (bool(stack) and stack[-1] in _OPENERS and not triple) or backslash
        starts.append(starts[-1] if continues and starts else i)
        j, quote = 0, ""
        while True:  # from one character that may matter to the next (``_stops``)
            if triple:
                j = line.find(triple, j)
                if j < 0:
                    break
                triple, j = "", j + 3
                continue
            if block:
                j = line.find("*/", j)
                if j < 0:
                    break
                block, j = False, j + 2
                continue
            found = (_string_stops(quote) if quote else stops).search(line, j)
            if found is None:
                break
            j = found.start()
            ch = line[j]
            if quote:
                if ch == "\\":
                    j += 1
                else:
                    quote = ""
            elif line.startswith(('"""', "'''"), j):
                triple, j = line[j:j + 3], j + 3
                continue
            elif ch in "\"'" or (blocks and ch == "`"):  # (Go's and JavaScript's `...`)
                quote = ch
            elif blocks and line.startswith("/*", j):
                block, j = True, j + 2
                continue
            elif comment is not None and line.startswith(comment, j) \
                    and not line.lstrip().startswith("#["):
                break  # a comment to the end of the line (``#`` or ``//``)
            elif ch in _BRACKETS:
                stack.append(ch)
            elif ch in _CLOSING and _CLOSING[ch] in stack:
                # closes the innermost opener of its kind and any left open inside it
                del stack[len(stack) - 1 - stack[::-1].index(_CLOSING[ch]):]
            j += 1
        backslash = line.endswith("\\") and not triple
    spans: list[tuple[int, int]] = [(0, 0)] * len(lines)
    i = 0
    while i < len(lines):
        end = i
        while end + 1 < len(lines) and starts[end + 1] == starts[i]:
            end += 1
        for k in range(i, end + 1):
            spans[k] = (starts[i], end)
        i = end + 1
    return spans, prose


@cache
def _stops(comment: str | None) -> re.Pattern[str]:
    """The characters ``_scan`` may act on outside strings and comments (a quote, a
    bracket, ``/`` of ``/*``, the first of ``comment``): it skips from one to the next, not
    through every character (a fifth of reading a warm gather's blocks)."""
    if comment == "":
        return re.compile(".", re.DOTALL)  # (a comment at every place)
    characters = "\"'`/" + _BRACKETS + "".join(_CLOSING) + (comment or "")[:1]
    return re.compile(f"[{re.escape(characters)}]")


@cache
def _string_stops(quote: str) -> re.Pattern[str]:
    """The characters ``_scan`` acts on inside a string opened by ``quote``: an escape,
    the closing quote."""
    characters = "\\" + quote
    return re.compile(f"[{re.escape(characters)}]")


def _header(lines: Sequence[str], spans: list[tuple[int, int]], focus: int) -> list[int]:
    """The focus line's definition header: its statements until one ends like a header
    (``:``, ``{``, ``=>``, ``->``), at most ``HEADER_LINES`` lines; the focus line's
    statement alone when none does within them or its scope (a window that starts inside a body: its
    first twelve statements had come before the line the task points at; trial 7)."""
    found: list[int] = []
    i = focus
    while i < len(lines) and len(found) < HEADER_LINES:
        first, last = spans[i]
        if i > focus and lines[first].strip() and indent_width(lines[first]) < indent_width(lines[focus]):
            break  # (out of the focus's scope: an enum's `Map,` is no header of the next type)
        found.extend(range(max(first, focus), last + 1))
        if lines[last].rstrip().endswith(_HEADER_ENDS):
            return found[:HEADER_LINES]
        i = last + 1
    return list(range(focus, spans[focus][1] + 1))[:HEADER_LINES] if focus < len(lines) else []


def _scopes(lines: Sequence[str], spans: list[tuple[int, int]], index: int,
            floor: int) -> list[int]:
    """The statements of the scope headers above line ``index`` down to the block's
    focus line ``floor``: each nearest statement above with less indentation, and the
    statement above a brace on a line of its own (C's and C#'s style: trial 9's cut of
    cJSON showed a function's body under a `{` without the header before it)."""
    found: list[int] = []
    width = indent_width(lines[spans[index][0]])
    k = spans[index][0] - 1
    while k >= floor and width > 0:
        first = spans[k][0]
        line = lines[first]
        if line.strip() and indent_width(line) < width:
            found[:0] = range(first, spans[k][1] + 1)
            width = indent_width(line)
            if line.strip() == "{":  # a brace on its own line: the header is above it
                above = first - 1
                while above >= floor and not lines[above].strip():
                    above -= 1
                if above >= floor and indent_width(lines[above]) == width:
                    first = spans[above][0]
                    found[:0] = range(first, above + 1)
        k = first - 1
    return found


def reveal_chunks(lines: Sequence[str], focus: int, salient: Sequence[int],
                  comment: str | None = "#", members: Sequence[int] = (),
                  in_body: bool = False, above: Sequence[int] = ()) -> list[list[int]]:
    """The order in which cuts of a block reveal its lines, as chunks of indices: the
    header at ``focus`` (below the comments and blank lines it starts with; a focus that
    is no header, with the headers of the scopes above it in the block), then each
    salient index (best first) with its statement, the scope headers above it and the
    header of the other definition it is in, then every other statement from the header
    down, then those comments, then the lines above ``focus``: the headers of the other
    definitions that start there, nearest first (a definition's tail alone says nothing
    of what it is), then the rest, nearest first. ``members``: the first lines of the
    block's other definitions (a header is the code below the comments it starts with).
    ``in_body``: the focus is a line inside a body (one the task points at), not a
    definition's header: the cut opens at its statement under the headers of its scopes.
    ``above``: salient indices above ``focus`` revealed as the others are, under the
    headers of the scopes they are in (lines the task points at in another definition
    merged above the best one: trial 21's Java caller frame); other salient indices above
    ``focus`` wait with the lines above it. Each index appears in exactly one chunk; every chunk is non-empty; the chunks cover
    every line. ``comment`` opens a line comment, as for ``statement_spans``."""
    spans, prose = _scan(lines, comment)

    def below_comments(first: int, end: int) -> int:
        """The first code line of a definition starting at ``first``, before ``end``."""
        while first < end - 1 and (first in prose or not lines[first].strip()):
            first += 1
        return first

    # the header is the code below the comments above a definition (its doc comment):
    # a cut shows the signature and the lines that matter before the prose about them
    start = below_comments(focus, len(lines) + 1)
    if start == len(lines):
        start = focus
    # (a member far below a salient line's own scope is no scope of it)
    inside = sorted({below_comments(m, len(lines)) for m in members if start < m < len(lines)})
    seen: set[int] = set()
    chunks: list[list[int]] = []

    def add(indices: list[int]) -> None:
        fresh = {i for i in indices if i not in seen}
        if fresh:
            seen.update(fresh)
            chunks.append(sorted(fresh))

    # a focus that is no header (a field, an enum's member) with the headers of the
    # scopes above it in the block: re-check of trial 16, a cut of immer's
    # types-internal.ts began at `Map,` under `export const enum ArchType {`. (A method's
    # class too moved two Live tasks' last signature out of 4,000 and 8,000 tokens.)
    # (trial 19: read as a header, the line a traceback points at took the statements
    # below it up to the next `while ...:`, and none of the scopes it is in)
    opening = (list(range(start, spans[start][1] + 1)) if in_body and start < len(lines)
               else _header(lines, spans, start)) or [start]
    if in_body or not lines[opening[-1]].rstrip().endswith(_HEADER_ENDS):
        opening = _scopes(lines, spans, start, 0) + opening
    add(opening)
    earlier = sorted({below_comments(m, focus) for m in members if 0 <= m < focus})
    for index in salient:
        if focus <= index < len(lines):
            first, last = spans[index]
            owner = [h for h in inside if h <= first]
            # (trial 13: a C++ template's cut kept `-> decltype(...)` above its `{`, not
            # the `auto from_json(...)` line that names it)
            header = _header(lines, spans, owner[-1]) if owner else []
            add(header + _scopes(lines, spans, index, start)
                + list(range(max(first, focus), last + 1)))
        elif 0 <= index < focus and index in above:
            first, last = spans[index]
            owner = [h for h in earlier if h <= first]
            header = _header(lines, spans, owner[-1]) if owner else []
            add(header + _scopes(lines, spans, index, 0) + list(range(first, last + 1)))
    i = start
    while i < len(lines):
        last = spans[i][1]
        add(list(range(max(i, spans[i][0]), last + 1)))
        i = last + 1
    add(list(range(focus, start)))  # the comments above the header, whole
    for first in sorted({m for m in members if 0 <= m < focus}, reverse=True):
        head = below_comments(first, focus)
        add([i for i in _header(lines, spans, head) if i < focus] or [head])
    for i in range(focus - 1, -1, -1):
        add([i])
    return chunks


def shown_runs(kept: set[int]) -> list[tuple[int, int]]:
    """The runs of indices, (first, last) inclusive, that a cut keeping the ``kept``
    indices shows (``cut_lines``): the kept ones and each single index between two of
    them (a one-line gap is shown, as a marker would cost as much); every other gap is a
    marker."""
    runs: list[tuple[int, int]] = []
    for i in sorted(kept):
        if runs and i - runs[-1][1] <= 2:  # adjacent, or one line between
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def cut_lines(lines: Sequence[str], kept: set[int]) -> tuple[list[str], int, int]:
    """The content showing the ``kept`` indices (``shown_runs``), every other run of
    omitted lines inside as one ``⋮ N lines`` marker at the indentation of the line
    after it, and (first, last) kept index. Lines above the first and below the last
    kept index are left out without a marker (the caller marks them)."""
    runs = shown_runs(kept)
    out: list[str] = []
    for n, (first, last) in enumerate(runs):
        if n:
            gap = first - runs[n - 1][1] - 1
            out.append(lines[first][:indent_width(lines[first])] + elided(gap))
        out.extend(lines[first:last + 1])
    return out, runs[0][0], runs[-1][1]
