"""Edge stage: repository root -> sorted repo-relative paths of the files to index.

Which files are candidates:

- inside a git work tree, ``git ls-files`` (tracked plus untracked-not-ignored files);
  elsewhere a walk that honours ``.gitignore`` files at every level (through ``pathspec``,
  last match wins, deeper files first) and skips VCS and tool-cache directories;
- either way, ``.ctxoptignore`` files (same syntax, at any level) exclude more.

Ignored files are skipped silently. Candidates are then skipped, each with a
``Diagnostic`` whose reason is one of ``SKIP_REASONS``:

- ``vendored``: under ``node_modules``, ``vendor``, ``third_party``, a virtual environment...
  (a walk reports the directory once, without entering it; git reports each tracked file);
- ``too large``: over ``max_file_bytes`` (decided from ``stat``, nothing is read);
- ``generated``: lock files by name, or a ``Code generated ... DO NOT EDIT`` header;
- ``minified``: ``*.min.js``/``*.min.css``, or very long lines (see ``classify_content``);
- ``binary``: a NUL byte in the first 8000 bytes (as git decides);
- ``unreadable``, ``broken link``, ``outside root``...: the file cannot be read safely;
- the input-hygiene rules of ``hygiene`` (nested repositories, secrets, over-long lines,
  links that duplicate an indexed file).

``list_candidates`` applies the rules that need no reading (cheap: one ``stat`` per file,
what an incremental index checks on every run); ``classify_content`` applies the rest to
bytes already read; ``discover_sources`` does both.
"""
from __future__ import annotations

import os
import re
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pathspec

from . import hygiene
from .model import Diagnostic

__all__ = ["discover_sources", "list_candidates", "classify_content", "inspect_content", "Candidate",
           "SKIPPED_DIRECTORIES", "VENDORED_DIRECTORIES", "MAX_FILE_BYTES", "SKIP_REASONS",
           "IGNORE_FILE"]

# Walked trees only: version control and caches, skipped silently.
SKIPPED_DIRECTORIES = frozenset({
    ".git", ".hg", ".svn", ".ctxopt", "__pycache__", ".tox", ".nox", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", ".eggs", ".idea", ".vscode", ".next",
})
# Walked trees only: build output at the top of the tree, skipped with a diagnostic. Deeper
# down these names are often real packages (coverage.py's `coverage/`), so they are kept.
BUILD_OUTPUT_DIRECTORIES = frozenset({"dist", "build", "htmlcov"})
# Third-party code checked in or installed beside the project: skipped with a diagnostic.
VENDORED_DIRECTORIES = frozenset({
    "node_modules", "bower_components", "jspm_packages", "vendor", "third_party",
    "third-party", "thirdparty", "site-packages", ".venv", "venv", "virtualenv",
    "Pods", "Carthage",
})
SKIP_REASONS = ("vendored", "build output", "too large", "generated", "minified", "binary", "unreadable",
                "broken link", "outside root")
MAX_FILE_BYTES = 1_000_000
IGNORE_FILE = ".ctxoptignore"
# Read this many bytes to decide whether a file is binary (a NUL byte means binary, as git does).
_BINARY_SNIFF_BYTES = 8000
# Minified or generated data: lines this long on average, or one line this long.
_MINIFIED_MEAN_LINE = 1000
_MINIFIED_MAX_LINE = 20_000
_HEADER_BYTES = 4096
_GENERATED_HEADER = re.compile(
    rb"(?im)^[ \t]*(?://|#|/\*|\*|--|;|<!--)[^\n]*\bgenerated\b[^\n]*\bDO NOT EDIT\b")
_LOCK_FILES = frozenset({
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb",
    "Cargo.lock", "poetry.lock", "Pipfile.lock", "pdm.lock", "uv.lock", "Gemfile.lock",
    "composer.lock", "go.sum", "flake.lock", "mix.lock", "Podfile.lock",
    "packages.lock.json", "gradle.lockfile",
})
_MINIFIED_SUFFIXES = (".min.js", ".min.css", ".min.mjs", "-min.js", ".bundle.js")


@dataclass(frozen=True, slots=True)
class Candidate:
    """A file that passed the name rules: its root-relative path, size (bytes) and
    modification time (nanoseconds since the epoch)."""

    path: str
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class _Ignore:
    base: str  # directory of the ignore file, relative to the root, '' for the root
    spec: pathspec.GitIgnoreSpec


def _load_ignore(directory: Path, base: str, name: str = ".gitignore") -> _Ignore | None:
    try:
        text = hygiene.decode_ignore_file((directory / name).read_bytes())
    except OSError:
        return None
    return _Ignore(base, pathspec.GitIgnoreSpec.from_lines(text.splitlines()))


def _ignored(rel: str, ignores: list[_Ignore], is_dir: bool) -> bool:
    for ignore in reversed(ignores):  # deepest first: it has the last word
        if ignore.base and not rel.startswith(ignore.base + "/"):
            continue
        sub = rel[len(ignore.base) + 1:] if ignore.base else rel
        result = ignore.spec.check_file(sub + ("/" if is_dir else ""))
        if result.include is not None:
            return bool(result.include)
    return False


def _ignored_with_parents(rel: str, ignores: list[_Ignore]) -> bool:
    """Like ``_ignored`` for a file, also when one of its directories is excluded."""
    parts = rel.split("/")
    for i in range(1, len(parts)):
        if _ignored("/".join(parts[:i]), ignores, True):
            return True
    return _ignored(rel, ignores, False)


def _is_venv(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "pyvenv.cfg"))


def _git_files(root: Path) -> list[str] | None:
    """Tracked and untracked-not-ignored files under ``root``, or None outside a work tree."""
    try:
        completed = subprocess.run(
            ["git", "-c", "core.quotepath=off", "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"],
            cwd=root, capture_output=True, timeout=120,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"})
    except (OSError, subprocess.SubprocessError):
        return None
    if completed.returncode != 0:
        return None
    names = completed.stdout.decode("utf-8", "surrogateescape").split("\0")
    return sorted({name for name in names if name})


def _walk_files(root: Path, diagnostics: list[Diagnostic], config: hygiene.HygieneConfig
                ) -> list[str]:
    """Every file under ``root`` not excluded by ``.gitignore`` files or skipped directories."""
    files: list[str] = []
    root_ignore = _load_ignore(root, "")
    stack: list[tuple[Path, str, list[_Ignore]]] = [(root, "", [root_ignore] if root_ignore else [])]
    while stack:
        directory, rel_dir, ignores = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            diagnostics.append(Diagnostic(rel_dir or ".", "unreadable", exc.strerror or ""))
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if entry.is_dir(follow_symlinks=False):
                if entry.name in SKIPPED_DIRECTORIES or _ignored(rel, ignores, True):
                    continue
                if not rel_dir and entry.name in BUILD_OUTPUT_DIRECTORIES:
                    diagnostics.append(Diagnostic(rel + "/", "build output", "directory"))
                    continue
                if entry.name in VENDORED_DIRECTORIES or _is_venv(entry.path):
                    diagnostics.append(Diagnostic(rel + "/", "vendored", "directory"))
                    continue
                if not config.submodules and hygiene.is_nested_repository(Path(entry.path)):
                    diagnostics.append(hygiene.submodule_diagnostic(rel))
                    continue
                child_ignore = _load_ignore(Path(entry.path), rel)
                stack.append((Path(entry.path), rel,
                              ignores + [child_ignore] if child_ignore else ignores))
            elif not _ignored(rel, ignores, False):
                files.append(rel)
    files.sort()
    return files


def _vendored(rel: str, root: Path, venvs: dict[str, bool]) -> bool:
    parts = rel.split("/")[:-1]
    for i, part in enumerate(parts):
        if part in VENDORED_DIRECTORIES:
            return True
        directory = "/".join(parts[: i + 1])
        if directory not in venvs:
            venvs[directory] = _is_venv(str(root / directory))
        if venvs[directory]:
            return True
    return False


def list_candidates(root: Path, *, max_file_bytes: int = MAX_FILE_BYTES,
                    config: hygiene.HygieneConfig | None = None
                    ) -> tuple[list[Candidate], list[Diagnostic]]:
    """The files to index under ``root`` by the rules that need no reading.

    Returns (candidates sorted by path, diagnostics of the files skipped by reason
    ``vendored``, ``too large``, ``generated`` (lock files), ``minified`` (by name),
    ``broken link``, ``outside root`` or ``unreadable``). Symbolic links to directories
    are not followed; links to files are kept only when they resolve inside ``root``.
    Never raises for a single bad file.
    """
    config = config or hygiene.HygieneConfig()
    root = root.resolve()
    diagnostics: list[Diagnostic] = []
    listed = _git_files(root)
    in_git = listed is not None
    if listed is None:
        listed = _walk_files(root, diagnostics, config)
    elif config.submodules:  # git lists a submodule as one entry: walk into it
        expanded = []
        for rel in listed:
            directory = root / rel.rstrip("/")
            if directory.is_dir() and not directory.is_symlink():
                base = rel.rstrip("/")
                expanded += [f"{base}/{sub}" for sub in _walk_files(directory, diagnostics, config)]
            else:
                expanded.append(rel)
        listed = sorted(expanded)
    ctxoptignores = []
    for rel in listed:
        if rel == IGNORE_FILE or rel.endswith("/" + IGNORE_FILE):
            base = rel[: -len(IGNORE_FILE)].rstrip("/")
            loaded = _load_ignore(root / base if base else root, base, IGNORE_FILE)
            if loaded:
                ctxoptignores.append(loaded)
    ctxoptignores.sort(key=lambda i: (i.base.count("/") + bool(i.base), i.base))
    venvs: dict[str, bool] = {}
    candidates: list[Candidate] = []
    links: set[str] = set()
    base = os.path.join(str(root), "")
    for rel in listed:
        if rel == ".ctxopt" or rel.startswith(".ctxopt/"):
            continue
        if ctxoptignores and _ignored_with_parents(rel, ctxoptignores):
            continue
        if in_git and _vendored(rel, root, venvs):
            diagnostics.append(Diagnostic(rel, "vendored"))
            continue
        try:
            info = os.lstat(base + rel)
        except OSError:
            continue  # deleted since it was listed (git lists deleted tracked files)
        if stat.S_ISLNK(info.st_mode):
            full = root / rel
            problem = hygiene.check_link(full, rel, root)
            if problem is not None:
                diagnostics.append(problem)
                continue
            info = full.stat()
            links.add(rel)
        elif stat.S_ISDIR(info.st_mode):
            if not config.submodules and hygiene.is_nested_repository(root / rel):
                diagnostics.append(hygiene.submodule_diagnostic(rel.rstrip("/")))
            continue
        elif not stat.S_ISREG(info.st_mode):
            continue  # sockets, fifos
        if not config.allow_secrets and hygiene.secret_file_kind(rel) is not None:
            diagnostics.append(Diagnostic(rel, hygiene.REASON_SECRET, hygiene.secret_file_kind(rel)))
            continue
        if info.st_size > max_file_bytes:
            diagnostics.append(Diagnostic(rel, "too large", f"{info.st_size} bytes"))
            continue
        name = rel.rsplit("/", 1)[-1]
        if name in _LOCK_FILES:
            diagnostics.append(Diagnostic(rel, "generated", "lock file"))
            continue
        if name.endswith(_MINIFIED_SUFFIXES):
            diagnostics.append(Diagnostic(rel, "minified", "named as minified"))
            continue
        candidates.append(Candidate(rel, info.st_size, info.st_mtime_ns))
    kept, duplicates = hygiene.drop_duplicate_links(root, [c.path for c in candidates], links)
    if duplicates:
        diagnostics.extend(duplicates)
        keep = set(kept)
        candidates = [c for c in candidates if c.path in keep]
    diagnostics.sort(key=lambda d: (d.path, d.reason))
    return candidates, diagnostics


def classify_content(data: bytes) -> tuple[str, str] | None:
    """Why a file's content should not be indexed: (reason, detail), or None to index it.

    ``binary`` when a NUL byte is in the first 8000 bytes; ``generated`` when a comment
    in the first 4 KB says ``generated ... DO NOT EDIT``; ``minified`` when lines average
    over 1000 characters or one line exceeds 20,000.
    """
    if hygiene.looks_binary(data[:_BINARY_SNIFF_BYTES]):
        return ("binary", "")
    if _GENERATED_HEADER.search(data[:_HEADER_BYTES]):
        return ("generated", "marked DO NOT EDIT")
    if len(data) > _MINIFIED_MEAN_LINE:
        lines = data.count(b"\n") + 1
        if len(data) / lines > _MINIFIED_MEAN_LINE:
            return ("minified", f"lines average {len(data) // lines} characters")
        # a run of more than _MINIFIED_MAX_LINE bytes without a newline
        if len(data) > _MINIFIED_MAX_LINE and _MINIFIED_MAX_LINE < max(map(len, data.split(b"\n"))):
            return ("minified", f"a line over {_MINIFIED_MAX_LINE} characters")
    return None


def inspect_content(root: Path, rel: str, data: bytes, config: hygiene.HygieneConfig
                    ) -> tuple[bool, list[Diagnostic]]:
    """The content rules for one candidate whose bytes are ``data``: (keep, diagnostics).

    ``hygiene.inspect_file`` first (secrets, binary, over-long lines; a kept file may
    carry a ``decoded with replacement`` diagnostic), then ``classify_content``.
    """
    keep, notes = hygiene.inspect_file(root / rel, rel, config, data=data)
    if not keep:
        return keep, notes
    skip = classify_content(data)
    if skip:
        return False, [Diagnostic(rel, *skip)]
    return keep, notes


def discover_sources(root: Path, *, max_file_bytes: int = MAX_FILE_BYTES,
                     config: hygiene.HygieneConfig | None = None
                     ) -> tuple[list[str], list[Diagnostic]]:
    """Select the files to index under ``root``: (sorted relative paths, diagnostics).

    ``list_candidates`` then ``inspect_content`` on each candidate's bytes, then links
    that duplicate an indexed file are dropped; see the module docstring for the rules.
    Never raises for a single bad file.
    """
    config = config or hygiene.HygieneConfig()
    root = root.resolve()
    candidates, diagnostics = list_candidates(root, max_file_bytes=max_file_bytes, config=config)
    files: list[str] = []
    for candidate in candidates:
        try:
            data = (root / candidate.path).read_bytes()
        except OSError as exc:
            diagnostics.append(Diagnostic(candidate.path, "unreadable", exc.strerror or ""))
            continue
        keep, notes = inspect_content(root, candidate.path, data, config)
        diagnostics.extend(notes)
        if keep:
            files.append(candidate.path)
    diagnostics.sort(key=lambda d: (d.path, d.reason))
    return files, diagnostics
