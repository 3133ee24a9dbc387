"""Scanning many files in worker processes that end with their parent."""
from __future__ import annotations

import contextlib
import marshal
import os
import queue
import sys
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any, cast

from ..files.safety import HygieneConfig
from ..errors import GrammarError, IndexStoreError
from .parsecache import ParseCache
from .scan import ScanResult, scan_chunk, scan_one, unpacked

__all__ = ["scan_files", "shared_languages"]

# Below this many files to read, parse in this process (starting workers costs more).
_PARALLEL_THRESHOLD = 48
_CHUNK = 16  # files per worker task
# Chunks sent ahead to each worker: it starts the next one while this process is busy
# storing results, instead of waiting to be sent one.
_IN_FLIGHT = 2


def shared_languages(work: list[tuple[str, str | None, bool | None]], jobs: int) -> list[str]:
    """The languages (by file extension) of at least ``jobs`` chunks of ``work``: every
    worker would compile their tag queries for itself, so the parent compiles them before
    it forks them (``scan_files``; sympy's Python query 12 ms a worker, C++'s 0.32 s).
    The queries of the others are compiled by the worker that meets them."""
    from collections import Counter

    from ..parsing.languages import language_for_path

    counts = Counter(language.name for path, _, _ in work
                     if (language := language_for_path(path)) is not None)
    return sorted(name for name, count in counts.items() if count >= jobs * _CHUNK)


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

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # also drops one held back since the fork
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # see _sigint_held
    if not _die_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


# The first byte of a worker's answer: the results (marshalled ``scan.packed`` tuples,
# faster both ways than pickling the objects), or the exception (pickled).
_RESULTS, _ERROR = b"r", b"e"


def _worker_main(conn: Any, root: str, config: HygieneConfig, parent: int,
                 cache: ParseCache | None) -> None:
    """A worker: scan the chunks received on ``conn`` until None (or the pipe closes),
    answering each with its results or the exception it raised (``_answer``). It reads
    the parse ``cache`` but leaves the writing to its parent (``scan.unpacked``): one
    writer, where two workers writing at once took turns at the cache's write lock."""
    _worker_init(parent)
    outbox = _sender(conn)
    try:
        while True:
            chunk = conn.recv()
            if chunk is None:
                return
            try:
                answer = _RESULTS + marshal.dumps(scan_chunk(root, chunk, config, cache))
            except Exception as exc:
                import pickle  # (here: a warm gather never starts a worker)

                try:
                    answer = _ERROR + pickle.dumps(exc)
                except Exception:  # an exception that does not pickle
                    answer = _ERROR + pickle.dumps(RuntimeError(f"{type(exc).__name__}: {exc}"))
            outbox.put(answer)
    except (EOFError, OSError):
        return  # the parent went away


def _sender(conn: Any) -> queue.SimpleQueue[bytes]:
    """A queue whose answers a thread of this worker writes to ``conn``, in order, while
    the worker scans its next chunk. An answer (a megabyte or two for a chunk of big
    files) passes a pipe's buffer only as fast as the parent reads it, and the parent
    reads none while it stores a batch: written in line, the workers of a cold index of
    sympy waited 0.4-0.5 s each (wall, at a load of 3.5) for the parent to read. The
    parent asks for no more (None) before it has read every answer, so none is left
    unsent when the worker ends. A write that fails ends the worker (exit code 1): the
    parent then sees its pipe close and stops with an error, where a worker left waiting
    for its next chunk would leave the parent waiting for ever (review 34)."""
    import threading

    outbox: queue.SimpleQueue[bytes] = queue.SimpleQueue()

    def send() -> None:
        try:
            while True:
                conn.send_bytes(outbox.get())
        except BaseException:  # (the parent gone, or any error: the answer is lost)
            os._exit(1)

    threading.Thread(target=send, name="ctxopt answers", daemon=True).start()
    return outbox


def _answer(data: bytes, cache: ParseCache | None) -> list[ScanResult]:
    """The results in a worker's answer, their new entries put in ``cache``; raises the
    exception a worker sent instead."""
    if data[:1] == _ERROR:
        import pickle

        raise pickle.loads(data[1:])
    return [unpacked(fields, cache) for fields in marshal.loads(memoryview(data)[1:])]


def scan_files(root: Path, work: list[tuple[str, str | None, bool | None]], jobs: int,
          progress: Callable[[int, int], None] | None,
          config: HygieneConfig, cache: ParseCache | None = None,
          sizes: dict[str, int] | None = None) -> Generator[ScanResult, None, None]:
    """Scan ``work`` ((path, old hash, generated) triples), in worker processes when there
    is much, through the parse ``cache`` when there is one (``scan.scan_one``).
    ``sizes``: the files' sizes in bytes as listed (path -> size), which order the work
    for the workers; a file missing there is looked up (``stat``).

    The workers are plain processes with one pipe each (no pool threads here): when the
    scan does not run to its end (an exception, Ctrl-C, the generator closed), they are
    killed at once, so nothing waits on a worker blocked on a pipe. The new entries they
    found are put in ``cache`` here; after a scan that ran to its end, the last of them
    are written by the caller's ``cache.close()``."""
    total = len(work)
    done = 0
    if jobs <= 1 or total < _PARALLEL_THRESHOLD:
        try:
            for path, old_hash, generated in work:
                yield scan_one(str(root), path, old_hash, config, generated, cache)
                done += 1
                if progress:
                    progress(done, total)
        finally:
            if cache is not None:
                cache.flush()
        return
    import multiprocessing
    from multiprocessing.connection import wait

    from .. import lexical  # noqa: F401  (imported here, inherited by forked workers)
    from ..parsing import treesitter

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    if context.get_start_method() == "fork":
        for language in shared_languages(work, jobs):
            with contextlib.suppress(GrammarError):  # (a worker meets it, as before)
                treesitter.load_language(language)
    # largest files first, so that no worker is left with a big file at the end (sizes
    # as listed: a stat of each file here took 14 ms before any worker started)
    sizes = sizes or {}
    order = sorted(work, key=lambda w: -(sizes[w[0]] if w[0] in sizes
                                         else _size_or_zero(root / w[0])))
    chunks = iter([order[i:i + _CHUNK] for i in range(0, total, _CHUNK)])
    workers: dict[Any, Any] = {}  # connection -> process
    finished = False
    try:
        for _ in range(min(jobs, -(-total // _CHUNK))):
            here, there = context.Pipe()
            process = context.Process(target=_worker_main, daemon=True,
                                      args=(there, str(root), config, os.getpid(), cache))
            with _sigint_held():
                process.start()
                workers[here] = process
            there.close()
        busy: dict[Any, int] = {}  # connection -> chunks sent and not answered yet
        for _ in range(_IN_FLIGHT):
            for conn in workers:
                chunk = next(chunks, None)
                if chunk is not None:
                    conn.send(chunk)
                    busy[conn] = busy.get(conn, 0) + 1
        while busy:
            for conn in cast("list[Any]", wait(list(busy))):
                try:
                    data = conn.recv_bytes()
                except (EOFError, OSError) as exc:
                    raise IndexStoreError("a worker process died while indexing "
                                          f"(exit code {workers[conn].exitcode})") from exc
                results = _answer(data, cache)
                chunk = next(chunks, None)
                if chunk is None:
                    busy[conn] -= 1
                    if not busy[conn]:
                        del busy[conn]
                else:
                    conn.send(chunk)
                yield from results
                done += len(results)
                if progress:
                    progress(done, total)
        finished = True
    finally:
        _stop_workers(workers, finished)
        if cache is not None and not finished:  # (else the caller's close writes the rest)
            cache.flush()


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT blocked in this thread inside the block, and delivered (as the usual
    ``KeyboardInterrupt``) when it ends.

    A worker is started under it: a Ctrl-C raised between the fork and the end of
    ``Process.start`` would leave a forked worker that ``scan_files`` does not know and so
    cannot end (it would wait on its pipe for as long as this process lives). The worker
    inherits the blocked signal and drops it in ``_worker_init``. Where signals cannot be
    blocked (no ``pthread_sigmask``) the block runs as it is."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


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


