"""Stage 6 (pure): ``Result`` -> text, JSON or manifest string.

Output is byte-for-byte deterministic: blocks come in selection order (score, then
path, then line), JSON keys are sorted. The text rendering is what the token budget
bounds; the JSON ``used`` field is that rendering's token count.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace

from . import __version__
from .files.text import display_text
from .model import Block, Dropped, Fidelity, Result, Selection, Upcoming
from .parsing.languages import comment_syntax
from .wording import counted, elided, omitted

__all__ = [
    "RENDERERS",
    "SCHEMA_VERSION",
    "TASK_CHARS",
    "Layout",
    "block_marker",
    "block_part",
    "by_file",
    "file_head",
    "header_around_used",
    "provenance",
    "render_block",
    "render_body",
    "render_file",
    "render_header",
    "render_json",
    "render_manifest",
    "render_text",
    "shown_counts",
    "shown_kind",
    "task_line",
]

# 2: root, ctxopt_version, commit, index and calibrated_for added (ctxopt/schema/);
# next added (issue 17); text added; blocks' part_of, kind window and lines added.
# 3: summary.truncated counts the blocks shown cut only (2 counted the fitter's signatures
# too: the length of the truncated list); summary.signatures added (trial 16)
SCHEMA_VERSION = 3
_TOP_SYMBOLS = 5
# The text and manifest headers show at most this many characters of the task (the JSON
# keeps it whole): a long task would otherwise eat the budget.
TASK_CHARS = 200
# The start of a \xHH or \uXXXX escape left at the end of a cut line.
_PARTIAL_ESCAPE = re.compile(r"\\(?:x[0-9a-f]?|u[0-9a-f]{0,3})?$")


def _fence(content: str) -> str:
    fence = "```"
    while fence in content:
        fence += "`"
    return fence


def block_marker(block: Block) -> str:
    """The line that opens a block inside its file's fence: ``# lines 12-40`` (``//
    lines 12-40`` in a language whose comments start so: a comment in the block's own
    language), with the notebook cells it shows, ``(signature)`` when it is reduced to
    its signature and ``(part of NAME, lines A-B)`` when it holds only part of a
    definition it names (``Block.part_of``: a window around a call, a class header). It
    starts with a character that is not white space: cl100k never joins a line break and
    a following non-space character in one piece, so each block's part of the text
    counts on its own. In a language without comments (JSON) it is the bare text, which
    goes on the block's own ``## path (lines 12-40)`` line, outside its fence
    (``render_file``)."""
    cells = f" [{block.cells}]" if block.cells else ""
    kind = " (signature)" if block.kind is Fidelity.SIGNATURE else ""
    if block.part_of is not None and block.kind is not Fidelity.SIGNATURE:
        name, first, last = block.part_of
        kind = f" (part of {name}, lines {first}-{last})"
    text = f"lines {block.start_line}-{block.end_line}{cells}{kind}"
    syntax = comment_syntax(block.language)
    return text if syntax is None else f"{syntax[0]} {text}{syntax[1]}"


def shown_kind(block: Block) -> str:
    """What the output calls the block's form: its ``kind``, or ``window`` for a block
    shown as read that holds only part of a definition it names (``Block.part_of``)."""
    if block.kind is Fidelity.FULL and block.part_of is not None:
        return "window"
    return block.kind.value


def block_part(block: Block) -> str:
    """A block's part of its file's fenced code: its marker line, then its lines."""
    return f"{block_marker(block)}\n{block.content}\n"


def file_head(path: str, language: str, fence: str) -> str:
    """What opens a file's blocks: a blank line, ``## path``, the opening fence."""
    return f"\n## {path}\n{fence}{language}\n"


def _grouped(blocks: tuple[Block, ...] | list[Block]) -> list[list[Block]]:
    """Blocks grouped by file, files in the order of their first block, each file's
    blocks in the order given (the text and ``Layout`` share this file order)."""
    files: dict[str, list[Block]] = {}
    for block in blocks:
        files.setdefault(block.path, []).append(block)
    return list(files.values())


def by_file(blocks: tuple[Block, ...] | list[Block]) -> list[list[Block]]:
    """Blocks grouped by file, files in the order of their first block (best first),
    each file's blocks in line order."""
    return [sorted(group, key=lambda b: (b.start_line, b.end_line)) for group in _grouped(blocks)]


def _commentless(block: Block) -> bool:
    """A block in a language without comments (JSON): its range marker cannot go inside
    the fence, so it is shown in a section of its own (``_sections``)."""
    return comment_syntax(block.language) is None


def _unwrapped(blocks: list[Block]) -> list[Block]:
    """One file's blocks in line order, each signature without the headers of containers
    above it that it lists members inside (``Block.wrappers``) when a block above it shows
    that header's line or a line below it, inside the container (a cut's shown lines, a
    signature's range: a container whose header is in a signature block's lines is
    listed in it), or a signature above repeats it already. (Trial 16: `public class
    DefaultParser implements CommandLineParser {` under a block of its header, then above
    each of two blocks of fields far below it; its re-check: `struct IgnoreInner {`
    below a block of its own fields, out of order.) A header it keeps starts its range:
    ``lines 114-147``, not ``lines 134-147`` over `struct IgnoreInner {` of line 115."""
    shown: list[tuple[int, int]] = []
    found: list[Block] = []
    for block in blocks:
        if block.kind is Fidelity.SIGNATURE and block.wrappers:
            content, start, ranges = block.content, block.start_line, block.signature_ranges
            for top, line, text in block.wrappers:
                if any(first < block.start_line and line <= last for first, last in shown):
                    if not any(first <= line <= last for first, last in shown):
                        _lead_with(found, top, line, text)
                        shown.append((line, line))
                    content = _without(content, text)
                    ranges = _outside(ranges, top, line)
                else:  # (its label's range holds the header it shows: re-check of trial 16)
                    shown.append((line, line))
                    start = min(start, top)
            if content != block.content or start != block.start_line:
                block = replace(block, content=content, start_line=start, signature_ranges=ranges)
        shown += block.shown or ((block.start_line, block.end_line),)
        found.append(block)
    return found


def _outside(ranges: tuple[tuple[int, int], ...], top: int, line: int
             ) -> tuple[tuple[int, int], ...]:
    """Line ranges without the lines ``top``-``line``."""
    kept: list[tuple[int, int]] = []
    for first, last in ranges:
        if first < top:
            kept.append((first, min(last, top - 1)))
        if last > line:
            kept.append((max(first, line + 1), last))
    return tuple(kept)


def _lead_with(found: list[Block], top: int, line: int, text: str) -> None:
    """Put the container header ``text`` (lines ``top``-``line``, a signature's
    ``Block.wrappers`` entry) above the first block of ``found`` that shows code inside
    that container, labelled from ``top``: a signature below it leaves the header out,
    and the code above it showed no header at all (review 34: ripgrep's `struct
    IgnoreInner {` was nowhere, above neither its fields nor the signature of the others).
    The marker of members left out below the header counts the lines between it and
    that block (none when it starts right below it)."""
    for n, block in enumerate(found):
        if block.start_line > line and block.kind is not Fidelity.SIGNATURE \
                and any(wrapper[:2] == (top, line) for wrapper in block.wrappers):
            rows = text.split("\n")[:-1]
            if rows and _marker(rows[-1]):
                marker = rows.pop()
                if block.start_line > line + 1:
                    rows.append(marker[:len(marker) - len(marker.lstrip())]
                                + elided(block.start_line - line - 1))
            head = "".join(row + "\n" for row in rows)
            found[n] = replace(block, content=head + block.content, start_line=top)
            return


# The placeholder of a body a signature leaves out (``treesitter.signature_of``).
_ELIDED = " { ... }"


def _opened(blocks: list[Block]) -> list[Block]:
    """One file's blocks in line order, each signature whose last definition goes on
    below it shown open (``Block.opens``: ``struct Match {``, not ``struct Match { ...
    }``) when the next block shows lines inside that definition, and the last of those
    blocks ending with a marker of the definition's lines left out below it
    (``⋮ 6 lines below omitted``) when none shows the definition's last line, or with its
    own such marker counting them all (a window's counted only to its member's end:
    review 35, "⋮ 34 lines below omitted" where 566 more lines of ky's `class Ky`
    followed). (Re-check of trial 16: `pub struct Match { ... }`, then a block of its
    fields and `}`; `export class Immer ... { ... }`, then one of its members. Trial 19:
    a bare `⋮` said neither how much was left out nor of what.)"""
    found = list(blocks)
    for n, block in enumerate(found):
        inside = [k for k in range(n + 1, len(found)) if found[k].start_line <= block.opens]
        if block.kind is not Fidelity.SIGNATURE or not inside \
                or not block.content.endswith(_ELIDED):
            continue
        found[n] = replace(block, content=block.content[:-len(_ELIDED)] + " {")
        last = found[inside[-1]]
        if last.end_line >= block.opens:
            continue
        lines = last.content.split("\n")
        rest = omitted(block.opens - last.end_line, "below")
        if not _marker(lines[-1]):
            lines.append(rest)
        elif lines[-1].endswith(" below omitted") and _below_count(lines[-1]) < \
                block.opens - last.end_line:
            lines[-1] = rest
        found[inside[-1]] = replace(last, content="\n".join(lines))
    return found


def _below_count(marker: str) -> int:
    """The lines a ``⋮ N lines below omitted`` marker counts (0 when it says none)."""
    words = marker.split()
    return int(words[1]) if len(words) > 1 and words[1].isdecimal() else 0


def _marked(blocks: list[Block]) -> list[Block]:
    """One file's blocks in line order, each window cut from inside a definition
    (``Block.part_of``) with a marker line for the lines of it left out above and below
    that no block next to it shows (``⋮ 12 lines above omitted``, as a cut's), one
    marker a gap: the block above marks it. A cut's own markers, which count only to the
    ends of the block it was cut from, give way to these (review 34: "⋮ 18 lines below
    omitted" where 51 were, and one gap counted by two markers). (Re-check of trial 16:
    windows of commons-cli's appendOptions and ripgrep's add_line began with a `}` and
    ended inside an `if`, unmarked.) A signature's marker of its class's lines below it
    (``source._skeleton_parts``) counts them to the next block too, and goes when that
    block starts right below it."""
    found = list(blocks)
    marked = 0  # the last line the marker below the block before counts
    for n, block in enumerate(found):
        if block.kind is Fidelity.SIGNATURE:
            found[n], marked = _marked_signature(block, found[n + 1] if n + 1 < len(found) else None)
            continue
        if block.part_of is None:
            marked = 0
            continue
        _, first, last = block.part_of
        lines = block.content.split("\n")
        if len(lines) > 1 and _marker(lines[0]) and lines[0].endswith(" above omitted"):
            lines.pop(0)
        if len(lines) > 1 and _marker(lines[-1]) and lines[-1].endswith(" below omitted"):
            lines.pop()
        top = max(first, found[n - 1].end_line + 1 if n else first)
        if top < block.start_line and marked < block.start_line - 1 and not _marker(lines[0]):
            lines.insert(0, omitted(block.start_line - top, "above"))
        # (up to the lines the next block marks above itself, a cut's: trial 18 counted
        # lines 120-128 in "⋮ 38 lines below omitted" and again in "⋮ 9 lines above")
        bottom = min(last, found[n + 1].start_line - 1 - _above_count(found[n + 1])
                     if n + 1 < len(found) else last)
        marked = bottom if bottom > block.end_line else 0
        if marked and not _marker(lines[-1]):
            lines.append(omitted(bottom - block.end_line, "below"))
        content = "\n".join(lines)
        if content != block.content:
            found[n] = replace(block, content=content)
    return found


def _marked_signature(block: Block, below: Block | None) -> tuple[Block, int]:
    """A signature ``block`` whose last line marks its class's lines below it (``⋮ 9 lines
    below omitted``) with the count up to the block ``below`` it (less the lines that
    block marks above itself), no marker when none are left; and the last line its
    marker counts (0: none)."""
    lines = block.content.split("\n")
    if not (len(lines) > 1 and _marker(lines[-1]) and lines[-1].endswith(" below omitted")):
        return block, 0
    bottom = block.end_line + _below_count(lines[-1])
    if below is not None:
        bottom = min(bottom, below.start_line - 1 - _above_count(below))
    lines[-1] = omitted(bottom - block.end_line, "below")
    if bottom <= block.end_line:
        lines.pop()
    content = "\n".join(lines)
    found = block if content == block.content else replace(block, content=content)
    return found, max(0, bottom if bottom > block.end_line else 0)


def _above_count(block: Block) -> int:
    """The lines a block's first line marks as left out above it (``⋮ 9 lines above
    omitted``, ``wording.omitted``) and keeps, else 0 (a window's own marks are written
    anew by ``_marked``)."""
    if block.part_of is not None and block.kind is not Fidelity.SIGNATURE:
        return 0
    first = block.content.partition("\n")[0]
    if not (_marker(first) and first.endswith(" above omitted")):
        return 0
    count = first.split()[1]
    return int(count) if count.isdecimal() else 0


def _marker(line: str) -> bool:
    """Whether ``line`` is a marker of lines left out (``⋮``, ``⋮ 12 lines``, ...)."""
    return line.lstrip().startswith("⋮")


def _without(content: str, text: str) -> str:
    """``content`` without ``text``, lines of it starting a line (unchanged when it holds
    none: a secret redacted in them)."""
    if content.startswith(text):
        return content[len(text):]
    at = content.find("\n" + text)
    return content if at < 0 else content[:at + 1] + content[at + 1 + len(text):]


def _as_text(blocks: list[Block]) -> list[Block]:
    """One file's blocks in line order as the text shows them: container headers shown
    once (``_unwrapped``), windows inside a definition marked where it goes on
    (``_marked``), elided bodies opened when a block below shows them (``_opened``)."""
    return _opened(_marked(_unwrapped(blocks)))


def _joined(blocks: list[Block]) -> list[Block]:
    """One file's blocks in line order (``_as_text``), each run of blocks whose lines
    touch (the next starts on the line below the last) shown as one block under one
    marker line, when neither is a signature (whose lines are headers, not the file's),
    a notebook's (whose marker names its cells) or marked at the seam (``⋮ N lines below
    omitted`` counts lines the next block shows), and they hold part of at most one
    definition between them that the run does not hold whole (its label names it). The
    text only: JSON keeps each block with its own reason. (Trial 19: `// lines 149-156`
    then `// lines 157-158` over the two `}` closing the class and namespace, and a
    `// lines 368-368` over a lone `}`.)"""
    found: list[Block] = []
    for block in blocks:
        last = found[-1] if found else None
        parts = [] if last is None else _parts_left(last, block)
        if last is None or len(parts) > 1 or last.end_line + 1 != block.start_line \
                or Fidelity.SIGNATURE in (last.kind, block.kind) or last.cells or block.cells \
                or _marker(last.content.rsplit("\n", 1)[-1]) \
                or _marker(block.content.partition("\n")[0]):
            found.append(block)
            continue
        shown = (*(last.shown or ((last.start_line, last.end_line),)),
                 *(block.shown or ((block.start_line, block.end_line),)))
        cut = Fidelity.TRUNCATED in (last.kind, block.kind)
        found[-1] = replace(last, end_line=block.end_line,
                            content=f"{last.content}\n{block.content}",
                            kind=Fidelity.TRUNCATED if cut else last.kind,
                            part_of=parts[0] if parts else None,
                            shown=_touching(shown) if cut else ())
    return found


def _parts_left(last: Block, block: Block) -> list[tuple[str, int, int]]:
    """The definitions two touching blocks shown as one hold only part of (``part_of``),
    those the two do not hold whole between them."""
    start, end = last.start_line, block.end_line
    return list(dict.fromkeys(p for p in (last.part_of, block.part_of)
                              if p is not None and not (start <= p[1] and p[2] <= end)))


def _touching(ranges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Line ranges in order with the ranges that touch made one."""
    merged: list[tuple[int, int]] = []
    for first, last in ranges:
        if merged and merged[-1][1] + 1 >= first:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return tuple(merged)


def _sections(blocks: tuple[Block, ...] | list[Block]) -> list[list[Block]]:
    """The fenced sections of the text: a file's blocks (``by_file``, ``_as_text``,
    ``_joined``), or
    each block of a file in a language without comments alone, in line order (its range
    cannot be a comment inside the fence)."""
    sections: list[list[Block]] = []
    for group in (_joined(_as_text(group)) for group in by_file(blocks)):
        if _commentless(group[0]):
            sections += [[block] for block in group]
        else:
            sections.append(group)
    return sections


def _section_head(blocks: list[Block], fence: str) -> str:
    """A section's ``## path`` line and opening fence, with a blank line before: the
    block's range on the path line when its language has no comments."""
    first = blocks[0]
    if _commentless(first):
        return file_head(f"{first.path} ({block_marker(first)})", first.language, fence)
    return file_head(first.path, first.language, fence)


def render_file(blocks: list[Block]) -> str:
    """One file's blocks as text: ``## path``, then one fence holding each block's
    marker line and lines, in line order (``block_part``). A file in a language without
    comments (JSON) has a ``## path (lines A-B)`` line and a fence for each block."""
    parts = []
    for section in _sections(blocks):
        fence = _fence("\n".join(b.content for b in section))
        if _commentless(section[0]):
            body = f"{section[0].content}\n"
        else:
            body = "".join(block_part(b) for b in section)
        parts.append(_section_head(section, fence) + body + f"{fence}\n")
    return "".join(parts)


def render_body(blocks: tuple[Block, ...] | list[Block]) -> str:
    """The blocks' text below the header: one ``render_file`` per file (``by_file``)."""
    return "".join(render_file(group) for group in by_file(blocks))


def render_block(block: Block) -> str:
    """One block alone as text: its file's rendering with only this block."""
    return render_file([block])


def top_symbols(result: Result) -> list[str]:
    """The first few symbols of the selected blocks, best block first."""
    symbols: list[str] = []
    for block in result.selection.blocks:
        for symbol in block.symbols:
            if symbol not in symbols:
                symbols.append(symbol)
                if len(symbols) == _TOP_SYMBOLS:
                    return symbols
    return symbols


def task_line(task: str) -> str:
    """The task on one line of at most ``TASK_CHARS`` characters: runs of white space as
    one space, escaped as ``files.text.display_text`` does (control characters and bytes
    that are not UTF-8 as ``\\xHH``, four characters each), then cut with ``…``, never
    inside an escape. So a task of binary junk gives a line as short as any other.

    Only as much of the task is read as the line needs (four times ``TASK_CHARS``
    characters, four times more while that is not enough): every header of a gather's
    plan states it, and a 12.9 MB log as the task took 80 CPU-s of 308 whole readings.
    """
    size = 4 * TASK_CHARS
    while True:  # a prefix's line is a prefix of the whole task's line
        line = display_text(" ".join(task[:size].split()))
        if len(line) > TASK_CHARS or size >= len(task):
            break
        size *= 4
    if len(line) <= TASK_CHARS:
        return line
    return _PARTIAL_ESCAPE.sub("", line[:TASK_CHARS - 1]).rstrip() + "…"


def render_header(result: Result, used: int) -> str:
    """The text header; ``used`` is the token count of the whole text it heads."""
    before, after = header_around_used(result)
    return f"{before}{used}{after}"


def header_around_used(result: Result) -> tuple[str, str]:
    """The text header before and after the ``used`` figure it states (``render_header``):
    a measure that tries several figures for one selection renders the rest once."""
    selection = result.selection
    files = len({b.path for b in selection.blocks})
    symbols = ", ".join(top_symbols(result)) or "-"
    calibrated = ("" if result.calibrated_for is None
                  else f" (calibrated for {result.calibrated_for})")
    note = f"# {result.task_note}\n" if result.task_note else ""
    truncated, signatures = shown_counts(selection)
    before = (f"# ctxopt context for: {task_line(result.task)}\n{note}"
              f"# budget {result.budget} tokens, used ")
    after = (f"{calibrated}; {counted(files, 'file')}; "
             f"{truncated} truncated, {len(selection.excluded)} excluded; "
             f"{counted(signatures, 'signature')}\n"
             f"# top symbols: {symbols}\n")
    return before, after


def shown_counts(selection: Selection) -> tuple[int, int]:
    """(blocks shown cut, blocks shown as signatures), as the header and the JSON summary
    count them. A signature is not counted as cut: trial 16 read "5 truncated ... 5
    signatures" where the fitter had reduced 5 blocks to signatures and cut none. The
    signatures the walker asked for count too (trial 10 read "0 truncated" above 13)."""
    kinds = [b.kind for b in selection.blocks]
    return kinds.count(Fidelity.TRUNCATED), kinds.count(Fidelity.SIGNATURE)


def text_and_used(result: Result, count: Callable[[str], int]) -> tuple[str, int]:
    """The text rendering and its token count; the header states ``result.used`` when
    set, else the count found by measuring the whole text until it states its own."""
    body = render_body(result.selection.blocks)
    used = result.used
    if used is None:
        before, after = header_around_used(result)
        used = _fixed_point(lambda stated: count(f"{before}{stated}{after}{body}"))
    text = render_header(result, used) + body
    return text, count(text)


def _used(result: Result, count: Callable[[str], int]) -> int:
    """``result.used``, measured when the result does not carry it."""
    return result.used if result.used is not None else text_and_used(result, count)[1]


def _fixed_point(tokens: Callable[[int], int]) -> int:
    """The ``used`` figure a header should state: ``tokens(used) == used``.

    ``tokens(stated)`` is the count of the text whose header states ``stated``; it never
    falls as ``stated`` grows (more digits never take fewer tokens), so iterating from 0
    rises to a fixed point. A counter that breaks this could oscillate: then the larger
    of the two figures is kept.
    """
    used, seen = 0, set()
    while True:
        measured = tokens(used)
        if measured == used or used in seen:
            return max(used, measured)
        seen.add(used)
        used = measured


class Layout:
    """Token costs of the parts of the text rendering, for the budget fitter.

    The text is the header (``render_header``) followed by each file's rendering
    (``render_file``: a blank line, a ``## path`` line, one fence holding each block's
    marker line and lines). cl100k_base splits text into pieces with a regular
    expression before merging bytes into tokens, and no piece holds a line break
    followed by a character that is not white space, so the text cut before each
    ``## ``, block marker (``# lines``, ``// lines``) and closing fence line counts as
    the sum of its parts: the
    header with the first file's leading blank line; each file's ``## path`` line and
    opening fence; each block's part (``block_part``); each file's closing fence, with
    the next file's leading blank line but for the last file. ``tokens`` adds those
    parts (``additive=True``, exact for ``Cl100kCounter``; ``tests/test_render.py``
    checks the sum against a count of the whole text); any other counter (a calibrated
    scale rounds each part up) is measured on the whole text.

    ``result`` gives the header's task, budget and calibration; its selection is ignored.
    """

    def __init__(self, result: Result, count: Callable[[str], int], *, additive: bool) -> None:
        self.result = result
        self.count = count
        self.additive = additive
        self._costs: dict[str, int] = {}
        # id(block) -> (block, its part's cost, the fence length its content needs): the
        # fitter measures the same blocks for every step of its plan; rendering and
        # hashing their text each time was most of it
        self._parts: dict[int, tuple[Block, int, int]] = {}
        self._whole: dict[int, tuple[Block, int]] = {}
        # ids of one file's blocks -> (those blocks, ``file_tokens``)
        self._files: dict[tuple[int, ...], tuple[tuple[Block, ...], int, int]] = {}

    def for_budget(self, budget: int) -> Layout:
        """This layout for a header that states ``budget`` (counts are shared)."""
        layout = Layout(replace(self.result, budget=budget), self.count, additive=self.additive)
        layout._costs = self._costs
        layout._parts, layout._whole, layout._files = self._parts, self._whole, self._files
        return layout

    def _counted(self, text: str) -> int:
        known = self._costs.get(text)
        if known is None:
            known = self._costs[text] = self.count(text)
        return known

    def block_cost(self, block: Block) -> int:
        """Tokens of ``render_block(block)``, the block alone in its file: what the fitter
        plans by. Mostly at least what the block adds to a text (a file already shown adds
        only its part), but a block under a signature shown open adds a ``⋮`` line; the
        text's own count (``fit_text``) keeps the budget."""
        known = self._whole.get(id(block))
        if known is not None and known[0] is block:
            return known[1]
        cost = self._counted(render_block(block))
        self._whole[id(block)] = (block, cost)
        return cost

    def header_tokens(self, selection: Selection, used: int) -> int:
        """Tokens of the header above ``selection`` when it states ``used``."""
        return self.count(render_header(replace(self.result, selection=selection), used))

    def _part(self, block: Block) -> tuple[int, int]:
        """(tokens of the block's part, backticks a fence around its content needs)."""
        known = self._parts.get(id(block))
        if known is not None and known[0] is block:
            return known[1], known[2]
        cost, fence = self._counted(block_part(block)), len(_fence(block.content))
        self._parts[id(block)] = (block, cost, fence)
        return cost, fence

    def body_tokens(self, blocks: tuple[Block, ...] | list[Block]) -> int:
        """Tokens of the blocks' part of the text (``render_body``, less the first
        file's leading blank line, which counts with the header): the parts' sum. (A
        section of a language without comments is its path line, fence and content,
        counted as one part: content may start with white space.) Each file's sum is
        kept by its blocks (``file_tokens``): the fitter's plan measures its states one
        step apart, so most files are the same as in the state before."""
        groups = _grouped(blocks)
        if not groups:
            return 0
        total = 0
        for group in groups:
            total += self.file_tokens(group)[0]
        return total + self.file_tokens(groups[-1])[1]

    def file_tokens(self, group: list[Block]) -> tuple[int, int]:
        """(tokens of one file's sections, each closed by its fence and the next file's
        blank line; what the last file's last closing takes off, less or more, when no
        file follows it): ``group`` is the file's blocks in any order (``_grouped``)."""
        key = tuple(map(id, group))
        known = self._files.get(key)
        if known is not None:  # (the entry keeps its blocks, so their ids are theirs)
            return known[1], known[2]
        total, closing = 0, ""
        for section in _sections(group):
            parts = [self._part(b) for b in section]
            fence = "`" * max(fence for _, fence in parts)
            head = _section_head(section, fence)[1:]
            if _commentless(section[0]):
                total += self._counted(f"{head}{section[0].content}\n")
            else:
                total += sum(cost for cost, _ in parts) + self._counted(head)
            closing = fence
            total += self._counted(closing + "\n\n")
        last = self._counted(closing + "\n") - self._counted(closing + "\n\n")
        self._files[key] = (tuple(group), total, last)
        return total, last

    def text_tokens(self, selection: Selection, body: int) -> int:
        """The count of the text whose blocks' parts (``body_tokens``) add up to ``body``
        tokens: the header, which states that count, plus ``body``."""
        before, after = header_around_used(replace(self.result, selection=selection, used=None))
        after += "\n" if selection.blocks else ""
        return _fixed_point(lambda stated: self._counted(f"{before}{stated}{after}") + body)

    def bound(self, selection: Selection) -> int:
        """The sum of the parts of the text: ``tokens`` for cl100k (``additive``), at least
        it for a counter that counts a text at most as the sum of its parts (a calibrated
        scale rounds each part up; an estimate rounds each up)."""
        return self.text_tokens(selection, self.body_tokens(selection.blocks))

    def tokens(self, selection: Selection) -> int:
        """The token count of the text rendering of ``selection``; its header states it."""
        if self.additive:
            return self.bound(selection)
        result = replace(self.result, selection=selection, used=None)
        return text_and_used(result, self.count)[1]


def render_text(result: Result, count: Callable[[str], int]) -> str:
    """The text rendering: header, then each file's blocks in one fence with its language
    (``render_file``). The header states ``result.used`` (measured with ``count`` when
    None)."""
    body = render_body(result.selection.blocks)
    return render_header(result, _used(result, count)) + body


def _line_map(block: Block) -> list[list[int]] | None:
    """The file line ranges the block's content shows, ``[[first, last], ...]`` (1-indexed,
    inclusive; several for a cut with ``⋮ N lines`` gaps); for a signature, the lines its
    lines show (``Block.signature_ranges``: a body's placeholder shows none), None when
    one is not where the index said (the file changed since it was indexed)."""
    if block.kind is Fidelity.SIGNATURE:
        return [list(r) for r in block.signature_ranges] or None
    return [list(r) for r in block.shown or ((block.start_line, block.end_line),)]


def _dropped(d: Dropped) -> dict[str, object]:
    return {"file": d.path, "start_line": d.start_line, "end_line": d.end_line,
            "tokens": d.tokens, "score": d.score, "action": d.action, "reason": d.reason}


def _upcoming(upcoming: Upcoming, budget: int) -> dict[str, object]:
    """One entry of ``next``: a block the budget does not show whole, the budget that
    shows more of it and the tokens that adds to ``budget``."""
    block = upcoming.block
    return {"file": block.path, "start_line": block.start_line, "end_line": block.end_line,
            "symbols": list(block.symbols), "score": block.score, "ring": block.ring,
            "reason": block.reason,
            "shown": "excluded" if upcoming.shown is None else upcoming.shown.value,
            "adds": upcoming.adds.value, "budget": upcoming.budget,
            "tokens": upcoming.budget - budget, "full_budget": upcoming.full_budget}


def provenance(result: Result) -> dict[str, object]:
    """Where a JSON document comes from: ``root``, ``ctxopt_version`` and ``commit``
    (``{"id", "dirty"}``, None outside git or for a result built by hand)."""
    origin = result.origin
    commit = None if origin is None or origin.commit is None else {
        "id": origin.commit, "dirty": origin.dirty}
    return {"root": None if origin is None else origin.root, "ctxopt_version": __version__,
            "commit": commit}


def _origin(result: Result) -> dict[str, object]:
    """The contract's provenance fields: root, version, commit, index figures."""
    origin = result.origin  # None: a Result built by hand, not by ``pipeline.gather``
    return {**provenance(result), "index": None if origin is None else {
        "files": origin.files, "parsed": origin.parsed, "diagnosed": origin.diagnosed}}


def render_json(result: Result, count: Callable[[str], int]) -> str:
    """The JSON document (``ctxopt/schema/gather.schema.json``); ``used`` counts the text
    rendering."""
    used = _used(result, count)
    selection = result.selection
    truncated, signatures = shown_counts(selection)
    shown = _as_shown(selection.blocks, count)
    document: dict[str, object] = {
        "schema_version": SCHEMA_VERSION,
        **_origin(result),
        "calibrated_for": result.calibrated_for,
        "task": result.task,
        "task_note": result.task_note,
        "intent": result.intent.value,
        "budget": result.budget,
        "used": used,
        "text": render_text(replace(result, used=used), count),
        "summary": {
            "file_count": len({b.path for b in selection.blocks}),
            "symbol_count": len({s for b in selection.blocks for s in b.symbols}),
            "symbols": top_symbols(result),
            "truncated": truncated,
            "signatures": signatures,
            "excluded": len(selection.excluded),
        },
        "blocks": [{
            "file": b.path, "start_line": b.start_line, "end_line": b.end_line,
            "language": b.language, "content": b.content, "tokens": b.tokens,
            "score": b.score, "ring": b.ring, "reason": b.reason, "symbols": list(b.symbols),
            "kind": shown_kind(b),
            "lines": _line_map(b),
            "part_of": None if b.part_of is None or b.kind is Fidelity.SIGNATURE else {
                "symbol": b.part_of[0], "start_line": b.part_of[1], "end_line": b.part_of[2]},
        } for b in (shown[block] for block in selection.blocks)],
        "truncated": [_dropped(d) for d in selection.truncated],
        "excluded": [_dropped(d) for d in selection.excluded],
        "diagnostics": [{"file": d.path, "reason": d.reason, "detail": d.detail}
                        for d in result.diagnostics],
        "next": [_upcoming(u, result.budget) for u in result.upcoming],
    }
    if result.explained is not None:
        from .explain import explain_json

        document["explain"] = explain_json(result.explained)
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _as_shown(blocks: tuple[Block, ...], count: Callable[[str], int]) -> dict[Block, Block]:
    """Each block as the text shows it (``_as_text``), its tokens counted again when its
    content is not its own. A blank line at a block's end stays in its content and its
    lines, as the text shows it: the content split at newlines is exactly the file lines
    its ``lines`` name."""
    shown = {}
    for group in by_file(blocks):
        for block, as_shown in zip(group, _as_text(group)):
            shown[block] = as_shown if as_shown is block else replace(
                as_shown, tokens=count(as_shown.content))
    return shown


def render_manifest(result: Result, count: Callable[[str], int]) -> str:
    """The manifest: a tab-separated table of the blocks keyed by file and symbol with a
    content hash (format in ``snapshot``), for CI snapshots and ``ctxopt diff``."""
    from .snapshot import manifest_table

    return manifest_table(result, _used(result, count))


RENDERERS: dict[str, Callable[[Result, Callable[[str], int]], str]] = {
    "text": render_text,
    "json": render_json,
    "manifest": render_manifest,
}
