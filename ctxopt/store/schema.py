"""The index database: its tables, connections, transactions and schema versioning.

A database with another ``SCHEMA_VERSION``, another parser ``fingerprint`` or another root
is emptied and rebuilt, never misread (``prepare_schema``).
"""
from __future__ import annotations

import hashlib
import sqlite3
import sys
import time
from collections.abc import Iterator, Sequence
from typing import TypeVar

from .. import lexical
from ..files.safety import HygieneConfig
from ..parsing.languages import LANGUAGES, grammars_dir
from ..errors import CtxoptError, IndexStoreError
from .parsecache import code_fingerprint

__all__ = ["SCHEMA_VERSION", "APPLICATION_ID", "SQLITE_MAGIC", "INDEXES", "BUMP_GENERATION",
           "SQL_VARS", "PAGE_SIZE", "chunks", "marks", "connect", "Transaction", "read_meta", "prepare_schema", "ensure_indexes",
           "drop_indexes", "fingerprint", "path_key", "key_path", "POSTING_BITS", "posting_rowids"]

SCHEMA_VERSION = 7  # 7: a file's postings in one range of rowids, no index by file
# PRAGMA application_id of a ctxopt index ("ctxo"): a database without it is not ours.
APPLICATION_ID = 0x6374786F
SQLITE_MAGIC = b"SQLite format 3\x00"
_BUSY_TIMEOUT_S = 60.0
_CACHE_KIB = 65536  # the page cache of a connection: 64 MB at most
# The page size of a new index (SQLite's default is 4 KiB; an existing database keeps its
# own). A cold index of sympy writes 53 MB of pages through the WAL: in pages of 16 KiB a
# quarter as many frames, write calls and checkpointed pages, and 3% fewer bytes (its
# postings' and uses' rows fill larger pages better). The indexing process's CPU seconds,
# three to four alternating runs: 1.60-1.62 for 1.70-1.71 (4 KiB), 8 KiB 1.64-1.68,
# 32 KiB 1.61-1.62, 64 KiB 1.67-1.69; a warm gather's the same (0.41-0.42 CPU-s).
PAGE_SIZE = 16384
# The page cache while the secondary indexes are built: SQLite sorts an index's keys in
# runs as large as the page cache, and runs of 1 MB, which fit the processor's caches,
# sort faster than one run of 64 MB (sympy's 8 indexes: 0.34-0.40 -> 0.25-0.27 CPU-s).
# It keeps such runs only in temporary files (``temp_store = FILE``).
_SORT_CACHE_KIB = 1024
SQL_VARS = 900  # host parameters per statement (SQLite's old limit is 999)
_T = TypeVar("_T")


def chunks(values: Sequence[_T], size: int = SQL_VARS) -> Iterator[Sequence[_T]]:
    """``values`` in consecutive slices of at most ``size``: one statement's worth of
    host parameters each."""
    for start in range(0, len(values), size):
        yield values[start:start + size]


def marks(count: int) -> str:
    """``?,?,...``: ``count`` host parameters, for an ``IN (...)`` list."""
    return ",".join("?" * count)

SCHEMA = """
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
CREATE TABLE IF NOT EXISTS bindings(
    file_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    module TEXT NOT NULL,
    name TEXT NOT NULL,
    local TEXT NOT NULL,
    dst INTEGER,  -- the file the module names (NULL: none in the repository, or not resolved yet)
    PRIMARY KEY (file_id, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS imports(
    src INTEGER NOT NULL,
    dst INTEGER NOT NULL,
    PRIMARY KEY (src, dst)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS postings(  -- rowid: see posting_rowids
    term TEXT NOT NULL,
    file_id INTEGER NOT NULL,
    data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS resolved(
    file_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    data BLOB NOT NULL,  -- see store.resolved
    PRIMARY KEY (file_id, name)) WITHOUT ROWID;
"""
# Secondary indexes: dropped while a cold index loads its rows, built after (a sort is
# much faster than as many random B-tree inserts); recreated on open when missing.
INDEXES = {
    "defs_name": "CREATE INDEX defs_name ON defs(name)",
    "defs_owner": "CREATE INDEX defs_owner ON defs(owner) WHERE owner IS NOT NULL",
    "uses_name": "CREATE INDEX uses_name ON uses(name)",
    "imports_dst": "CREATE INDEX imports_dst ON imports(dst)",
    "bindings_name": "CREATE INDEX bindings_name ON bindings(name)",
    "postings_term": "CREATE INDEX postings_term ON postings(term)",
    "resolved_name": "CREATE INDEX resolved_name ON resolved(name)",
}
# A posting's rowid is its file's id shifted left by this many bits, plus its place among
# the file's postings: a file's postings are one range of rowids, which a change of the
# file deletes, so no index of the postings by file is built (an index no gather reads:
# 0.06 of the 0.27 CPU-s that sympy's secondary indexes took to build, and 3 MB).
POSTING_BITS = 32


def posting_rowids(file_id: int) -> range:
    """The rowids the postings of file ``file_id`` take, in order."""
    return range(file_id << POSTING_BITS, (file_id + 1) << POSTING_BITS)


TABLES = ("meta", "files", "defs", "uses", "import_specs", "bindings", "imports", "postings",
          "resolved", "snapshots")
# Bumped by every transaction that may change the files, their definitions or the import
# edges: a gather stores the uses it resolved (``store.resolved``) only when the
# generation it read is still the current one.
BUMP_GENERATION = ("INSERT INTO meta(key, value) VALUES ('generation', '1') ON CONFLICT(key)"
                    " DO UPDATE SET value = CAST(value AS INTEGER) + 1")


def fingerprint(config: HygieneConfig) -> str:
    """Changes whenever the tags, the stored terms or the resolved-use cache of every file
    could change: schema, languages, tag queries, the line length limit,
    ``lexical.DOCUMENTS_VERSION``, and ctxopt's own code (``parsecache.code_fingerprint``:
    a new ctxopt may read files or resolve names differently, so its first run rebuilds
    the index rather than misread one an older version wrote). Options
    that change the verdict on a few files only (secrets allowed, the parse time limit,
    submodules, ``.gitattributes``) are not in it: an update re-checks just those files
    (``store.recheck``)."""
    digest = hashlib.blake2b(digest_size=12)
    digest.update(f"{SCHEMA_VERSION}|{lexical.DOCUMENTS_VERSION}|{sys.version_info[:2]}|"
                  f"{config.max_line_length}".encode())
    digest.update(code_fingerprint())
    for language in LANGUAGES:
        digest.update(repr(language).encode())
    try:
        directory = grammars_dir()
        for query in sorted(directory.glob("*.scm")):
            digest.update(query.name.encode() + query.read_bytes())
    except (OSError, CtxoptError):
        pass
    return digest.hexdigest()


def path_key(path: str) -> bytes:
    """A path as stored: UTF-8 bytes, with the bytes of names that are not UTF-8 kept."""
    return path.encode("utf-8", "surrogateescape")


def key_path(key: bytes) -> str:
    return key.decode("utf-8", "surrogateescape")


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=_BUSY_TIMEOUT_S, isolation_level=None,
                           check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_TIMEOUT_S * 1000)}")
    conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # (a new database's; before WAL makes it)
    if path != ":memory:":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
    return conn


class Transaction:
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

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if kind is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    try:
        return dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError:
        return {}


def prepare_schema(conn: sqlite3.Connection, root: str, fingerprint: str) -> bool:
    """Create the tables, or empty them when the database was written for another schema,
    parser or root. Returns True when the index starts empty.

    ``root`` may hold the bytes of a name that is not UTF-8 (``surrogateescape``); it is
    stored with each such byte as ``\\xHH``, as SQLite text must be UTF-8."""
    meta = read_meta(conn)
    root_text = path_key(root).decode("utf-8", "backslashreplace")
    expected = {"schema_version": str(SCHEMA_VERSION), "fingerprint": fingerprint,
                "root": root_text}
    if meta and all(meta.get(k) == v for k, v in expected.items()):
        return False
    with Transaction(conn):
        meta = read_meta(conn)  # another process may have done it meanwhile
        if meta and all(meta.get(k) == v for k, v in expected.items()):
            return False
        for table in TABLES:
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)",
                         sorted({**expected, "imports_dirty": "1"}.items()))
    return True


def ensure_indexes(conn: sqlite3.Connection) -> None:
    """Create the secondary indexes that are missing (a cold index killed while loading)."""
    present = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    missing = [name for name in INDEXES if name not in present]
    if not missing:
        return
    try:
        _create_indexes(conn, missing, "FILE")
    except sqlite3.OperationalError as exc:
        if not _temporary_file_error(exc):
            raise
        _create_indexes(conn, missing, "MEMORY")  # no temporary file could be made


def _temporary_file_error(exc: sqlite3.OperationalError) -> bool:
    """Whether ``exc`` says SQLite could not make or write a temporary file (a full or
    missing temporary directory), not that the database itself failed."""
    return getattr(exc, "sqlite_errorcode", None) in _TEMPORARY_FILE_ERRORS


# SQLite's primary result codes (sqlite.org/rescode.html) for a file that cannot be opened
# (SQLITE_CANTOPEN), a full disk (SQLITE_FULL) and an I/O error (SQLITE_IOERR, the
# primary code of every extended one: the errors ``sqlite3`` gives are primary codes)
_TEMPORARY_FILE_ERRORS = frozenset({14, 13, 10})


def _create_indexes(conn: sqlite3.Connection, names: list[str], temp_store: str) -> None:
    """Create the indexes ``names``, sorting in small runs (``_SORT_CACHE_KIB``) kept in
    ``temp_store``; the connection's ``temp_store`` and ``cache_size`` are as before
    after, whether or not the indexes could be made."""
    (before_store,), (before_cache,) = (conn.execute("PRAGMA temp_store").fetchone(),
                                        conn.execute("PRAGMA cache_size").fetchone())
    conn.execute(f"PRAGMA temp_store = {temp_store}")  # (not inside a transaction)
    conn.execute(f"PRAGMA cache_size = -{_SORT_CACHE_KIB}")
    try:
        with Transaction(conn):
            for name in names:
                conn.execute(INDEXES[name].replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS"))
    finally:
        conn.execute(f"PRAGMA cache_size = {int(before_cache)}")
        conn.execute(f"PRAGMA temp_store = {int(before_store)}")


def drop_indexes(conn: sqlite3.Connection) -> None:
    with Transaction(conn):
        for name in INDEXES:
            conn.execute(f"DROP INDEX IF EXISTS {name}")

