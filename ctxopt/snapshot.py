"""Manifests and snapshots for CI: what a gather selected, as a table that diffs well.

A manifest (``gather --format manifest``) is tab-separated text: ``#`` comment lines (the
format version, the task, the budget and the tokens used), then one header line naming
the columns, then one row per block in output order::

    # ctxopt manifest 2
    # task: fix Storage bug
    # (a note when a huge task was cut; the task itself is cut to 200 characters)
    # budget 8000 tokens, used 1234 (text rendering)
    file	symbol	hash	lines	kind	tokens	reason
    storage/db.py	Storage	5d41402abc4b	16-46	full	310	definition of Storage

A row is keyed by ``file`` and ``symbol`` (of the qualified names the block shows, the
least nested, then the first by name; ``-`` for a block that shows none; ``#2``... added
for repeats); ``hash`` identifies
the content shown (12 hex digits of its SHA-256), so code that only moved keeps its key
and hash and changes only ``lines`` (1-indexed, inclusive). Fields are escaped like paths
(``files.text.display_text``): a field never holds a tab or a line break.

A snapshot is a directory of manifests, one per task of a tasks file
(``read_tasks``), named from the task (``manifest_name``).
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from . import jsontext
from .errors import UsageError
from .files.safety import read_regular, read_regular_text
from .files.text import decode_written, display_text, looks_binary
from .model import Result
from .render import shown_kind, task_line

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["MANIFEST_VERSION", "COLUMNS", "Row", "Manifest", "manifest_table",
           "parse_manifest", "read_manifest", "Task", "read_tasks", "manifest_name"]

MANIFEST_VERSION = 2
# the versions ``parse_manifest`` reads (2: the first this ctxopt wrote)
KNOWN_VERSIONS = (2,)
COLUMNS = ("file", "symbol", "hash", "lines", "kind", "tokens", "reason")
NO_SYMBOL = "-"
_HASH_DIGITS = 12
_SURROGATE = re.compile("[\ud800-\udfff]")  # a byte that is not UTF-8, kept as an escape


@dataclass(frozen=True, slots=True)
class Row:
    """One block of a manifest. ``key`` is (file, symbol); lines are 1-indexed, inclusive."""

    file: str
    symbol: str
    hash: str
    start_line: int
    end_line: int
    kind: str
    tokens: int
    reason: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.file, self.symbol)


@dataclass(frozen=True, slots=True)
class Manifest:
    """A parsed manifest: the task, budget and tokens used (None when the header lacks
    them) and the rows in output order."""

    task: str
    budget: int | None
    used: int | None
    rows: tuple[Row, ...]


def content_hash(content: str) -> str:
    """12 hex digits of the SHA-256 of ``content`` (UTF-8, surrogates escaped)."""
    data = content.encode("utf-8", errors="surrogateescape")
    return hashlib.sha256(data).hexdigest()[:_HASH_DIGITS]


def _field(text: str) -> str:
    return display_text(text) or NO_SYMBOL


def manifest_table(result: Result, used: int) -> str:
    """The manifest of ``result``; ``used`` is the token count of its text rendering."""
    lines = [f"# ctxopt manifest {MANIFEST_VERSION}",
             f"# task: {task_line(result.task)}",
             *([f"# {result.task_note}"] if result.task_note else []),
             f"# budget {result.budget} tokens, used {used} (text rendering)",
             "\t".join(COLUMNS)]
    seen: dict[tuple[str, str], int] = {}
    for block in result.selection.blocks:
        symbol = _field(_key_symbol(block.symbols)) if block.symbols else NO_SYMBOL
        key = (block.path, symbol)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            symbol = f"{symbol}#{seen[key]}"
        lines.append("\t".join((
            _field(block.path), symbol, content_hash(block.content),
            f"{block.start_line}-{block.end_line}", shown_kind(block), str(block.tokens),
            _field(block.reason))))
    return "\n".join(lines) + "\n"


def _key_symbol(symbols: tuple[str, ...]) -> str:
    """The symbol that keys a block: the least nested of its qualified names, then the
    first by name (not by relevance, which other code can change)."""
    return min(symbols, key=lambda s: (s.count("."), s))


_BUDGET_LINE = re.compile(r"^# budget (\d+) tokens, used (\d+)")
_VERSION_LINE = re.compile(r"^# ctxopt manifest (.*)$")
_LINES = re.compile(r"^(\d+)-(\d+)$")


def parse_manifest(text: str, source: str = "<manifest>") -> Manifest:
    """A manifest's rows and header values.

    Raises
    ------
    UsageError
        When the text has no header line, is of a version this ctxopt does not know, or
        a row has the wrong number of fields or a bad line range or token count; the
        message is ``SOURCE:LINE: what is wrong``. A UTF-8 BOM (an editor's on Windows)
        is dropped.
    """
    task, budget, used = "", None, None
    rows: list[Row] = []
    header_seen = False
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        if line.startswith("#"):
            # (a newer ctxopt's manifest may mean other things by its columns: trial 39's
            # `# ctxopt manifest 9` was diffed as if of version 2)
            version = _VERSION_LINE.match(line)
            if version is not None and version.group(1).strip() not in map(str, KNOWN_VERSIONS):
                raise UsageError(f"{source}:{number}: manifest version "
                                 f"{display_text(version.group(1).strip())!r} is not one this "
                                 f"ctxopt reads (it reads version "
                                 f"{', '.join(map(str, KNOWN_VERSIONS))})")
            if line.startswith("# task: "):
                task = line[len("# task: "):]
            elif (found := _BUDGET_LINE.match(line)) is not None:
                budget, used = int(found.group(1)), int(found.group(2))
            continue
        if not header_seen:
            if tuple(line.split("\t")) != COLUMNS:
                raise UsageError(f"{source}:{number}: not a ctxopt manifest (expected the "
                                 f"header line {' '.join(COLUMNS)!r})")
            header_seen = True
            continue
        if not line.strip():
            continue
        rows.append(_parse_row(line, f"{source}:{number}"))
    if not header_seen:
        raise UsageError(f"{source}: not a ctxopt manifest (no header line)")
    return Manifest(task, budget, used, tuple(rows))


def _parse_row(line: str, where: str) -> Row:
    fields = line.split("\t")
    if len(fields) != len(COLUMNS):
        raise UsageError(f"{where}: expected {len(COLUMNS)} tab-separated fields, "
                         f"found {len(fields)}")
    file, symbol, digest, lines, kind, tokens, reason = fields
    span = _LINES.match(lines)
    if span is None or not tokens.isdigit():
        raise UsageError(f"{where}: bad line range {lines!r} or token count {tokens!r}")
    return Row(file, symbol, digest, int(span.group(1)), int(span.group(2)), kind,
               int(tokens), reason)


def _read_text(path: Path) -> str:
    """The UTF-8 text of ``path``. Raises ``UsageError`` when it cannot be read or is a
    FIFO, socket or device, or is not UTF-8 text (``read_regular_text``)."""
    try:
        return read_regular_text(path)
    except OSError as exc:
        raise UsageError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from exc


def _read_tasks_text(path: Path) -> str:
    """The text of a tasks file: UTF-8, or UTF-16 or UTF-32 with a BOM (a file written on
    Windows), a UTF-8 BOM dropped. Raises ``UsageError`` when it cannot be read, is binary
    or is not text in those encodings."""
    try:
        data = read_regular(path)
    except OSError as exc:
        raise UsageError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from exc
    if looks_binary(data):
        raise UsageError(f"{path}: binary (NUL or control bytes), not a tasks file")
    text = decode_written(data)
    if _SURROGATE.search(text):
        raise UsageError(f"{path}: not UTF-8 text (nor UTF-16 or UTF-32 with a BOM)")
    return text


def read_manifest(path: Path) -> Manifest:
    """``parse_manifest`` of a file. Raises ``UsageError`` when it cannot be read."""
    text = _read_text(path)
    return parse_manifest(text, str(path))


@dataclass(frozen=True, slots=True)
class Task:
    """One task of a tasks file, with its own budget in tokens (None: the default)."""

    text: str
    budget: int | None = None


def read_tasks(path: Path) -> list[Task]:
    """The tasks of a tasks file.

    ``*.toml``: ``[[task]]`` tables with ``text`` and an optional ``budget``;
    ``*.json``: a list of strings or of ``{"task": ..., "budget": ...}`` objects;
    anything else: one task a line (blank lines and lines starting with ``#`` skipped).

    Raises
    ------
    UsageError
        Unreadable or malformed file, a task without text, a budget that is not a
        positive integer, no task at all, or two tasks with the same text.
    """
    text = _read_tasks_text(path)
    if path.suffix == ".toml":
        try:
            entries: list = tomllib.loads(text).get("task", [])
        except tomllib.TOMLDecodeError as exc:
            raise UsageError(f"{path}: invalid TOML: {exc}") from exc
        except RecursionError:  # tomllib recurses once per nested array or inline table
            raise UsageError(f"{path}: invalid TOML: nested too deeply") from None
    elif path.suffix == ".json":
        try:
            entries = jsontext.loads(text)
        except ValueError as exc:  # JSONDecodeError has a line; too deep a nesting has not
            where = f":{exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
            raise UsageError(f"{path}{where}: invalid JSON: {getattr(exc, 'msg', exc)}") from exc
    else:
        entries = [line.strip() for line in text.splitlines()
                   if line.strip() and not line.lstrip().startswith("#")]
    if not isinstance(entries, list):
        raise UsageError(f"{path}: expected a list of tasks")
    tasks = [_task(entry, path) for entry in entries]
    if not tasks:
        raise UsageError(f"{path}: no task in the file")
    repeated = sorted(text for text, n in Counter(t.text for t in tasks).items() if n > 1)
    if repeated:
        raise UsageError(f"{path}: task given twice: {repeated[0]!r}")
    return tasks


def _task(entry: object, path: Path) -> Task:
    if isinstance(entry, str):
        entry = {"task": entry}
    if not isinstance(entry, dict):
        raise UsageError(f"{path}: a task must be a string or a table, got {entry!r}")
    text = entry.get("task", entry.get("text"))
    budget = entry.get("budget")
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"{path}: a task needs its text (`task` or `text`), got {entry!r}")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)
                               or budget < 1):
        raise UsageError(f"{path}: budget of {text!r} must be a positive integer, got {budget!r}")
    return Task(text.strip(), budget)


def manifest_name(task: str) -> str:
    """The file name of a task's manifest in a snapshot: a slug of the task and 8 hex
    digits of its SHA-256 (stable across runs and machines, distinct per task)."""
    slug = re.sub(r"[^a-z0-9]+", "-", task.lower()).strip("-")[:60].rstrip("-") or "task"
    return f"{slug}-{hashlib.sha256(task.encode('utf-8', 'surrogateescape')).hexdigest()[:8]}.tsv"
