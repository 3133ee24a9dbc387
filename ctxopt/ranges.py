"""Pure: 1-indexed inclusive line-range algebra."""
from __future__ import annotations

from collections.abc import Iterable

__all__ = ["clamp_range", "merge_ranges", "subtract_ranges"]


def clamp_range(start: int, end: int, line_count: int) -> tuple[int, int] | None:
    """Clamp ``start..end`` to ``1..line_count``; None when nothing is left.

    >>> clamp_range(-1, 5, 3)
    (1, 3)
    """
    start, end = max(1, start), min(end, line_count)
    return (start, end) if start <= end else None


def merge_ranges(ranges: Iterable[tuple[int, int]], gap: int = 0) -> list[tuple[int, int]]:
    """Merge ranges that overlap or are at most ``gap`` lines apart.

    Parameters
    ----------
    ranges : iterable of (start, end)
        1-indexed inclusive ranges with start <= end, in any order.
    gap : int
        Ranges separated by ``gap`` or fewer unlisted lines are joined (0 joins only
        overlapping or adjacent ranges).

    Returns
    -------
    list of (start, end)
        Sorted, disjoint ranges covering the input lines (plus the closed gaps).

    >>> merge_ranges([(10, 12), (1, 3), (5, 6)], gap=1)
    [(1, 6), (10, 12)]
    """
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1] + gap + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def subtract_ranges(ranges: Iterable[tuple[int, int]], taken: Iterable[tuple[int, int]]
                    ) -> list[tuple[int, int]]:
    """The lines of ``ranges`` that are not in ``taken``, as sorted ranges.

    Both inputs are 1-indexed inclusive ranges in any order.

    >>> subtract_ranges([(1, 10)], [(3, 4), (8, 12)])
    [(1, 2), (5, 7)]
    """
    blocked = merge_ranges(taken)
    result: list[tuple[int, int]] = []
    for start, end in merge_ranges(ranges):
        cursor = start
        for low, high in blocked:
            if high < cursor or low > end:
                continue
            if low > cursor:
                result.append((cursor, low - 1))
            cursor = max(cursor, high + 1)
        if cursor <= end:
            result.append((cursor, end))
    return result
