"""Rows that refer to rows the index does not hold: damage, like a malformed file.

SQLite keeps each row intact, but rows deleted by hand or by a tool (``DELETE FROM defs
WHERE ...``) leave others pointing at nothing: a definition, use, posting, binding,
import edge or resolved use of a file id that ``files`` lacks (``FilePaths``), a file
with fewer definitions than its ``doc_count`` (``whole_definitions``), a resolved use
without its ``uses`` row (``edges``), rows of a deleted file whose id a new file is
given (``update.write_file``). They are found where an id is looked up, at no cost to
a sound index, and raise ``IndexInconsistent``, which ``location.is_corruption`` counts
as damage: ctxopt's own index is then moved aside and rebuilt in the same run.
Rows deleted that nothing refers to (a use, a posting, an import edge) are not found.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ..model import Definition

__all__ = ["IndexInconsistent", "FilePaths", "whole_definitions"]


class IndexInconsistent(sqlite3.DatabaseError):
    """A row of the index refers to a row it does not hold (rows were deleted)."""


class FilePaths(dict[int, str]):
    """File id -> path of the ``files`` rows of one snapshot. Every id stored elsewhere
    names one of them, so looking up a missing id (``paths[file_id]``) raises
    ``IndexInconsistent``, not ``KeyError``; ``get`` still returns None."""

    def __missing__(self, file_id: int) -> str:
        raise IndexInconsistent(f"a row refers to file id {file_id}, which the files table "
                                "does not hold")


def whole_definitions(path: str, rows: Sequence[tuple], expected: int) -> tuple[Definition, ...]:
    """The ``Definition`` of each ``defs`` row of ``path``, in order; ``rows`` are
    (idx, name, kind, qualified name, start line, end line, signature, parent) by idx, and
    ``expected`` is the file's ``doc_count`` (0 for a file not parsed).

    Raises
    ------
    IndexInconsistent
        The rows are not ``idx`` 0 .. ``expected`` - 1: some were deleted, so node ids
        (``path#idx``) would name the wrong definitions.
    """
    if len(rows) != expected or any(row[0] != i for i, row in enumerate(rows)):
        raise IndexInconsistent(f"{path} holds {len(rows)} of its {expected} definitions")
    return tuple(Definition(*row[1:]) for row in rows)
