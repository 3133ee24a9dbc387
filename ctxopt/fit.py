"""Stage 5 (pure): blocks + token budget -> ``Selection``.

Greedy by score. A block that does not fit whole is, by its priority tier:

- score >= ``TRUNCATE_SCORE`` (ring-0 definitions): truncated to the most lines that fit,
  read from where the block's best item starts, with a marker line saying how many lines were omitted;
- score >= ``SIGNATURE_SCORE`` (rings 1-2): reduced to its signature (the tree-sitter
  header of each definition in it, body replaced by a placeholder);
- lower: excluded.

Costs are what the renderer will print for the block (``cost`` callable), so the sum of
kept costs never exceeds the budget given. Every truncation, reduction and exclusion is
recorded with its reason.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .model import Block, Dropped, Fidelity, Selection

__all__ = ["fit_budget", "truncate_block", "TRUNCATE_SCORE", "SIGNATURE_SCORE"]

TRUNCATE_SCORE = 100.0
SIGNATURE_SCORE = 60.0


def truncate_block(block: Block, keep: int, count: Callable[[str], int]) -> Block:
    """``keep`` lines from the block's focus line (where its best item starts) plus a
    marker line naming how many of the block's lines were omitted."""
    lines = block.content.split("\n")
    first = max(0, min(block.focus_line - block.start_line, len(lines) - keep))
    omitted = len(lines) - keep
    content = "\n".join(lines[first:first + keep] + [f"⋮ {omitted} more lines omitted"])
    return replace(block, content=content, tokens=count(content), kind=Fidelity.TRUNCATED,
                   start_line=block.start_line + first,
                   end_line=block.start_line + first + keep - 1, omitted_lines=omitted,
                   focus_line=block.start_line + first)


def _signature_block(block: Block, count: Callable[[str], int]) -> Block | None:
    if not block.signature:
        return None
    return replace(block, content=block.signature, tokens=count(block.signature),
                   kind=Fidelity.SIGNATURE)


def _largest_prefix(block: Block, room: int, cost: Callable[[Block], int],
                    count: Callable[[str], int]) -> Block | None:
    """Binary search for the most leading lines whose truncated block costs <= room."""
    total = block.content.count("\n") + 1
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
        Candidates in any order; they are taken by score (descending), then path, then
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
        Kept blocks in output order, plus the truncated (or reduced) and excluded ones
        with reasons.
    """
    kept: list[Block] = []
    truncated: list[Dropped] = []
    excluded: list[Dropped] = []
    remaining = budget
    for block in sorted(blocks, key=lambda b: (-b.score, b.path, b.start_line)):
        full_cost = cost(block)
        if full_cost <= remaining:
            kept.append(block)
            remaining -= full_cost
            continue
        shortened = None
        if block.score >= TRUNCATE_SCORE:
            shortened = _largest_prefix(block, remaining, cost, count)
            action = "truncated"
        if shortened is None and block.score >= SIGNATURE_SCORE:
            shortened = _signature_block(block, count)
            action = "signature"
            if shortened is not None and cost(shortened) > remaining:
                shortened = None
        if shortened is None:
            excluded.append(_record(block, "excluded",
                                    f"needs {full_cost} tokens, {remaining} left"
                                    if block.score >= SIGNATURE_SCORE or remaining < full_cost
                                    else "score below 60"))
            continue
        kept.append(shortened)
        remaining -= cost(shortened)
        detail = (f"kept {shortened.end_line - shortened.start_line + 1} of "
                  f"{block.end_line - block.start_line + 1} lines"
                  if action == "truncated" else "reduced to its signature")
        truncated.append(_record(block, action, f"{detail}: needs {full_cost} tokens, "
                                                f"{remaining + cost(shortened)} left"))
    return Selection(blocks=tuple(kept), truncated=tuple(truncated), excluded=tuple(excluded))
