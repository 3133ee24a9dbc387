"""How to build the index (``IndexOptions``) and what an update did (``UpdateReport``)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..files.safety import HygieneConfig
from ..discover import MAX_FILE_BYTES
from ..errors import UsageError

__all__ = ["IndexOptions", "UpdateReport"]


@dataclass(frozen=True, slots=True)
class IndexOptions:
    """How to build the index.

    ``path``: the database file (None: ``$CTXOPT_INDEX``, else ``<root>/.ctxopt/index.db``);
    ``jobs``: worker processes for parsing (None: all cores); ``max_file_bytes``: larger
    files are skipped; ``progress``: called as ``progress(done, total)`` while files are
    read (the CLI draws a bar with it), never called when there is nothing to read;
    ``listed``: called once with the number of files the index will hold (the candidates
    listed, before any is read; the CLI's note on a root taken from the current directory);
    ``notify``: called with a one-line note for the user (e.g. where the index went when
    the root is read-only); ``hygiene``: secrets, submodules, parse time limit (a change
    re-checks only the files it affects, see ``store.recheck``; the line length limit
    rebuilds the index); ``parse_cache``: the directory of the parse cache shared across
    checkouts (``store.parsecache``): a path, ``"off"`` or False for none, True for
    ``$CTXOPT_PARSE_CACHE`` or else the user cache directory.
    """

    path: Path | None = None
    jobs: int | None = None
    max_file_bytes: int = MAX_FILE_BYTES
    progress: Callable[[int, int], None] | None = None
    listed: Callable[[int], None] | None = None
    notify: Callable[[str], None] | None = None
    hygiene: HygieneConfig = HygieneConfig()
    parse_cache: Path | str | bool = True

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
    one-line remark for the user (e.g. where the index went when the root is read-only);
    ``cache``: the parse cache directory ('' when off); ``cache_hits`` and
    ``cache_misses``: files read whose scan came from the cache, or had to be made.
    ``removed_definitions``: each file dropped -> the qualified names of the definitions
    it held (``pipeline`` notes a task naming one: trial 20, a symbol of a file deleted
    since the index was said nothing of).
    """

    path: str
    scanned: int = 0
    parsed: int = 0
    removed: int = 0
    rebuilt: bool = False
    seconds: float = 0.0
    note: str = ""
    skipped: dict[str, int] = field(default_factory=dict)
    cache: str = ""
    cache_hits: int = 0
    cache_misses: int = 0
    removed_definitions: dict[str, tuple[str, ...]] = field(default_factory=dict)

