"""Edge stage: a persistent, incremental index of a repository in SQLite.

``open_index(root)`` brings the database up to date with the files on disk and returns a
``StoredIndex``, which answers the same queries as the in-memory ``index.Index`` (the
walker and the source reader use only those) by reading just the rows a gather touches.

Storage (``SCHEMA_VERSION``; a database with another version, another parser fingerprint
or another root is emptied and rebuilt, never misread):

- ``files``: every selected or content-skipped file keyed by path, with size, mtime (ns),
  a BLAKE2 hash of the content, language, line count, skip reason (``file_tags`` puts a
  file's references back in tag order from ``uses`` and ``import_specs``);
- ``defs``: each file's definitions (node ``path#idx``), indexed by name and, for Go
  methods declared out of line, by their receiver type (``owner``);
- ``uses``: each file's references *unresolved*, one row per (file, name) packing every
  use's line, kind and enclosing definition, indexed by name (5x fewer rows than uses);
- ``import_specs``: each file's import specifiers in tag order;
- ``imports``: resolved file -> file import edges, indexed on both endpoints;
- ``postings``: the BM25 term counts of each parsed file's lexical documents
  (``lexical.file_documents``), one row per (term, file) indexed by term and by file, with
  ``data`` = marshalled ints (tf in the file's document or None, then (definition index, tf,
  definition document length) for each definition holding the term); the files' columns
  ``doc_count``, ``doc_length`` and ``file_length`` give the collection statistics. A
  gather scores only the task's terms (``_StoredLexical``, the formula of
  ``lexical.LexicalIndex``, with the same results), and a changed file replaces its rows.

Edges. ``contains`` edges are the ``parent`` column (plus ``owner``); ``imports`` are
stored; ``references``, ``inherits`` and ``tests`` edges are resolved at query time from
``uses`` by name, with the rule of ``index.build_graph`` (same file, else imported files,
else every definition when few). So when a file changes, nothing but its own rows and
the import edges need repair: a reference anywhere re-resolves against the current
definitions on the next query. Import edges are recomputed for the changed files, or for
all files when the set of files or a ``go.mod`` changed.

Update, before every gather: one ``stat`` per candidate; a file whose size and mtime
match is unchanged (unless its mtime was within ``RACY_NS`` of when it was checked, then
its hash decides); others are read and hashed, and parsed again only when the hash
differs. Cold indexing parses in worker processes; an update runs with the cyclic garbage
collector paused (it makes no cycles of note, and the passes cost a tenth of the CPU).
Writes go in short transactions (WAL mode, a busy timeout), so concurrent gathers both
succeed and a killed run leaves committed batches that the next run keeps; an
``imports_dirty`` mark makes it redo the import edges.
"""
from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import marshal
import os
import posixpath
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from . import hygiene
from .discover import MAX_FILE_BYTES, check_root, inspect_content, list_candidates
from .errors import CtxoptError, UsageError
from .index import _MAX_ATTRIBUTE_TARGETS, _VIA_PRIORITY, MAX_AMBIGUOUS_TARGETS, is_test_path
from .languages import HEAD_BYTES, LANGUAGES, grammars_dir, language_for_file
from .model import Definition, Diagnostic, FileTags, Reference

__all__ = ["StoredIndex", "IndexOptions", "UpdateReport", "open_index", "default_index_path",
           "IndexStoreError", "NotAnIndexError", "SCHEMA_VERSION", "INDEX_ENV"]

SCHEMA_VERSION = 4
INDEX_ENV = "CTXOPT_INDEX"
# PRAGMA application_id of a ctxopt index ("ctxo"): a database without it is not ours.
_APPLICATION_ID = 0x6374786F
_SQLITE_MAGIC = b"SQLite format 3\x00"
# An mtime this close to the moment the file was checked cannot prove it unchanged
# (a write in the same clock tick keeps the mtime): such files are hashed again.
RACY_NS = 2_000_000_000
_BUSY_TIMEOUT_S = 60.0
# Below this many files to read, parse in this process (starting workers costs more).
_PARALLEL_THRESHOLD = 48
_CHUNK = 16  # files per worker task
_COMMIT_EVERY = 400  # files per write transaction while indexing
_BULK_LOAD = 500  # more files than this to load (and most of the index): index afterwards
_SQL_VARS = 900  # host parameters per statement (SQLite's old limit is 999)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY,
    path BLOB NOT NULL UNIQUE,  -- UTF-8, undecodable bytes kept (surrogateescape)
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    checked_ns INTEGER NOT NULL,
    hash TEXT NOT NULL,
    language TEXT,
    line_count INTEGER NOT NULL DEFAULT 0,
    skip TEXT,
    detail TEXT NOT NULL DEFAULT '',
    doc_count INTEGER,    -- lexical documents: definitions (NULL: the file was not parsed)
    doc_length INTEGER,   -- their summed lengths (terms counted with repetition)
    file_length INTEGER,  -- the length of the file's own document
    notes BLOB);
CREATE TABLE IF NOT EXISTS defs(
    file_id INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    qualified_name TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    signature TEXT NOT NULL,
    parent INTEGER,
    owner TEXT,
    PRIMARY KEY (file_id, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS uses(
    file_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    count INTEGER NOT NULL,
    packed TEXT NOT NULL,
    PRIMARY KEY (file_id, name)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS import_specs(
    file_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    line INTEGER NOT NULL,
    enclosing INTEGER,
    PRIMARY KEY (file_id, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS imports(
    src INTEGER NOT NULL,
    dst INTEGER NOT NULL,
    PRIMARY KEY (src, dst)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS postings(
    term TEXT NOT NULL,
    file_id INTEGER NOT NULL,
    data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS snapshots(
    key TEXT PRIMARY KEY,
    generation INTEGER NOT NULL,
    data BLOB NOT NULL);
"""
# Secondary indexes: dropped while a cold index loads its rows, built after (a sort is
# much faster than as many random B-tree inserts); recreated on open when missing.
_INDEXES = {
    "defs_name": "CREATE INDEX defs_name ON defs(name)",
    "defs_owner": "CREATE INDEX defs_owner ON defs(owner) WHERE owner IS NOT NULL",
    "uses_name": "CREATE INDEX uses_name ON uses(name)",
    "imports_dst": "CREATE INDEX imports_dst ON imports(dst)",
    "postings_term": "CREATE INDEX postings_term ON postings(term)",
    "postings_file": "CREATE INDEX postings_file ON postings(file_id)",
}
_TABLES = ("meta", "files", "defs", "uses", "import_specs", "imports", "postings", "snapshots")
# Bumped by every transaction that may change the files or their definitions: a snapshot
# (the name table) is used only when it was built at the current generation.
_BUMP_GENERATION = ("INSERT INTO meta(key, value) VALUES ('generation', '1') ON CONFLICT(key)"
                    " DO UPDATE SET value = CAST(value AS INTEGER) + 1")
_IMPORT_KINDS = ("import", "import_member")
# Files whose content changes how imports resolve anywhere: a change recomputes them all.
_IMPORT_CONFIG = re.compile(r"^(go\.mod|[tj]sconfig.*\.json)$")


class IndexStoreError(CtxoptError):
    """The index database cannot be used (not a ctxopt index, unwritable, damaged)."""


class NotAnIndexError(IndexStoreError):
    """The index path given (``--index``, ``$CTXOPT_INDEX``) holds a file that is not a
    ctxopt index: bad input (exit 2); the file is left alone."""

    exit_code: ClassVar[int] = 2


class _Damaged(Exception):
    """The database at ctxopt's own location is not an index or is corrupt: move it aside."""


def _is_corruption(exc: sqlite3.DatabaseError) -> bool:
    """True when SQLite says the file is damaged or not a database at all."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return True
    text = str(exc)
    return "malformed" in text or "not a database" in text


def _move_aside(location: str) -> str:
    """Move a damaged database to ``<location>.corrupt`` (replacing an older one, so one
    is kept) with its WAL; drop its shared-memory file. Returns where it went."""
    aside = location + ".corrupt"
    os.replace(location, aside)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            if suffix == "-wal":
                os.replace(location + suffix, aside + suffix)
            else:
                os.unlink(location + suffix)
    return aside


@dataclass(frozen=True, slots=True)
class IndexOptions:
    """How to build the index.

    ``path``: the database file (None: ``$CTXOPT_INDEX``, else ``<root>/.ctxopt/index.db``);
    ``jobs``: worker processes for parsing (None: all cores); ``max_file_bytes``: larger
    files are skipped; ``progress``: called as ``progress(done, total)`` while files are
    read (the CLI draws a bar with it), never called when there is nothing to read;
    ``notify``: called with a one-line note for the user (e.g. where the index went when
    the root is read-only); ``hygiene``: secrets, submodules, parse time limit (a change
    rebuilds the index).
    """

    path: Path | None = None
    jobs: int | None = None
    max_file_bytes: int = MAX_FILE_BYTES
    progress: Callable[[int, int], None] | None = None
    notify: Callable[[str], None] | None = None
    hygiene: hygiene.HygieneConfig = hygiene.HygieneConfig()

    def __post_init__(self) -> None:
        if self.jobs is not None and self.jobs < 1:
            raise UsageError(f"jobs must be at least 1, got {self.jobs}")
        if self.max_file_bytes < 1:
            raise UsageError(f"max_file_bytes must be positive, got {self.max_file_bytes}")


@dataclass
class UpdateReport:
    """What one update did and what the index holds afterwards.

    ``scanned``: files read (changed or new); ``parsed``: files whose tags were rebuilt;
    ``removed``: files dropped; ``rebuilt``: the database was emptied first (new,
    schema/parser/root mismatch); ``seconds``: wall time of the update; ``note``: a
    one-line remark for the user (e.g. where the index went when the root is read-only).
    """

    path: str
    scanned: int = 0
    parsed: int = 0
    removed: int = 0
    rebuilt: bool = False
    seconds: float = 0.0
    note: str = ""
    skipped: dict[str, int] = field(default_factory=dict)


def default_index_path(root: Path) -> Path:
    """``$CTXOPT_INDEX`` when set, else ``<root>/.ctxopt/index.db``."""
    env = os.environ.get(INDEX_ENV)
    return Path(env) if env else root / ".ctxopt" / "index.db"


def _fingerprint(config: hygiene.HygieneConfig) -> str:
    """Changes whenever the tags could change: schema, languages, tag queries, hygiene."""
    digest = hashlib.blake2b(digest_size=12)
    digest.update(f"{SCHEMA_VERSION}|{sys.version_info[:2]}|{config!r}".encode())
    for language in LANGUAGES:
        digest.update(repr(language).encode())
    try:
        directory = grammars_dir()
        for query in sorted(directory.glob("*.scm")):
            digest.update(query.name.encode() + query.read_bytes())
    except (OSError, CtxoptError):
        pass
    return digest.hexdigest()


def _key(path: str) -> bytes:
    """A path as stored: UTF-8 bytes, with the bytes of names that are not UTF-8 kept."""
    return path.encode("utf-8", "surrogateescape")


def _unkey(key: bytes) -> str:
    return key.decode("utf-8", "surrogateescape")


# --- scanning (runs in worker processes) -----------------------------------------------

_ScanResult = tuple  # see _scan_one


def _scan_one(root: str, path: str, old_hash: str | None,
              config: hygiene.HygieneConfig = hygiene.HygieneConfig()) -> _ScanResult:
    """Read, hash, classify and parse one file.

    Returns ``("same", path, size, mtime_ns, checked_ns)`` when the content hash equals
    ``old_hash``, ``("gone", path)`` when the file vanished, else ``("new", path, size,
    mtime_ns, checked_ns, hash, language, line_count, skip, detail, extra, defs, uses,
    imports)`` with ``extra`` = (notes, lexical): the marshalled diagnostics (or None) and
    the ``_postings`` of the file's lexical documents (or None), and row tuples for the ``defs``,
    ``uses`` and ``import_specs`` tables (without file id).
    ``skip`` is a reason (``''``: dropped without a diagnostic) or None.
    """
    checked_ns = time.time_ns()
    full = os.path.join(root, path)
    try:
        with open(full, "rb") as handle:
            info = os.fstat(handle.fileno())
            data = handle.read()
    except FileNotFoundError:
        return ("gone", path)
    except OSError as exc:
        return ("new", path, 0, 0, checked_ns, "", None, 0, "unreadable", exc.strerror or "",
                (None, None), (), (), ())
    size, mtime_ns = info.st_size, info.st_mtime_ns
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    if digest == old_hash:
        return ("same", path, size, mtime_ns, checked_ns)
    keep, notes = inspect_content(Path(root), path, data, config)
    if not keep:
        reason, detail = (notes[0].reason, notes[0].detail) if notes else ("", "")
        return ("new", path, size, mtime_ns, checked_ns, digest, None, 0, reason, detail,
                (None, None), (), (), ())
    kept_notes = marshal.dumps(tuple((d.reason, d.detail) for d in notes)) if notes else None
    language = language_for_file(path, data[:HEAD_BYTES])
    if language is None:
        return ("new", path, size, mtime_ns, checked_ns, digest, None, 0, None, "",
                (kept_notes, None), (), (), ())
    from .lexical import file_documents

    text = hygiene.normalize_newlines(hygiene.decode_text(data).text)
    try:
        tags, parse_notes = hygiene.parse_source(path, language.name, data, config, text=text,
                                                 reference_tuples=True)
    except CtxoptError:
        raise  # a broken grammar breaks every file: abort, do not record skips
    except Exception as exc:  # one file's parse failure must not abort the index
        first = (str(exc).splitlines() or [""])[0][:200]
        return ("new", path, size, mtime_ns, checked_ns, digest, None, 0, "unparsable",
                f"{type(exc).__name__}: {first}", (None, None), (), (), ())
    if tags is None:  # too slow to parse
        reason, detail = (parse_notes[0].reason, parse_notes[0].detail) if parse_notes else ("", "")
        return ("new", path, size, mtime_ns, checked_ns, digest, None, 0, reason, detail,
                (None, None), (), (), ())
    documents = file_documents(path, text, tags)
    lexical = _postings(documents)
    return ("new", path, size, mtime_ns, checked_ns, digest, language.name, tags.line_count,
            None, "", (kept_notes, lexical), _definition_rows(tags), *_reference_rows(tags))


def _postings(documents: Any) -> tuple[int, int, int, list[tuple[str, bytes]]]:
    """(definition documents, their summed length, the file document's length, postings
    rows (term, data)) of one file's ``lexical.FileDocuments`` (see the module docstring)."""
    entries: dict[str, list[int | None]] = {term: [tf] for term, tf in documents.file.items()}
    total = 0
    for i, terms in enumerate(documents.definitions):
        length = sum(terms.values())
        total += length
        for term, tf in terms.items():
            entry = entries.get(term)
            if entry is None:
                entry = entries[term] = [None]  # not in the file's document
            entry += (i, tf, length)
    dumps = marshal.dumps
    return (len(documents.definitions), total, sum(documents.file.values()),
            [(term, dumps(tuple(entry))) for term, entry in entries.items()])


def _definition_rows(tags: FileTags) -> tuple[tuple, ...]:
    rows = []
    for i, d in enumerate(tags.definitions):
        owner = None
        if d.parent is None and d.qualified_name != d.name:
            owner = d.qualified_name.rsplit(".", 1)[0]
        rows.append((i, d.name, d.kind, d.qualified_name, d.start_line, d.end_line,
                     d.signature, d.parent, owner))
    return tuple(rows)


def _reference_rows(tags: FileTags) -> tuple[tuple[tuple, ...], tuple[tuple, ...]]:
    """(uses rows, import_specs rows) of tags whose references are (name, kind, line,
    enclosing) tuples. A use packs as ``line,kind,enclosing`` (enclosing empty at module
    level), uses joined by ``;``."""
    packed: dict[str, list[str]] = defaultdict(list)
    imports = []
    for name, kind, line, enclosing in tags.references:
        if kind in _IMPORT_KINDS:
            imports.append((len(imports), name, kind, line, enclosing))
        if kind != "import":
            packed[name].append(f"{line},{kind},{'' if enclosing is None else enclosing}")
    uses = tuple((name, len(entries), ";".join(entries)) for name, entries in packed.items())
    return uses, tuple(imports)


def _unpack(packed: str) -> Iterator[tuple[int, str, int | None]]:
    """(line, kind, enclosing) of each use packed by ``_reference_rows``."""
    for entry in packed.split(";"):
        line, kind, enclosing = entry.split(",")
        yield int(line), kind, int(enclosing) if enclosing else None


def _scan_chunk(root: str, chunk: list[tuple[str, str | None]],
                config: hygiene.HygieneConfig) -> list[_ScanResult]:
    gc.disable()  # a worker makes no reference cycles worth collecting (see _without_cyclic_gc)
    return [_scan_one(root, path, old_hash, config) for path, old_hash in chunk]


def _die_with_parent() -> bool:
    """Ask the kernel to kill this process when its parent dies (Linux prctl
    PR_SET_PDEATHSIG). False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _worker_init(parent: int) -> None:
    """Set up a worker: Ctrl-C is the parent's to handle (it ends the workers), and the
    worker dies with its parent (a killed ``ctxopt index`` leaves no worker behind)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not _die_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _worker_main(conn: Any, root: str, config: hygiene.HygieneConfig, parent: int) -> None:
    """A worker: scan the chunks received on ``conn`` until None (or the pipe closes),
    answering each with ("ok", results) or ("error", exception)."""
    _worker_init(parent)
    try:
        while True:
            chunk = conn.recv()
            if chunk is None:
                return
            try:
                answer: tuple = ("ok", _scan_chunk(root, chunk, config))
            except Exception as exc:
                answer = ("error", exc)
            try:
                conn.send(answer)
            except Exception:  # an exception that does not pickle
                conn.send(("error", RuntimeError(f"{type(answer[1]).__name__}: {answer[1]}")))
    except (EOFError, OSError):
        return  # the parent went away


def _scan(root: Path, work: list[tuple[str, str | None]], jobs: int,
          progress: Callable[[int, int], None] | None,
          config: hygiene.HygieneConfig) -> Iterator[_ScanResult]:
    """Scan ``work`` ((path, old hash) pairs), in worker processes when there is much.

    The workers are plain processes with one pipe each (no helper threads): when the
    scan does not run to its end (an exception, Ctrl-C, the generator closed), they are
    killed at once, so nothing waits on a worker blocked on a pipe."""
    total = len(work)
    done = 0
    if jobs <= 1 or total < _PARALLEL_THRESHOLD:
        for path, old_hash in work:
            yield _scan_one(str(root), path, old_hash, config)
            done += 1
            if progress:
                progress(done, total)
        return
    import multiprocessing
    from multiprocessing.connection import wait

    from . import lexical, treesitter  # noqa: F401  (imported here, inherited by forked workers)

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    # largest files first, so that no worker is left with a big file at the end
    order = sorted(work, key=lambda w: -_size_or_zero(root / w[0]))
    chunks = iter([order[i:i + _CHUNK] for i in range(0, total, _CHUNK)])
    workers: dict[Any, Any] = {}  # connection -> process
    finished = False
    try:
        for _ in range(min(jobs, -(-total // _CHUNK))):
            here, there = context.Pipe()
            process = context.Process(target=_worker_main, daemon=True,
                                      args=(there, str(root), config, os.getpid()))
            process.start()
            there.close()
            workers[here] = process
        busy = set()
        for conn in workers:
            chunk = next(chunks, None)
            if chunk is not None:
                conn.send(chunk)
                busy.add(conn)
        while busy:
            for conn in wait(list(busy)):
                try:
                    status, results = conn.recv()
                except (EOFError, OSError) as exc:
                    raise IndexStoreError("a worker process died while indexing "
                                          f"(exit code {workers[conn].exitcode})") from exc
                if status != "ok":
                    raise results
                chunk = next(chunks, None)
                if chunk is None:
                    busy.discard(conn)
                else:
                    conn.send(chunk)
                yield from results
                done += len(results)
                if progress:
                    progress(done, total)
        finished = True
    finally:
        _stop_workers(workers, finished)


def _stop_workers(workers: dict[Any, Any], finished: bool) -> None:
    """End the workers: ask them to stop after a full scan, else kill them now."""
    for conn, process in workers.items():
        if finished:
            with contextlib.suppress(OSError):
                conn.send(None)
        else:
            with contextlib.suppress(Exception):
                process.kill()
    for conn, process in workers.items():
        process.join()
        conn.close()


def _size_or_zero(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


# --- the database ----------------------------------------------------------------------

def _connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=_BUSY_TIMEOUT_S, isolation_level=None,
                           check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_TIMEOUT_S * 1000)}")
    if path != ":memory:":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute("PRAGMA cache_size = -65536")  # KiB: 64 MB of page cache at most
    return conn


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (rollback on error), retried while busy."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        deadline = time.monotonic() + _BUSY_TIMEOUT_S
        while True:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                return self.conn
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if time.monotonic() > deadline:
                    raise IndexStoreError(f"the index is locked by another process: {exc}") from exc
                time.sleep(0.05)

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        if kind is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


def _meta(conn: sqlite3.Connection) -> dict[str, str]:
    try:
        return dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError:
        return {}


def _prepare_schema(conn: sqlite3.Connection, root: str, fingerprint: str) -> bool:
    """Create the tables, or empty them when the database was written for another schema,
    parser or root. Returns True when the index starts empty."""
    meta = _meta(conn)
    expected = {"schema_version": str(SCHEMA_VERSION), "fingerprint": fingerprint, "root": root}
    if meta and all(meta.get(k) == v for k, v in expected.items()):
        return False
    with _Transaction(conn):
        meta = _meta(conn)  # another process may have done it meanwhile
        if meta and all(meta.get(k) == v for k, v in expected.items()):
            return False
        for table in _TABLES:
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
        conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)",
                         sorted({**expected, "imports_dirty": "1"}.items()))
    return True


def _ensure_indexes(conn: sqlite3.Connection) -> None:
    """Create the secondary indexes that are missing (a cold index killed while loading)."""
    present = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    missing = [name for name in _INDEXES if name not in present]
    if missing:
        with _Transaction(conn):
            for name in missing:
                conn.execute(_INDEXES[name].replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS"))


def _drop_indexes(conn: sqlite3.Connection) -> None:
    with _Transaction(conn):
        for name in _INDEXES:
            conn.execute(f"DROP INDEX IF EXISTS {name}")


def _check_ours(path: Path) -> None:
    """Refuse to open a file that exists and is not a ctxopt index (never overwrite it)."""
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise IndexStoreError(f"cannot read the index {path}: {exc.strerror}") from exc
    if not header:
        return  # empty file: a database being created
    application_id = int.from_bytes(header[68:72], "big") if len(header) >= 72 else -1
    if not header.startswith(_SQLITE_MAGIC) or application_id not in (0, _APPLICATION_ID):
        raise NotAnIndexError(f"{path} exists and is not a ctxopt index; "
                              "refusing to overwrite it (choose another --index path)")


def _writable_location(root: Path, requested: Path | None) -> tuple[str, str]:
    """(database path or ':memory:', note for the user)."""
    if requested is not None:
        try:
            requested.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise IndexStoreError(f"cannot create {requested.parent}: {exc.strerror}") from exc
        if not os.access(requested.parent, os.W_OK) or (
                requested.exists() and not os.access(requested, os.W_OK)):
            raise IndexStoreError(f"cannot write the index at {requested}")
        return str(requested), ""
    directory = root / ".ctxopt"
    try:
        directory.mkdir(exist_ok=True)
        ignore = directory / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# written by ctxopt: nothing in here belongs in version control\n*\n",
                              encoding="utf-8")
        database = directory / "index.db"
        if os.access(directory, os.W_OK) and (not database.exists() or os.access(database, os.W_OK)):
            return str(database), ""
    except OSError:
        pass
    key = hashlib.blake2b(str(root).encode(), digest_size=8).hexdigest()
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    for base in (Path(cache_home) / "ctxopt", Path(tempfile.gettempdir()) / f"ctxopt-{os.getuid()}"):
        try:
            base.mkdir(parents=True, exist_ok=True)
            if os.access(base, os.W_OK):
                database = base / f"{root.name or 'root'}-{key}.db"
                return str(database), f"{root} is not writable; the index is kept in {database}"
        except OSError:
            continue
    return ":memory:", f"{root} is not writable; the index is kept in memory for this run"


def open_index(root: Path | str, options: IndexOptions | None = None
               ) -> tuple["StoredIndex", UpdateReport]:
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
        ``root`` is not a directory.
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
    location, note = _writable_location(root, requested)
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
        except _Damaged as exc:
            if attempt:
                raise IndexStoreError(f"the index {location} failed: {exc}") from exc
            try:
                aside = _move_aside(location)
            except OSError as error:
                raise IndexStoreError(f"the index {location} is damaged ({exc}) and cannot be "
                                      f"moved aside: {error.strerror}") from error
            message = f"the index {location} was damaged ({exc}); moved it to {aside} and rebuilt it"
            if options.notify:
                options.notify(message)
            repaired.append(Diagnostic(location, "damaged index", message))
    index.diagnostics = sorted(index.diagnostics + repaired, key=lambda d: (d.path, d.reason))
    report.skipped = dict(sorted(Counter(d.reason for d in index.diagnostics).items()))
    report.seconds = time.monotonic() - started
    return index, report


def _open_at(root: Path, location: str, own: bool, options: IndexOptions, note: str
             ) -> tuple["StoredIndex", UpdateReport]:
    """Open (create) and update the database at ``location``. Raises ``_Damaged`` when
    ``own`` and the file there is not an index or is corrupt."""
    if location != ":memory:":
        try:
            _check_ours(Path(location))
        except NotAnIndexError as exc:
            if own:
                raise _Damaged("not a ctxopt index") from exc
            raise
    try:
        conn = _connect(location)
    except sqlite3.DatabaseError as exc:
        if own and _is_corruption(exc):
            raise _Damaged(str(exc)) from exc
        raise IndexStoreError(f"the index {location} failed: {exc}") from exc
    try:
        rebuilt = _prepare_schema(conn, str(root), _fingerprint(options.hygiene))
        _ensure_indexes(conn)
        report = UpdateReport(path=location, rebuilt=rebuilt, note=note)
        with _without_cyclic_gc():
            name_skips = _update(conn, root, options, report)
        index = StoredIndex(conn, root, name_skips, location if own else None)
    except BaseException as exc:
        conn.close()
        if isinstance(exc, sqlite3.DatabaseError):
            if own and _is_corruption(exc):
                raise _Damaged(str(exc)) from exc
            raise IndexStoreError(f"the index {location} failed: {exc}") from exc
        raise
    return index, report


@contextlib.contextmanager
def _without_cyclic_gc() -> Iterator[None]:
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


def _update(conn: sqlite3.Connection, root: Path, options: IndexOptions,
            report: UpdateReport) -> list[Diagnostic]:
    """Bring the tables in line with the files on disk (see the module docstring).

    Returns the diagnostics of the files skipped by name (not stored: cheap to redo)."""
    candidates, name_skips = list_candidates(root, max_file_bytes=options.max_file_bytes,
                                             config=options.hygiene)
    stored = {_unkey(row[0]): row[1:] for row in conn.execute(
        "SELECT path, size, mtime_ns, checked_ns, hash, skip, language FROM files")}
    work: list[tuple[str, str | None]] = []
    seen = set()
    for candidate in candidates:
        seen.add(candidate.path)
        known = stored.get(candidate.path)
        if known is not None and known[0] == candidate.size and known[1] == candidate.mtime_ns \
                and known[2] - candidate.mtime_ns > RACY_NS:
            continue
        work.append((candidate.path, known[3] if known else None))
    removed = sorted(set(stored) - seen)
    bulk = len(work) > _BULK_LOAD and len(work) > len(stored) // 2
    if bulk:
        _drop_indexes(conn)
    meta = _meta(conn)
    selected_before = {p for p, row in stored.items() if row[4] is None}
    full_imports = meta.get("imports_dirty") == "1" or bool(removed)
    changed: set[str] = set()

    jobs = options.jobs or os.cpu_count() or 1
    pending: list[_ScanResult] = []

    def flush() -> None:
        if not pending:
            return
        with _Transaction(conn):
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('imports_dirty', '1')")
            conn.execute(_BUMP_GENERATION)
            for result in pending:
                if result[0] == "same":
                    _, path, size, mtime_ns, checked_ns = result
                    conn.execute("UPDATE files SET size=?, mtime_ns=?, checked_ns=? WHERE path=?",
                                 (size, mtime_ns, checked_ns, _key(path)))
                elif result[0] == "gone":
                    _delete_file(conn, result[1])
                else:
                    _write_file(conn, result)
        pending.clear()

    # closed at once on an exception (Ctrl-C in a write): its workers are killed now, not
    # when the traceback lets go of the generator
    scan = contextlib.closing(_scan(root, work, jobs, options.progress, options.hygiene))
    with scan as results:
        for result in results:
            report.scanned += 1
            if result[0] == "new":
                path = result[1]
                changed.add(path)
                report.parsed += result[6] is not None
                was_selected = path in selected_before
                if (result[8] is None) != was_selected or _IMPORT_CONFIG.match(posixpath.basename(path)):
                    full_imports = True
            elif result[0] == "gone":
                full_imports = True
            pending.append(result)
            if len(pending) >= _COMMIT_EVERY:
                flush()
    flush()
    if bulk:
        _ensure_indexes(conn)
    if removed:
        with _Transaction(conn):
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('imports_dirty', '1')")
            conn.execute(_BUMP_GENERATION)
            for start in range(0, len(removed), _SQL_VARS):
                for path in removed[start:start + _SQL_VARS]:
                    _delete_file(conn, path)
        report.removed = len(removed)
    if full_imports or changed:
        _update_imports(conn, root, None if full_imports else changed)
    if _meta(conn).get("generation") != _snapshot_generation(conn, "names"):
        _write_names(conn)
    conn.execute("PRAGMA optimize")
    if report.rebuilt or report.scanned > 1000:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    return name_skips


def _delete_file(conn: sqlite3.Connection, path: str) -> None:
    row = conn.execute("SELECT id FROM files WHERE path = ?", (_key(path),)).fetchone()
    if row is None:
        return
    file_id = row[0]
    conn.execute("DELETE FROM defs WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM uses WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM import_specs WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM imports WHERE src = ? OR dst = ?", (file_id, file_id))
    conn.execute("DELETE FROM postings WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM files WHERE id = ?", (file_id,))


def _write_file(conn: sqlite3.Connection, result: _ScanResult) -> None:
    (_, path, size, mtime_ns, checked_ns, digest, language, line_count, skip, detail,
     (notes, lexical), defs, uses, imports) = result
    row = conn.execute("SELECT id, hash FROM files WHERE path = ?", (_key(path),)).fetchone()
    if row is not None and digest and row[1] == digest:
        # another process stored this content meanwhile: keep its rows (readers may use them)
        conn.execute("UPDATE files SET size=?, mtime_ns=?, checked_ns=? WHERE id=?",
                     (size, mtime_ns, checked_ns, row[0]))
        return
    doc_count, doc_length, file_length, postings = lexical or (None, None, None, ())
    if row is None:
        file_id = conn.execute(
            "INSERT INTO files(path, size, mtime_ns, checked_ns, hash, language, line_count,"
            " skip, detail, notes, doc_count, doc_length, file_length)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (_key(path), size, mtime_ns, checked_ns, digest, language, line_count, skip, detail,
             notes, doc_count, doc_length, file_length)
        ).lastrowid
    else:
        file_id = row[0]
        conn.execute("DELETE FROM defs WHERE file_id = ?", (file_id,))
        conn.execute("DELETE FROM uses WHERE file_id = ?", (file_id,))
        conn.execute("DELETE FROM import_specs WHERE file_id = ?", (file_id,))
        conn.execute("DELETE FROM imports WHERE src = ?", (file_id,))
        conn.execute("DELETE FROM postings WHERE file_id = ?", (file_id,))
        conn.execute(
            "UPDATE files SET size=?, mtime_ns=?, checked_ns=?, hash=?, language=?,"
            " line_count=?, skip=?, detail=?, notes=?, doc_count=?, doc_length=?,"
            " file_length=? WHERE id=?",
            (size, mtime_ns, checked_ns, digest, language, line_count, skip, detail, notes,
             doc_count, doc_length, file_length, file_id))
    if defs:
        conn.executemany("INSERT INTO defs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         [(file_id, *d) for d in defs])
    if uses:
        conn.executemany("INSERT INTO uses VALUES (?, ?, ?, ?)", [(file_id, *u) for u in uses])
    if imports:
        conn.executemany("INSERT INTO import_specs VALUES (?, ?, ?, ?, ?, ?)",
                         [(file_id, *i) for i in imports])
    if postings:
        conn.executemany("INSERT INTO postings(term, file_id, data) VALUES (?, ?, ?)",
                         [(term, file_id, data) for term, data in postings])


def _go_modules(root: Path, files: Iterable[str]) -> dict[str, str]:
    from .index import _go_modules as read_go_modules

    return read_go_modules(root, [f for f in files if posixpath.basename(f) == "go.mod"])


def _update_imports(conn: sqlite3.Connection, root: Path, only: set[str] | None) -> None:
    """Recompute the import edges of the files in ``only`` (None: of every file)."""
    from .imports import ImportResolver
    from .manifests import read_ts_paths

    ids = {_unkey(path): file_id for path, file_id in conn.execute(
        "SELECT path, id FROM files WHERE skip IS NULL")}
    paths = sorted(ids)
    resolver = ImportResolver(paths, _go_modules(root, ids), read_ts_paths(root, paths))
    sources = ids if only is None else {p: ids[p] for p in only if p in ids}
    query = ("SELECT f.path, f.language, r.name, r.kind FROM import_specs r"
             " JOIN files f ON f.id = r.file_id")
    rows: Iterable[tuple[str, str, str, str]]
    if only is None:
        rows = conn.execute(query + " ORDER BY r.file_id, r.seq").fetchall()
    else:
        rows = []
        for path in sorted(sources):
            rows.extend(conn.execute(query + " WHERE r.file_id = ? ORDER BY r.seq", (sources[path],)))
    edges: set[tuple[int, int]] = set()
    last_module: dict[str, str] = {}
    for key, language, name, kind in rows:
        path = _unkey(key)
        if kind == "import":
            last_module[path] = name
            specifier = name
        else:
            module = last_module.get(path)
            if module is None:
                continue
            # `from pkg import mod` may name a submodule
            specifier = module + ("" if module.endswith(".") else ".") + name
        for target in resolver.resolve(language, path, specifier):
            if target != path and target in ids:
                edges.add((ids[path], ids[target]))
    with _Transaction(conn):
        if only is None:
            conn.execute("DELETE FROM imports")
        else:
            for file_id in sources.values():
                conn.execute("DELETE FROM imports WHERE src = ?", (file_id,))
        conn.executemany("INSERT OR IGNORE INTO imports(src, dst) VALUES (?, ?)", sorted(edges))
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('imports_dirty', '0')")


def _snapshot_generation(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT generation FROM snapshots WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def _names(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Definition name -> node ids of the selected files, by path then position."""
    paths = {file_id: _unkey(key) for file_id, key in conn.execute(
        "SELECT id, path FROM files WHERE skip IS NULL")}
    rank = {file_id: r for r, file_id in enumerate(sorted(paths, key=paths.__getitem__))}
    rows = [row for row in conn.execute("SELECT file_id, idx, name FROM defs ORDER BY file_id, idx")
            if row[0] in rank]
    rows.sort(key=lambda row: rank[row[0]])  # stable: by path, then position
    named: dict[str, list[str]] = {}
    for file_id, i, name in rows:
        node = f"{paths[file_id]}#{i}"
        found = named.get(name)
        if found is None:
            named[name] = [node]
        else:
            found.append(node)
    return named


def _write_names(conn: sqlite3.Connection) -> None:
    """Store the name table (``_names``) as a snapshot of the current generation."""
    with _Transaction(conn):
        generation = int(_meta(conn).get("generation", "0"))
        conn.execute("INSERT OR REPLACE INTO snapshots(key, generation, data) VALUES (?, ?, ?)",
                     ("names", generation, marshal.dumps(_names(conn))))


# --- queries ---------------------------------------------------------------------------

def _split(node: str) -> tuple[str, int]:
    path, _, index = node.rpartition("#")
    return path, int(index)


class StoredIndex:
    """The query surface of ``index.Index`` over the SQLite store (see the module docstring).

    Attributes
    ----------
    files : list of str
        Every selected file, sorted (parsed or not).
    diagnostics : list of Diagnostic
        Files skipped, by reason (see ``discover``).

    The index reads from one snapshot of the database (a read transaction held until
    ``close``), so a concurrent update cannot change its answers halfway through a gather.
    """

    def __init__(self, conn: sqlite3.Connection, root: Path,
                 name_skips: Iterable[Diagnostic] = (), own_location: str | None = None
                 ) -> None:
        """``own_location``: the database file when it is ctxopt's own (the default
        location): found damaged by a query, it is moved aside for the next run to rebuild."""
        self._conn = conn
        self.root = root
        self._own_location = own_location
        conn.execute("BEGIN")  # a read snapshot for the life of this object
        rows = sorted(((file_id, _unkey(key), *rest) for file_id, key, *rest in conn.execute(
            "SELECT id, path, skip, detail, line_count, language, notes, doc_count, doc_length,"
            " file_length FROM files")), key=lambda row: row[1])
        self._id: dict[str, int] = {}
        self._path: dict[int, str] = {}
        self.files: list[str] = []
        self.diagnostics: list[Diagnostic] = list(name_skips)
        self._line_count: dict[str, int] = {}
        self._language: dict[str, str | None] = {}
        self._file_length: dict[str, int] = {}  # of the lexical documents of files
        self._documents = [0, 0]  # definition documents, their summed length
        for (file_id, path, skip, detail, line_count, language, notes, doc_count, doc_length,
             file_length) in rows:
            self._id[path] = file_id
            self._path[file_id] = path
            if skip is None:
                self.files.append(path)
                self._line_count[path] = line_count
                self._language[path] = language
                if doc_count is not None:
                    self._file_length[path] = file_length
                    self._documents[0] += doc_count
                    self._documents[1] += doc_length
                if notes:
                    self.diagnostics += [Diagnostic(path, *n) for n in marshal.loads(notes)]
            elif skip:
                self.diagnostics.append(Diagnostic(path, skip, detail))
        self.diagnostics.sort(key=lambda d: (d.path, d.reason))
        self._file_set = frozenset(self.files)
        self._definitions: dict[str, tuple[Definition, ...]] = {}
        self._definition_of: dict[str, Definition] = {}
        self._owners: dict[str, tuple[str | None, ...]] = {}
        self._tags: dict[str, FileTags] = {}
        self._named: dict[str, list[str]] = {}
        self._all_named: dict[str, list[str]] | None = None
        self._imported: dict[str, frozenset[str]] = {}
        self._test_paths: dict[str, bool] = {}
        self._lexical: Any = None
        self._edges: dict[tuple[str, str, tuple[str, ...]], list[tuple[str, str, dict]]] = {}

    @property
    def lexical(self) -> "_StoredLexical":
        """BM25 over the parsed files' lexical documents, as ``lexical.LexicalIndex``
        (``score_definitions``, ``score_files``), reading only the query's terms."""
        if self._lexical is None:
            self._lexical = _StoredLexical(self._conn, self._path, self._file_length,
                                           *self._documents)
            self._lexical._failure = self._failure
        return self._lexical

    def _failure(self, exc: sqlite3.DatabaseError) -> IndexStoreError:
        """The error to raise for a query that failed; a damaged database at ctxopt's own
        location is moved aside first, so the next run rebuilds it."""
        location = self._own_location
        if location is None or not _is_corruption(exc):
            return IndexStoreError(f"the index failed: {exc}")
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        try:
            aside = _move_aside(location)
        except OSError:
            return IndexStoreError(f"the index {location} is damaged ({exc}): delete it to rebuild it")
        return IndexStoreError(f"the index {location} is damaged ({exc}); moved it to {aside}: "
                               "run again to rebuild it")

    # lifecycle
    def close(self) -> None:
        """End the read snapshot and close the database."""
        try:
            if self._conn.in_transaction:
                self._conn.execute("COMMIT")
        except sqlite3.ProgrammingError:  # already closed (see _failure)
            pass
        finally:
            self._conn.close()

    def __enter__(self) -> "StoredIndex":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def summary(self) -> dict[str, Any]:
        """What the index holds: ``files`` (selected), ``languages`` {name: parsed files},
        ``definitions``, ``references`` (uses of names, resolved when queried), ``edges``
        {``contains``, ``imports``} (the stored edges)."""
        languages = Counter(lang for lang in self._language.values() if lang)
        definitions = self._conn.execute("SELECT COUNT(*) FROM defs").fetchone()[0]
        references = self._conn.execute("SELECT COALESCE(SUM(count), 0) FROM uses").fetchone()[0]
        imports = self._conn.execute("SELECT COUNT(*) FROM imports").fetchone()[0]
        receivers = 0
        for file_id, owner in self._conn.execute(
                "SELECT file_id, owner FROM defs WHERE owner IS NOT NULL AND parent IS NULL"):
            directory = posixpath.dirname(self._path[file_id])
            receivers += sum(posixpath.dirname(self.path_of(c)) == directory
                             for c in self.definitions_named(owner))
        return {"files": len(self.files), "languages": dict(sorted(languages.items())),
                "definitions": definitions, "references": references,
                "edges": {"contains": definitions + receivers, "imports": imports}}

    # the query surface of index.Index
    def definition(self, node: str) -> Definition:
        """The ``Definition`` of a symbol node id (KeyError for an unknown node)."""
        found = self._definition_of.get(node)
        if found is None:
            path, i = _split(node)
            definitions = self._load_definitions(path)
            if not 0 <= i < len(definitions):
                raise KeyError(node)
            found = self._definition_of[node] = definitions[i]
        return found

    def path_of(self, node: str) -> str:
        """The file a node belongs to."""
        return node if node in self._file_set else node.rpartition("#")[0]

    def is_file(self, node: str) -> bool:
        """True for file nodes, False for definitions."""
        return node in self._file_set

    def is_test(self, node: str) -> bool:
        """True when the node lies in a test file."""
        return self._is_test_path(self.path_of(node))

    def _is_test_path(self, path: str) -> bool:
        known = self._test_paths.get(path)
        if known is None:
            known = self._test_paths[path] = is_test_path(path)
        return known

    def definitions_named(self, name: str) -> list[str]:
        """Node ids of the definitions called exactly ``name``, by path then position."""
        if self._all_named is not None:
            return list(self._all_named.get(name, ()))
        found = self._named.get(name)
        if found is None:
            found = [f"{self._path[f]}#{i}" for f, i in sorted(
                self._conn.execute("SELECT file_id, idx FROM defs WHERE name = ?", (name,)),
                key=lambda r: (self._path[r[0]], r[1]))]
            self._named[name] = found
        return list(found)

    def name_counts(self) -> dict[str, int]:
        """Every definition name -> how many definitions have it (loads the name table)."""
        return {name: len(nodes) for name, nodes in self._load_all_names().items()}

    def line_count(self, path: str) -> int | None:
        """The line count of a parsed file, None for files that were not parsed."""
        return self._line_count[path] if self._language.get(path) else None

    def file_definitions(self, path: str) -> tuple[Definition, ...] | None:
        """The definitions of a parsed file (``file_tags(path).definitions`` without
        reading its references), None for files that were not parsed."""
        return self._load_definitions(path) if self._language.get(path) else None

    def file_tags(self, path: str) -> FileTags | None:
        """The tags of a parsed file, None for files that were not parsed."""
        tags = self._tags.get(path)
        if tags is None:
            language = self._language.get(path)
            if language is None:
                return None
            file_id = self._id[path]
            rows = [(name, kind, line, enclosing) for name, packed in self._conn.execute(
                "SELECT name, packed FROM uses WHERE file_id = ?", (file_id,))
                for line, kind, enclosing in _unpack(packed)]
            rows += self._conn.execute(  # imports are not uses: the specifiers hold them
                "SELECT name, kind, line, enclosing FROM import_specs WHERE file_id = ?"
                " AND kind = 'import'", (file_id,)).fetchall()
            rows.sort(key=lambda r: (r[2], r[0], r[1]))  # tag order (unique: one per name and line)
            refs = [Reference(*row) for row in rows]
            tags = FileTags(path=path, language=language, line_count=self._line_count[path],
                            definitions=self._load_definitions(path), references=tuple(refs))
            self._tags[path] = tags
        return tags

    def edges_out(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        """(target, edge kind, edge data) of the edges of ``kinds`` out of ``node``."""
        key = ("out", node, tuple(kinds))
        if key not in self._edges:
            self._edges[key] = self._edges_out(node, kinds)
        return list(self._edges[key])

    def edges_in(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        """(source, edge kind, edge data) of the edges of ``kinds`` into ``node``."""
        key = ("in", node, tuple(kinds))
        if key not in self._edges:
            self._edges[key] = self._edges_in(node, kinds)
        return list(self._edges[key])

    def _edges_out(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        found: list[tuple[str, str, dict]] = []
        is_file = node in self._file_set
        path, idx = (node, None) if is_file else _split(node)
        if path not in self._id:
            return found
        if "contains" in kinds:
            definitions = self._load_definitions(path)
            found += [(f"{path}#{i}", "contains", {}) for i, d in enumerate(definitions)
                      if d.parent == idx]
            if not is_file:
                name = definitions[idx].name
                directory = posixpath.dirname(path)
                for file_id, i in self._conn.execute(
                        "SELECT file_id, idx FROM defs WHERE owner = ? AND parent IS NULL", (name,)):
                    other = self._path[file_id]
                    if posixpath.dirname(other) == directory:
                        found.append((f"{other}#{i}", "contains", {}))
        if "imports" in kinds and is_file:
            found += [(self._path[dst], "imports", {}) for (dst,) in self._conn.execute(
                "SELECT dst FROM imports WHERE src = ? ORDER BY dst", (self._id[path],))]
        wanted = {"references", "inherits", "tests"} & set(kinds)
        if wanted and self._language.get(path):
            groups = _EdgeGroups()
            test = self._is_test_path(path)
            for name, packed in self._conn.execute(
                    "SELECT name, packed FROM uses WHERE file_id = ?", (self._id[path],)):
                for line, kind, enclosing in _unpack(packed):
                    if enclosing != idx:
                        continue
                    for target in self._resolve(path, name, kind):
                        if target == node:
                            continue
                        groups.add(target, kind, line, test and not self.is_test(target))
            found += [(target, key, data) for target, key, data in groups.edges() if key in wanted]
        return found

    def _edges_in(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        found: list[tuple[str, str, dict]] = []
        if node in self._file_set:
            if "imports" in kinds and node in self._id:
                found += [(self._path[src], "imports", {}) for (src,) in self._conn.execute(
                    "SELECT src FROM imports WHERE dst = ? ORDER BY src", (self._id[node],))]
            return found
        path, idx = _split(node)
        definitions = self._load_definitions(path)
        if not 0 <= idx < len(definitions):
            return found
        definition = definitions[idx]
        if "contains" in kinds:
            found.append((path if definition.parent is None else f"{path}#{definition.parent}",
                          "contains", {}))
            owner = self._load_owners(path)[idx]
            if owner is not None:
                directory = posixpath.dirname(path)
                found += [(candidate, "contains", {}) for candidate in self.definitions_named(owner)
                          if posixpath.dirname(self.path_of(candidate)) == directory]
        wanted = {"references", "inherits", "tests"} & set(kinds)
        if wanted:
            found += [e for e in self._reference_edges_in(node, path, definition.name)
                      if e[1] in wanted]
        return found

    # helpers
    def _load_definitions(self, path: str) -> tuple[Definition, ...]:
        definitions = self._definitions.get(path)
        if definitions is None:
            file_id = self._id.get(path)
            rows = [] if file_id is None else self._conn.execute(
                "SELECT name, kind, qualified_name, start_line, end_line, signature, parent, owner"
                " FROM defs WHERE file_id = ? ORDER BY idx", (file_id,)).fetchall()
            definitions = tuple(Definition(*row[:7]) for row in rows)
            self._definitions[path] = definitions
            self._owners[path] = tuple(row[7] for row in rows)
        return definitions

    def _load_owners(self, path: str) -> tuple[str | None, ...]:
        self._load_definitions(path)
        return self._owners[path]

    def _load_all_names(self) -> dict[str, list[str]]:
        if self._all_named is None:
            row = self._conn.execute(
                "SELECT s.data FROM snapshots s JOIN meta m ON m.key = 'generation'"
                " WHERE s.key = 'names' AND CAST(s.generation AS TEXT) = m.value").fetchone()
            # the snapshot of this generation, else (another process is updating) the table
            self._all_named = marshal.loads(row[0]) if row else _names(self._conn)
        return self._all_named

    def _imports_of(self, path: str) -> frozenset[str]:
        imported = self._imported.get(path)
        if imported is None:
            imported = frozenset(self._path[dst] for (dst,) in self._conn.execute(
                "SELECT dst FROM imports WHERE src = ?", (self._id[path],)))
            self._imported[path] = imported
        return imported

    def _resolve(self, path: str, name: str, kind: str) -> list[str]:
        """The definitions a use of ``name`` (of reference ``kind``) in ``path`` means."""
        candidates = self.definitions_named(name)
        if not candidates:
            return []
        local = [c for c in candidates if c.rpartition("#")[0] == path]
        if local:
            return local
        imported = self._imports_of(path)
        via_import = [c for c in candidates if c.rpartition("#")[0] in imported]
        if via_import:
            return via_import
        limit = _MAX_ATTRIBUTE_TARGETS if kind == "reference" else MAX_AMBIGUOUS_TARGETS
        return candidates if len(candidates) <= limit else []

    def _reference_edges_in(self, node: str, path: str, name: str) -> list[tuple[str, str, dict]]:
        candidates = self.definitions_named(name)
        candidate_files = {c.rpartition("#")[0] for c in candidates}
        rows = self._conn.execute("SELECT file_id, packed FROM uses WHERE name = ?",
                                  (name,)).fetchall()
        if not rows:
            return []
        # which referring files import which of the files that define the name
        importing: dict[int, set[int]] = defaultdict(set)
        candidate_ids = [self._id[f] for f in sorted(candidate_files)]
        for start in range(0, len(candidate_ids), _SQL_VARS):
            chunk = candidate_ids[start:start + _SQL_VARS]
            marks = ",".join("?" * len(chunk))
            for src, dst in self._conn.execute(
                    f"SELECT src, dst FROM imports WHERE dst IN ({marks})", chunk):
                importing[src].add(dst)
        own_id = self._id[path]
        target_test = self._is_test_path(path)
        groups = _EdgeGroups()
        for file_id, packed in rows:
            referrer = self._path[file_id]
            if referrer in candidate_files:  # the name resolves to the referrer's own
                if referrer != path:
                    continue
            elif importing.get(file_id):  # ... else to the imported definitions
                if own_id not in importing[file_id]:
                    continue
            elif len(candidates) > MAX_AMBIGUOUS_TARGETS:  # ... else to all, when few
                continue
            tests = not target_test and self._is_test_path(referrer)
            fallback = referrer not in candidate_files and not importing.get(file_id)
            for line, kind, enclosing in _unpack(packed):
                if fallback and kind == "reference" and len(candidates) > _MAX_ATTRIBUTE_TARGETS:
                    continue
                source = referrer if enclosing is None else f"{referrer}#{enclosing}"
                if source != node:
                    groups.add(source, kind, line, tests)
        return groups.edges()


def _guarded(method: Callable) -> Callable:
    """A query method whose SQLite errors become ``IndexStoreError`` (``self._failure``)."""
    @functools.wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise self._failure(exc) from exc
    return guarded


for _name in ("summary", "definition", "definitions_named", "name_counts", "file_definitions",
              "file_tags", "edges_out", "edges_in"):
    setattr(StoredIndex, _name, _guarded(getattr(StoredIndex, _name)))


class _StoredLexical:
    """``lexical.LexicalIndex`` over the ``postings`` table: the same scores, bit for bit,
    in the same order (documents by path, then definition index), reading only the rows
    of the query's terms. ``lexical.K1`` and ``lexical.B`` are read at query time."""

    def __init__(self, conn: sqlite3.Connection, paths: dict[int, str],
                 file_length: dict[str, int], definitions: int, definition_length: int) -> None:
        """``paths``: file id -> path; ``file_length``: path -> length of the file's
        document, for every parsed file; ``definitions``: how many definition documents,
        ``definition_length``: their summed length."""
        self._conn = conn
        self._paths = paths
        self._file_length = file_length
        self._definitions = (definitions, definition_length)
        self._files = (len(file_length), sum(file_length.values()))
        self._terms: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
        self._failure: Callable[[sqlite3.DatabaseError], Exception] = \
            lambda exc: IndexStoreError(f"the index failed: {exc}")

    def _rows(self, term: str) -> list[tuple[str, tuple[int, ...]]]:
        """(path, unpacked data) of the files holding ``term``, by path."""
        rows = self._terms.get(term)
        if rows is None:
            try:
                term.encode("utf-8")
            except UnicodeEncodeError:  # no document holds such a term
                rows = []
            else:
                paths = self._paths
                rows = sorted((paths[file_id], marshal.loads(data)) for file_id, data in
                              self._conn.execute("SELECT file_id, data FROM postings WHERE term = ?",
                                                 (term,)))
            self._terms[term] = rows
        return rows

    def score_definitions(self, query: Counter[str]) -> dict[str, float]:
        """Node id -> BM25 score for every definition matching at least one query term."""
        from . import lexical

        n, total = self._definitions
        return lexical.bm25(query, n, total, lambda term: [
            (f"{path}#{data[i]}", data[i + 1], data[i + 2])
            for path, data in self._rows(term) for i in range(1, len(data), 3)])

    def score_files(self, query: Counter[str]) -> dict[str, float]:
        """Path -> BM25 score for every file matching at least one query term."""
        from . import lexical

        n, total = self._files
        return lexical.bm25(query, n, total, lambda term: [
            (path, data[0], self._file_length[path])
            for path, data in self._rows(term) if data[0] is not None])


class _EdgeGroups:
    """Collects uses into edges keyed (other end, edge kind), as ``build_graph`` does."""

    def __init__(self) -> None:
        self.lines: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.via: dict[tuple[str, str], str] = {}

    def add(self, other: str, ref_kind: str, line: int, tests: bool) -> None:
        key = (other, "inherits" if ref_kind == "inherit" else "references")
        self.lines[key].append(line)
        known = self.via.get(key)
        if known is None or _VIA_PRIORITY[ref_kind] < _VIA_PRIORITY[known]:
            self.via[key] = ref_kind
        if tests:
            self.lines[(other, "tests")].append(line)

    def edges(self) -> list[tuple[str, str, dict]]:
        return [(other, kind, {"lines": tuple(sorted(set(lines))),
                               "via": self.via.get((other, kind), "reference")})
                for (other, kind), lines in sorted(self.lines.items())]


for _name in ("score_definitions", "score_files"):
    setattr(_StoredLexical, _name, _guarded(getattr(_StoredLexical, _name)))
