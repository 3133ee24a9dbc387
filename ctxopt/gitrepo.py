"""What git knows about a directory: work tree or git directory, the files it lists, sparse
checkouts, submodules and ``.gitattributes``; and the same attributes read without git.

Everything runs ``git`` locally (no network: only ``rev-parse``, ``ls-files`` and
``check-attr``), with optional locks off so a gather never blocks a user's git command.
Outside a work tree (or without git) the callers walk the directory instead, and
``AttributeFiles`` reads ``.gitattributes`` files with git's matching rules.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .files.patterns import ignore_spec
from .files.safety import read_regular

if TYPE_CHECKING:
    import pathspec  # (loaded by files.patterns when a pattern is compiled)

__all__ = ["WorkTree", "work_tree", "repository_root", "find_repository_root", "git_directory_problem", "check_attributes",
           "may_have_attributes",
           "AttributeFiles", "ATTRIBUTES", "attribute_verdict"]

# The attributes GitHub Linguist and GitLab read to leave files out of diffs and statistics.
ATTRIBUTES = ("linguist-generated", "gitlab-generated", "linguist-vendored")
_GIT_TIMEOUT_S = 120
_GITLINK_MODE = "160000"
# git's warning for a directory it cannot list, in the C locale (trial 8: such a directory
# was skipped with no word, where the walk without git reports it unreadable)
_UNOPENED = re.compile(r"could not open directory '(.+)': (.+)$")


def _git(args: list[str], cwd: Path, stdin: bytes | None = None,
         warnings: list[str] | None = None) -> bytes | None:
    """``git args`` in ``cwd``: its standard output, or None when git is missing or fails.
    ``warnings``, when given, gets the lines of its standard error, in the C locale (so
    that they can be read)."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}
    if warnings is not None:
        env["LC_ALL"] = "C"
    import subprocess  # (here: a gather on a tree outside git runs none)

    try:
        completed = subprocess.run(
            ["git", "-c", "core.quotepath=off", *args], cwd=cwd, input=stdin,
            capture_output=True, timeout=_GIT_TIMEOUT_S, check=False, env=env)
    except (OSError, subprocess.SubprocessError):
        return None
    if warnings is not None:
        warnings += completed.stderr.decode("utf-8", "surrogateescape").splitlines()
    return completed.stdout if completed.returncode == 0 else None


def _names(output: bytes) -> list[str]:
    return [name for name in output.decode("utf-8", "surrogateescape").split("\0") if name]


def repository_root(start: Path) -> Path:
    """The root of the repository ``start`` lies in (``find_repository_root``); ``start``
    itself (resolved) when there is none."""
    return find_repository_root(start) or start.resolve()


def find_repository_root(start: Path) -> Path | None:
    """The root of the repository ``start`` lies in, found as git finds it: the top of its
    work tree (``git rev-parse --show-toplevel``), else, without git, the nearest directory
    from ``start`` upwards holding a ``.git`` entry, else one holding a ctxopt index
    (``.ctxopt/index.db``); None when there is none."""
    start = start.resolve()
    located = _git(["rev-parse", "--show-toplevel"], start)
    if located is not None and located.strip():
        return Path(located.decode("utf-8", "surrogateescape").strip())
    for marker in (".git", ".ctxopt/index.db"):
        for directory in (start, *start.parents):
            if os.path.lexists(directory / marker):
                return directory
    return None


def git_directory_problem(root: Path) -> str | None:
    """Why ``root`` (resolved) cannot be indexed because it is git's own directory, or None.

    A bare repository or the ``.git`` directory of a checkout holds git's objects, not the
    project's files. Recognised by git (``rev-parse --is-inside-git-dir``) and, without git,
    by its layout (``HEAD``, ``objects/`` and ``refs/``, or the name ``.git``).
    """
    layout = (root / "HEAD").is_file() and (root / "objects").is_dir() and (root / "refs").is_dir()
    inside = _git(["rev-parse", "--is-inside-git-dir"], root)
    if not (layout or root.name == ".git" or (inside is not None and inside.strip() == b"true")):
        return None
    if root.name == ".git" and (root.parent / ".git") == root:
        return f"is the git directory of {root.parent}; pass that checkout"
    return "is a git directory with no work tree; pass the checkout"


@dataclass(frozen=True, slots=True)
class WorkTree:
    """The files git lists under a root inside a work tree, as root-relative POSIX paths.

    ``prefix``: the root relative to the work tree's top (``''`` at the top, else ending in
    ``/``); ``files``: tracked and untracked-not-ignored files (sorted), without gitlinks and
    files outside the sparse checkout; ``submodules``: gitlinks (registered submodules);
    ``not_checked_out``: tracked files outside the sparse checkout (absent from disk);
    ``unreadable``: (directory, why) of each directory under the root that git could not
    open to list its untracked files (``could not open directory 'x/': Permission
    denied``), root-relative without its ``/``; ``git_dir``: the repository's git
    directory.
    """

    top: Path
    prefix: str
    git_dir: Path
    files: list[str] = field(default_factory=list)
    submodules: list[str] = field(default_factory=list)
    not_checked_out: list[str] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)


def work_tree(root: Path) -> WorkTree | None:
    """What git lists under ``root``, or None when ``root`` is not in a work tree (or git is
    missing or fails)."""
    located = _git(["rev-parse", "--show-toplevel", "--show-prefix", "--absolute-git-dir"], root)
    if located is None:
        return None
    lines = located.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 3:
        return None
    tracked = _git(["ls-files", "-z", "-t", "--stage", "--cached"], root)
    warnings: list[str] = []
    untracked = _git(["ls-files", "-z", "--others", "--exclude-standard"], root, warnings=warnings)
    if tracked is None or untracked is None:
        return None
    files, submodules, sparse = set(_names(untracked)), [], []
    for entry in _names(tracked):
        meta, _, path = entry.partition("\t")
        tag, mode = meta[:1], meta[2:].split(" ", 1)[0]
        if mode == _GITLINK_MODE:
            submodules.append(path)
        elif tag == "S" and not os.path.lexists(root / path):
            sparse.append(path)
        else:
            files.add(path)
    # (git names them from the work tree's top, where it lists files from the root)
    prefix = lines[1]
    unreadable = sorted({(m.group(1).rstrip("/")[len(prefix):], m.group(2)) for line in warnings
                         if (m := _UNOPENED.search(line)) and m.group(1).startswith(prefix)})
    return WorkTree(Path(lines[0]), lines[1], Path(lines[2]), sorted(files),
                    sorted(set(submodules)), sorted(set(sparse)), unreadable)


def attribute_verdict(value: str) -> bool | None:
    """A ``check-attr`` value as a verdict: True (set, or any value but ``false``), False
    (unset, ``-attr``, or ``attr=false``), None (unspecified)."""
    if value == "unspecified":
        return None
    return value not in ("unset", "false")


def may_have_attributes(root: Path, tree: WorkTree, files: list[str]) -> bool:
    """False when no attributes file can apply under ``root`` (then ``check_attributes``,
    a process reading every path, is not needed): no ``.gitattributes`` among ``files``
    or in the directories from the work tree's top down to ``root``, no
    ``info/attributes`` in the git directory, no user-wide attributes file."""
    if any(f == ".gitattributes" or f.endswith("/.gitattributes") for f in files):
        return True
    parents = tree.prefix.rstrip("/").split("/") if tree.prefix else []
    if any((tree.top.joinpath(*parents[:depth]) / ".gitattributes").is_file()
           for depth in range(len(parents))):
        return True
    if (tree.git_dir / "info" / "attributes").is_file():
        return True
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return (config / "git" / "attributes").is_file() or \
        _git(["config", "--get", "core.attributesFile"], root) is not None


def check_attributes(root: Path, paths: list[str]) -> dict[str, dict[str, bool]] | None:
    """``ATTRIBUTES`` of root-relative ``paths`` as git resolves them (every
    ``.gitattributes`` up to the work tree's top, ``info/attributes``, the user's file):
    {path: {attribute: verdict}} holding only the specified ones, or None when git fails."""
    if not paths:
        return {}
    stdin = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    output = _git(["check-attr", "-z", "--stdin", *ATTRIBUTES], root, stdin)
    if output is None:
        return None
    fields = output.decode("utf-8", "surrogateescape").split("\0")
    found: dict[str, dict[str, bool]] = {}
    for i in range(0, len(fields) - 2, 3):
        path, attribute, value = fields[i:i + 3]
        verdict = attribute_verdict(value)
        if verdict is not None:
            found.setdefault(path, {})[attribute] = verdict
    return found


@dataclass(frozen=True, slots=True)
class _Rule:
    base: str  # directory of the .gitattributes file, '' for the root
    pattern: pathspec.GitIgnoreSpec  # one pattern
    values: tuple[tuple[str, bool | None], ...]


class AttributeFiles:
    """``.gitattributes`` files read without git, for trees outside a work tree.

    Git's rules: a line is a pattern and attributes (``attr``, ``-attr``, ``attr=value``,
    ``!attr`` for unspecified); patterns match like ``.gitignore`` patterns relative to the
    file's directory, except that negative patterns are not allowed and a pattern ending in
    ``/`` matches nothing (git does not apply attributes to directories' contents that
    way); for each attribute the last matching line wins, deeper files after shallower.
    """

    def __init__(self, root: Path, files: list[str]) -> None:
        """``files``: root-relative paths of the ``.gitattributes`` files to read."""
        self.rules: list[_Rule] = []
        for rel in sorted(files, key=lambda f: (f.count("/"), f)):
            base = rel.rpartition("/")[0]
            try:
                text = read_regular(root / rel).decode("utf-8", "surrogateescape")
            except OSError:
                continue
            for line in text.splitlines():
                rule = _parse_line(base, line)
                if rule is not None:
                    self.rules.append(rule)

    def lookup(self, rel: str) -> dict[str, bool]:
        """{attribute: verdict} of ``ATTRIBUTES`` specified for the file ``rel``."""
        found: dict[str, bool | None] = {}
        for rule in self.rules:
            if rule.base and not rel.startswith(rule.base + "/"):
                continue
            sub = rel[len(rule.base) + 1:] if rule.base else rel
            if rule.pattern.match_file(sub):
                found.update(rule.values)
        return {name: verdict for name, verdict in found.items() if verdict is not None}


def _parse_line(base: str, line: str) -> _Rule | None:
    words = line.split()
    if not words or words[0].startswith("#") or words[0].startswith("!"):
        return None
    pattern, values = words[0], []  # type: str, list[tuple[str, bool | None]]
    if pattern.endswith("/"):
        return None
    for word in words[1:]:
        name, _, value = word.lstrip("-!").partition("=")
        if name not in ATTRIBUTES:
            continue
        if word.startswith("-"):
            values.append((name, False))
        elif word.startswith("!"):
            values.append((name, None))
        else:
            values.append((name, attribute_verdict(value) if value else True))
    if not values:
        return None
    return _Rule(base, ignore_spec([pattern]), tuple(values))
