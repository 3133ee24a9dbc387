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
- the input-safety rules of ``files.safety`` (nested repositories, secrets, over-long lines,
  links that duplicate an indexed file).

``list_candidates`` applies the rules that need no reading (cheap: one ``stat`` per file,
what an incremental index checks on every run); ``classify_content`` applies the rest to
bytes already read; ``discover_sources`` does both.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field, replace
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

from . import gitrepo
from .files.notebook import NOTEBOOK_SIZE_FACTOR, as_source, is_notebook
from .files.patterns import ignore_spec
from .files.reasons import (REASON_BINARY, REASON_BUILD_OUTPUT, REASON_GENERATED,
                            REASON_MINIFIED, REASON_NOT_CHECKED_OUT, REASON_NOT_REGULAR,
                            REASON_SECRET,
                            REASON_TOO_LARGE, REASON_UNREADABLE, REASON_VENDORED, REASONS)
from .files.safety import (HygieneConfig, check_link, drop_duplicate_links, inspect_file,
                           is_nested_repository, submodule_diagnostic)
from .files.secrets import secret_file_kind
from .files.text import decode_written, looks_binary
from .errors import UsageError
from .model import Diagnostic

if TYPE_CHECKING:
    import pathspec  # (loaded by files.patterns when a pattern is compiled)

__all__ = ["discover_sources", "list_candidates", "classify_content", "inspect_content",
           "name_rule", "Candidate", "SKIPPED_DIRECTORIES", "VENDORED_DIRECTORIES", "MAX_FILE_BYTES", "SKIP_REASONS",
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
SKIP_REASONS = REASONS  # the one table, files.reasons
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
    """A file that passed the name rules: its root-relative path, size (bytes),
    modification time (nanoseconds since the epoch), and ``generated``: False when
    ``.gitattributes`` says it is not generated (``-linguist-generated``), which turns the
    ``DO NOT EDIT`` header rule off, else None."""

    path: str
    size: int
    mtime_ns: int
    generated: bool | None = None


@dataclass(frozen=True, slots=True)
class _Ignore:
    base: str  # directory of the ignore file, relative to the root, '' for the root
    spec: pathspec.GitIgnoreSpec


def _load_ignore(directory: Path, base: str, name: str = ".gitignore") -> _Ignore | None:
    try:
        text = decode_written((directory / name).read_bytes())
    except OSError:
        return None
    return _Ignore(base, ignore_spec(text.splitlines()))


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


_entry_name = attrgetter("name")


def _walk_files(root: Path, diagnostics: list[Diagnostic], config: HygieneConfig
                ) -> list[str]:
    """Every file under ``root`` not excluded by ``.gitignore`` files or skipped directories.

    A vendored directory is reported once and not entered, unless a ``.gitattributes`` on
    the way un-vendors something (``-linguist-vendored``): then its files are listed and
    the name rules decide each one."""
    files: list[str] = []
    root_ignore = _load_ignore(root, "")
    stack: list[tuple[Path, str, list[_Ignore], bool]] = [
        (root, "", [root_ignore] if root_ignore else [], _unvendors(root))]
    while stack:
        directory, rel_dir, ignores, unvendors = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=_entry_name)
        except OSError as exc:
            diagnostics.append(Diagnostic(rel_dir or ".", REASON_UNREADABLE, exc.strerror or ""))
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if entry.is_dir(follow_symlinks=False):
                if entry.name in SKIPPED_DIRECTORIES or _ignored(rel, ignores, True):
                    continue
                if not rel_dir and entry.name in BUILD_OUTPUT_DIRECTORIES:
                    diagnostics.append(Diagnostic(rel + "/", REASON_BUILD_OUTPUT, "directory"))
                    continue
                if not unvendors and (entry.name in VENDORED_DIRECTORIES or _is_venv(entry.path)):
                    diagnostics.append(Diagnostic(rel + "/", REASON_VENDORED, "directory"))
                    continue
                child = Path(entry.path)
                if not config.submodules and is_nested_repository(child):
                    diagnostics.append(submodule_diagnostic(rel))
                    continue
                child_ignore = _load_ignore(child, rel)
                stack.append((child, rel, ignores + [child_ignore] if child_ignore else ignores,
                              unvendors or _unvendors(child)))
            elif not _ignored(rel, ignores, False):
                files.append(rel)
    files.sort()
    return files


_UNVENDORED = re.compile(r"(?:^|\s)(?:-linguist-vendored|linguist-vendored=false)(?:\s|$)", re.MULTILINE)


def _unvendors(directory: Path) -> bool:
    """Whether ``directory``'s ``.gitattributes`` un-vendors some path."""
    try:
        text = (directory / ".gitattributes").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return _UNVENDORED.search(text) is not None


def _vendored(rel: str, root: Path, venvs: dict[str, bool], start: int = 0) -> bool:
    """True when a directory of ``rel`` after its first ``start`` parts is vendored."""
    parts = rel.split("/")[:-1]
    for i in range(start, len(parts)):
        if parts[i] in VENDORED_DIRECTORIES:
            return True
        directory = "/".join(parts[: i + 1])
        if directory not in venvs:
            venvs[directory] = _is_venv(str(root / directory))
        if venvs[directory]:
            return True
    return False


def check_root(root: Path, shown: str | None = None) -> None:
    """Refuse a root that is git's own directory (a bare repository or a ``.git``).

    ``shown``: how to name the root in the message (default: ``root``). Reads nothing
    but the directory's layout and ``git rev-parse``; writes nothing.

    Raises
    ------
    UsageError
        When ``root`` is a git directory.
    """
    problem = gitrepo.git_directory_problem(root.resolve())
    if problem is not None:
        raise UsageError(f"{shown if shown is not None else root} {problem}")


@dataclass
class _Listing:
    """The files of one tree (root-relative), before the name rules.

    ``modules``: (path, depth in parts) of each submodule whose files are listed;
    ``attributes``: {path: {attribute: verdict}} for files with ``ATTRIBUTES`` specified;
    ``ignores``: ``.ctxoptignore`` files with bases relative to ``prefix``'s top, and
    ``prefix`` the root relative to the work tree's top (``''`` outside a work tree).
    """

    files: list[str]
    prefix: str = ""
    modules: list[tuple[str, int]] = field(default_factory=list)
    attributes: dict[str, dict[str, bool]] = field(default_factory=dict)


def _list_files(root: Path, config: HygieneConfig, diagnostics: list[Diagnostic]
                ) -> _Listing:
    """What git lists under ``root`` (else a walk), with submodules expanded when
    ``config.submodules`` and each other one reported, and the files' attributes."""
    tree = gitrepo.work_tree(root)
    if tree is None:
        files = _walk_files(root, diagnostics, config)
        rules = gitrepo.AttributeFiles(root, [f for f in files if _named(f, ".gitattributes")])
        return _Listing(files, attributes={
            f: found for f in files if rules.rules and (found := rules.lookup(f))})
    diagnostics.extend(Diagnostic(rel, REASON_NOT_CHECKED_OUT, "outside the sparse checkout")
                       for rel in tree.not_checked_out)
    # git lists an untracked nested repository as "dir/": a submodule not yet registered
    modules = sorted(set(tree.submodules) | {f.rstrip("/") for f in tree.files if f.endswith("/")})
    listing = _Listing([f for f in tree.files if not f.endswith("/")], tree.prefix)
    if gitrepo.may_have_attributes(root, tree, listing.files):
        listing.attributes = gitrepo.check_attributes(root, listing.files) or {}
    for module in modules:
        if not is_nested_repository(root / module):
            continue  # not initialised: no files to index or to report
        if not config.submodules:
            diagnostics.append(submodule_diagnostic(module))
            continue
        notes: list[Diagnostic] = []
        inner = _list_files(root / module, config, notes)
        diagnostics.extend(replace(d, path=f"{module}/{d.path}") for d in notes)
        depth = module.count("/") + 1
        listing.files += [f"{module}/{f}" for f in inner.files]
        listing.modules += [(module, depth)] + [(f"{module}/{m}", depth + d) for m, d in inner.modules]
        listing.attributes.update((f"{module}/{f}", a) for f, a in inner.attributes.items())
    listing.files.sort()
    return listing


def _named(rel: str, name: str) -> bool:
    return rel == name or rel.endswith("/" + name)


def _ignore_files(root: Path, listing: _Listing) -> list[_Ignore]:
    """The ``.ctxoptignore`` files that apply under ``root``, bases relative to the work
    tree's top: the listed ones, and in a sub-root of a work tree those of the
    directories above it up to the top (the whole tree's rules apply to a part of it)."""
    ignores = []
    parents = listing.prefix.rstrip("/").split("/") if listing.prefix else []
    top = root.joinpath(*([".."] * len(parents)))
    for depth in range(len(parents)):
        base = "/".join(parents[:depth])
        loaded = _load_ignore(top.joinpath(*parents[:depth]), base, IGNORE_FILE)
        if loaded:
            ignores.append(loaded)
    for rel in listing.files:
        if _named(rel, IGNORE_FILE):
            base = rel[: -len(IGNORE_FILE)].rstrip("/")
            loaded = _load_ignore(root / base if base else root, listing.prefix + base
                                  if base else listing.prefix.rstrip("/"), IGNORE_FILE)
            if loaded:
                ignores.append(loaded)
    ignores.sort(key=lambda i: (i.base.count("/") + bool(i.base), i.base))
    return ignores


def _attribute_skip(rel: str, attributes: dict[str, bool]) -> Diagnostic | None:
    """The diagnostic of a file that ``.gitattributes`` marks generated or vendored."""
    for name in gitrepo.ATTRIBUTES:
        if attributes.get(name):
            reason = REASON_VENDORED if name.endswith("vendored") else REASON_GENERATED
            return Diagnostic(rel, reason, f"{name} in .gitattributes")
    return None


def list_candidates(root: Path, *, max_file_bytes: int = MAX_FILE_BYTES,
                    config: HygieneConfig | None = None, checked: bool = False
                    ) -> tuple[list[Candidate], list[Diagnostic]]:
    """The files to index under ``root`` by the rules that need no reading.

    Returns (candidates sorted by path, diagnostics of the files skipped by reason
    ``vendored``, ``too large``, ``generated`` (lock files, ``.gitattributes``),
    ``minified`` (by name), ``submodule``, ``not checked out``, ``broken link``,
    ``outside root``, ``not a regular file`` (a FIFO, socket or device, or a link to one)
    or ``unreadable``). ``.gitattributes`` win over the name rules both
    ways: ``linguist-generated``/``gitlab-generated`` and ``linguist-vendored`` skip a file,
    ``-linguist-generated`` keeps a lock file (and its candidate says so, for the header
    rule), ``-linguist-vendored`` keeps a file under ``vendor/``. Symbolic links to
    directories are not followed; links to files are kept only when they resolve inside
    ``root``. Never raises for a single bad file.

    ``checked``: the caller ran ``check_root`` on ``root`` already (it runs git: a
    process a gather need not start twice).

    Raises
    ------
    UsageError
        When ``root`` is a git directory (``check_root``).
    """
    config = config or HygieneConfig()
    root = root.resolve()
    if not checked:
        check_root(root)
    diagnostics: list[Diagnostic] = []
    listing = _list_files(root, config, diagnostics)
    ignores = _ignore_files(root, listing)
    if config.exclude:  # last: the patterns the user gave have the last word
        ignores.append(_Ignore(listing.prefix.rstrip("/"),
                               ignore_spec(config.exclude)))
    venvs: dict[str, bool] = {}
    # (directory, submodule depth) -> vendored: a verdict per directory, not per file
    vendored: dict[tuple[str, int], bool] = {}
    candidates: list[Candidate] = []
    links: set[str] = set()
    base = os.path.join(str(root), "")
    module_depths = dict(listing.modules)
    for rel in listing.files:
        if rel == ".ctxopt" or rel.startswith(".ctxopt/"):
            continue
        if ignores and _ignored_with_parents(listing.prefix + rel, ignores):
            continue
        attributes = listing.attributes.get(rel, {})
        skip = _attribute_skip(rel, attributes)
        if skip is None and attributes.get("linguist-vendored") is not False:
            place = (rel.rpartition("/")[0], _module_depth(rel, module_depths))
            verdict = vendored.get(place)
            if verdict is None:
                verdict = vendored[place] = _vendored(rel, root, venvs, place[1])
            if verdict:
                skip = Diagnostic(rel, REASON_VENDORED)
        if skip is not None:
            diagnostics.append(skip)
            continue
        try:
            info = os.lstat(base + rel)
        except OSError:
            continue  # deleted since it was listed (git lists deleted tracked files)
        if stat.S_ISLNK(info.st_mode):
            full = root / rel
            problem = check_link(full, rel, root)
            if problem is not None:
                diagnostics.append(problem)
                continue
            info = full.stat()
            links.add(rel)
        elif stat.S_ISDIR(info.st_mode):
            continue  # a directory where git lists a file (replaced since)
        elif not stat.S_ISREG(info.st_mode):  # a FIFO, socket or device: never opened
            diagnostics.append(Diagnostic(rel, REASON_NOT_REGULAR))
            continue
        generated = _generated_verdict(attributes)
        problem = name_rule(rel, info.st_size, max_file_bytes, config, generated)
        if problem is not None:
            diagnostics.append(problem)
            continue
        candidates.append(Candidate(rel, info.st_size, info.st_mtime_ns, generated))
    kept, duplicates = drop_duplicate_links(root, [c.path for c in candidates], links)
    if duplicates:
        diagnostics.extend(duplicates)
        keep = set(kept)
        candidates = [c for c in candidates if c.path in keep]
    diagnostics.sort(key=lambda d: (d.path, d.reason))
    return candidates, diagnostics


def _module_depth(rel: str, module_depths: dict[str, int]) -> int:
    """Path parts of the deepest submodule holding ``rel`` (0: none): vendored directories
    are looked for only inside it, since a submodule is reported as one wherever it is."""
    if not module_depths:
        return 0
    parts = rel.split("/")
    for depth in range(len(parts) - 1, 0, -1):
        if "/".join(parts[:depth]) in module_depths:
            return depth
    return 0


def _generated_verdict(attributes: dict[str, bool]) -> bool | None:
    verdicts = [attributes[name] for name in ("linguist-generated", "gitlab-generated")
                if name in attributes]
    return None if not verdicts else any(verdicts)


def name_rule(rel: str, size: int, max_file_bytes: int, config: HygieneConfig,
               generated: bool | None) -> Diagnostic | None:
    """Why the file at ``rel`` (repository-relative) is skipped from its name and its
    ``size`` (bytes) alone: secret files, files over ``max_file_bytes``, lock files and
    files named as minified; None when these rules keep it. ``generated``: its
    ``.gitattributes`` verdict, as for ``inspect_content``."""
    if not config.allow_secrets and (kind := secret_file_kind(rel)) is not None:
        return Diagnostic(rel, REASON_SECRET, kind)
    if size > max_file_bytes * (NOTEBOOK_SIZE_FACTOR if is_notebook(rel) else 1):
        return Diagnostic(rel, REASON_TOO_LARGE, f"{size} bytes")
    name = rel.rsplit("/", 1)[-1]
    if name in _LOCK_FILES and generated is not False:
        return Diagnostic(rel, REASON_GENERATED, "lock file")
    if name.endswith(_MINIFIED_SUFFIXES):
        return Diagnostic(rel, REASON_MINIFIED, "named as minified")
    return None


def classify_content(data: bytes, *, generated: bool | None = None) -> tuple[str, str] | None:
    """Why a file's content should not be indexed: (reason, detail), or None to index it.

    ``binary`` when a NUL byte is in the first 8000 bytes; ``generated`` when a comment
    in the first 4 KB says ``generated ... DO NOT EDIT`` (unless ``generated`` is False:
    ``.gitattributes`` said otherwise); ``minified`` when lines average over 1000
    characters or one line exceeds 20,000.
    """
    if looks_binary(data[:_BINARY_SNIFF_BYTES]):
        return (REASON_BINARY, "")
    if generated is not False and _GENERATED_HEADER.search(data[:_HEADER_BYTES]):
        return (REASON_GENERATED, "marked DO NOT EDIT")
    if len(data) > _MINIFIED_MEAN_LINE:
        lines = data.count(b"\n") + 1
        if len(data) / lines > _MINIFIED_MEAN_LINE:
            return (REASON_MINIFIED, f"lines average {len(data) // lines} characters")
        # a run of more than _MINIFIED_MAX_LINE bytes without a newline
        if len(data) > _MINIFIED_MAX_LINE and _MINIFIED_MAX_LINE < max(map(len, data.split(b"\n"))):
            return (REASON_MINIFIED, f"a line over {_MINIFIED_MAX_LINE} characters")
    return None


def inspect_content(root: Path, rel: str, data: bytes, config: HygieneConfig, *,
                    generated: bool | None = None) -> tuple[bool, list[Diagnostic]]:
    """The content rules for one candidate whose bytes are ``data``: (keep, diagnostics).

    ``classify_content`` first (binary, generated, minified: so a minified file is
    reported as such, not by its longest line), then ``files.safety.inspect_file`` (secrets,
    over-long lines; a kept file may carry a ``decoded with replacement`` diagnostic);
    ``generated``: the candidate's ``.gitattributes`` verdict.
    """
    skip = classify_content(data, generated=generated)
    if skip:
        return False, [Diagnostic(rel, *skip)]
    return inspect_file(root / rel, rel, config, data=data)


def discover_sources(root: Path, *, max_file_bytes: int = MAX_FILE_BYTES,
                     config: HygieneConfig | None = None
                     ) -> tuple[list[str], list[Diagnostic]]:
    """Select the files to index under ``root``: (sorted relative paths, diagnostics).

    ``list_candidates`` then ``inspect_content`` on each candidate's bytes, then links
    that duplicate an indexed file are dropped; see the module docstring for the rules.
    Never raises for a single bad file.
    """
    config = config or HygieneConfig()
    root = root.resolve()
    candidates, diagnostics = list_candidates(root, max_file_bytes=max_file_bytes, config=config)
    files: list[str] = []
    for candidate in candidates:
        try:
            data = (root / candidate.path).read_bytes()
        except OSError as exc:
            diagnostics.append(Diagnostic(candidate.path, REASON_UNREADABLE, exc.strerror or ""))
            continue
        source = as_source(candidate.path, data)
        if isinstance(source, Diagnostic):
            diagnostics.append(source)
            continue
        keep, notes = inspect_content(root, candidate.path, source, config,
                                      generated=candidate.generated)
        diagnostics.extend(notes)
        if keep:
            files.append(candidate.path)
    diagnostics.sort(key=lambda d: (d.path, d.reason))
    return files, diagnostics
