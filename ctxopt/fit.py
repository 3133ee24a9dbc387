"""Stage 5 (pure): blocks + token budget -> ``Selection``, monotone in the budget.

The fitter first builds a *plan* from the blocks alone: the order in which a growing
budget shows blocks and shows more of them. A budget shows the longest prefix of the plan
that fits and, when the next step lengthens a ring-0 block or shows a block whole (for the
first time, or after its signature), as many more of its lines as fit (a new block: at
least ``PARTIAL_LINES``; a signature's block: more lines than the signature has), so that
the budget left before a large step is not wasted. (No monotone fitter can spend it on
later steps instead: the budget that just holds the next step would drop them.) So a
larger budget never shows less: a block shown whole stays whole, a truncated block keeps
its lines, a signature stays, is cut to more lines (naming every definition it named) or
becomes whole, and ``Result.upcoming`` can say which budget adds what. (The fitter before
issue 17 chose per budget and was not monotone: two ring-3 blocks of 197 and 89 tokens,
budget 150 showed the second whole, budget 250 the first and dropped the second.)

The plan follows the tiers (``model.Tier``):

- ``Tier.TRUNCATE`` (ring-0 definitions, score >= 100): a block grows through a ladder of
  truncations (about ``SHARE_FLOOR``, 256 and ``CAP_FLOOR`` tokens, then 1.25 times the
  rung before, then whole), read from where its best item starts, with a marker line for
  each side where lines were dropped; a block with salient lines (``Block.salient``) is
  cut around them instead (its header, then each salient line with its statement and
  the scope headers above it, gaps marked: ``elide``); the block whose next rung costs least for its
  weight goes first (``_share_weight``: its score's place in the ring-0 band), so ring-0
  blocks share a budget in proportion to their weights, the shares rising with the budget;
  a whole file's block (``Block.cover``, ``source._whole_file``) grows so only until it
  shows its ring-0 blocks (``_cover_form``); then each of its ring 1-2 blocks is an
  upgrade of ``Tier.SIGNATURE`` at that block's own score (``Block.near_covers``), and
  the rest of the file one step more, an upgrade ranked by its score times the share of
  the file's tokens the form before holds (its relevance per token; grown as ring 0, a
  whole file pushed other files' signatures out), capped as ring 0 is (half of the
  budget) (``_later_steps``);
- ``Tier.SIGNATURE`` (rings 1-2, score >= 60): first its signature (the tree-sitter header
  of each definition, body replaced by a placeholder) when that is cheaper, in rank order;
  then whole, in rank order (equal scores cheaper first): cheaper first spent the budget
  on the many weak callers and left the containing class of the named method a signature.
  A block with no shorter signature (members merged into one large block) grows through
  the ring-0 ladder of cuts instead of showing whole or not at all; a block with no
  signature at all (a window inside a long definition) has no first step of its own: it
  is ranked with the upgrades;
- ``Tier.WHOLE`` (rings 3-4): whole, in rank order;
- ``Tier.FILL`` (the rest of a file other blocks show part of, ``source.read_blocks``;
  and the step to whole of a block the walker asked to show as its signature,
  ``Block.whole``, which ranks first by its score; a test's, ``Block.whole_last``, after
  every other fill step unless small beside it): whole, in rank order, only once every
  other block is whole, so a budget that the candidates leave unused shows more of the
  files they are in, and a smaller budget shows what it did without them. A rest not shown is not counted as
  excluded.

Each step takes, in this order of precedence, the next ring-0 rung, the next signature,
the next upgrade to whole, the next tier-WHOLE block; the next tier-FILL step only when no
other is left. While others wait, a step that makes a block cost more than ``CAP_FLOOR``
tokens waits until the plan's total is ``_CAP_PARTS`` times that cost: no ring-0 block
takes more than half of the budget, no other block more than a third (at least ``CAP_FLOOR``), while others wait. Others are: for a ring-0 block,
ring 1-2 blocks (the only ring-0 block is never capped); for a ring 1-2 block, the other
ring 0-2 blocks; for a tier-WHOLE block, the other tier-WHOLE blocks. A queue offers its
best block that need not wait; when every candidate waits, the one due first goes. A
tier-WHOLE block of at most ``SHARE_FLOOR`` tokens goes before an upgrade to whole or a
tier-WHOLE block ``_SMALL_RATIO`` (8) times its size or more, and a tier-FILL step of at
most ``SHARE_FLOOR`` tokens before a fill step 8 times its size (a test's lines whole before
the rest of a large file): small blocks are not held up behind a large one (what a greedy
fitter's skipping gave, kept monotone).

Costs are what the renderer prints for a block (``cost``); ``fit_text`` measures the whole
text, header included, with the parts the renderer exposes (``render.Layout``), and owns
the guarantee that the text is never over the budget. Every truncation, reduction and
exclusion is recorded with its reason and the budget that would show more.
"""
from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from .elide import cut_lines, reveal_chunks, shown_runs
from .errors import BudgetTooSmallForContent
from .model import (RING_BANDS, WHOLE_FILE, Block, Dropped, Fidelity, Selection, Tier, Upcoming,
                    label_members)
from .parsing.languages import comment_opener
from .wording import omitted

__all__ = [
    "CAP_FLOOR",
    "PARTIAL_LINES",
    "QUIET_ABOVE",
    "SHARE_FLOOR",
    "Plan",
    "PlanStep",
    "TextFit",
    "TextLayout",
    "TextPlan",
    "UPCOMING",
    "fit_budget",
    "fit_text",
    "plan_steps",
    "truncate_block",
]

# While others wait, one block takes at most 1 / _CAP_PARTS of the budget, but never less
# than this: 512 tokens hold a 40-line function, below that a cap cuts into single
# definitions.
CAP_FLOOR = 512
# A ring-0 block may take half the budget while rings 1-2 wait (a third cut the best-named
# definition short at 2,000 tokens: Live line recall 0.212 -> 0.228, dev 0.341 -> 0.352);
# other blocks a third. (``Tier.FILL`` never waits, nothing is planned after it: its entry
# only completes the table.)
_CAP_PARTS = {Tier.TRUNCATE: 2, Tier.SIGNATURE: 3, Tier.WHOLE: 3, Tier.FILL: 1}
# The first rung of a ring-0 block: its header line, fences and marker take about 25
# tokens, this leaves 10-15 lines. Fewer show only at budgets too small for this.
SHARE_FLOOR = 128
# A tier-WHOLE block of at most SHARE_FLOOR tokens goes before a step this many times its size.
_SMALL_RATIO = 8
_RUNG_GROWTH = 1.25  # rungs above CAP_FLOOR: each a quarter above the one before
# A cut that drops at most this many lines above the kept ones (the source reader's
# context lines above a definition, ``source.CONTEXT_LINES``) has no marker for them: "⋮ 2
# lines above omitted" cost 9 tokens to say nothing.
QUIET_ABOVE = 2
# A ring-0 block's share weight starts at this fraction of the ring-0 band (5 of 50 score
# points), so the weakest block still grows: the best-named (150) grows 11 times as far.
_SHARE_BASE = 0.1
# A budget short of showing the plan's next block whole shows this many of its lines or
# more when they fit (a ring-0 block: its next rung, from one line).
PARTIAL_LINES = 10
# A ring 1-2 block without a shorter signature (a merged class that would show whole or
# not at all) grows through cuts (``_ladder``) when it costs more than this many tokens
# whole (a class's header of 15 lines is shown whole or not at all). One with a shorter
# signature does not: cuts after one-line signatures cost Live cfn-lint line recall at
# 8,000 tokens (0.446 -> 0.426), after any signature Live file recall (0.766 -> 0.709).
CUT_UNSIGNED_ABOVE = CAP_FLOOR
# A cut's marker line ("    ⋮ 12 lines") costs about this many tokens (for rung sizes).
_MARKER_TOKENS = 5


def truncate_block(block: Block, keep: int, count: Callable[[str], int]) -> Block:
    """``keep`` lines from the block's focus line (where its best item starts), or fewer
    lines above it when the block ends first, with a marker line for each side where
    lines were dropped: ``⋮ N lines above omitted`` first (not for the source reader's
    context lines above a definition, ``QUIET_ABOVE`` lines or fewer: the block's
    ``# lines`` line says where it starts), ``⋮ N lines below omitted`` last, each
    counting only the lines of the definitions the kept lines are in (``_left_out``).
    ``start_line``/``end_line`` are the file lines shown; every other line of the
    content is a marker. A block the source reader already cut (its content ends with a
    ``⋮ N more lines of NAME`` marker after its last file line) keeps that marker when
    its last line is kept. More ``keep`` never shows fewer of the file's lines.

    A whole block with ``salient`` lines, or whose focus line opens the comments above
    its header or lies under a scope header above it, or whose cut reaches above its focus line into another of its
    definitions, is cut by ``elide`` instead: its header, then its salient lines with
    their statements and scope headers, then the rest, whole statements at a time, the
    comments after, then the other definition from its header down (``_cut_block``;
    trial 12: hiredis's processLineItem showed as its last 83 lines, no header)."""
    lines, tail = _file_lines(block)
    keep = max(1, min(keep, len(lines)))
    first = _first_kept(block, keep, len(lines))
    if block.kind is Fidelity.FULL and (block.salient or _led_apart(block) or (
            first < block.focus_line - block.start_line and _above(block))):
        return _named(block, _cut_block(block, keep, count))
    above, below = _left_out(block, block.start_line + first, block.start_line + first + keep - 1)
    shown = lines[first:first + keep]
    if first > QUIET_ABOVE and above:
        shown.insert(0, omitted(above, "above"))
    if first + keep < len(lines):
        if below:
            shown.append(omitted(below, "below"))
    else:
        shown += tail
    content = "\n".join(shown)
    return _named(block, replace(
        block, content=content, tokens=count(content), kind=Fidelity.TRUNCATED,
        start_line=block.start_line + first, end_line=block.start_line + first + keep - 1,
        focus_line=block.start_line + first))


def _named(block: Block, form: Block) -> Block:
    """``form``, a cut of ``block``, naming only the members whose lines it shows (its
    symbols, reason and ``part_of``): trial 9's manifest keyed a cut by a method whose
    lines it left out, and ``ctxopt diff`` reported that method changed."""
    if form is block or not block.members:
        return form
    runs = form.shown or ((form.start_line, form.end_line),)

    def shows(first: int, last: int) -> bool:
        return any(a <= last and first <= b for a, b in runs)

    held = tuple(m for m in block.members if shows(m.start_line, m.end_line))
    if len(held) == len(block.members) and (form.part_of is None or shows(*form.part_of[1:])):
        return form
    symbols, reason = label_members(held)
    if reason and block.reason.endswith(WHOLE_FILE):
        reason += WHOLE_FILE
    part_of = form.part_of
    if part_of is not None and (part_of[0] not in symbols or not shows(*part_of[1:])):
        part_of = None
    return replace(form, symbols=symbols, reason=reason or block.reason, part_of=part_of,
                   members=held)


@lru_cache(maxsize=64)
def _chunks(content: str, focus: int, salient: tuple[int, ...],
            language: str, members: tuple[int, ...], in_body: bool, above: tuple[int, ...]
            ) -> tuple[tuple[int, ...], ...]:
    """``elide.reveal_chunks`` of a block's content (cached: the ladder cuts one block
    many times)."""
    return tuple(tuple(c) for c in reveal_chunks(content.split("\n"), focus, salient,
                                                 comment_opener(language), members, in_body,
                                                 above))


def _block_chunks(block: Block) -> tuple[tuple[int, ...], ...]:
    """The reveal order of a whole block (``elide.reveal_chunks``: its header, its salient
    lines, the rest), as chunks of line indices; the lines the task points at above its
    focus are salient too."""
    start = block.start_line
    return _chunks(block.content, max(0, block.focus_line - start),
                   tuple(line - start for line in block.salient), block.language,
                   tuple(sorted({m.start_line - start for m in block.members
                                 if start <= m.start_line <= block.end_line
                                 and m.start_line != block.focus_line})),
                   block.opens_in_body,
                   tuple(line - start for line in block.pointed_lines if line < block.focus_line))


def _above(block: Block) -> bool:
    """Whether one of the block's members (other definitions merged into it) starts
    above its focus line."""
    return any(block.start_line <= m.start_line < block.focus_line for m in block.members)


def _led_apart(block: Block) -> bool:
    """Whether the first lines a cut of the block reveals (``elide.reveal_chunks``) are
    not its focus line: the focus opens comments or blank lines above its header (trial
    9: at 100 tokens cobra's Command.Execute was three lines of its doc comment and no
    ``func`` line), or lies inside a scope whose header is above it (re-check of trial
    16: ``Map,`` under ``export const enum ArchType {``, not shown). A cut then shows that
    header first, as a cut with salient lines does."""
    return _block_chunks(block)[0][0] != max(0, block.focus_line - block.start_line)


def _cut_block(block: Block, keep: int, count: Callable[[str], int]) -> Block:
    """The first chunks of the block's reveal order, then the first lines of the next one,
    to at most ``keep`` lines (at least the first chunk whole); gaps marked, ``⋮ N lines
    above omitted`` and ``⋮ N lines below omitted`` as ``truncate_block`` marks them."""
    lines = block.content.split("\n")
    kept: set[int] = set()
    for chunk in _block_chunks(block):
        if kept and len(kept) + len(chunk) > keep:
            # a statement longer than the room left shows its first lines: the room is
            # used, and a larger ``keep`` shows more
            kept.update(_first_of(chunk, keep - len(kept)))
            break
        kept.update(chunk)
    if len(kept) >= len(lines) - 1:  # a marker costs as much as the line it stands for
        return block
    if max(kept) == len(lines) - 2:
        kept.add(len(lines) - 1)
    shown, first, last = cut_lines(lines, kept)
    above, below = _left_out(block, block.start_line + first, block.start_line + last)
    # (only the context lines above the focus go unmarked: not a doc comment below it)
    if first > min(QUIET_ABOVE, max(0, block.focus_line - block.start_line)) and above:
        shown.insert(0, omitted(above, "above"))
    if below:
        shown.append(omitted(below, "below"))
    content = "\n".join(shown)
    return replace(block, content=content, tokens=count(content), kind=Fidelity.TRUNCATED,
                   start_line=block.start_line + first, end_line=block.start_line + last,
                   kept=len(kept), shown=tuple((block.start_line + a, block.start_line + b)
                                               for a, b in shown_runs(kept)))


def _left_out(block: Block, first: int, last: int) -> tuple[int, int]:
    """(above, below): how many of ``block``'s lines a cut showing file lines ``first`` to
    ``last`` marks as left out above and below them, those of the definitions the shown
    ones are in: from the first line of the outermost member (``Block.members``) holding
    ``first`` (none: from below the last member ending above it), to the last line of the
    outermost one holding ``last`` (none: to above the first member starting below it),
    within the block. A member wholly above or below what is shown, another definition
    merged into the block, is no part of what the cut leaves out of the definition it
    shows, as the lines between two blocks are not (trial 20: `⋮ 91 lines above omitted`
    over `pub fn get_platform_arch` counted `impl Target {` and all of
    `from_target_triple`, merged into its block, as if its own)."""
    top, bottom = block.start_line, block.end_line
    holding = [m.start_line for m in block.members if m.start_line <= first <= m.end_line]
    above = [m.end_line for m in block.members if m.end_line < first]
    if holding:
        top = max(top, min(holding))
    elif above:
        top = max(top, max(above) + 1)
    holding = [m.end_line for m in block.members if m.start_line <= last <= m.end_line]
    below = [m.start_line for m in block.members if m.start_line > last]
    if holding:
        bottom = min(bottom, max(holding))
    elif below:
        bottom = min(bottom, min(below) - 1)
    return max(0, first - top), max(0, bottom - last)


def _first_of(chunk: tuple[int, ...], room: int) -> list[int]:
    """The ``room`` lines of ``chunk`` (indices, ascending) a cut shows when the whole
    chunk does not fit: its last run of adjacent lines first (a line that matters, below
    the headers of the scopes it sits in: trial 20's cut showed a Java method's `for`
    over `⋮ 5 lines` and not the line under it that a frame pointed at), then the other
    lines nearest it first; a chunk of one run (a long statement) from its top."""
    start = len(chunk) - 1
    while start and chunk[start - 1] == chunk[start] - 1:
        start -= 1
    return [*chunk[start:start + room], *reversed(chunk[:start])][:room]


def _first_kept(block: Block, keep: int, total: int) -> int:
    """Index of the first of ``keep`` kept lines among the block's ``total`` file lines."""
    return max(0, min(block.focus_line - block.start_line, total - keep))


def _file_lines(block: Block) -> tuple[list[str], list[str]]:
    """The block's content as (file lines, marker lines after them)."""
    lines = block.content.split("\n")
    if block.kind is Fidelity.TRUNCATED:
        shown = block.end_line - block.start_line + 1
        return lines[:shown], lines[shown:]
    return lines, []


def _signature_block(block: Block, count: Callable[[str], int]) -> Block | None:
    if not block.signature:
        return None
    return replace(block, content=block.signature, tokens=count(block.signature),
                   kind=Fidelity.SIGNATURE)


def _rungs(full: int) -> list[int]:
    """Token sizes a ring-0 block costing ``full`` is truncated to on its way to whole."""
    rungs = [SHARE_FLOOR, 2 * SHARE_FLOOR, CAP_FLOOR]
    while rungs[-1] * _RUNG_GROWTH < full:
        rungs.append(int(rungs[-1] * _RUNG_GROWTH))
    return [r for r in rungs if r < full]


def _ladder(block: Block, cost: Callable[[Block], int],
            count: Callable[[str], int]) -> list[Block]:
    """The forms a ring-0 block grows through: truncations near each rung, then whole.

    A rung's line count is found on per-line counts (a block's text costs about the sum
    of its lines); the form's exact cost is measured once, and only exact costs bound
    the output."""
    lines = _file_lines(block)[0]
    full = cost(block)
    if len(lines) <= 1:
        return [block]
    sizes = [count(line) + 1 for line in lines]
    one = truncate_block(block, 1, count)
    if one.kept:  # a cut: lines in reveal order, a marker per chunk at most
        prefix = [0]
        for chunk in _block_chunks(block):
            for n, i in enumerate(chunk):
                prefix.append(prefix[-1] + sizes[i] + (_MARKER_TOKENS if n == 0 else 0))
        base = cost(one) - prefix[len(_block_chunks(block)[0])]

        def approximate(keep: int) -> int:
            return base + prefix[keep]
    else:
        base = cost(one) - sizes[_first_kept(block, 1, len(lines))]

        def approximate(keep: int) -> int:
            first = _first_kept(block, keep, len(lines))
            return base + sum(sizes[first:first + keep])

    forms: list[Block] = []
    kept = 0
    for rung in _rungs(full):
        low, high = kept + 1, len(lines) - 1
        while low <= high:  # the most lines whose approximate cost is within the rung
            middle = (low + high) // 2
            if approximate(middle) <= rung:
                kept, low = middle, middle + 1
            else:
                high = middle - 1
        kept = max(kept, 1)
        form = truncate_block(block, kept, count)
        if form is not block and _kept(form) > (_kept(forms[-1]) if forms else 0) \
                and cost(form) < full:
            forms.append(form)
    return [*forms, block]


def _cover_form(block: Block, count: Callable[[str], int],
                cover: int | None = None) -> Block | None:
    """The cut of a whole file's block (``Block.cover`` > 0) that shows its first
    ``cover`` salient lines (default ``Block.cover``, its ring-0 blocks' lines) from its
    focus line on, or None when that is all of it or the block is no whole file's. (The
    lines above the focus, the context lines above the first definition, come last in a
    cut: waiting for them took in the whole file.)"""
    if not block.cover or block.kind is not Fidelity.FULL or not block.salient:
        return None
    wanted = {line - block.start_line
              for line in block.salient[:block.cover if cover is None else cover]
              if line >= block.focus_line}
    shown: set[int] = set()
    for chunk in _block_chunks(block):
        if not wanted:
            break
        shown.update(chunk)
        wanted.difference_update(chunk)
    form = truncate_block(block, len(shown), count)
    return None if form is block else form


def _whole_form(block: Block, count: Callable[[str], int]) -> Block:
    """A block the walker asked to show as its signature, whole (``Block.whole``)."""
    return replace(block, content=block.whole, tokens=count(block.whole), kind=Fidelity.FULL,
                   whole="")


def _as_chosen(block: Block, form: Block | None) -> bool:
    """Whether ``form`` shows ``block`` as the walker chose it, or more: the block
    itself, or a signature the walker asked for shown whole (``Block.whole``)."""
    return form is block or (bool(block.whole) and form is not None
                             and form.kind is Fidelity.FULL)


def _later_steps(block: Block, cover: Block, cost: Callable[[Block], int],
                 count: Callable[[str], int]) -> list[tuple[Block, float]]:
    """The steps of a whole file's block after its ring-0 cut ``cover``, each (form,
    score it is ranked by among the upgrades): the cut that shows each of its ring 1-2
    blocks too (``Block.near_covers``), at that block's score, then the whole file, at
    its score times the share of its tokens the form before shows (relevance per token).
    A cut that shows no more than the one before is left out."""
    steps: list[tuple[Block, float]] = []
    for lines, score in block.near_covers:
        form = _cover_form(block, count, lines) or block
        if _kept(form) > _kept(steps[-1][0] if steps else cover):
            steps.append((form, score))
        if form is block:
            return steps
    last = steps[-1][0] if steps else cover
    return [*steps, (block, block.score * cost(last) / cost(block))]


def _is_rest(block: Block) -> bool:
    """Whether ``block`` is the rest of a file (``Tier.FILL``, ``source._rest_of_file``),
    which is never counted as excluded."""
    return Tier.of(block.score) is Tier.FILL


def _lines_of(form: Block | None) -> tuple | None:
    """What a form shows of its block's lines (None: nothing)."""
    return None if form is None else (form.kind, form.start_line, form.end_line, form.shown)


def _kept(form: Block) -> int:
    """File lines a fitter's truncation shows."""
    return form.kept or form.end_line - form.start_line + 1


@dataclass(frozen=True, slots=True)
class PlanStep:
    """One step of the fitter's plan: show block ``index`` (in rank order) as ``form``."""

    index: int
    form: Block


class _Planner:
    """Builds the plan: one step at a time, the first candidate that need not wait."""

    def __init__(self, ranked: list[Block], cost: Callable[[Block], int],
                 count: Callable[[str], int]) -> None:
        self.cost = cost
        self.ranked = ranked
        self.tiers = [Tier.of(b.score) for b in ranked]
        self.pending: dict[int, list[Block]] = {}
        # a whole file's block (``Block.cover``) -> the scores its last steps, its ring
        # 1-2 blocks and the rest of the file, are ranked by among the upgrades (``_tier``)
        self.rest: dict[int, list[float]] = {}
        # a block the walker asked to show as its signature (``Block.whole``): its step to
        # whole is planned in ``Tier.FILL``
        self.late: set[int] = set()
        for i, block in enumerate(ranked):
            signature = _signature_block(block, count)
            if self.tiers[i] is Tier.TRUNCATE:
                self.pending[i] = _ladder(block, cost, count)
                cover = _cover_form(block, count)
                if cover is not None:  # a whole file: its blocks as ring 0, the rest later
                    later = _later_steps(block, cover, cost, count)
                    self.pending[i] = [*(form for form in self.pending[i][:-1]
                                         if _kept(form) < _kept(cover)), cover,
                                       *(form for form, _ in later)]
                    self.rest[i] = [score for _, score in later]
            elif self.tiers[i] is Tier.SIGNATURE:
                short = (signature is not None and cost(signature) < cost(block))
                floor = cost(signature) if short and signature is not None else 0
                self.pending[i] = [*([signature] if short and signature else []), block]
                if self._cuts(block, short):
                    self.pending[i][-1:] = [form for form in _ladder(block, cost, count)
                                            if cost(form) > floor]
            else:
                self.pending[i] = [block]
            if block.whole and block.kind is Fidelity.SIGNATURE:  # its lines whole, as fill
                self.pending[i] = [block, _whole_form(block, count)]
                self.late.add(i)
        self.ring0 = self.tiers.count(Tier.TRUNCATE)
        self.shown = [0] * len(ranked)  # cost of each block's form so far
        self.total = 0
        self.opened = False  # whether a ring-0 block is shown yet (``_candidates``)

    def _tier(self, i: int) -> Tier:
        """The tier block ``i``'s next step is planned in: a whole file's later steps (its
        ring 1-2 blocks, the rest of the file), once its ring-0 blocks are shown, are
        upgrades of ``Tier.SIGNATURE``; a block the walker asked for as a signature
        becomes whole in ``Tier.FILL``."""
        if i in self.rest and len(self.pending[i]) <= len(self.rest[i]):
            return Tier.SIGNATURE
        if i in self.late and self.shown[i]:
            return Tier.FILL
        return self.tiers[i]

    def _score(self, i: int) -> float:
        """The score block ``i``'s next step is ranked by (``rest`` for a file's later
        steps)."""
        if i in self.rest and self._tier(i) is not self.tiers[i]:
            return self.rest[i][len(self.rest[i]) - len(self.pending[i])]
        return self.ranked[i].score

    def _cuts(self, block: Block, short: bool) -> bool:
        """Whether a ring 1-2 block grows through cuts: a large one (more than
        ``CUT_UNSIGNED_ABOVE`` tokens whole: a smaller one never waits) without a shorter
        signature (``short``: it has one)."""
        return (not short and block.kind is Fidelity.FULL
                and self.cost(block) > CUT_UNSIGNED_ABOVE)

    def steps(self) -> list[PlanStep]:
        """The whole plan: every form of every block, in the order a growing budget
        shows them (``_choose`` picks each step; see the module docstring)."""
        steps = []
        while self.pending:
            i = self._choose()
            form = self.pending[i].pop(0)
            if not self.pending[i]:
                del self.pending[i]
            cost = self.cost(form)
            self.total += cost - self.shown[i]
            self.shown[i] = cost
            self.opened = self.opened or self.tiers[i] is Tier.TRUNCATE
            steps.append(PlanStep(i, form))
        return steps

    def _choose(self) -> int:
        candidates = self._candidates()
        chosen = next((i for i in candidates if not self._waits(i)), None)
        if chosen is None:
            chosen = min(candidates, key=lambda i: (self._due(i), candidates.index(i)))
        if self._tier(chosen) is Tier.TRUNCATE or (
                self._tier(chosen) is Tier.SIGNATURE and not self._upgrade(chosen)):
            return chosen
        # a small block is not held up behind a large one (the skip of a greedy fitter,
        # kept monotone by coming first in the plan); among fill steps, which come only
        # once nothing else is left, a small one behind a large one (trial 17: a test's
        # 35 lines whole waited behind 5,327 tokens of the rest of its code's file)
        large = self._increment(chosen)
        among = Tier.FILL if self._tier(chosen) is Tier.FILL else Tier.WHOLE
        small = [j for j in sorted(self.pending) if self._tier(j) is among and
                 self._increment(j) <= min(SHARE_FLOOR, large // _SMALL_RATIO)]
        return small[0] if small else chosen

    def _upgrade(self, i: int) -> bool:
        """Whether block ``i``'s next step of ``Tier.SIGNATURE`` is an upgrade, ranked by
        score among the upgrades, not an entry in rank order: the block is shown already,
        or it has no signature (a window inside a long definition: its lines are all it
        can show, and as an entry they went before every weaker signature)."""
        return bool(self.shown[i]) or not self.ranked[i].signature

    def _increment(self, i: int) -> int:
        return self.cost(self.pending[i][0]) - self.shown[i]

    def _candidates(self) -> list[int]:
        """The next step of each queue, in order of precedence."""
        by_tier: dict[Tier, list[int]] = {tier: [] for tier in Tier}
        for i in self.pending:
            by_tier[self._tier(i)].append(i)
        def next_cost(i: int) -> tuple[float, int]:
            return self.cost(self.pending[i][0]) / _share_weight(self.ranked[i].score), i
        found = []
        if by_tier[Tier.TRUNCATE]:
            # the best block opens the plan: a budget that shows anything shows it (trial
            # 17: at 300 tokens click's Context.invoke, named by the task, was left out for
            # 8 lines of an example whose first cut cost less beside its share)
            found.append(min(by_tier[Tier.TRUNCATE]) if not self.opened
                         else min(by_tier[Tier.TRUNCATE], key=next_cost))
        entries = [i for i in by_tier[Tier.SIGNATURE] if not self._upgrade(i)]
        upgrades = [i for i in by_tier[Tier.SIGNATURE] if self._upgrade(i)]
        if entries:
            found.append(min(entries))
        if upgrades:  # best first, as entries; equal scores cheapest first
            found.append(self._first_free(sorted(upgrades, key=lambda i: (
                -self._score(i), self._increment(i), i))))
        low = sorted(by_tier[Tier.WHOLE])
        if low:
            found.append(self._first_free(low))
        if not found and by_tier[Tier.FILL]:  # the rest of the files, once all else is shown
            # (a test's lines whole after the rest of the code's files)
            found.append(min(by_tier[Tier.FILL], key=lambda i: (
                i in self.late and self.ranked[i].whole_last, i)))
        return found

    def _first_free(self, queue: list[int]) -> int:
        """The first block of ``queue`` that need not wait, else the one due first."""
        free = next((i for i in queue if not self._waits(i)), None)
        return free if free is not None else min(queue, key=lambda i: (self._due(i), i))

    def _capped(self, i: int) -> bool:
        """Whether others wait behind block ``i`` (see the module docstring)."""
        tiers = [self._tier(j) for j in self.pending if j != i]
        if self._tier(i) is Tier.TRUNCATE:
            return self.ring0 > 1 and Tier.SIGNATURE in tiers
        if self._tier(i) is Tier.SIGNATURE:
            return Tier.TRUNCATE in tiers or Tier.SIGNATURE in tiers
        return Tier.WHOLE in tiers

    def _due(self, i: int) -> int:
        """The plan total at which block ``i``'s next step may go."""
        cost = self.cost(self.pending[i][0])
        due = self.total + cost - self.shown[i]
        if cost > CAP_FLOOR and self._capped(i):
            # (a whole file's rest: the block's own tier, ring 0's half of the budget)
            due = max(due, _CAP_PARTS[self.tiers[i]] * cost)
        return due

    def _waits(self, i: int) -> bool:
        return self._due(i) > self.total + self.cost(self.pending[i][0]) - self.shown[i]


def _share_weight(score: float) -> float:
    """How much of the budget a ring-0 block gets beside the others, relative to them:
    its score's place in the ring-0 band plus ``_SHARE_BASE`` of the band, so the best-named
    definition (150) grows up to eleven times as far as the weakest (100). On the dev
    tasks a ring-0 block holds changed lines about in proportion to that (2% of blocks
    scoring 100-110, 6% at 110-120, 9% at 120-130, 17% at 140-150)."""
    band = RING_BANDS[0]
    return max(0.0, score - band.low) + band.span * _SHARE_BASE


def _partial_floor(block: Block, current: Block | None, step: PlanStep) -> int | None:
    """The fewest lines a budget short of ``step`` may show of ``block`` (shown now as
    ``current``; for a signature the walker asked for, ``Plan._partial`` passes its whole
    form), or None when the step is not shown in part: a block too short to cut. A block
    shown as its signature and next shown whole is cut to more lines than the signature
    has (a merged block of three classes stayed their 25-line signature with 665 of 8,000
    tokens unused, where a cut showed 70 lines of their best method)."""
    if Tier.of(block.score) is Tier.TRUNCATE:
        return 1 if current is None else _kept(current) + 1 if current is not block else None
    if step.form is not block or block.kind is not Fidelity.FULL:
        return None
    if current is not None and current.kind is not Fidelity.SIGNATURE:
        return None
    floor = PARTIAL_LINES if current is None else max(PARTIAL_LINES, _line_count(current) + 1)
    return floor if len(_file_lines(block)[0]) > floor else None


def _line_count(form: Block) -> int:
    """Lines of a form's text (a signature's, whose line range is its block's)."""
    return form.content.count("\n") + 1


def _rank(blocks: list[Block]) -> list[Block]:
    """Blocks by score (descending), a block holding a line the task points at first
    among equals (trial 19: at 300 tokens a traceback's innermost frame, scored as the
    exception class it raised, lost to that class's whole block by path order), then
    path, then start line."""
    return sorted(blocks, key=lambda b: (-b.score, not b.pointed_lines, b.path, b.start_line))


def _record(block: Block, action: str, reason: str) -> Dropped:
    return Dropped(block.path, block.start_line, block.end_line, block.tokens, block.score,
                   action, reason)


# a shortened or excluded block, for measuring a header that only counts them
_COUNTED = Dropped("", 1, 1, 0, 0.0, "excluded", "")


class Plan:
    """The fitter's plan for a set of blocks, and the selection it makes for any budget.

    Parameters
    ----------
    blocks : list of Block
        Candidates in any order; ranked by score (descending), then path, then line.
    cost : callable
        Block -> tokens it adds to the rendered output (header line and fences included).
    count : callable
        Text -> tokens, for the ``tokens`` field of shortened blocks.
    measure : callable, optional
        {rank: form} -> tokens of the output that shows those forms; default the sum of
        their ``cost``. It must be at least the output's count (``fit_text`` passes the
        text's, header included).
    steps : tuple of PlanStep, optional
        The plan, when already made for these blocks with this ``cost`` and ``count``.
    measure_steps : callable, optional
        Steps -> ``measure`` of each state they make (none shown, then after each
        step), the same figures in less time than ``measure`` of each state alone.

    ``totals[k]`` is the measure after the first ``k`` steps; ``from_budget[k]`` the
    smallest budget that shows at least those steps (the least total from ``k`` on).
    """

    def __init__(self, blocks: list[Block], cost: Callable[[Block], int],
                 count: Callable[[str], int],
                 measure: Callable[[dict[int, Block]], int] | None = None,
                 steps: tuple[PlanStep, ...] | None = None,
                 measure_steps: Callable[[tuple[PlanStep, ...]], list[int]] | None = None
                 ) -> None:
        self.ranked = _rank(blocks)
        self.cost, self.count = cost, count
        self.measure = measure or (lambda forms: sum(cost(f) for f in forms.values()))
        self.steps = steps if steps is not None else tuple(
            _Planner(self.ranked, cost, count).steps())
        self.states: list[dict[int, Block]] = [{}]
        for step in self.steps:
            self.states.append({**self.states[-1], step.index: step.form})
        self.totals = (measure_steps(self.steps) if measure_steps is not None
                       else [self.measure(state) for state in self.states])
        self.from_budget = list(self.totals)
        for k in range(len(self.totals) - 2, -1, -1):
            self.from_budget[k] = min(self.totals[k], self.from_budget[k + 1])
        self.last_step = {step.index: k for k, step in enumerate(self.steps)}

    def forms(self, budget: int) -> tuple[dict[int, Block], int] | None:
        """{rank: form} the budget shows, and how many steps it takes whole; None when
        not even the plan's start (nothing shown) fits."""
        fitting = [k for k, total in enumerate(self.totals) if total <= budget]
        if not fitting:
            return None
        k = fitting[-1]
        forms = dict(self.states[k])
        if k < len(self.steps):
            grown = self._partial(forms, self.steps[k], budget)
            if grown is not None:
                forms[self.steps[k].index] = grown
        return forms, k

    def _partial(self, forms: dict[int, Block], step: PlanStep, budget: int) -> Block | None:
        """The longest truncation short of ``step`` that fits beside ``forms``: a ring-0
        block's next rung, or a whole block the plan shows next for the first time (at
        least ``PARTIAL_LINES`` of its lines) or after its signature (more lines than
        the signature has; a signature the walker asked for is cut from its whole lines,
        ``Block.whole``)."""
        block = self.ranked[step.index]
        if block.whole and step.form.kind is Fidelity.FULL:
            block = step.form  # a signature the walker asked for, cut from its lines whole
        current = forms.get(step.index)
        low = _partial_floor(block, current, step)
        if low is None:
            return None
        total = len(_file_lines(block)[0])
        high = (total if step.form is block else _kept(step.form)) - 1
        best = None
        while low <= high:
            middle = (low + high) // 2
            candidate = truncate_block(block, middle, self.count)
            if self.measure({**forms, step.index: candidate}) <= budget:
                best, low = candidate, middle + 1
            else:
                high = middle - 1
        # (a cut naming fewer definitions than the signature did shows less: review 33)
        if best is not None and current is not None \
                and not set(current.symbols) <= set(best.symbols):
            return None
        return best

    def selection(self, forms: dict[int, Block], k: int) -> Selection:
        """The ``Selection`` showing ``forms`` (after ``k`` whole steps), with reasons."""
        truncated, excluded = [], []
        for i, block in enumerate(self.ranked):
            form = forms.get(i)
            if _as_chosen(block, form):
                continue
            whole = self.from_budget[self.last_step[i] + 1]
            needs = f"needs {self.cost(block)} tokens"
            if form is None:
                if _is_rest(block):
                    continue  # the rest of a file: more to show, not a candidate left out
                shown = self._shown_from(self._next_step(i, k), None)
                later = f", whole from {whole}" if whole != shown else ""
                excluded.append(_record(block, "excluded",
                                        f"{needs}: shown from a budget of {shown}{later}"))
            elif form.kind is Fidelity.SIGNATURE:
                truncated.append(_record(block, "signature", f"reduced to its signature: "
                                         f"{needs}, whole from a budget of {whole}"))
            else:  # (a signature the walker asked for is cut from its lines whole)
                full = self.steps[self.last_step[i]].form
                truncated.append(_record(
                    block, "truncated", f"kept {_kept(form)} of {len(_file_lines(full)[0])} "
                    f"lines: needs {self.cost(full)} tokens, whole from a budget of {whole}"))
        return Selection(blocks=tuple(forms[i] for i in sorted(forms)),
                         truncated=tuple(truncated), excluded=tuple(excluded))

    def _shown_from(self, j: int, current: Block | None) -> int:
        """The smallest budget that shows more of step ``j``'s block than ``current`` (how
        a smaller budget shows it; None: not at all): the budget of the shortest cut
        ``_partial`` makes of it beside the steps before ``j``, when it makes one, else
        the step's own (trial 21: "shown from a budget of 413" for a frame's block that a
        budget of 391 showed cut to its first lines)."""
        full = self.from_budget[j + 1]
        step = self.steps[j]
        block = self.ranked[step.index]
        if block.whole and step.form.kind is Fidelity.FULL:
            block = step.form
        low = _partial_floor(block, current, step)
        if low is None:
            return full
        cut = truncate_block(block, low, self.count)
        need = self.measure({**self.states[j], step.index: cut})
        shown = self.forms(need) if need < full else None
        # (a cut naming fewer definitions than shown before is no partial: ``_partial``)
        if shown is None or _lines_of(shown[0].get(step.index)) in (None, _lines_of(current)):
            return full
        return need

    def _next_step(self, i: int, k: int) -> int:
        return next(j for j in range(k, len(self.steps)) if self.steps[j].index == i)

    def upcoming(self, forms: dict[int, Block], k: int, limit: int) -> tuple[Upcoming, ...]:
        """Up to ``limit`` blocks not shown whole, in the order the plan adds to them."""
        found: list[Upcoming] = []
        for j in range(k, len(self.steps)):
            i = self.steps[j].index
            if any(u.block is self.ranked[i] for u in found):
                continue
            if len(found) == limit:
                break
            form, block = forms.get(i), self.ranked[i]
            adds = self.steps[j].form
            found.append(Upcoming(
                block=block, shown=None if form is None else form.kind,
                adds=adds.kind,
                # (a step adding more lines shows some of them from a smaller budget)
                budget=(self._shown_from(j, form) if adds.kind is Fidelity.TRUNCATED
                        else self.from_budget[j + 1]),
                full_budget=self.from_budget[self.last_step[i] + 1]))
        return tuple(found)


def fit_budget(blocks: list[Block], budget: int, *, cost: Callable[[Block], int],
               count: Callable[[str], int]) -> Selection:
    """Choose and shape blocks so that their total ``cost`` is at most ``budget`` tokens.

    Returns the kept blocks in rank order (score descending, then path, then line), plus
    the truncated (or reduced) and excluded ones with reasons, each in rank order; every
    candidate is either kept or excluded. Monotone: a larger budget shows everything a
    smaller one shows, at least as fully (see the module docstring for the plan).
    """
    plan = Plan(blocks, cost, count)
    found = plan.forms(budget)
    forms, k = found if found is not None else ({}, 0)
    return plan.selection(forms, k)


class TextLayout(Protocol):
    """The token costs of the text rendering (``render.Layout``)."""

    count: Callable[[str], int]

    def block_cost(self, block: Block) -> int: ...

    def body_tokens(self, blocks: tuple[Block, ...]) -> int: ...

    def file_tokens(self, group: list[Block]) -> tuple[int, int]: ...

    def text_tokens(self, selection: Selection, body: int) -> int: ...

    def tokens(self, selection: Selection) -> int: ...


@dataclass(frozen=True, slots=True)
class TextFit:
    """A fit of the text rendering: the selection, the text's exact tokens (what its
    header states) and up to ``UPCOMING`` blocks a larger budget would add or grow."""

    selection: Selection
    used: int
    upcoming: tuple[Upcoming, ...]


# Most blocks a fit lists as upcoming (the JSON's ``next``, README "JSON output"): set by
# hand when ``next`` came in (issue 17), not measured.
UPCOMING = 10


class TextPlan:
    """The fitter's plan for the text rendering of ``blocks`` (``fit_text``), measured
    once, for fitting any number of budgets (``ctxopt curve``)."""

    def __init__(self, blocks: list[Block], layout: TextLayout,
                 steps: tuple[PlanStep, ...] | None = None) -> None:
        self.layout = layout
        self.ranked = _rank(blocks)
        # the blocks an exclusion counts (as ``Plan.selection`` counts: not a rest)
        self.counted = [not _is_rest(b) for b in self.ranked]
        self.candidates = sum(self.counted)
        self.plan = Plan(self.ranked, layout.block_cost, layout.count, self._measure, steps,
                         self._measure_steps)

    def _measure(self, forms: dict[int, Block]) -> int:
        """Tokens of the text showing ``forms``: its parts' sum (``Layout.body_tokens``)."""
        order = sorted(forms)
        shown = tuple(forms[i] for i in order)
        shortened = sum(1 for i in order if not _as_chosen(self.ranked[i], forms[i]))
        excluded = self.candidates - sum(1 for i in order if self.counted[i])
        counted = Selection(blocks=shown, truncated=(_COUNTED,) * shortened,
                            excluded=(_COUNTED,) * excluded)
        return self.layout.text_tokens(counted, self.layout.body_tokens(shown))

    def _measure_steps(self, steps: tuple[PlanStep, ...]) -> list[int]:
        """``_measure`` of each state ``steps`` make (none shown, then after each step):
        a step changes one block, so only its file's part (``file_tokens``) is summed
        again, not every file's (``body_tokens`` of each state alone)."""
        layout, ranked = self.layout, self.ranked
        forms: dict[int, Block] = {}
        order: list[int] = []  # the ranks shown, ascending
        by_path: dict[str, list[int]] = {}  # each file's ranks shown, ascending
        parts: dict[str, tuple[int, int]] = {}  # ``file_tokens`` of each file's blocks
        body = shortened = counted = 0  # the sum of the files' parts first figures

        def refile(path: str) -> None:
            nonlocal body
            body -= parts.pop(path, (0, 0))[0]
            if by_path[path]:
                parts[path] = layout.file_tokens([forms[r] for r in by_path[path]])
                body += parts[path][0]
            else:
                del by_path[path]

        totals = [self._measure({})]
        for step in steps:
            i, form = step.index, step.form
            old = forms.get(i)
            if old is None:
                bisect.insort(order, i)
                counted += self.counted[i]
            else:
                shortened -= not _as_chosen(ranked[i], old)
            forms[i] = form
            shortened += not _as_chosen(ranked[i], form)
            if old is not None and old.path != form.path:
                by_path[old.path].remove(i)
                refile(old.path)
            if old is None or old.path != form.path:
                bisect.insort(by_path.setdefault(form.path, []), i)
            refile(form.path)
            # the file shown last is the one whose first block ranks lowest (``_grouped``)
            last = max(by_path.items(), key=lambda item: item[1][0])[0]
            shown = tuple(map(forms.__getitem__, order))
            selection = Selection(blocks=shown, truncated=(_COUNTED,) * shortened,
                                  excluded=(_COUNTED,) * (self.candidates - counted))
            totals.append(layout.text_tokens(selection, body + parts[last][1]))
        return totals

    def fit(self, budget: int) -> TextFit:
        """The selection whose text, header included, is at most ``budget`` tokens.

        Raises ``BudgetTooSmallForContent`` when not even the first block of the plan, in
        its smallest form, fits beside the header."""
        found = self.plan.forms(budget)
        if found is None or not found[0]:
            raise self._too_small(budget)
        forms, k = found
        selection = self.plan.selection(forms, k)
        used = self.layout.tokens(selection)
        if used > budget:  # a counter that counts the whole above its parts' sum
            return self.fit(budget - (used - budget))
        return TextFit(selection, used, self.plan.upcoming(forms, k, UPCOMING))

    def _too_small(self, budget: int) -> BudgetTooSmallForContent:
        header = self.plan.totals[0]
        first = self.plan.steps[0]
        block = self.plan.ranked[first.index]
        smallest = first.form
        floor = _partial_floor(block, None, first)
        if floor is not None and floor < len(_file_lines(block)[0]):
            smallest = truncate_block(block, floor, self.layout.count)
        return BudgetTooSmallForContent(
            budget, header, self._measure({first.index: smallest}) - header)


def plan_steps(blocks: list[Block], layout: TextLayout) -> tuple[PlanStep, ...]:
    """The fitter's plan for ``blocks`` rendered as text: it depends on the blocks and
    their costs only, so one plan serves every budget (``TextPlan(..., steps=...)``)."""
    return tuple(_Planner(_rank(blocks), layout.block_cost, layout.count).steps())


def fit_text(blocks: list[Block], budget: int, layout: TextLayout) -> tuple[Selection, int]:
    """The selection whose whole text rendering, header included, is at most ``budget``
    tokens, and those tokens (``layout.tokens``, the figure the header states).

    The text is measured as the sum of its parts (``Layout.body_tokens`` and the header
    ``Layout.text_tokens`` states), exact for cl100k and an upper bound for calibrated
    and estimated counts. Monotone: a larger budget shows everything a smaller one shows,
    at least as fully.

    Raises
    ------
    BudgetTooSmallForContent
        Not even the smallest form of the plan's first block fits beside the header:
        every budget from its ``minimum`` up shows at least one block.
    """
    fitted = TextPlan(blocks, layout).fit(budget)
    return fitted.selection, fitted.used
