"""One update of an index at a time, across processes: a lock file beside the database.

Concurrent gathers on one repository each bring the index up to date before they read
it. Without a lock they all parse the same files (and SQLite's own locks can fail a
write that started in a read transaction); with it the first run updates and the others
wait, then find the index current (one ``stat`` per file) and only read. Readers never
take the lock: WAL mode lets them read a committed snapshot while a writer works.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

__all__ = ["update_lock", "LOCK_SUFFIX"]

LOCK_SUFFIX = ".lock"


@contextlib.contextmanager
def update_lock(location: str, notify: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the update lock of the index at ``location`` (a database path, or ``:memory:``
    which needs none), waiting as long as another process holds it; ``notify`` is told
    once when this run has to wait. The lock is an OS lock (``flock``, ``LockFileEx``)
    on ``location + LOCK_SUFFIX``, released when the holder exits or is killed. When the
    lock file cannot be created, the update goes on without it (SQLite's locks still
    keep the database consistent)."""
    if location == ":memory:":
        yield
    elif os.name == "posix":
        # flock itself: the filelock package costs a warm gather 20-30 ms to import
        with _posix_lock(location + LOCK_SUFFIX, notify):
            yield
    else:
        with _filelock(location + LOCK_SUFFIX, notify):
            yield


@contextlib.contextmanager
def _posix_lock(path: str, notify: Callable[[str], None] | None) -> Iterator[None]:
    import fcntl

    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield  # a lock file that cannot be created: go on without it
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if notify is not None:
                notify("another ctxopt run is updating the index; waiting for it")
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextlib.contextmanager
def _filelock(path: str, notify: Callable[[str], None] | None) -> Iterator[None]:
    import filelock

    lock = filelock.FileLock(path)
    try:
        try:
            lock.acquire(timeout=0)
        except filelock.Timeout:
            if notify is not None:
                notify("another ctxopt run is updating the index; waiting for it")
            lock.acquire()
    except OSError:
        yield  # a lock file that cannot be created: go on without it
        return
    try:
        yield
    finally:
        lock.release()
