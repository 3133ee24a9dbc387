"""Input safety: what a hostile repository can hold, and how each case is made safe.

Called from discovery (links, nested repositories, binary, undecodable and secret files,
over-long lines) and from the per-file parse (``parsing.parse_file``). Everything that is
skipped or degraded becomes a ``Diagnostic`` whose ``reason`` is one of
``files.reasons.REASONS``; nothing here prints.
"""
from __future__ import annotations

import errno
import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..errors import PatternError
from ..model import Diagnostic
from ..wording import counted
from .patterns import pattern_problem
from .reasons import (REASON_BINARY, REASON_BROKEN_LINK, REASON_DIRECTORY_LINK,
                      REASON_DUPLICATE_LINK, REASON_LINE_TOO_LONG, REASON_LINK_LOOP,
                      REASON_NOT_REGULAR, REASON_OUTSIDE_ROOT, REASON_REPLACED, REASON_SECRET,
                      REASON_SUBMODULE, REASON_UNREADABLE)
from .secrets import secret_file_kind
from .text import decode_text, looks_binary, split_lines

__all__ = ["HygieneConfig", "is_special", "special_file", "read_regular", "read_regular_text",
           "check_link",
           "drop_duplicate_links", "is_nested_repository", "submodule_diagnostic",
           "inspect_file", "DEFAULT_PARSE_TIMEOUT", "MAX_LINE_LENGTH"]

DEFAULT_PARSE_TIMEOUT = 5.0  # seconds; the largest real files we tried parse in under 1 s
# Longer lines are minified or generated data: useless context, and slow to parse.
MAX_LINE_LENGTH = 10_000


@dataclass(frozen=True, slots=True)
class HygieneConfig:
    """How strict the input hygiene is.

    ``parse_timeout`` is in seconds per file; ``max_line_length`` in characters;
    ``exclude``: gitignore-style patterns, relative to the root, of files never indexed
    (``--exclude`` and the configuration file; they win over ``.ctxoptignore`` files).

    Raises ``ValueError`` for a bad setting: ``PatternError`` (also a ``UsageError``, exit 2)
    for an ``exclude`` pattern that can never match a path (``files.patterns``).
    """

    allow_secrets: bool = False
    submodules: bool = False
    parse_timeout: float = DEFAULT_PARSE_TIMEOUT
    max_line_length: int = MAX_LINE_LENGTH
    exclude: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not (math.isfinite(self.parse_timeout) and self.parse_timeout > 0):
            raise ValueError("parse_timeout must be positive and finite, "
                             f"got {self.parse_timeout!r}")
        if self.max_line_length <= 0:
            raise ValueError(f"max_line_length must be positive, got {self.max_line_length!r}")
        for pattern in self.exclude:
            problem = pattern_problem(pattern)
            if problem is not None:
                shown = f"'{pattern}'" if pattern.isprintable() else repr(pattern)
                raise PatternError(f"--exclude {shown} {problem}")


def is_special(mode: int) -> bool:
    """Whether ``mode`` (an ``st_mode``) is a FIFO, socket or device: a file never opened,
    since a read of a FIFO waits for a writer that may never come, and one of a device may
    never end."""
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def special_file(path: Path, rel: str) -> Diagnostic | None:
    """``not a regular file`` (at ``rel``) when ``path``, links followed, ``is_special``;
    else None, also when it cannot be stat'ed (the read that follows says why)."""
    try:
        mode = path.stat().st_mode
    except (OSError, RuntimeError):  # RuntimeError: a link loop on Python < 3.13
        return None
    return Diagnostic(rel, REASON_NOT_REGULAR) if is_special(mode) else None


def read_regular(path: Path, limit: int = -1, *, pipes: bool = False) -> bytes:
    """The bytes of a file the user names (at most ``limit``; -1: all), as any command
    reads one: never a FIFO, socket or device (``special_file``); with ``pipes``, a FIFO
    is read as the pipe it is (a shell's ``--task-file <(...)``): what its writers write,
    or nothing when none has it open (the read never waits for one to come).

    Raises ``OSError``; its ``strerror`` says why (``not a regular file``, ``Is a
    directory``...).
    """
    special = special_file(path, str(path))
    if special is not None and not (pipes and stat.S_ISFIFO(path.stat().st_mode)):
        raise OSError(errno.EINVAL, REASON_NOT_REGULAR, str(path))
    # The file may have been swapped for a FIFO since the stat: opened without waiting
    # for a writer (O_NONBLOCK), it is checked again before the read.
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(descriptor, "rb") as handle:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if pipes and stat.S_ISFIFO(mode):
            os.set_blocking(descriptor, True)  # a read then ends when no writer is left
        elif is_special(mode):
            raise OSError(errno.EINVAL, REASON_NOT_REGULAR, str(path))
        return handle.read(limit)


def read_regular_text(path: Path) -> str:
    """The UTF-8 text of a file the user names (``read_regular``).

    Raises ``OSError``, its ``strerror`` saying why: ``read_regular``'s, or ``binary``
    or ``not UTF-8 text`` (not Python's codec message, which names a byte and a position
    a user has no use for)."""
    data = read_regular(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = REASON_BINARY if looks_binary(data) else "not UTF-8 text"
        raise OSError(errno.EILSEQ, reason, str(path)) from exc


def check_link(link: Path, rel: str, root: Path | None) -> Diagnostic | None:
    """None when the symbolic link ``link`` (at ``rel`` under the resolved ``root``) may
    be read: it resolves to a regular file inside the root. Otherwise why not.

    Links are never followed into directories: a link to a directory that contains it
    (``up -> ..``) is a ``link loop``, any other one a ``directory link`` (its files are
    indexed at their real path when that is inside the root). ``root`` None: a link the
    user names (``ctxopt tags LINK``), which has no root to be outside of; a link to a
    directory is then a ``directory link`` whatever the directory.
    """
    try:
        target = link.resolve(strict=True)
    except RuntimeError:  # Python < 3.13 reports a loop so
        return Diagnostic(rel, REASON_LINK_LOOP)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Diagnostic(rel, REASON_LINK_LOOP)
        return Diagnostic(rel, REASON_BROKEN_LINK)
    if root is None:
        if target.is_dir():
            return Diagnostic(rel, REASON_DIRECTORY_LINK, "not followed; name the directory itself")
    elif not target.is_relative_to(root):
        return Diagnostic(rel, REASON_OUTSIDE_ROOT, "the link points outside the root")
    elif target.is_dir():
        where = target.relative_to(root).as_posix()
        if where == "." or rel == where or rel.startswith(where + "/"):
            return Diagnostic(rel, REASON_LINK_LOOP, f"points to {where if where != '.' else 'the root'}, which contains it")
        return Diagnostic(rel, REASON_DIRECTORY_LINK, f"not followed; {where} is indexed at its own path")
    return special_file(target, rel)


def drop_duplicate_links(root: Path, files: list[str], links: set[str] | None = None
                         ) -> tuple[list[str], list[Diagnostic]]:
    """``files`` without the links to files that are themselves in ``files``.

    ``root`` is resolved; ``files`` are root-relative; ``links``: which of them are
    symbolic links, when the caller knows (else each file is checked). The real file is
    kept, so the same code is not indexed and emitted twice; each dropped link gets a
    ``duplicate link`` diagnostic naming the file it points to.
    """
    present = set(files)
    kept: list[str] = []
    diagnostics: list[Diagnostic] = []
    for rel in files:
        if links is not None and rel not in links:
            kept.append(rel)
            continue
        path = root / rel
        if path.is_symlink():
            try:
                target = path.resolve(strict=True).relative_to(root).as_posix()
            except (OSError, RuntimeError, ValueError):
                target = None
            if target is not None and target != rel and target in present:
                diagnostics.append(Diagnostic(rel, REASON_DUPLICATE_LINK, f"same file as {target}"))
                continue
        kept.append(rel)
    return kept, diagnostics


def is_nested_repository(directory: Path) -> bool:
    """True when ``directory`` is the work tree of a submodule or a nested repository
    (it holds a ``.git`` file or directory)."""
    return os.path.lexists(directory / ".git")


def submodule_diagnostic(rel: str) -> Diagnostic:
    """The one diagnostic for a skipped submodule or nested repository at ``rel``."""
    return Diagnostic(rel, REASON_SUBMODULE, "nested repository, not indexed (use --submodules)")


def inspect_file(path: Path, rel: str, config: HygieneConfig, *, data: bytes | None = None
                 ) -> tuple[bool, list[Diagnostic]]:
    """Read one discovered file (unless its bytes are given as ``data``) and decide
    whether to index it.

    Returns (keep, diagnostics). A file is dropped when its name or content says it
    holds credentials (unless ``config.allow_secrets``), when it cannot be read, when its
    content is binary, or when a line is longer than ``config.max_line_length``
    characters. A kept file may still carry a ``decoded with replacement`` diagnostic.
    """
    if path.name == ".git":  # a submodule's link to its git directory
        return False, []
    if not config.allow_secrets:
        kind = secret_file_kind(rel)
        if kind is not None:
            return False, [Diagnostic(rel, REASON_SECRET, kind)]
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            return False, [Diagnostic(rel, REASON_UNREADABLE, exc.strerror or str(exc))]
    if looks_binary(data):
        return False, [Diagnostic(rel, REASON_BINARY)]
    decoded = decode_text(data)
    if not config.allow_secrets:
        kind = secret_file_kind(rel, decoded.text)
        if kind is not None:
            return False, [Diagnostic(rel, REASON_SECRET, kind)]
    lines = split_lines(decoded.text)
    most = max(map(len, lines), default=0)  # (no list of every line's length: a third faster)
    if most > config.max_line_length:
        longest = next(i for i, line in enumerate(lines) if len(line) == most)  # the first
        return False, [Diagnostic(rel, REASON_LINE_TOO_LONG,
                                  f"line {longest + 1} has {most} characters "
                                  f"(limit {config.max_line_length})")]
    if decoded.replaced:
        return True, [Diagnostic(rel, REASON_REPLACED,
                                 f"{counted(decoded.replaced, 'byte')} "
                                 f"{'is' if decoded.replaced == 1 else 'are'} not "
                                 f"{decoded.encoding} and show{'s' * (decoded.replaced == 1)} "
                                 "as U+FFFD")]
    return True, []
