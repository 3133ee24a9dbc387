"""Where the index database lives, and recovery from a damaged one.

The default location is ``<root>/.ctxopt/index.db``; a read-only root falls back to the
user's cache directory, then the temporary directory, then memory (``writable_location``).
A damaged database at ctxopt's own location is moved aside (``move_aside``) and rebuilt; a
path the user gave is never touched.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import sqlite3
import stat
from pathlib import Path

from ..errors import IndexStoreError, NotAnIndexError
from .consistency import IndexInconsistent
from .schema import APPLICATION_ID, SQLITE_MAGIC, TABLES

__all__ = ["is_corruption", "move_aside", "check_ours", "writable_location"]


def is_corruption(exc: sqlite3.DatabaseError) -> bool:
    """True when SQLite says the file is damaged or not a database at all, or one of the
    index's tables (``schema.TABLES``) is missing: ``prepare_schema`` makes them all
    whenever the stored schema version differs, so one missing from a current index was
    removed by hand or by a tool (trial 8: a dropped ``defs`` table failed every run,
    exit 3). So are rows referring to rows that are gone (``consistency``). A missing
    column is not: ctxopt's own query would be wrong."""
    if isinstance(exc, IndexInconsistent):
        return True
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return True
    text = str(exc)
    missing = _MISSING_TABLE.match(text)
    return ("malformed" in text or "not a database" in text
            or (missing is not None and missing.group(1) in TABLES))


_MISSING_TABLE = re.compile(r"no such table: (?:main\.)?(\w+)")


# The files SQLite keeps beside a database: its write-ahead log and shared memory.
_COMPANIONS = ("-wal", "-shm")


def move_aside(location: str) -> str:
    """Move a damaged database, with its WAL and shared-memory files, to
    ``<location>.corrupt``, or ``.corrupt.1``, ``.corrupt.2``... when an older damaged
    copy (or a file of its) has that name: nothing the user had is lost, and no older
    copy's log pairs with this one (trial 8 found one left; trial 39: a second damage
    replaced the first copy and left its log beside the second). Returns where it went."""
    aside, number = location + ".corrupt", 0
    while any(os.path.lexists(aside + suffix) for suffix in ("", *_COMPANIONS)):
        number += 1
        aside = f"{location}.corrupt.{number}"
    os.replace(location, aside)
    for suffix in _COMPANIONS:
        with contextlib.suppress(FileNotFoundError):
            os.replace(location + suffix, aside + suffix)
    return aside


def check_ours(path: Path) -> None:
    """Refuse to open a file that exists and is not a ctxopt index (never overwrite it).

    Accepted: no file, an empty file (a database being created), a SQLite database with
    ctxopt's ``application_id``, and one with no application id (SQLite's 0) that holds
    no table or ctxopt's own tables (an index whose header is still in its write-ahead log).
    Refused, raising ``NotAnIndexError``: anything that is not a regular file (a directory,
    ``/dev/null``, a pipe), a file that is not SQLite, another program's database."""
    try:
        mode = path.stat().st_mode
        if not stat.S_ISREG(mode):
            raise NotAnIndexError(f"{path} is not a regular file, so not a ctxopt index "
                                  "(choose another --index path)")
        with path.open("rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise IndexStoreError(f"cannot read the index {path}: {exc.strerror}") from exc
    if not header:
        return  # empty file: a database being created
    application_id = int.from_bytes(header[68:72], "big") if len(header) >= 72 else -1
    if not header.startswith(SQLITE_MAGIC) or application_id not in (0, APPLICATION_ID) \
            or (application_id == 0 and not _no_table_or_ours(path)):
        raise NotAnIndexError(f"{path} exists and is not a ctxopt index; "
                              "refusing to overwrite it (choose another --index path)")


def _no_table_or_ours(path: Path) -> bool:
    """True when the SQLite database at ``path``, opened read-only, has no table or has
    ctxopt's ``meta`` and ``files`` tables; a database SQLite cannot read is left to the
    caller's damage handling (True)."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            names = {name for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return True
    return not names or {"meta", "files"} <= names


def writable_location(root: Path, requested: Path | None) -> tuple[str, str]:
    """(database path or ':memory:', note for the user): ``requested`` when given (made
    or refused), else ``ROOT/.ctxopt/index.db``, else ``NAME-KEY.db`` in the user cache
    directory (``calibration.user_cache_dir``: ``$CTXOPT_CACHE_DIR``, else the platform's),
    else in the temporary directory, else memory; the note says why when not in the root."""
    if requested is not None:
        try:
            requested.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError) as exc:  # a file where a directory goes
            blocker = next((p for p in requested.parents if p.exists() and not p.is_dir()),
                           requested.parent)
            raise IndexStoreError(f"cannot write the index at {requested}: {blocker} is not "
                                  "a directory") from exc
        except OSError as exc:
            raise IndexStoreError(f"cannot create {requested.parent}: {exc.strerror}") from exc
        if not os.access(requested.parent, os.W_OK) or (
                requested.exists() and not os.access(requested, os.W_OK)):
            raise IndexStoreError(f"cannot write the index at {requested}")
        return str(requested), ""
    problem = _own_directory_problem(root / ".ctxopt")
    if problem is None:
        return str(root / ".ctxopt" / "index.db"), ""
    from ..calibration import user_cache_dir

    key = hashlib.blake2b(os.fsencode(root), digest_size=8).hexdigest()
    # the cache directory the memo and the parse cache use (on Linux ~/.cache/ctxopt or
    # $XDG_CACHE_HOME/ctxopt, where fallback indexes always went)
    import tempfile  # (here: most roots keep their index in .ctxopt)

    for base in (user_cache_dir(), Path(tempfile.gettempdir()) / f"ctxopt-{os.getuid()}"):
        try:
            base.mkdir(parents=True, exist_ok=True)
            if os.access(base, os.W_OK):
                database = base / f"{root.name or 'root'}-{key}.db"
                return str(database), f"{problem}; the index is kept in {database}"
        except OSError:
            continue
    return ":memory:", f"{problem}; the index is kept in memory for this run"


def _own_directory_problem(directory: Path) -> str | None:
    """None when the index can go in ``directory`` (``ROOT/.ctxopt``, made with its
    ``.gitignore`` when missing), else what is in the way, in words: a file of that
    name that is not a directory (the user's: left as it is), a root or directory that
    is not writable, an index file that is not writable, or the system's error."""
    try:
        directory.mkdir(exist_ok=True)
    except FileExistsError:  # (exist_ok: something that is not a directory)
        return f"{directory} is not a directory (left as it is)"
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return f"{directory.parent} is not writable"
        return f"cannot create {directory}: {exc.strerror}"
    if not os.access(directory, os.W_OK):
        return f"{directory} is not writable"
    ignore = directory / ".gitignore"
    try:
        if not ignore.exists():
            ignore.write_text("# written by ctxopt: nothing in here belongs in version control\n*\n",
                              encoding="utf-8")
    except OSError as exc:
        return f"cannot write {ignore}: {exc.strerror}"
    database = directory / "index.db"
    if database.exists() and not os.access(database, os.W_OK):
        return f"{database} is not writable"
    return None

