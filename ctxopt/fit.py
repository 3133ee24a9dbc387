"""Stage 5 (pure): blocks + token budget -> ``Selection``.

Blocks are fitted tier by tier, best tier first, each tier getting the room the ones
before it left. When a tier does not fit whole, its blocks share the room fairly
(``budget.distribute_budget``) instead of the first big block starving the rest:

- ``Tier.TRUNCATE`` (ring-0 definitions, score >= 100): each block gets a fair share and is
  truncated to the most lines that fit it, read from where the block's best item starts,
  with a marker line above and/or below saying how many lines were omitted there;
- ``Tier.SIGNATURE`` (rings 1-2, score >= 60): blocks larger than their fair share are
  reduced to their signature (the tree-sitter header of each definition, body replaced
  by a placeholder); the room this frees turns them back into whole blocks in rank order;
- ``Tier.WHOLE`` (rings 3-4): greedy by score, whole or excluded.

While blocks of ``Tier.SIGNATURE`` or better are still waiting (they do not all fit whole), no
block takes more than ``max(CAP_FLOOR, budget // 3)`` tokens, unless it is the only
ring-0 block. Costs are what the renderer will print for the block (``cost`` callable),
so the sum of kept costs never exceeds the budget given. Every truncation, reduction and
exclusion is recorded with its reason.

``fit_text`` fits the whole text rendering, header included: it chooses the room
``fit_budget`` gets from the layout costs the renderer exposes (``render.Layout``), and
owns the guarantee that the text is never over the budget.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from .budget import distribute_budget
from .errors import BudgetTooSmallForContent
from .model import Block, Dropped, Fidelity, Selection, Tier

__all__ = [
    "CAP_FLOOR",
    "SHARE_FLOOR",
    "TextLayout",
    "fit_budget",
    "fit_text",
    "smallest_form",
    "truncate_block",
]

# While others wait, one block takes at most a third of the budget, but never less than
# this: 512 tokens hold a 40-line function, below that a cap cuts into single definitions.
CAP_FLOOR = 512
# The fewest tokens worth giving a truncated block: its header line, fences and marker
# take about 25, this leaves 10-15 lines. Tighter shares drop the lowest-ranked blocks.
SHARE_FLOOR = 128
_UNCAPPED = 1 << 62


def truncate_block(block: Block, keep: int, count: Callable[[str], int]) -> Block:
    """``keep`` lines from the block's focus line (where its best item starts), or fewer
    lines above it when the block ends first, with a marker line for each side where
    lines were dropped: ``⋮ N lines above omitted`` first, ``⋮ N lines below omitted``
    last. ``start_line``/``end_line`` are the file lines shown; every other line of the
    content is a marker. A block the source reader already cut (its content ends with a
    ``⋮ N more lines of NAME`` marker after its last file line) keeps that marker when
    its last line is kept."""
    lines, tail = _file_lines(block)
    keep = max(1, min(keep, len(lines)))
    first = max(0, min(block.focus_line - block.start_line, len(lines) - keep))
    above, below = first, len(lines) - first - keep
    shown = lines[first:first + keep]
    if above:
        shown.insert(0, f"⋮ {above} lines above omitted")
    if below:
        shown.append(f"⋮ {below} lines below omitted")
    else:
        shown += tail
    content = "\n".join(shown)
    return replace(block, content=content, tokens=count(content), kind=Fidelity.TRUNCATED,
                   start_line=block.start_line + first,
                   end_line=block.start_line + first + keep - 1,
                   focus_line=block.start_line + first)


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


def smallest_form(block: Block, *, cost: Callable[[Block], int],
                  count: Callable[[str], int]) -> Block:
    """``block`` in the fewest tokens the fitter may show it in: one line (truncated,
    ``Tier.TRUNCATE``), its signature (``Tier.SIGNATURE`` or better) or whole."""
    forms = [block]
    if Tier.of(block.score) is Tier.TRUNCATE and len(_file_lines(block)[0]) > 1:
        forms.append(truncate_block(block, 1, count))
    if Tier.of(block.score) <= Tier.SIGNATURE:
        signature = _signature_block(block, count)
        if signature is not None:
            forms.append(signature)
    return min(forms, key=cost)


def _largest_prefix(block: Block, room: int, cost: Callable[[Block], int],
                    count: Callable[[str], int]) -> Block | None:
    """Binary search for the most lines (from the focus line) whose truncated block costs
    <= room."""
    total = len(_file_lines(block)[0])
    low, high, best = 1, total - 1, None
    while low <= high:
        middle = (low + high) // 2
        candidate = truncate_block(block, middle, count)
        if cost(candidate) <= room:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    return best


def _record(block: Block, action: str, reason: str) -> Dropped:
    return Dropped(block.path, block.start_line, block.end_line, block.tokens, block.score,
                   action, reason)


def fit_budget(blocks: list[Block], budget: int, *, cost: Callable[[Block], int],
               count: Callable[[str], int]) -> Selection:
    """Choose and shape blocks so that their total ``cost`` is at most ``budget`` tokens.

    Parameters
    ----------
    blocks : list of Block
        Candidates in any order; they are ranked by score (descending), then path, then
        start line.
    budget : int
        Tokens available for the blocks (the caller has set aside the header).
    cost : callable
        Block -> tokens it adds to the rendered output (header line and fences included).
    count : callable
        Text -> tokens, used for the ``tokens`` field of shortened blocks.

    Returns
    -------
    Selection
        Kept blocks in rank order, plus the truncated (or reduced) and excluded ones with
        reasons, each in rank order. Every candidate is either kept or excluded.

    Notes
    -----
    The tiers and the cap are described in the module docstring. Within the ring-0 tier
    the shares come from ``distribute_budget`` with floor ``SHARE_FLOOR``; when those
    floors overflow the room, the lowest-ranked ring-0 blocks are left out of the
    sharing and only offered the room that remains, as signatures. Tokens a block's
    share does not use (truncation stops at a whole line) roll to the next block.
    """
    fitter = _Fitter(sorted(blocks, key=lambda b: (-b.score, b.path, b.start_line)), budget,
                     cost, count)
    return fitter.run()


class _Fitter:
    """One fit: ranked blocks, their costs and caps, and what has been decided so far."""

    def __init__(self, ranked: list[Block], budget: int, cost: Callable[[Block], int],
                 count: Callable[[str], int]) -> None:
        self.ranked, self.cost, self.count = ranked, cost, count
        self.costs = [cost(b) for b in ranked]
        self.remaining = budget
        self.kept: dict[int, Block] = {}
        self.truncated: dict[int, Dropped] = {}
        self.excluded: dict[int, Dropped] = {}
        self.caps = self._caps(budget)

    def _caps(self, budget: int) -> list[int]:
        """Per block, the most tokens it may take while blocks of ``Tier.SIGNATURE`` or better wait."""
        caps = [_UNCAPPED] * len(self.ranked)
        primary = [i for i, b in enumerate(self.ranked) if Tier.of(b.score) <= Tier.SIGNATURE]
        if sum(self.costs[i] for i in primary) <= budget:
            return caps
        ring0 = [i for i in primary if Tier.of(self.ranked[i].score) is Tier.TRUNCATE]
        for i in primary[:-1]:  # the last one has nobody waiting behind it
            if ring0 != [i]:
                caps[i] = max(CAP_FLOOR, budget // 3)
        return caps

    def run(self) -> Selection:
        tiers: tuple[list[int], list[int], list[int]] = ([], [], [])
        for i, block in enumerate(self.ranked):
            tiers[Tier.of(block.score)].append(i)
        self._fit_truncatable(tiers[0])
        self._fit_reducible(tiers[1])
        for i in tiers[2]:
            if self.costs[i] <= self.remaining:
                self._keep(i, self.ranked[i])
            else:
                self._exclude(i, f"needs {self.costs[i]} tokens, {self.remaining} left")
        return Selection(blocks=tuple(self.kept[i] for i in sorted(self.kept)),
                         truncated=tuple(self.truncated[i] for i in sorted(self.truncated)),
                         excluded=tuple(self.excluded[i] for i in sorted(self.excluded)))

    def _fit_truncatable(self, tier: list[int]) -> None:
        """Fair shares of the room, each block truncated to its share."""
        room = self.remaining
        active = list(tier)
        demands = [min(self.costs[i], self.caps[i]) for i in active]
        floor = min(SHARE_FLOOR, room)
        shares = distribute_budget(demands, room, floor)
        while len(active) > 1 and sum(shares) > room:
            active.pop()  # too many blocks for useful shares: leave out the lowest-ranked
            demands.pop()
            shares = distribute_budget(demands, room, floor)
        carry = 0
        for i, share in zip(active, shares):
            allowance = share + carry
            used = self._shape(i, min(allowance, self.caps[i]), truncatable=True,
                               note=f"its share is {min(allowance, self.caps[i])}")
            carry = allowance - used
        for i in tier[len(active):]:
            self._shape(i, self.remaining, truncatable=False,
                        note=f"{self.remaining} left after {len(active)} higher-ranked "
                             f"blocks took their shares")

    def _fit_reducible(self, tier: list[int]) -> None:
        """Blocks above the fair level become signatures; what is left upgrades them back.

        Shares come from ``distribute_budget`` (no floor). Blocks whose cost fits their
        share stay whole; the others are reduced to signatures (excluded if they have
        none), lowest-ranked signatures dropped while the total overflows. The room left
        then turns reduced blocks back into whole ones in rank order, within their caps.
        """
        room = self.remaining
        signatures = {i: s for i in tier
                      if (s := _signature_block(self.ranked[i], self.count)) is not None
                      and self.cost(s) < self.costs[i]}
        signature_costs = {i: self.cost(s) for i, s in signatures.items()}
        shares = distribute_budget([min(self.costs[i], self.caps[i]) for i in tier], room, 0)
        whole = [i for i, share in zip(tier, shares) if self.costs[i] <= share]
        reduced = [i for i in tier if i not in whole and i in signatures]
        dropped = [i for i in tier if i not in whole and i not in signatures]
        left = room - sum(self.costs[i] for i in whole) - sum(signature_costs[i] for i in reduced)
        while left < 0:  # whole blocks fit their shares, so dropping signatures always ends this
            victim = reduced.pop()
            left += signature_costs[victim]
            dropped.append(victim)
        for i in list(reduced):
            extra = self.costs[i] - signature_costs[i]
            if self.costs[i] <= self.caps[i] and extra <= left:
                reduced.remove(i)
                whole.append(i)
                left -= extra
        for i in sorted(dropped):
            if i in signatures and signature_costs[i] <= left:
                dropped.remove(i)
                reduced.append(i)
                left -= signature_costs[i]
        level = max((share for i, share in zip(tier, shares) if i not in whole), default=0)
        for i in tier:
            if i in whole:
                self._keep(i, self.ranked[i])
            elif i in reduced:
                self._keep(i, signatures[i])
                capped = (" (capped at a third of the budget while others wait)"
                          if self.costs[i] > self.caps[i] else "")
                self.truncated[i] = _record(
                    self.ranked[i], "signature",
                    f"reduced to its signature: needs {self.costs[i]} tokens, its fair share "
                    f"of {room} is {level}{capped}")
            else:
                self._exclude(i, f"needs {self.costs[i]} tokens, {self.remaining} left")

    def _shape(self, i: int, allowance: int, *, truncatable: bool, note: str) -> int:
        """Keep block ``i`` whole, truncated or as its signature within ``allowance``
        tokens, or exclude it; returns the tokens used."""
        block, full_cost = self.ranked[i], self.costs[i]
        if full_cost <= allowance:
            self._keep(i, block)
            return full_cost
        shortened, action = None, "truncated"
        if truncatable:
            shortened = _largest_prefix(block, allowance, self.cost, self.count)
        if shortened is None and Tier.of(block.score) <= Tier.SIGNATURE:
            shortened, action = _signature_block(block, self.count), "signature"
            if shortened is not None and self.cost(shortened) > allowance:
                shortened = None
        if shortened is None:
            self._exclude(i, f"needs {full_cost} tokens, {note}")
            return 0
        self._keep(i, shortened)
        detail = (f"kept {shortened.end_line - shortened.start_line + 1} of "
                  f"{block.end_line - block.start_line + 1} lines"
                  if action == "truncated" else "reduced to its signature")
        capped = " (capped at a third of the budget while others wait)" if (
            allowance == self.caps[i]) else ""
        self.truncated[i] = _record(block, action,
                                    f"{detail}: needs {full_cost} tokens, {note}{capped}")
        return self.cost(shortened)

    def _keep(self, i: int, block: Block) -> None:
        self.kept[i] = block
        self.remaining -= self.cost(block) if block is not self.ranked[i] else self.costs[i]

    def _exclude(self, i: int, reason: str) -> None:
        self.excluded[i] = _record(self.ranked[i], "excluded", reason)


# Most rooms ``fit_text`` tries; usually one or two do (the header only grows with what
# is selected at small budgets).
_FIT_ROUNDS = 10


class TextLayout(Protocol):
    """The token costs of the text rendering (``render.Layout``)."""

    count: Callable[[str], int]

    def block_cost(self, block: Block) -> int: ...

    def header_tokens(self, selection: Selection, used: int) -> int: ...

    def tokens(self, selection: Selection) -> int: ...


def fit_text(blocks: list[Block], budget: int, layout: TextLayout) -> tuple[Selection, int]:
    """The selection whose whole text rendering, header included, is at most ``budget``
    tokens, and those tokens (``layout.tokens``, the figure the header states).

    The header's size depends on what is selected (its symbols, counts and ``used``
    figure), so the room ``fit_budget`` gets for the blocks starts at the budget less a
    pessimistic header and is then set to the budget less the header the layout measures
    for the selection made: room the header did not need is given back, an overflow is
    taken away, and once a room that holds and one that overflows are known, the room
    between them is bisected. The selection with the most room that holds is kept. When
    none holds, the lowest-ranked blocks are dropped until the text fits; when that
    leaves nothing, the cheapest block is shown in its smallest form (``smallest_form``).

    Raises
    ------
    BudgetTooSmallForContent
        Not even the smallest form of the cheapest block fits beside the header.
    """
    ranked = sorted(blocks, key=lambda b: (-b.score, b.path, b.start_line))
    best, last = _most_room(ranked, budget, layout)
    selection = best if best is not None else _trim(last, budget, layout)
    if not selection.blocks:
        selection = _one_small_block(ranked, budget, layout)
    return selection, layout.tokens(selection)


def _most_room(ranked: list[Block], budget: int, layout: TextLayout
               ) -> tuple[Selection | None, Selection]:
    """(the fit with the most room whose text holds, or None; the last fit tried)."""
    pessimistic = Selection(blocks=tuple(ranked[:5]),
                            truncated=tuple(_record(b, "excluded", "") for b in ranked),
                            excluded=tuple(_record(b, "excluded", "") for b in ranked))
    room = max(0, budget - layout.header_tokens(pessimistic, budget))
    best: Selection | None = None
    best_room, overflow_room = -1, None
    selection = Selection(blocks=())
    for _ in range(_FIT_ROUNDS):
        selection = fit_budget(ranked, room, cost=layout.block_cost, count=layout.count)
        used = layout.tokens(selection)
        # the room the header (and the joins between blocks) leave for these blocks
        exact = budget - (used - sum(layout.block_cost(b) for b in selection.blocks))
        if used <= budget:
            if room > best_room:
                best, best_room = selection, room
            if exact <= room or not (selection.truncated or selection.excluded):
                break
            room = exact
        else:
            overflow_room = room if overflow_room is None else min(overflow_room, room)
            room = max(0, min(exact, room - (used - budget)))
        if overflow_room is not None and not best_room < room < overflow_room:
            room = (best_room + overflow_room) // 2  # bisect between holds and overflows
        if room <= best_room:
            break
    return best, selection


def _trim(selection: Selection, budget: int, layout: TextLayout) -> Selection:
    """Drop the lowest-ranked blocks until the text fits (the hard guarantee)."""
    while selection.blocks and layout.tokens(selection) > budget:
        last = selection.blocks[-1]
        selection = replace(selection, blocks=selection.blocks[:-1], excluded=(
            *selection.excluded,
            _record(last, "excluded", "the output header and separators left no room")))
    return selection


def _one_small_block(ranked: list[Block], budget: int, layout: TextLayout) -> Selection:
    """The cheapest block in its smallest form (``smallest_form``), every other one
    excluded: the rooms tried can miss a budget that holds one small block and the
    header it brings (its symbols).

    Raises ``BudgetTooSmallForContent`` when even that text is over ``budget``."""
    cost = layout.block_cost
    forms = [(smallest_form(b, cost=cost, count=layout.count), b) for b in ranked]
    form, original = min(forms, key=lambda pair: cost(pair[0]))  # ties: best ranked
    needs = cost(form)
    shortened: tuple[Dropped, ...] = ()
    if form is not original:
        what = "kept 1 line" if form.kind is Fidelity.TRUNCATED else "reduced to its signature"
        shortened = (_record(original, form.kind.value, (
            f"{what}: needs {cost(original)} tokens, the budget has room for one small "
            "block")),)
    excluded = tuple(_record(b, "excluded", f"needs {cost(b)} tokens, the budget has room "
                             "for one small block") for b in ranked if b is not original)
    selection = Selection(blocks=(form,), truncated=shortened, excluded=excluded)
    header = layout.tokens(selection) - needs
    if header + needs > budget:
        raise BudgetTooSmallForContent(budget, header, needs)
    return selection
