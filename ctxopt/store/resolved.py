"""The resolved-use cache: what each use of a ``uses`` row resolves to, kept between runs.

Resolving the uses of a common name (``graph.resolve.resolve`` over every file that uses
it) is most of a warm gather's work, and its answer changes only when one of its inputs
does. Table ``resolved(file_id, name, data)``: for the ``uses`` row (file, name), ``data``
= marshal of ((enclosing, kind, line, reason, ((target file id, target index), ...)), ...)
for each of its uses that resolves to something, in the row's order.

Gathers fill it (``ResolvedCache.flush`` when the index closes), and only when nothing was
written since they read the index (the ``generation`` in ``meta``) and the import edges
were current. Updates empty what may have changed, in the transaction that writes the
file (``forget_file``):

- every row of a file written or deleted (its uses, bindings, imports and language);
- the rows of the uses of a name whose definitions changed (added, removed, or another
  kind, parent, parent kind, qualified name or ``static``-ness (``graph.resolve.
  is_static_method``): lines do not matter to resolution), or
  that a changed binding names, and of every local name that imports bind to those,
  through re-exports (``bound_names``); all rows when a star import changed;
- all rows when the import edges are recomputed for every file (``forget_all``).
"""
from __future__ import annotations

import contextlib
import marshal
import sqlite3
from collections.abc import Iterable

from ..graph.resolve import is_static_signature
from .schema import chunks, marks

__all__ = ["ResolvedCache", "bound_names", "cached", "resolution_inputs", "forget_file",
           "forget_all"]

# (enclosing, use kind, line, reason, targets as (file id, definition index))
Resolution = tuple[int | None, str, int, str, tuple[tuple[int, int], ...]]


def bound_names(conn: sqlite3.Connection, names: Iterable[str]) -> set[str]:
    """``names`` and every local name that imports bind to one of them, directly or
    through renaming re-exports, to any depth (a superset of what resolution follows)."""
    found = set(names) - {"*"}
    frontier = sorted(found)
    while frontier:
        locals_: set[str] = set()
        for chunk in chunks(frontier):
            locals_.update(local for (local,) in conn.execute(
                f"SELECT DISTINCT local FROM bindings WHERE name IN ({marks(len(chunk))})",
                chunk))
        frontier = sorted(locals_ - found - {"*"})
        found.update(frontier)
    return found


def resolution_inputs(conn: sqlite3.Connection, file_id: int
                      ) -> tuple[set[tuple], list[tuple[str, str, str]]]:
    """What resolution reads of a stored file: its definitions as (index, name, kind,
    qualified name, parent, parent kind, static), and its bindings as (local, name, module)."""
    rows = conn.execute("SELECT idx, name, kind, qualified_name, parent, signature FROM defs"
                        " WHERE file_id = ? ORDER BY idx", (file_id,)).fetchall()
    return _definition_keys(rows), conn.execute(
        "SELECT local, name, module FROM bindings WHERE file_id = ? ORDER BY seq",
        (file_id,)).fetchall()


def _definition_keys(rows: list[tuple]) -> set[tuple]:
    kinds = {row[0]: row[2] for row in rows}
    return {(idx, name, kind, qualified, parent, kinds.get(parent),
             is_static_signature(kind, name, signature))
            for idx, name, kind, qualified, parent, signature in rows}


def forget_file(conn: sqlite3.Connection, file_id: int,
                before: tuple[set[tuple], list[tuple[str, str, str]]],
                after: tuple[set[tuple], list[tuple[str, str, str]]] | None) -> None:
    """Drop the rows a change of the file ``file_id`` may have made wrong; ``before`` and
    ``after`` are its ``resolution_inputs`` (``after`` None: the file is gone)."""
    definitions, bindings = after or (set(), [])
    conn.execute("DELETE FROM resolved WHERE file_id = ?", (file_id,))
    names = {key[1] for key in before[0] ^ definitions}
    if before[1] != bindings:
        changed = set(before[1]) ^ set(bindings) or set(before[1])  # reordered: all of them
        if any("*" in (local, name) for local, name, _ in changed):
            forget_all(conn)
            return
        names.update(part for local, name, _ in changed for part in (local, name))
    if names:
        for chunk in chunks(sorted(bound_names(conn, names))):
            conn.execute(f"DELETE FROM resolved WHERE name IN ({marks(len(chunk))})",
                         chunk)


def cached(conn: sqlite3.Connection) -> bool:
    """True when the table holds any row (an update has something to forget)."""
    return conn.execute("SELECT 1 FROM resolved LIMIT 1").fetchone() is not None


def forget_all(conn: sqlite3.Connection) -> None:
    """Drop every row (import edges recomputed for all files)."""
    conn.execute("DELETE FROM resolved")


class ResolvedCache:
    """The rows a gather read or computed, and the new ones to store when it closes."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        """Reads the index's generation: call inside the gather's read transaction."""
        self._conn = conn
        meta = dict(conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('generation', 'imports_dirty')"))
        self._generation = meta.get("generation")
        self._writable = meta.get("imports_dirty") != "1"
        self._new: dict[tuple[int, str], bytes] = {}

    def load(self, names: list[str]) -> dict[tuple[int, str], list[Resolution]]:
        """The stored rows of the uses of ``names``, keyed (file id, name)."""
        found = {}
        for chunk in chunks(names):
            for file_id, name, data in self._conn.execute(
                    f"SELECT file_id, name, data FROM resolved WHERE name IN ({marks(len(chunk))})",
                    chunk):
                found[(file_id, name)] = marshal.loads(data)
        return found

    def load_file(self, file_id: int) -> dict[str, list[Resolution]]:
        """The stored rows of the uses in one file, keyed by name."""
        return {name: marshal.loads(data) for name, data in self._conn.execute(
            "SELECT name, data FROM resolved WHERE file_id = ?", (file_id,))}

    def add(self, file_id: int, name: str, resolutions: list[Resolution]) -> None:
        """Keep a newly computed row, to store at ``flush``."""
        self._new[(file_id, name)] = marshal.dumps(tuple(resolutions))

    def flush(self) -> None:
        """Store the new rows, when the index is still at the generation they were read
        at; called after the read transaction ended. Never raises for a database that is
        busy, read-only or failing: the rows are a cache."""
        if not self._new or not self._writable:
            return
        conn = self._conn
        with contextlib.suppress(sqlite3.Error):
            conn.execute("PRAGMA busy_timeout = 200")
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
                if (row[0] if row else None) == self._generation:
                    conn.executemany("INSERT OR IGNORE INTO resolved(file_id, name, data)"
                                     " VALUES (?, ?, ?)",
                                     [(f, n, d) for (f, n), d in sorted(self._new.items())])
                conn.execute("COMMIT")
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
        self._new.clear()

