"""Values that depend only on a text (its token count, its secret findings), kept by the
text's digest so that a warm gather neither loads the tokenizer nor scans for secrets.

Entries live in ``<user_cache_dir>/memo.sqlite`` (``calibration.user_cache_dir``), keyed
by the BLAKE2b-128 digest of the namespace and the UTF-8 text together (16 bytes a row,
not the namespace's 67 characters as well: 58 bytes an entry, was 196). A namespace names
what was computed and the versions of everything the value depends on, so a new
tokenizer or detector version never reads an old value. Values are ``marshal`` data.
A file of another layout (``PRAGMA user_version``) is emptied and laid out anew; the
memo an older ctxopt kept in the configuration directory is never read. New values are
written in one transaction when the process exits. The memo is an optimisation only: any
error (unwritable directory, corrupt or locked file) turns it off for the process and the
value is computed as if there were no memo.
"""
from __future__ import annotations

import atexit
import contextlib
import hashlib
import marshal
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["Memo", "memoized", "module_fingerprint", "shared_memo"]

# Entries kept; past this the oldest half is dropped (about 60 bytes an entry).
MAX_ENTRIES = 400_000
# Bytes the write-ahead log is cut back to once checkpointed (``PRAGMA journal_size_limit``;
# SQLite's auto-checkpoint runs at about 4 MB of pages): it otherwise keeps the size of the
# largest write it ever held, and benchmark runs left a 258 MB log beside a 24 MB memo.
WAL_LIMIT = 4 * 1024 * 1024
# The layout's number (``PRAGMA user_version``; 0 is the first, keyed by namespace too).
_LAYOUT = 2
_SCHEMA = "CREATE TABLE memo (digest BLOB NOT NULL UNIQUE, value BLOB NOT NULL)"


class Memo:
    """A (namespace, text) -> value table in the SQLite file ``path``, opened on first use."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._connection: sqlite3.Connection | None = None
        self._broken = False
        self._pending: dict[bytes, bytes] = {}

    def _open(self) -> sqlite3.Connection | None:
        if self._connection is None and not self._broken:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                connection = sqlite3.connect(self.path, timeout=2.0, isolation_level=None)
                with contextlib.suppress(sqlite3.Error):
                    # readers and the writer at exit of other processes do not wait for
                    # each other, and a lookup takes no file lock (half its cost)
                    connection.execute("PRAGMA journal_mode = WAL")
                    connection.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT}")
                if connection.execute("PRAGMA user_version").fetchone()[0] != _LAYOUT:
                    _lay_out(connection)
                self._connection = connection
            except (OSError, sqlite3.Error):
                self._broken = True
        return self._connection

    def get(self, namespace: str, text: str) -> Any | None:
        """The value kept for ``text`` in ``namespace``, or None."""
        key = _digest(namespace, text)
        if key in self._pending:
            return marshal.loads(self._pending[key])
        connection = self._open()
        if connection is None:
            return None
        try:
            row = connection.execute("SELECT value FROM memo WHERE digest = ?", (key,)).fetchone()
            return None if row is None else marshal.loads(row[0])
        except (sqlite3.Error, EOFError, ValueError, TypeError):
            self._broken = True
            return None

    def put(self, namespace: str, text: str, value: Any) -> None:
        """Keep ``value`` (marshal data) for ``text``; written by ``flush``."""
        if not self._broken:
            self._pending[_digest(namespace, text)] = marshal.dumps(value)

    def flush(self) -> None:
        """Write the new values in one transaction, then drop the oldest half when the
        table holds more than ``MAX_ENTRIES``."""
        pending, self._pending = self._pending, {}
        connection = self._open() if pending else None
        if connection is None:
            return
        try:
            with connection:
                connection.execute("BEGIN IMMEDIATE")
                connection.executemany("INSERT OR REPLACE INTO memo VALUES (?, ?)",
                                       pending.items())
                low, high = connection.execute("SELECT min(rowid), max(rowid) FROM memo").fetchone()
                if high is not None and high - low > MAX_ENTRIES:
                    connection.execute("DELETE FROM memo WHERE rowid < ?", (high - MAX_ENTRIES // 2,))
        except sqlite3.Error:
            self._broken = True


def module_fingerprint(name: str) -> str:
    """Size and modification time of the file of module ``name`` (found, not imported; a
    dotted name imports its parent package), or "missing": cheaper than reading a
    package's version from its metadata, and it changes whenever the package is
    reinstalled."""
    from importlib.util import find_spec

    try:
        spec = find_spec(name)
        info = os.stat(spec.origin) if spec is not None and spec.origin else None
    except (ImportError, ValueError, OSError):
        info = None
    return "missing" if info is None else f"{info.st_size}-{info.st_mtime_ns}"


def _lay_out(connection: sqlite3.Connection) -> None:
    """Make the memo table of ``_LAYOUT`` in a file that has none or another (an older
    ctxopt's, keyed by namespace too: its values are dropped), once among processes."""
    with connection:
        connection.execute("BEGIN IMMEDIATE")
        if connection.execute("PRAGMA user_version").fetchone()[0] != _LAYOUT:
            connection.execute("DROP TABLE IF EXISTS memo")
            connection.execute(_SCHEMA)
            connection.execute(f"PRAGMA user_version = {_LAYOUT}")


def _digest(namespace: str, text: str) -> bytes:
    """The key of ``text`` in ``namespace``: BLAKE2b-128 of both (the namespace's length
    first, so that no two pairs give one string)."""
    digest = hashlib.blake2b(f"{len(namespace)}:{namespace}:".encode("utf-8", "surrogatepass"),
                             digest_size=16)
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.digest()


# The memo of each cache directory, by the environment that names the directory
# (``calibration.user_cache_dir``): looked up for every text, so without a path's cost.
_shared: dict[tuple[str | None, ...], Memo] = {}


def shared_memo() -> Memo:
    """The process's memo in the user's cache directory (as it is now: the directory may
    be changed by ``$CTXOPT_CACHE_DIR``), flushed at exit."""
    from .calibration import CACHE_DIRECTORY_ENV, user_cache_dir

    environ = os.environ
    key = tuple(environ.get(name) for name in CACHE_DIRECTORY_ENV)
    memo = _shared.get(key)
    if memo is None:
        path = user_cache_dir() / "memo.sqlite"
        memo = next((m for m in _shared.values() if m.path == path), None) or Memo(path)
        if memo not in _shared.values():
            atexit.register(memo.flush)
        _shared[key] = memo
    return memo


def memoized(namespace: str, text: str, compute: Callable[[str], Any], memo: Memo | None = None) -> Any:
    """``compute(text)``, taken from ``memo`` (the shared memo when None) when it was kept
    before."""
    if memo is None:
        memo = shared_memo()
    value = memo.get(namespace, text)
    if value is None:
        value = compute(text)
        memo.put(namespace, text, value)
    return value
