"""Edge stage: repository root -> sorted repo-relative paths of the files to index.

Honours ``.gitignore`` files at every level (through ``pathspec``, last match wins,
deeper files first), skips ``.git`` and well-known vendored or generated directories,
files over a size limit and binary files. Each skipped file that a user might expect to
see becomes a ``Diagnostic``; ignored files are skipped silently.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pathspec

from . import hygiene
from .model import Diagnostic

__all__ = ["discover_sources", "SKIPPED_DIRECTORIES", "MAX_FILE_BYTES"]

SKIPPED_DIRECTORIES = frozenset({
    ".git", ".hg", ".svn", ".ctxopt", "node_modules", "__pycache__", ".venv", "venv",
    ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".eggs", "site-packages",
    "dist", "build", ".idea", ".vscode", ".next", "coverage", "htmlcov",
})
MAX_FILE_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class _Ignore:
    base: str  # directory of the .gitignore, relative to the root, '' for the root
    spec: pathspec.GitIgnoreSpec


def _load_ignore(directory: Path, base: str) -> _Ignore | None:
    path = directory / ".gitignore"
    try:
        text = hygiene.decode_ignore_file(path.read_bytes())
    except OSError:
        return None
    return _Ignore(base, pathspec.GitIgnoreSpec.from_lines(text.splitlines()))


def _ignored(rel: str, ignores: list[_Ignore], is_dir: bool) -> bool:
    for ignore in reversed(ignores):  # deepest first: it has the last word
        sub = rel[len(ignore.base) + 1:] if ignore.base else rel
        result = ignore.spec.check_file(sub + ("/" if is_dir else ""))
        if result.include is not None:
            return bool(result.include)
    return False


def discover_sources(root: Path, *, max_file_bytes: int = MAX_FILE_BYTES,
                     config: hygiene.HygieneConfig | None = None
                     ) -> tuple[list[str], list[Diagnostic]]:
    """Walk ``root`` and return (sorted relative paths, diagnostics).

    Symbolic links to directories are not followed; links to files are kept only when
    they resolve inside ``root`` (see ``hygiene.check_link``). Nested repositories,
    secret, binary and over-long files are skipped as ``config`` says
    (``hygiene.inspect_file``).
    """
    config = config or hygiene.HygieneConfig()
    root = root.resolve()
    files: list[str] = []
    diagnostics: list[Diagnostic] = []
    stack: list[tuple[Path, str, list[_Ignore]]] = [(root, "", [])]
    root_ignore = _load_ignore(root, "")
    if root_ignore:
        stack = [(root, "", [root_ignore])]
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
                if not config.submodules and hygiene.is_nested_repository(Path(entry.path)):
                    diagnostics.append(hygiene.submodule_diagnostic(rel))
                    continue
                child_ignore = _load_ignore(Path(entry.path), rel)
                stack.append((Path(entry.path), rel,
                              ignores + [child_ignore] if child_ignore else ignores))
                continue
            if entry.is_symlink():
                if _ignored(rel, ignores, False):
                    continue
                problem = hygiene.check_link(Path(entry.path), rel, root)
                if problem is not None:
                    diagnostics.append(problem)
                    continue
            elif not entry.is_file(follow_symlinks=False):
                continue
            if _ignored(rel, ignores, False):
                continue
            try:
                size = entry.stat().st_size
            except OSError:
                continue
            if size > max_file_bytes:
                diagnostics.append(Diagnostic(rel, "too large", f"{size} bytes"))
                continue
            keep, notes = hygiene.inspect_file(Path(entry.path), rel, config)
            diagnostics.extend(notes)
            if not keep:
                continue
            files.append(rel)
    files.sort()
    files, duplicates = hygiene.drop_duplicate_links(root, files)
    diagnostics.extend(duplicates)
    diagnostics.sort(key=lambda d: (d.path, d.reason))
    return files, diagnostics
