"""Wording shared by messages: a count with its noun in the singular or plural (pure)."""
from __future__ import annotations

__all__ = ["counted", "elided", "omitted"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` followed by ``noun``, or by its plural (``noun + "s"`` unless given)
    when ``count`` is not 1.

    Examples
    --------
    >>> counted(1, "byte"), counted(2, "byte"), counted(0, "match", "matches")
    ('1 byte', '2 bytes', '0 matches')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def elided(count: int) -> str:
    """The marker for ``count`` lines left out between lines shown: a cut's
    (``elide.cut_lines``) or a signature's, over the members it leaves out
    (``source._skeleton_parts``; trial 20: a bare ``⋮`` said neither how much nor that
    the closing ``}`` was missing); "1 line", not "1 lines" (trial 14).

    Examples
    --------
    >>> elided(12), elided(1)
    ('⋮ 12 lines', '⋮ 1 line')
    """
    return f"⋮ {counted(count, 'line')}"


def omitted(count: int, side: str) -> str:
    """The marker line for ``count`` lines left out on ``side`` (``above``, ``below``) of
    what is shown: a cut's (``fit.truncate_block``), a window's (``render._marked``) or a
    signature's whose container goes on below it (``source._skeleton_parts``).

    Examples
    --------
    >>> omitted(12, "below"), omitted(1, "above")
    ('⋮ 12 lines below omitted', '⋮ 1 line above omitted')
    """
    return f"{elided(count)} {side} omitted"
