"""What the indexer saw, file by file, as ``ctags -x`` shows it (``ctxopt tags``).

``collect_tags`` is the edge: it reads the given files, or walks the given directories
with ``discover_sources`` (so ``.gitignore`` is honoured), and parses every file in a
supported language with ``parsing.parse_file``, the path the index takes (same decoding,
line endings, content rules and time limit, so the lines agree with ``gather``'s). ``render_tags_text`` and ``render_tags_json`` are pure. Paths in the
records are relative to ``cwd`` with ``/`` separators, escaped like ``gather``'s
(``files.text.display_text``: bytes that are not UTF-8 and control characters as ``\\xHH``),
and names too; lines are 1-indexed and inclusive.
"""
from __future__ import annotations

import json
import os
import stat
from dataclasses import asdict, dataclass
from pathlib import Path

from .discover import MAX_FILE_BYTES, discover_sources, name_rule
from .errors import UsageError
from .files.reasons import REASON_UNREADABLE
from .files.safety import HygieneConfig, check_link, special_file
from .files.text import display_text
from .gitrepo import find_repository_root
from .model import Diagnostic, FileTags
from .parsing.parse import SILENT, parse_file

__all__ = ["TagRecord", "collect_tags", "records_of", "render_tags_text", "render_tags_json",
           "TAG_RENDERERS", "NO_LANGUAGE", "EMPTY", "NO_TAGS"]

# The reasons a file named to ``collect_tags`` gives no tags besides the index's: no
# language claims it; it holds nothing but white space; it defines and references nothing.
NO_LANGUAGE = "not in a supported language"
EMPTY = "empty"
NO_TAGS = "no definitions or references"

_ROLE_ORDER = {"definition": 0, "reference": 1}


@dataclass(frozen=True, slots=True)
class TagRecord:
    """One definition or reference.

    ``role`` is ``definition`` or ``reference``. For a reference, ``kind`` is how the name
    is used (call, type, inherit, import, import_member, reference), ``qualified_name``
    is the name as written and ``end_line == start_line``.
    """

    file: str
    language: str
    role: str
    kind: str
    name: str
    qualified_name: str
    start_line: int
    end_line: int


def records_of(display_path: str, tags: FileTags) -> list[TagRecord]:
    """The records of one parsed file, definitions and references, sorted by line."""
    records = [TagRecord(display_path, tags.language, "definition", d.kind,
                         display_text(d.name), display_text(d.qualified_name), d.start_line,
                         d.end_line) for d in tags.definitions]
    records += [TagRecord(display_path, tags.language, "reference", r.kind,
                          display_text(r.name), display_text(r.name), r.line, r.line)
                for r in tags.references]
    return sorted(records, key=_sort_key)


def _sort_key(record: TagRecord) -> tuple:
    return (record.file, record.start_line, _ROLE_ORDER[record.role], -record.end_line,
            record.qualified_name, record.kind)


def _display(path: Path, cwd: Path) -> str:
    return os.path.relpath(path, cwd).replace(os.sep, "/")


def _named_path_rule(path: Path, display: str, cwd: Path) -> Diagnostic | None:
    """Why the index would never open ``path``, a path the caller names, or None: the
    rules ``discover.list_candidates`` applies to what it lists, before any read (a FIFO,
    socket or device is ``not a regular file``; a symbolic link must resolve to a regular
    file inside the root an index of it would have: the repository that holds it, else
    ``cwd`` when it lies there (as ``gather`` indexes the working directory), else none to
    be outside of: ``files.safety.check_link``)."""
    try:
        mode = path.lstat().st_mode
    except OSError as exc:
        return Diagnostic(display, REASON_UNREADABLE, exc.strerror or str(exc))
    if stat.S_ISLNK(mode):
        root = find_repository_root(path.parent)
        if root is None and path.absolute().is_relative_to(cwd.resolve()):
            root = cwd.resolve()
        return check_link(path, display, root)
    return special_file(path, display)


def _files_of(path: Path, max_file_bytes: int, hygiene: HygieneConfig) -> list[Path]:
    if path.is_dir():
        files, _ = discover_sources(path, max_file_bytes=max_file_bytes, config=hygiene)
        return [path / relative for relative in files]
    return [path]


def _tags_of(file: Path, display: str, max_file_bytes: int, hygiene: HygieneConfig, *,
             named: bool) -> FileTags | Diagnostic:
    """The tags of one file, or why it has none. A file ``named`` by the caller first
    passes the rules the index applies to a name and size (``discover.name_rule``:
    secrets, too large, lock files...), as ``discover_sources`` did to the files it found."""
    try:
        if named:
            problem = name_rule(display, file.stat().st_size, max_file_bytes, hygiene, None)
            if problem is not None:
                return problem
        data = file.read_bytes()
    except OSError as exc:
        return Diagnostic(display, REASON_UNREADABLE, exc.strerror or str(exc))
    parsed = parse_file(display, data, hygiene)
    if isinstance(parsed, Diagnostic):
        return parsed
    if parsed.tags is None:
        return Diagnostic(display, NO_LANGUAGE)
    if not (parsed.tags.definitions or parsed.tags.references):
        return Diagnostic(display, NO_TAGS if data.strip() else EMPTY)
    return parsed.tags


def collect_tags(paths: list[Path], *, cwd: Path, skipped: list[Diagnostic] | None = None,
                 max_file_bytes: int = MAX_FILE_BYTES, hygiene: HygieneConfig = HygieneConfig()
                 ) -> list[TagRecord]:
    """Parse every supported file named by ``paths`` (files or directories).

    Parameters
    ----------
    paths : list of Path
        Files and directories; directories are walked with ``discover_sources``.
    cwd : Path
        The directory the records' ``file`` paths are relative to.
    skipped : list of Diagnostic, optional
        Receives, for each file named in ``paths`` (not found in a directory) that gives
        no tags, why: the reason the index skips it (``binary``, ``secret``, ``too
        large``, ``not a regular file`` (never opened), ``directory link`` (never
        followed), ``broken link``...), ``unreadable``, ``NO_LANGUAGE``, ``EMPTY`` (white
        space only) or ``NO_TAGS`` (parsed, but it defines and references nothing). Its
        path is relative to ``cwd``.
    max_file_bytes, hygiene : int, HygieneConfig
        The index's rules (``IndexOptions.max_file_bytes`` and ``hygiene``: size limit in
        bytes, parse time limit, exclusions, secrets), so that a file is read as the index
        configured the same way reads it.

    Returns
    -------
    list of TagRecord
        Sorted by file, then line (definitions before references on one line). Files in
        unsupported languages, unreadable files and files the index skips (secrets,
        binary, too large, generated or minified content, over-long lines, a parse over
        the time limit) are left out.

    Raises
    ------
    UsageError
        When a path does not exist (a dangling link exists: ``broken link``).
    GrammarError
        When a language's tag query does not compile.
    """
    missing = [str(p) for p in paths if not os.path.lexists(p)]
    if missing:
        # each quoted: trial 19's "demo/My Project/x.vb" and ", "-joined names read as more
        raise UsageError(f"no such file or directory: {', '.join(map(repr, missing))}")
    seen: set[Path] = set()
    records: list[TagRecord] = []
    for path in paths:
        problem = _named_path_rule(path, _display(path, cwd), cwd)
        if problem is not None:
            if skipped is not None:
                skipped.append(problem)
            continue
        named = not path.is_dir()
        for file in _files_of(path, max_file_bytes, hygiene):
            resolved = file.resolve()
            if resolved in seen:
                continue
            seen.add(resolved)
            display = _display(file, cwd)
            tags = _tags_of(file, display, max_file_bytes, hygiene, named=named)
            if isinstance(tags, FileTags):
                records += records_of(display_text(display), tags)
            elif named and skipped is not None and tags.reason != SILENT:
                skipped.append(tags)
    return sorted(records, key=_sort_key)


def render_tags_text(records: list[TagRecord]) -> str:
    """One line per record, aligned like ``ctags -x``:
    ``qualified_name  role  kind  start-end  file``."""
    if not records:
        return ""
    width = max(len(r.qualified_name) for r in records)
    lines = [f"{r.qualified_name:<{width}}  {r.role:<10}  {r.kind:<13}  "
             f"{r.start_line}-{r.end_line}  {r.file}" for r in records]
    return "\n".join(lines) + "\n"


def render_tags_json(records: list[TagRecord]) -> str:
    """A JSON list of records (objects with the ``TagRecord`` fields), indented."""
    return json.dumps([asdict(r) for r in records], indent=2) + "\n"


TAG_RENDERERS = {"text": render_tags_text, "json": render_tags_json}
