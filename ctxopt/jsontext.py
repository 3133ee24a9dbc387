"""JSON read from files ctxopt does not control (transcripts, notebooks, configs): ``loads``.

Python's ``json`` recurses once per nested list or object and raises ``RecursionError``,
not ``ValueError``, past the interpreter's recursion limit, so ``[[[[...`` in a file would
escape every ``except ValueError`` as a traceback; and a document just under that limit
loads but then breaks ``json.dumps`` and every walk over it. ``loads`` turns both into a
``ValueError``.
"""
from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_DEPTH", "loads"]

# Far beyond real transcripts, notebooks and tsconfig files (a few levels each), and far
# below Python's default recursion limit of 1000, so later recursion over the document
# (json.dumps, token counting) has room.
MAX_DEPTH = 200


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``, refusing lists and objects nested over ``MAX_DEPTH`` deep.

    Raises
    ------
    ValueError
        When ``text`` is not JSON (``json.JSONDecodeError``) or is nested too deeply.
    """
    try:
        document = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep") from None
    if _depth(document) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
    return document


def _depth(document: Any) -> int:
    """How deeply lists and objects nest in ``document`` (0 for a scalar), without recursion."""
    deepest = 0
    stack = [(document, 1)]
    while stack:
        value, level = stack.pop()
        children = (value.values() if isinstance(value, dict)
                    else value if isinstance(value, list) else None)
        if children is None:
            continue
        deepest = max(deepest, level)
        if level <= MAX_DEPTH:
            stack.extend((child, level + 1) for child in children)
    return deepest
