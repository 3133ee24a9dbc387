"""The command line's output (click only): where ``-o`` writes and how, the progress bar
of an index update, the line of a task that found nothing, and the exit statuses.

``gather``, ``curve`` and ``compact`` share these (``cli`` and ``curve_cli``); the library
never writes to the terminal.
"""
from __future__ import annotations

import contextlib
import enum
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import click

from .commands import announce_root, quiet
from .errors import CtxoptError, UsageError
from .files.text import display_text

__all__ = ["ExitStatus", "IndexingFeedback", "ProgressBar", "emit", "exit_nothing_found",
           "indexing_progress", "output_target", "remember_output", "write_output"]


class ExitStatus(enum.IntEnum):
    """What ``ctxopt`` exits with."""

    OK = 0
    NOTHING_FOUND = 1
    FAILURE = 1  # a runtime failure, such as a write that failed
    USAGE = 2
    INDEX_FAILURE = 3  # the index cannot be used (``IndexStoreError``)
    INTERRUPTED = 130  # Ctrl-C (SIGINT), as a shell reports a process killed by it


def output_target(output: str | None, *, root: Path | None = None,
                  inputs: tuple[Path | None, ...] = ()) -> Path | None:
    """The file ``-o`` writes to, or None for standard output (no ``-o``, or ``-o -``).

    An existing file is replaced only when ctxopt wrote it (``_written_by_ctxopt``): a
    source file replaced by the context is lost (trial 6 under the repository read; trial
    38 a committed file of another one, ``-o keep.py`` run from its work tree). ``root``:
    the repository the command reads, named in the error. ``inputs``: files the command
    reads (a task file), never replaced.

    A symbolic link is resolved, so the write goes to its target and the link stays.
    A device or pipe (``/dev/null``) is returned as given: it is written in place.
    Checked before any work is done: the directory must exist and be writable, and an
    existing file writable (the atomic write would replace a read-only one).

    Raises
    ------
    UsageError
        When the target is a directory, or its directory does not exist or cannot be
        written, or it is a file that cannot be written or is a SQLite database (an
        index: exit 2, bad input, as click's own checks of a path are), one of
        ``inputs``, or a file that ctxopt did not write.
    """
    if output is None or output == "-":
        return None
    path = Path(output)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise UsageError(f"cannot write {output!r}: {exc.strerror or exc}") from exc
    if mode is not None and stat.S_ISDIR(mode):
        raise UsageError(f"cannot write {output!r}: it is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        return path
    target = path.resolve()
    if not target.parent.is_dir():
        raise UsageError(f"cannot write {output!r}: directory {str(target.parent)!r} "
                         "does not exist")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {output!r}: directory {str(target.parent)!r} "
                         "is not writable")
    # (the shell's > refuses it too; a file no one may write is read-only to root as well,
    # whom os.access lets write anything: trial 10 replaced a 0444 file as root)
    if mode is not None and (not os.access(target, os.W_OK) or not mode & _ANY_WRITE):
        raise UsageError(f"cannot write {output!r}: {os.strerror(errno.EACCES)}")
    if mode is not None and _is_database(target):
        raise UsageError(f"cannot write {output!r}: it is a SQLite database (a ctxopt index?), "
                         "which the context would replace; choose another file")
    if mode is not None and any(given is not None and given.exists() and target.samefile(given)
                                for given in inputs):
        raise UsageError(f"cannot write {output!r}: it is the input this command reads; "
                         "choose another file")
    if mode is not None and not _written_by_ctxopt(target):
        where = ("a file of the repository" if root is not None
                 and target.is_relative_to(root.resolve()) else "an existing file")
        raise UsageError(f"cannot write {output!r}: it is {where} that is not ctxopt's last "
                         "output there unchanged, which the output would replace; choose "
                         "another file, or delete it first")
    return target


# the write bits of a mode: a file with none is read-only
_ANY_WRITE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


# The files ctxopt wrote with -o: one record a file, named by the SHA-256 of its resolved
# path and holding the SHA-256 of what was written, in this directory of the user cache
# (one file a path: concurrent runs never rewrite each other's records).
_RECORDS = "outputs"


def _record_of(path: Path) -> Path:
    from .calibration import user_cache_dir

    return user_cache_dir() / _RECORDS / _digest(os.fsencode(path))


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def remember_output(path: Path, data: bytes) -> str | None:
    """Record that ctxopt wrote ``data`` to ``path`` (resolved), so that a later ``-o`` may
    replace it while it holds exactly that. Returns None, or why the record could not be
    written (the later run then refuses to replace the file, which loses nothing)."""
    import tempfile

    record = _record_of(path)
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=record.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(_digest(data))
            os.replace(temporary, record)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        return f"{record.parent}: {exc.strerror or exc}"
    return None


def _written_by_ctxopt(path: Path) -> bool:
    """Whether the file at ``path`` holds exactly what ctxopt last wrote there
    (``remember_output``), or is empty outside every repository (``mktemp``'s), so that a
    new run may replace it. A file that merely looks like an output is not: trial 8
    appended notes to an earlier output, or copied one elsewhere in the repository, and
    the next ``-o`` replaced them. Nor is an empty file of a repository, which may be a
    committed one (an ``__init__.py``: review 38), nor an unreadable file. Read in
    chunks, and only when a record of the path exists."""
    import hashlib

    from .gitrepo import find_repository_root

    try:
        if path.stat().st_size == 0 and find_repository_root(path.parent) is None:
            return True
        expected = _record_of(path).read_text(encoding="ascii").strip()
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except (OSError, UnicodeDecodeError):
        return False
    return digest.hexdigest() == expected


def _is_database(path: Path) -> bool:
    """Whether the file at ``path`` starts as a SQLite database does (trial 4: ``-o
    .ctxopt/index.db`` replaced the index with the context)."""
    from .store.schema import SQLITE_MAGIC

    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def _new_file_mode() -> int:
    """The mode ``open()`` gives a new file: 0666 less the umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _keep_owner(path: str, previous: os.stat_result) -> None:
    """Give ``path`` the owner and group of the file it replaces, where allowed."""
    if (previous.st_uid, previous.st_gid) == (os.getuid(), os.getgid()):
        return
    try:
        os.chown(path, previous.st_uid, previous.st_gid)
    except PermissionError:
        pass  # only root may give a file away; the mode is kept anyway


def write_output(path: Path, text: str | bytes) -> None:
    """Write ``text`` to ``path`` (from ``output_target``), replacing a regular file
    atomically through a temporary file, so a failure leaves the old file.

    An existing file keeps its mode (and, where allowed, its owner); a new one gets the
    mode ``open()`` would give it (0666 less the umask), not mkstemp's 0600. A device or
    pipe is written in place.
    """
    try:
        existing: os.stat_result | None = path.stat()
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(path, "wb") as raw:
            raw.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        return
    mode = _new_file_mode() if existing is None else stat.S_IMODE(existing.st_mode)
    import tempfile  # (here: a warm gather writes no file)

    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as raw:
            raw.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        os.chmod(temporary, mode)
        if existing is not None:
            _keep_owner(temporary, existing)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class ProgressBar:
    """A tqdm bar on stderr, created on the first report of progress."""

    def __init__(self) -> None:
        self.bar: Any = None  # a tqdm bar once progress is reported

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="file", desc="indexing", file=sys.stderr,
                            leave=False, dynamic_ncols=True)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@dataclass(frozen=True)
class IndexingFeedback:
    """What the CLI shows while the index is brought up to date: ``progress`` (a bar, or
    None) and ``listed``, the callback of ``IndexOptions.listed`` that prints the note on a
    root taken from the current directory (``commands.announce_root``) with its file count."""

    progress: ProgressBar | None
    listed: Callable[[int], None] = announce_root


@contextlib.contextmanager
def indexing_progress() -> Iterator[IndexingFeedback]:
    """The feedback for ``IndexOptions.progress`` and ``listed``: a progress bar when
    stderr is a terminal and ``--quiet`` was not given (else None), closed when the block
    ends."""
    progress = ProgressBar() if sys.stderr.isatty() and not quiet() else None
    try:
        yield IndexingFeedback(progress)
    finally:
        if progress is not None:
            progress.close()


def emit(data: str | bytes, target: Path | None, output: str | None) -> None:
    """Write ``data`` to standard output (``target`` None) or to ``target`` (the file of
    ``-o output``, from ``output_target``). Raises ``CtxoptError`` when the write fails."""
    if target is None:
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            click.echo(data, nl=False)
        return
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    try:
        write_output(target, raw)
        regular = stat.S_ISREG(target.stat().st_mode)
    except OSError as exc:
        raise CtxoptError(f"cannot write {output!r}: {exc.strerror or exc}") from exc
    if regular:
        problem = remember_output(target, raw)
        if problem is not None and not quiet():
            click.echo(f"ctxopt: could not record the output ({problem}): a later -o will "
                       f"not replace {output!r}", err=True)


def exit_nothing_found(task: str, root: Path, why: str) -> NoReturn:
    """Say on stderr that ``task`` found nothing under ``root`` and why (one line), and
    exit ``ExitStatus.NOTHING_FOUND``."""
    from .render import task_line

    click.echo(display_text(f"ctxopt: nothing relevant found for '{task_line(task)}' "
                            f"under {root} ({why})"), err=True)
    sys.exit(ExitStatus.NOTHING_FOUND)
