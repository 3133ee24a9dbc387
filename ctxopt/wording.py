"""Wording shared by messages: a count with its noun in the singular or plural (pure)."""
from __future__ import annotations

__all__ = ["counted"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` followed by ``noun``, or by its plural (``noun + "s"`` unless given)
    when ``count`` is not 1.

    Examples
    --------
    >>> counted(1, "byte"), counted(2, "byte"), counted(0, "match", "matches")
    ('1 byte', '2 bytes', '0 matches')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
