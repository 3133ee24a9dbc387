"""Edge stage: a persistent, incremental index of a repository in SQLite.

``open_index(root)`` brings the database up to date with the files on disk and returns a
``StoredIndex``, which answers the queries of ``graph.view.IndexView`` (the walker and the
source reader use only those) by reading just the rows a gather touches. Modules:
``schema`` (tables, connections, transactions), ``scan`` and ``workers`` (reading files
into rows, in worker processes), ``update`` (bringing the tables in line with the disk),
``query`` and ``edges`` (the query surface), ``lexical`` (BM25 over the postings),
``location`` (where the database lives, recovery from damage), ``consistency`` (rows
referring to deleted rows are damage too).

Storage (``SCHEMA_VERSION``; a database with another version, another fingerprint (of the
parsers and of ctxopt's code: ``schema.fingerprint``) or another root is emptied and
rebuilt, never misread):

- ``files``: every selected or content-skipped file keyed by path, with size, mtime (ns),
  a BLAKE2 hash of the content, language, line count, skip reason (``file_tags`` puts a
  file's references back in tag order from ``uses`` and ``import_specs``);
- ``defs``: each file's definitions (node ``path#idx``), indexed by name and, for methods
  declared out of line, by the name of their type (``owner``, ``graph.rules``);
- ``uses``: each file's references *unresolved*, one row per (file, name) packing every
  use's line, kind and enclosing definition, indexed by name (5x fewer rows than uses);
- ``import_specs``: each file's import specifiers in tag order;
- ``bindings``: the names each file's imports bind (``graph.bindings``), with the file the
  module names (``dst``, resolved with the import edges), indexed by the imported name;
- ``imports``: resolved file -> file import edges, indexed on both endpoints;
- ``postings``: the BM25 term counts of each parsed file's lexical documents
  (``lexical.file_documents``), one row per (term, file) indexed by term, a file's rows
  one range of rowids (``schema.POSTING_BITS``: deleted by it, no index by file), with
  ``data`` = marshalled ints (tf in the file's document or None, then (definition index, tf,
  definition document length) for each definition holding the term); the files' columns
  ``doc_count``, ``doc_length`` and ``file_length`` give the collection statistics. A
  gather scores only the task's terms (``StoredLexical``, the formula of
  ``lexical.LexicalIndex``, with the same results), and a changed file replaces its rows.

Edges (``edges``). ``contains`` edges are the ``parent`` column (plus ``owner``);
``imports`` are stored; ``references``, ``inherits`` and ``tests`` edges are resolved at
query time from ``uses`` and ``bindings`` with ``graph.resolve`` (same file, what the
imports bind, imported files, same namespace, same package, else every definition when
few). So when a file changes, nothing but its own rows, the import edges and the bindings'
files need repair: a reference anywhere re-resolves against the current definitions on the
next query. Import edges and bindings are recomputed for the changed files, or for all
files when the set of files, a ``go.mod`` or a ``tsconfig.json`` changed.

Update, before every gather: one ``stat`` per candidate; a file whose size and mtime
match is unchanged (unless its mtime was within ``RACY_NS`` of when it was checked, then
its hash decides); others are read and hashed, and parsed again only when the hash
differs. Cold indexing parses in worker processes; an update runs with the cyclic garbage
collector paused (it makes no cycles of note, and the passes cost a tenth of the CPU).
One update at a time: a lock file beside the database (``lock.update_lock``) makes
concurrent runs wait for the running update and then find the index current. Writes go
in short ``BEGIN IMMEDIATE`` transactions (WAL mode, retried while busy), so readers are
never blocked and a killed run leaves committed batches that the next run keeps; an
``imports_dirty`` mark makes it redo the import edges.
"""
from __future__ import annotations

import os
import sqlite3
import time
from collections import Counter
from pathlib import Path

from ..discover import check_root
from ..files.reasons import REASON_DAMAGED_INDEX
from ..model import Diagnostic
from ..errors import IndexDamaged, IndexStoreError, NotAnIndexError, UsageError
from .lock import update_lock
from .location import check_ours, is_corruption, move_aside, writable_location
from .options import IndexOptions, UpdateReport
from .query import StoredIndex
from . import schema
from .schema import SCHEMA_VERSION, connect, ensure_indexes, prepare_schema, read_meta
from .update import update_tables, without_cyclic_gc

__all__ = ["StoredIndex", "IndexOptions", "UpdateReport", "open_index", "IndexStoreError",
           "NotAnIndexError", "SCHEMA_VERSION", "INDEX_ENV"]

INDEX_ENV = "CTXOPT_INDEX"


def open_index(root: Path | str, options: IndexOptions | None = None
               ) -> tuple[StoredIndex, UpdateReport]:
    """Bring the persistent index of ``root`` up to date and open it for queries.

    Parameters
    ----------
    root : path
        The repository's root directory.
    options : IndexOptions, optional
        Database path, worker count, file size limit, progress callback.

    Returns
    -------
    (StoredIndex, UpdateReport)
        The index (close it, or use it as a context manager) and what the update did.

    Raises
    ------
    UsageError
        ``root`` is not a directory, or is a git directory (``discover.check_root``).
    IndexStoreError
        The database path holds something that is not a ctxopt index, or cannot be
        written, or the database fails.
    """
    started = time.monotonic()
    options = options or IndexOptions()
    root = Path(root)
    if not root.is_dir():
        raise UsageError(f"root {str(root)!r} is not a directory")
    check_root(root, str(root))
    root = root.resolve()
    requested = options.path
    if requested is None and os.environ.get(INDEX_ENV):
        requested = Path(os.environ[INDEX_ENV])
    # (a run that indexes nothing leaves no directory the user did not have: ``close``)
    made = None if requested is not None or os.path.lexists(root / ".ctxopt") else root / ".ctxopt"
    location, note = writable_location(root, requested)
    if note and options.notify:
        options.notify(note)
    # the default location is ctxopt's own cache: a damaged file there is moved aside and
    # the index rebuilt; a path the user gave is never touched
    own = requested is None and location != ":memory:"
    repaired: list[Diagnostic] = []
    for attempt in range(2):
        try:
            index, report = _open_at(root, location, own, options, note)
            break
        except IndexDamaged as exc:
            if attempt:
                raise IndexStoreError(f"the index {location} failed: {exc}") from exc
            if os.path.isdir(location):  # no index, and maybe the user's: never moved
                raise IndexStoreError(f"the index location {location} is a directory: "
                                      "remove it, or choose another --index") from exc
            try:
                aside = move_aside(location)
            except OSError as error:
                raise IndexStoreError(f"the index {location} is damaged ({exc}) and cannot be "
                                      f"moved aside: {error.strerror}") from error
            message = f"the index {location} was damaged ({exc}); moved it to {aside} and rebuilt it"
            if options.notify:
                options.notify(message)
            repaired.append(Diagnostic(location, REASON_DAMAGED_INDEX, message))
    index.diagnostics = sorted(index.diagnostics + repaired, key=lambda d: (d.path, d.reason))
    if made is not None and location == str(made / "index.db"):
        index.made = made
    # (a damaged index replaced is no skipped file: its diagnostic says so on its own)
    report.skipped = dict(sorted(Counter(d.reason for d in index.diagnostics
                                         if d.reason != REASON_DAMAGED_INDEX).items()))
    report.seconds = time.monotonic() - started
    return index, report


def _failure(location: str, exc: sqlite3.DatabaseError) -> IndexStoreError:
    """The error for a database at ``location`` that failed: a damaged one at a path the
    user gave (which ctxopt never moves or deletes) says what to do about it."""
    if is_corruption(exc):
        return IndexStoreError(f"the index {location} is damaged ({exc}); ctxopt leaves an "
                               "index path you gave alone: delete the file, or choose "
                               "another --index, and a new index is built")
    return IndexStoreError(f"the index {location} failed: {exc}")


def _open_at(root: Path, location: str, own: bool, options: IndexOptions, note: str
             ) -> tuple[StoredIndex, UpdateReport]:
    """Open (create) and update the database at ``location``, holding its update lock
    (``lock.update_lock``: concurrent runs wait for this update, then reuse it). Raises
    ``IndexDamaged`` when ``own`` and the file there is not an index or is corrupt."""
    if location != ":memory:" and not own:
        check_ours(Path(location))  # before the lock file is made beside a path not ours
    with update_lock(location, options.notify):
        if location != ":memory:":
            try:
                check_ours(Path(location))
            except NotAnIndexError as exc:
                if own:
                    raise IndexDamaged("not a ctxopt index") from exc
                raise
        try:
            conn = connect(location)
        except sqlite3.DatabaseError as exc:
            if own and is_corruption(exc):
                raise IndexDamaged(str(exc)) from exc
            raise _failure(location, exc) from exc
        try:
            held = read_meta(conn).get("root")
            rebuilt = prepare_schema(conn, str(root), schema.fingerprint(options.hygiene))
            if rebuilt and held and held != read_meta(conn).get("root") and options.notify:
                # (trial 10: two roots sharing one --index rebuilt it in turn, unsaid)
                options.notify(f"the index {location} held another root, {held}; "
                               f"rebuilt it for {root}")
            ensure_indexes(conn)
            report = UpdateReport(path=location, rebuilt=rebuilt, note=note)
            with without_cyclic_gc():
                name_skips = update_tables(conn, root, options, report, checked=True)
            index = StoredIndex(conn, root, name_skips, location if own else None)
        except BaseException as exc:
            conn.close()
            if isinstance(exc, sqlite3.DatabaseError):
                if own and is_corruption(exc):
                    raise IndexDamaged(str(exc)) from exc
                raise _failure(location, exc) from exc
            raise
    return index, report

