"""Bringing the tables in line with the files on disk (see ``ctxopt.store``)."""
from __future__ import annotations

import contextlib
import gc
import os
import posixpath
import re
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, cast

from ..discover import list_candidates
from ..model import Diagnostic
from .options import IndexOptions, UpdateReport
from . import resolved as resolved_uses
from .consistency import IndexInconsistent
from .parsecache import ParseCache, cache_directory
from .recheck import file_rules, must_recheck, store_rules, stored_rules
from .schema import (BUMP_GENERATION, SQL_VARS, Transaction, connect, drop_indexes,
                     ensure_indexes, fingerprint, key_path, marks, path_key, posting_rowids,
                     read_meta)

if TYPE_CHECKING:
    from .scan import ScanResult

__all__ = ["update_tables", "without_cyclic_gc", "write_file", "delete_file", "name_table",
           "update_imports", "plan_imports", "write_imports", "ImportPlan",
           "RACY_NS", "COMMIT_EVERY", "BULK_LOAD"]

# An mtime this close to the moment the file was checked cannot prove it unchanged
# (a write in the same clock tick keeps the mtime): such files are hashed again.
RACY_NS = 2_000_000_000
COMMIT_EVERY = 64  # files per write transaction while indexing
BULK_LOAD = 500  # more files than this to load (and most of the index): index afterwards
# Files whose content changes how imports resolve anywhere: a change recomputes them all.
_IMPORT_CONFIG = re.compile(r"^(go\.mod|[tj]sconfig.*\.json)$")


@contextlib.contextmanager
def without_cyclic_gc() -> Iterator[None]:
    """The cyclic garbage collector paused (and restored as it was after): an update makes
    millions of short-lived tuples and no cycles of note, and the collector's passes over
    the heap cost about a tenth of a cold index's CPU time. Reference counting still frees
    everything as usual."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def update_tables(conn: sqlite3.Connection, root: Path, options: IndexOptions,
           report: UpdateReport, *, checked: bool = False) -> list[Diagnostic]:
    """Bring the tables in line with the files on disk (see ``ctxopt.store``);
    ``checked``: ``root`` passed ``discover.check_root`` already (``open_index``).

    Returns the diagnostics of the files skipped by name (not stored: cheap to redo)."""
    candidates, name_skips = list_candidates(root, max_file_bytes=options.max_file_bytes,
                                             config=options.hygiene, checked=checked)
    if options.listed:
        options.listed(len(candidates))
    stored = {key_path(row[0]): row[1:] for row in conn.execute(
        "SELECT path, size, mtime_ns, checked_ns, hash, skip, language, detail FROM files")}
    work: list[tuple[str, str | None, bool | None]] = []
    sizes: dict[str, int] = {}  # the work's sizes as listed, in bytes (they order it)
    seen = set()
    old_rules, new_rules = stored_rules(conn), {}
    for candidate in candidates:
        seen.add(candidate.path)
        known = stored.get(candidate.path)
        rules = new_rules[candidate.path] = file_rules(candidate, options.hygiene)
        if known is not None and must_recheck(known[4], known[6], old_rules.get(candidate.path, ""),
                                              rules, options.hygiene):
            work.append((candidate.path, None, candidate.generated))  # judged again
            sizes[candidate.path] = candidate.size
            continue
        # (a file made unreadable since keeps its size and mtime: read again, it is
        # reported unreadable, as on a fresh index, not left out of a gather unsaid; trial 39)
        if known is not None and known[0] == candidate.size and known[1] == candidate.mtime_ns \
                and known[2] - candidate.mtime_ns > RACY_NS \
                and os.access(os.path.join(root, candidate.path), os.R_OK):
            continue
        work.append((candidate.path, known[3] if known else None, candidate.generated))
        sizes[candidate.path] = candidate.size
    removed = sorted(set(stored) - seen)
    bulk = len(work) > BULK_LOAD and len(work) > len(stored) // 2
    if bulk:
        drop_indexes(conn)
    selected_before = {p for p, row in stored.items() if row[4] is None}
    full_imports = read_meta(conn).get("imports_dirty") == "1" or bool(removed)
    changed: set[str] = set()
    current: set[str] = set()  # changed files whose import edges were kept (write_file)
    jobs = options.jobs or os.cpu_count() or 1
    pending: list[ScanResult] = []
    cache = parse_cache(options) if work else None
    report.cache = str(cache.directory) if cache is not None else ""
    # closed at once on an exception (Ctrl-C in a write): its workers are killed now, not
    # when the traceback lets go of the generator
    scan: contextlib.AbstractContextManager[Iterable[ScanResult]] = contextlib.nullcontext(())
    if work:  # (a warm gather has nothing to scan: it loads neither scanner nor workers)
        from .workers import scan_files

        scan = contextlib.closing(scan_files(root, work, jobs, options.progress, options.hygiene,
                                             cache, sizes))
    with scan as results, _closed_on_error(cache):
        for result in results:
            report.scanned += 1
            if result.status == "new":
                if cache is not None and result.hash:
                    report.cache_hits += result.cached
                    report.cache_misses += not result.cached
                changed.add(result.path)
                report.parsed += result.language is not None
                if (result.skip is None) != (result.path in selected_before) \
                        or _IMPORT_CONFIG.match(posixpath.basename(result.path)):
                    full_imports = True
            elif result.status == "gone":
                full_imports = True
            pending.append(result)
            if len(pending) >= COMMIT_EVERY:
                current |= _write_batch(conn, pending)
        current |= _write_batch(conn, pending)
    redo_imports = full_imports or bool(changed - current)
    only = None if full_imports else changed - current
    plan = None
    if bulk and redo_imports and not removed:
        plan = _index_beside_import_plan(conn, root, only, cache)
    else:
        if cache is not None:
            cache.close()
        if bulk:
            ensure_indexes(conn)
    if removed:
        report.removed_definitions = _remove(conn, removed)
        report.removed = len(removed)
    if redo_imports:
        write_imports(conn, plan_imports(conn, root, only) if plan is None else plan)
    elif changed:  # every changed file imports what it did: its edges were kept
        with Transaction(conn):
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('imports_dirty', '0')")
    if {p: r for p, r in new_rules.items() if r} != old_rules:
        store_rules(conn, new_rules)
    with Transaction(conn):  # it may write statistics: inside the retried path like every write
        conn.execute("PRAGMA optimize")
    if report.rebuilt or report.scanned > 1000:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    return name_skips


def parse_cache(options: IndexOptions) -> ParseCache | None:
    """The parse cache of ``options`` (``parsecache``), keyed for its hygiene options, or
    None when it is off."""
    directory = cache_directory(options.parse_cache)
    if directory is None:
        return None
    hygiene = options.hygiene
    # (the fingerprint holds ``code_fingerprint``: a new ctxopt reads no old entry)
    prefix = b"|".join((fingerprint(hygiene).encode(), repr(
        (hygiene.allow_secrets, hygiene.submodules, hygiene.max_line_length)).encode()))
    return ParseCache(directory, prefix)


def _write_batch(conn: sqlite3.Connection, pending: list[ScanResult]) -> set[str]:
    """Store the scanned files of ``pending`` in one transaction, then empty it. Returns
    the paths of the changed files whose import edges are still current (``write_file``)."""
    current: set[str] = set()
    if not pending:
        return current
    with Transaction(conn):
        # a file read again and found the same (its mtime too recent to trust) changes no
        # import, and with no file changed nothing clears the mark after the batch: set,
        # it would make the next run redo every import edge and forget every resolved use
        if any(result.status != "same" for result in pending):
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('imports_dirty', '1')")
        conn.execute(BUMP_GENERATION)
        for result in pending:
            if result.status == "same":
                conn.execute("UPDATE files SET size=?, mtime_ns=?, checked_ns=? WHERE path=?",
                             (result.size, result.mtime_ns, result.checked_ns,
                              path_key(result.path)))
            elif result.status == "gone":
                delete_file(conn, result.path)
            elif write_file(conn, result):
                current.add(result.path)
    pending.clear()
    return current


def _remove(conn: sqlite3.Connection, removed: list[str]) -> dict[str, tuple[str, ...]]:
    """Drop the rows of files no longer on disk (or no longer selected); returns each
    one's definitions' qualified names, in file order (``UpdateReport.removed_definitions``)."""
    held: dict[str, tuple[str, ...]] = {}
    with Transaction(conn):
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('imports_dirty', '1')")
        conn.execute(BUMP_GENERATION)
        for path in removed:
            held[path] = tuple(name for (name,) in conn.execute(
                "SELECT d.qualified_name FROM defs d JOIN files f ON f.id = d.file_id "
                "WHERE f.path = ? ORDER BY d.idx", (path_key(path),)))
            delete_file(conn, path)
    return held


# The tables holding what one file says (its rows, by ``file_id``; and its postings, by
# their rowids: ``schema.posting_rowids``).
_FILE_ROWS = ("defs", "uses", "import_specs", "bindings")


def _delete_what_it_says(conn: sqlite3.Connection, file_id: int) -> None:
    """Drop the rows that come from the content of file ``file_id`` (its definitions,
    uses, imports, bindings and postings), before it is rewritten or removed."""
    for table in _FILE_ROWS:
        conn.execute(f"DELETE FROM {table} WHERE file_id = ?", (file_id,))
    rowids = posting_rowids(file_id)
    conn.execute("DELETE FROM postings WHERE rowid BETWEEN ? AND ?", (rowids[0], rowids[-1]))
    conn.execute("DELETE FROM imports WHERE src = ?", (file_id,))


def delete_file(conn: sqlite3.Connection, path: str) -> None:
    """Drop every row of ``path``, and the links of other files to it."""
    row = conn.execute("SELECT id FROM files WHERE path = ?", (path_key(path),)).fetchone()
    if row is None:
        return
    file_id = row[0]
    before = resolved_uses.resolution_inputs(conn, file_id) if resolved_uses.cached(conn) else None
    _delete_what_it_says(conn, file_id)
    conn.execute("UPDATE bindings SET dst = NULL WHERE dst = ?", (file_id,))
    conn.execute("DELETE FROM imports WHERE dst = ?", (file_id,))
    conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
    if before is not None:
        resolved_uses.forget_file(conn, file_id, before, None)


def write_file(conn: sqlite3.Connection, result: ScanResult) -> bool:
    """Store one new or changed file's rows (``result.status == "new"``). Returns True
    when the file was stored before with the same language, import specifiers and bound
    modules: its import edges and its bindings' files were kept and are current (the
    other files being the same: a file added or removed redoes every file's edges)."""
    path, size, mtime_ns, checked_ns, digest = (result.path, result.size, result.mtime_ns,
                                                result.checked_ns, result.hash)
    language, line_count, skip, detail, notes = (result.language, result.line_count,
                                                 result.skip, result.detail, result.notes)
    defs, uses, imports, lexical = result.defs, result.uses, result.imports, result.lexical
    row = conn.execute("SELECT id, hash, skip, detail FROM files WHERE path = ?",
                       (path_key(path),)).fetchone()
    if row is not None and digest and row[1:] == (digest, skip, detail):
        # another process stored this content and verdict meanwhile: keep its rows (readers
        # may use them)
        conn.execute("UPDATE files SET size=?, mtime_ns=?, checked_ns=? WHERE id=?",
                     (size, mtime_ns, checked_ns, row[0]))
        return False
    doc_count, doc_length, file_length, postings = lexical or (None, None, None, ())
    before = None
    if resolved_uses.cached(conn):
        before = resolved_uses.resolution_inputs(conn, row[0]) if row else (set(), [])
    if row is None:
        file_id = conn.execute(
            "INSERT INTO files(path, size, mtime_ns, checked_ns, hash, language, line_count,"
            " skip, detail, notes, doc_count, doc_length, file_length)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (path_key(path), size, mtime_ns, checked_ns, digest, language, line_count, skip, detail,
             notes, doc_count, doc_length, file_length)
        ).lastrowid
    else:
        file_id = row[0]
        old_imports = _import_state(conn, file_id)
        _delete_what_it_says(conn, file_id)
        conn.execute(
            "UPDATE files SET size=?, mtime_ns=?, checked_ns=?, hash=?, language=?,"
            " line_count=?, skip=?, detail=?, notes=?, doc_count=?, doc_length=?,"
            " file_length=? WHERE id=?",
            (size, mtime_ns, checked_ns, digest, language, line_count, skip, detail, notes,
             doc_count, doc_length, file_length, file_id))
    try:
        _insert_rows(conn, "defs", [(file_id, *d) for d in defs])
        _insert_rows(conn, "uses", [(file_id, *u) for u in uses])
        _insert_rows(conn, "import_specs", [(file_id, *i) for i in imports])
        _insert_rows(conn, "bindings", [(file_id, *b, None) for b in result.bindings])
        # (a bytearray binds as the same BLOB, but without the sqlite3 module's search for
        # an adapter that a bytes value goes through: 0.37 -> 0.22 s for sympy's 282,000 rows)
        _insert_rows(conn, "postings", [(rowid, term, file_id, bytearray(data))
                                        for rowid, (term, data)
                                        in zip(posting_rowids(cast(int, file_id)), postings)],
                     "(rowid, term, file_id, data)")
    except sqlite3.IntegrityError as exc:
        # its rows were all deleted above, or its id is new: these are the rows of a file
        # whose files row was deleted by hand, and whose id a new file was given
        raise IndexInconsistent(
            f"rows of a file that is gone hold {path}'s file id ({exc})") from exc
    if before is not None and file_id is not None:
        resolved_uses.forget_file(conn, file_id, before, resolved_uses.resolution_inputs(conn, file_id))
    if row is None or file_id is None:
        return False
    from ..graph.bindings import import_specifiers

    specifiers = tuple(import_specifiers((name, kind, line, None)
                                         for _, name, kind, line, _ in imports))
    if (language, specifiers, tuple(b[1] for b in result.bindings)) != old_imports[:3]:
        return False
    edges, targets = old_imports[3:]
    conn.executemany("INSERT OR IGNORE INTO imports(src, dst) VALUES (?, ?)",
                     [(file_id, dst) for dst in edges])
    conn.executemany("UPDATE bindings SET dst = ? WHERE file_id = ? AND seq = ?",
                     [(dst, file_id, seq) for seq, dst in targets if dst is not None])
    return True


# Rows an INSERT statement stores at most when a file's rows are written: one statement
# of many rows costs SQLite and the sqlite3 module less than as many statements of one.
_ROWS_PER_INSERT = 32


def _insert_rows(conn: sqlite3.Connection, table: str, rows: list[tuple],
                 columns: str = "") -> None:
    """Insert ``rows`` (of the table's columns, in order, or of ``columns``: ``(a, b)``)
    into ``table``, in their order."""
    if not rows:
        return
    row = f"({marks(len(rows[0]))})"
    size = min(_ROWS_PER_INSERT, SQL_VARS // len(rows[0]))
    whole = len(rows) - len(rows) % size  # the rows that fill statements of ``size``
    if whole:
        conn.executemany(f"INSERT INTO {table}{columns} VALUES " + ",".join([row] * size),
                         [list(chain.from_iterable(rows[i:i + size]))
                          for i in range(0, whole, size)])
    if whole < len(rows):
        conn.executemany(f"INSERT INTO {table}{columns} VALUES {row}", rows[whole:])


def _import_state(conn: sqlite3.Connection, file_id: int) -> tuple:
    """What a stored file's import edges depend on (language, import specifiers, bound
    modules) and what they are (import edge targets, (binding seq, file) pairs)."""
    language = conn.execute("SELECT language FROM files WHERE id = ?", (file_id,)).fetchone()[0]
    specs = conn.execute("SELECT name, kind, line FROM import_specs WHERE file_id = ? ORDER BY seq",
                         (file_id,)).fetchall()
    bindings = conn.execute("SELECT seq, module, dst FROM bindings WHERE file_id = ? ORDER BY seq",
                            (file_id,)).fetchall()
    edges = [dst for (dst,) in conn.execute("SELECT dst FROM imports WHERE src = ?", (file_id,))]
    from ..graph.bindings import import_specifiers

    return (language, tuple(import_specifiers((n, k, line, None) for n, k, line in specs)),
            tuple(module for _, module, _ in bindings), edges,
            [(seq, dst) for seq, _, dst in bindings])


class ImportPlan(NamedTuple):
    """What ``plan_imports`` found, for ``write_imports`` to store."""

    sources: dict[str, int] | None  # the files recomputed: path -> file id; None: every file
    edges: list[tuple[int, int]]  # the import edges (src, dst) as file ids, sorted
    resolved: list[tuple[int | None, int, int]]  # the bindings' files: (dst or None, file id, seq)


@contextlib.contextmanager
def _closed_on_error(cache: ParseCache | None) -> Iterator[None]:
    """Close ``cache`` (writing the entries it still holds) when the block raises; after
    the block the caller closes it (``_index_beside_import_plan``)."""
    try:
        yield
    except BaseException:
        if cache is not None:
            cache.close()
        raise


def _index_beside_import_plan(conn: sqlite3.Connection, root: Path, only: set[str] | None,
                              cache: ParseCache | None = None) -> ImportPlan | None:
    """``ensure_indexes(conn)`` while ``plan_imports`` reads and resolves on a connection of
    its own in another thread: building the indexes is SQLite's C code, which lets go of
    the GIL, and the plan is Python, so they overlap on two cores (0.42 s and 0.19 s of a
    cold index of sympy, which was otherwise serial). The parse ``cache`` is closed in
    that thread too, after the plan: its last entries' write and checkpoint (34 ms of
    wall, 4 ms of CPU, at a load of 7) were serial before. None (nothing planned) for a
    database without a file."""
    database = conn.execute("PRAGMA database_list").fetchone()[2]
    if not database:
        if cache is not None:
            cache.close()
        ensure_indexes(conn)
        return None

    def plan() -> ImportPlan:
        try:
            reader = connect(database)
            try:
                return plan_imports(reader, root, only)
            finally:
                reader.close()
        finally:
            if cache is not None:
                cache.close()

    from concurrent.futures import ThreadPoolExecutor  # (4 ms, with logging: not for a warm gather)

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ctxopt imports") as pool:
        planned = pool.submit(plan)
        ensure_indexes(conn)
    return planned.result()


def update_imports(conn: sqlite3.Connection, root: Path, only: set[str] | None) -> None:
    """Recompute the import edges and the bindings' files of the files in ``only`` (None:
    of every file)."""
    write_imports(conn, plan_imports(conn, root, only))


def plan_imports(conn: sqlite3.Connection, root: Path, only: set[str] | None) -> ImportPlan:
    """The import edges and bindings' files of the files in ``only`` (None: of every
    file), read and resolved but not written (``write_imports``); only reads ``conn``."""
    from ..graph.bindings import import_specifiers
    from ..graph.imports import ImportResolver
    from ..graph.manifests import go_modules, read_ts_paths

    ids = {key_path(path): file_id for path, file_id in conn.execute(
        "SELECT path, id FROM files WHERE skip IS NULL")}
    paths = sorted(ids)
    resolver = ImportResolver(paths, go_modules(root, ids), read_ts_paths(root, paths))
    sources = ids if only is None else {p: ids[p] for p in only if p in ids}
    languages = dict(conn.execute("SELECT id, language FROM files WHERE language IS NOT NULL"))
    specs: dict[int, list[tuple[str, str, int, None]]] = defaultdict(list)
    bindings: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for file_id in ([None] if only is None else sources.values()):
        where = "" if file_id is None else " WHERE file_id = ?"
        arguments = () if file_id is None else (file_id,)
        for source, name, kind, line in conn.execute(
                f"SELECT file_id, name, kind, line FROM import_specs{where} ORDER BY file_id, seq",
                arguments):
            specs[source].append((name, kind, line, None))
        for source, seq, module in conn.execute(
                f"SELECT file_id, seq, module FROM bindings{where} ORDER BY file_id, seq", arguments):
            bindings[source].append((seq, module))
    edges: set[tuple[int, int]] = set()
    resolved: list[tuple[int | None, int, int]] = []
    for path, file_id in sorted(sources.items()):
        language = languages.get(file_id)
        if language is None:
            continue
        for specifier in import_specifiers(specs[file_id]):
            for target in resolver.resolve(language, path, specifier):
                if target != path and target in ids:
                    edges.add((file_id, ids[target]))
        for seq, module in bindings[file_id]:
            targets = [t for t in resolver.resolve(language, path, module) if t != path and t in ids]
            resolved.append((ids[targets[0]] if targets else None, file_id, seq))
    return ImportPlan(None if only is None else sources, sorted(edges), resolved)


def write_imports(conn: sqlite3.Connection, plan: ImportPlan) -> None:
    """Store what ``plan_imports`` found, in one transaction."""
    sources, edges, resolved = plan
    with Transaction(conn):
        conn.execute(BUMP_GENERATION)  # uses resolved before this are not stored
        if sources is None:
            resolved_uses.forget_all(conn)
            conn.execute("DELETE FROM imports")
        else:
            for file_id in sources.values():
                conn.execute("DELETE FROM imports WHERE src = ?", (file_id,))
        conn.executemany("INSERT OR IGNORE INTO imports(src, dst) VALUES (?, ?)", edges)
        conn.executemany("UPDATE bindings SET dst = ? WHERE file_id = ? AND seq = ?", resolved)
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('imports_dirty', '0')")


def name_table(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Definition name -> node ids of the selected files, by path then position."""
    paths = {file_id: key_path(key) for file_id, key in conn.execute(
        "SELECT id, path FROM files WHERE skip IS NULL")}
    rank = {file_id: r for r, file_id in enumerate(sorted(paths, key=paths.__getitem__))}
    rows = [row for row in conn.execute("SELECT file_id, idx, name FROM defs ORDER BY file_id, idx")
            if row[0] in rank]
    rows.sort(key=lambda row: rank[row[0]])  # stable: by path, then position
    named: dict[str, list[str]] = {}
    for file_id, i, name in rows:
        named.setdefault(name, []).append(f"{paths[file_id]}#{i}")
    return named

