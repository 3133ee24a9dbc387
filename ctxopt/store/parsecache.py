"""A content-addressed cache of what scanning a file found, shared across checkouts.

Indexing a second worktree, a CI job that restores the cache directory, or a branch
switch re-parses only the files whose content is new: ``scan.scan_one`` looks up each
file it would parse here first. An entry is keyed by (BLAKE2 of the file's content, its
repository path, its ``.gitattributes`` verdict, the options that change a verdict or the
tags: ``schema.fingerprint``, secrets allowed), and the fingerprint holds
``code_fingerprint()`` (ctxopt's own modules, grammars and the versions of the parsing
libraries), so a new ctxopt or grammar never reads an old entry. The path is in the key because the tags and lexical terms depend
on it (a file's language, its path words, a default export's name).

Storage: one SQLite database (``cache.db``) in the directory, WAL mode, written in short
``BEGIN IMMEDIATE`` transactions, so any number of processes (the index workers, several
``ctxopt index`` runs) read and write it at once. An entry is ``BLAKE2(payload) +
payload`` (``marshal`` of the content fields of ``scan.ScanResult``); one that fails the
check or does not unpack is a miss and is written again. Entries live in the rowid table
``scans``, the key in an index of its own: a new entry's value (kilobytes) is appended
instead of being inserted at a random place of a B-tree ordered by key, which read about
30 times more pages on a cold index of sympy. (Earlier builds kept them in a ``WITHOUT
ROWID`` table ``entries``, whose keys hold another ``code_fingerprint``: it is dropped.)
The cache holds at most ``MAX_BYTES`` of entries: past that, a run that wrote entries
deletes the oldest written until 90% of it is left (first in, first out; the pages freed
are reused, so the file stops growing). Free pages past a quarter of ``MAX_BYTES`` (an
earlier build's dropped table) are given back to the file system. The cache never fails an index:
a database that cannot be opened, read or written is left alone for the rest of the run.

The directory: ``IndexOptions.parse_cache``, else ``$CTXOPT_PARSE_CACHE`` (``off``
disables the cache), else ``calibration.user_cache_dir()/parse`` (``$CTXOPT_CACHE_DIR``,
else ``platformdirs.user_cache_dir("ctxopt")``).
"""
from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["ParseCache", "CACHE_ENV", "OFF", "MAX_BYTES", "cache_directory", "code_fingerprint", "library_version"]

CACHE_ENV = "CTXOPT_PARSE_CACHE"
OFF = "off"  # the value of --parse-cache or $CTXOPT_PARSE_CACHE that disables the cache
_DATABASE = "cache.db"
_CHECK_BYTES = 16
_FIELDS = 11  # the content fields of a ScanResult, in ``_CONTENT`` order
_BUSY_MS = 30_000
_FLUSH_EVERY = 64  # entries per write transaction
# The most bytes of entries kept (sympy's 1,982 files take 36 MB: 1 GiB holds about 28
# checkouts of that size that share no file, or versions of ctxopt).
MAX_BYTES = 1 << 30
# Free pages past this share of ``MAX_BYTES`` go back to the file system (down to half of
# it): an eviction frees about 10%, which the next entries reuse; an earlier build's
# dropped table (2.1 GB on one machine) would stay free for good.
_MOST_FREE = 0.25
_INCREMENTAL = 2  # PRAGMA auto_vacuum: pages freed on request (incremental_vacuum)
# The libraries whose versions change what a file's scan finds, with their top-level
# modules (where their ``*.dist-info`` directories are found).
_LIBRARIES = (("tree-sitter", "tree_sitter"),
              ("tree-sitter-language-pack", "tree_sitter_language_pack"),
              ("PyStemmer", "Stemmer"), ("detect-secrets", "detect_secrets"),
              ("charset-normalizer", "charset_normalizer"))


def cache_directory(setting: Path | str | bool | None) -> Path | None:
    """The cache directory for ``setting`` (``IndexOptions.parse_cache``): a path is used
    as given, ``False`` or ``"off"`` disable the cache (None), ``True``/None mean
    ``$CTXOPT_PARSE_CACHE`` or else ``parse`` in the user cache directory
    (``calibration.user_cache_dir``)."""
    if setting is False:
        return None
    if setting is None or setting is True:
        setting = os.environ.get(CACHE_ENV) or None
        if setting is None:
            from ..calibration import user_cache_dir

            return user_cache_dir() / "parse"
    if str(setting).strip().lower() == OFF:
        return None
    return Path(os.path.expanduser(str(setting)))


@cache
def code_fingerprint() -> bytes:
    """BLAKE2 of ctxopt's Python modules and grammar files and of the versions of the
    parsing libraries (``_LIBRARIES``): any change to the code that reads files misses
    every older entry. Computed once per process (about 100 small files), and kept in the
    shared memo (``memo.memoized``) by the files' names, sizes and modification times:
    reading and hashing them was 0.8% of a warm gather's instructions."""
    package = Path(__file__).resolve().parent.parent
    files = _code_files(package)
    listing = []
    for name, path in files:
        info = path.stat()
        listing.append(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\n")
    versions = "".join(f"{library}={library_version(library, module)}"
                       for library, module in _LIBRARIES)
    from ..memo import memoized

    return memoized("code-fingerprint-1", "".join(listing) + versions,
                    lambda _: _digest_files(files, versions))


def _code_files(package: Path) -> list[tuple[str, Path]]:
    """(name, path) of ctxopt's Python modules and query files under ``package`` (named
    from it), then of the grammar directory's queries (by file name), each set sorted."""
    files = [(str(path.relative_to(package)), path)
             for path in sorted(package.rglob("*.py")) + sorted(package.rglob("*.scm"))]
    from ..errors import CtxoptError
    from ..parsing.languages import grammars_dir

    with contextlib.suppress(OSError, CtxoptError):  # no grammars: every scan fails anyway
        files += [(query.name, query) for query in sorted(grammars_dir().glob("*.scm"))]
    return files


def _digest_files(files: list[tuple[str, Path]], versions: str) -> bytes:
    """The BLAKE2 of ``code_fingerprint``: each file's name and bytes, then ``versions``."""
    digest = hashlib.blake2b(digest_size=16)
    for name, path in files:
        digest.update(name.encode())
        digest.update(path.read_bytes())
    digest.update(versions.encode())
    return digest.digest()


def library_version(name: str, module: str) -> str:
    """The installed version of the distribution ``name`` whose top-level module is
    ``module``, or "none": read from the name of its ``*.dist-info`` directory beside the
    module (importing ``importlib.metadata`` costs an edit's gather 20-30 ms), else from
    ``importlib.metadata`` (an editable or egg install)."""
    from importlib.util import find_spec

    try:
        spec = find_spec(module)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.origin:
        origin = Path(spec.origin)
        site = origin.parent.parent if spec.submodule_search_locations else origin.parent
        prefix = re.sub(r"[-_.]+", "_", name).lower() + "-"
        with contextlib.suppress(OSError):
            found = sorted(entry for entry in os.listdir(site)
                           if entry.lower().startswith(prefix) and entry.endswith(".dist-info"))
            if len(found) == 1:
                return found[0][len(prefix):-len(".dist-info")]
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "none"


class ParseCache:
    """The cache in one directory, opened lazily in each process that uses it (a forked
    index worker opens its own connection).

    ``prefix``: the bytes every key of this run starts with (the options and
    ``code_fingerprint``). ``max_bytes``: the bytes of database pages in use past which a
    write deletes the oldest entries, until 90% is left (None: ``MAX_BYTES``).
    """

    def __init__(self, directory: Path, prefix: bytes, max_bytes: int | None = None) -> None:
        self.directory = directory
        self.prefix = prefix
        self.max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._broken = False
        self._pending: list[tuple[bytes, bytes]] = []

    def __getstate__(self) -> dict[str, Any]:
        return {"directory": self.directory, "prefix": self.prefix, "max_bytes": self.max_bytes}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["directory"], state["prefix"], state["max_bytes"])  # type: ignore[misc]

    def key(self, path: str, digest: str, generated: bool | None) -> bytes:
        """The key of a file's entry: BLAKE2 of the prefix, path, content hash and
        ``.gitattributes`` verdict."""
        parts = (self.prefix, path.encode("utf-8", "surrogateescape"), digest.encode(),
                 repr(generated).encode())
        return hashlib.blake2b(b"\0".join(parts), digest_size=20).digest()

    def _connection(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        self._conn, self._pid, self._pending = None, os.getpid(), []  # a fork: not its parent's
        path = self.directory / _DATABASE
        for attempt in range(2):
            try:
                self._conn = _open(path)
                return self._conn
            except sqlite3.DatabaseError as exc:
                if attempt or isinstance(exc, sqlite3.OperationalError):
                    break  # locked past the timeout, unwritable: go without
                try:  # not a database: set it aside (it is only a cache) and start anew
                    os.replace(path, path.with_name(f"{_DATABASE}.damaged"))
                except OSError:
                    break
            except (sqlite3.Error, OSError):
                break
        self._broken = True
        return None

    def get(self, key: bytes) -> tuple | None:
        """The content fields stored under ``key``, or None when there are none or the
        entry is damaged."""
        conn = self._connection()
        if conn is None:
            return None
        try:
            row = conn.execute("SELECT value FROM scans WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            self._broken = True
            return None
        return None if row is None else _unpack(row[0])

    def put(self, key: bytes, fields: tuple) -> None:
        """Store ``fields`` under ``key`` (written with the next ``flush``, at the latest
        after ``_FLUSH_EVERY`` entries)."""
        self.put_marshalled(key, marshal.dumps(fields))

    def put_marshalled(self, key: bytes, payload: bytes) -> None:
        """``put`` of fields already marshalled (``payload``)."""
        if self._pid != os.getpid():
            self._connection()  # a forked process starts with no pending entries
        if self._broken:
            return
        self._pending.append((key, hashlib.blake2b(payload, digest_size=_CHECK_BYTES).digest()
                              + payload))
        if len(self._pending) >= _FLUSH_EVERY:
            self.flush()

    def flush(self) -> None:
        """Write the entries ``put`` since the last flush, in one transaction."""
        pending, self._pending = self._pending, []
        conn = self._connection() if pending else None
        if conn is None:
            return
        try:
            with _write(conn):
                conn.executemany("INSERT OR REPLACE INTO scans(key, value) VALUES (?, ?)",
                                 pending)
            self._evict(conn)
        except sqlite3.Error:
            self._broken = True  # locked past the timeout, full disk, damaged file: go without

    def _evict(self, conn: sqlite3.Connection) -> None:
        """Delete the oldest entries when the database holds more than ``max_bytes`` of
        pages in use, until 90% of that is left, and give free pages past ``_MOST_FREE``
        of it back (sizes read from three PRAGMAs: cheap, so checked after every write)."""
        page_size, pages, free = _pages(conn)
        used = (pages - free) * page_size
        if used > self.max_bytes:
            with _write(conn):
                count = conn.execute("SELECT count(*) FROM scans").fetchone()[0]
                drop = count - int(count * 0.9 * self.max_bytes / used)
                conn.execute("DELETE FROM scans WHERE id IN"
                             " (SELECT id FROM scans ORDER BY id LIMIT ?)", (drop,))
            page_size, pages, free = _pages(conn)
        if free * page_size > self.max_bytes * _MOST_FREE:
            _shrink(conn, int(self.max_bytes * _MOST_FREE / 2) // page_size)

    def close(self) -> None:
        """Flush, and close this process's connection."""
        self.flush()
        if self._conn is not None and self._pid == os.getpid():
            self._conn.close()
        self._conn = None


def _pages(conn: sqlite3.Connection) -> tuple[int, int, int]:
    """(page size in bytes, pages, free pages) of the database."""
    page_size, pages, free = (conn.execute(f"PRAGMA {name}").fetchone()[0]
                              for name in ("page_size", "page_count", "freelist_count"))
    return page_size, pages, free


def _shrink(conn: sqlite3.Connection, keep: int) -> None:
    """Give the database's free pages past ``keep`` (a count of pages) back to the file
    system. A database
    made with ``auto_vacuum = INCREMENTAL`` frees them at once; one made before (an
    earlier build's, whose dropped table can leave gigabytes of free pages) is switched to
    it by one ``VACUUM``, which copies the entries kept (20 s for 1 GB of them here) while
    other writers wait."""
    with _write(conn):  # (waits for another process's VACUUM, then sees what it left)
        free = _pages(conn)[2]
    if free <= keep:
        return
    if conn.execute("PRAGMA auto_vacuum").fetchone()[0] == _INCREMENTAL:
        # (run to its end: a cursor's steps free one page each)
        conn.executescript(f"PRAGMA incremental_vacuum({free - keep});")
    else:
        conn.execute(f"PRAGMA auto_vacuum = {_INCREMENTAL}")
        conn.execute("VACUUM")


@contextlib.contextmanager
def _write(conn: sqlite3.Connection) -> Iterator[None]:
    """A ``BEGIN IMMEDIATE`` ... ``COMMIT`` transaction, rolled back on any exception,
    which goes on (``sqlite3.Error`` when locked past ``_BUSY_MS``)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _open(path: Path) -> sqlite3.Connection:
    """A connection to the cache database at ``path`` (made, with its table, if new).

    Raises ``sqlite3.OperationalError`` when the database stays locked past ``_BUSY_MS``.
    Switching a new database to WAL does not wait on SQLite's busy handler: a process that
    opens it while another is making it gets "database is locked" at once, so the setup is
    tried again until the busy timeout has passed (four index workers starting on an empty
    cache lost whole workers' entries before).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + _BUSY_MS / 1000
    pause = 0.01
    while True:
        conn = sqlite3.connect(str(path), timeout=_BUSY_MS / 1000, isolation_level=None,
                               check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
            conn.execute(f"PRAGMA auto_vacuum = {_INCREMENTAL}")  # a new database only
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("CREATE TABLE IF NOT EXISTS scans("
                         "id INTEGER PRIMARY KEY, key BLOB NOT NULL UNIQUE, value BLOB NOT NULL)")
            if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'"
                            " AND name = 'entries'").fetchone():
                conn.execute("DROP TABLE IF EXISTS entries")  # an earlier build's: its pages reused
            return conn
        except sqlite3.OperationalError as exc:
            conn.close()
            if "locked" not in str(exc) and "busy" not in str(exc) \
                    or time.monotonic() + pause > deadline:
                raise
        except BaseException:
            conn.close()
            raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


def _unpack(value: bytes) -> tuple | None:
    """The fields of a stored entry, or None when it fails its check or its shape."""
    check, payload = value[:_CHECK_BYTES], value[_CHECK_BYTES:]
    if hashlib.blake2b(payload, digest_size=_CHECK_BYTES).digest() != check:
        return None
    try:
        fields = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if not isinstance(fields, tuple) or len(fields) != _FIELDS:
        return None
    return fields
