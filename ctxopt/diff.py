"""``ctxopt diff``: compare two manifests, or two snapshot directories, by key.

Rows are matched by key (file, symbol; see ``snapshot``). A key on one side only is
``added`` or ``removed``; on both sides shown as another kind (``full``, ``signature``...)
it is ``reshown``: the hash is of the content shown, so a block shown whole and then as
its signature has another hash whether or not its code changed (trial 39: a block cut to
its signature was reported ``changed`` in source that had not); with another content
hash it is ``changed``; with the same hash on other lines it is ``moved``; otherwise
unchanged (not listed). Token
totals are the ``used`` figures of the manifests' headers (the text rendering).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import UsageError
from .snapshot import Manifest, Row, read_manifest

__all__ = ["Change", "TaskDiff", "compare", "compare_paths", "render_diff", "DIFF_RENDERERS",
           "Gate", "parse_gates", "failed_gates", "DIFF_SCHEMA_VERSION", "STATUSES"]

DIFF_SCHEMA_VERSION = 2
STATUSES = ("added", "removed", "reshown", "changed", "moved")


@dataclass(frozen=True, slots=True)
class Change:
    """One key that differs: ``before``/``after`` are its rows (None on the side that
    lacks it)."""

    status: str
    before: Row | None
    after: Row | None

    @property
    def key(self) -> tuple[str, str]:
        row = self.after or self.before
        assert row is not None
        return row.key


@dataclass(frozen=True, slots=True)
class TaskDiff:
    """The changes of one task's manifest; ``name`` is its file name in a snapshot (or the
    path given); tokens are the text rendering's (None when a side is missing)."""

    name: str
    task: str
    tokens_before: int | None
    tokens_after: int | None
    changes: tuple[Change, ...]

    def count(self, status: str) -> int:
        return sum(c.status == status for c in self.changes)


def compare(name: str, old: Manifest | None, new: Manifest | None) -> TaskDiff:
    """The changes from ``old`` to ``new`` (a missing side counts as empty), in the new
    manifest's order, then removed rows in the old order."""
    before = {r.key: r for r in old.rows} if old else {}
    after = {r.key: r for r in new.rows} if new else {}
    changes: list[Change] = []
    for key, row in after.items():
        previous = before.get(key)
        if previous is None:
            changes.append(Change("added", None, row))
        elif previous.kind != row.kind:
            changes.append(Change("reshown", previous, row))
        elif previous.hash != row.hash:
            changes.append(Change("changed", previous, row))
        elif (previous.start_line, previous.end_line) != (row.start_line, row.end_line):
            changes.append(Change("moved", previous, row))
    changes += [Change("removed", row, None) for key, row in before.items() if key not in after]
    latest = new or old
    task = latest.task if latest else ""
    return TaskDiff(name, task, old.used if old else None, new.used if new else None,
                    tuple(changes))


def compare_paths(old: Path, new: Path) -> list[TaskDiff]:
    """Compare two manifest files, or two snapshot directories (manifests matched by file
    name; one present on a side only is all added or all removed).

    Raises
    ------
    UsageError
        A path is missing, one is a directory and the other not, a directory holds no
        manifest (``*.tsv``: it is not a snapshot), or a manifest is bad.
    """
    for path in (old, new):
        if not path.exists():
            raise UsageError(f"no such file or directory: {str(path)!r}")
    if old.is_dir() != new.is_dir():
        raise UsageError("compare two manifests or two snapshot directories, not one of each")
    if not old.is_dir():
        return [compare(new.name, read_manifest(old), read_manifest(new))]
    for path in (old, new):
        if next(path.glob("*.tsv"), None) is None:
            raise UsageError(f"{path}: not a ctxopt snapshot (no *.tsv manifest in it)")
    names = sorted({p.name for d in (old, new) for p in d.glob("*.tsv")})
    return [compare(name, read_manifest(old / name) if (old / name).exists() else None,
                    read_manifest(new / name) if (new / name).exists() else None)
            for name in names]


def _lines(row: Row | None) -> str | None:
    return None if row is None else f"{row.start_line}-{row.end_line}"


def _kinds(change: Change) -> str:
    """``full -> signature`` when the kind shown differs, else ''."""
    if change.before is None or change.after is None or change.before.kind == change.after.kind:
        return ""
    return f"{change.before.kind} -> {change.after.kind}"


def _tokens(before: int | None, after: int | None) -> str:
    if before is None or after is None:
        return f"{before if before is not None else '-'} -> {after if after is not None else '-'}"
    return f"{before} -> {after} ({after - before:+d})"


def _summary(diff: TaskDiff) -> str:
    counts = ", ".join(f"{diff.count(s)} {s}" for s in STATUSES)
    return f"{counts}; tokens {_tokens(diff.tokens_before, diff.tokens_after)}"


def render_text(diffs: list[TaskDiff]) -> str:
    """One summary line per task, then one line per change."""
    out: list[str] = []
    for diff in diffs:
        out.append(f"{diff.task or diff.name}: {_summary(diff)}")
        for c in diff.changes:
            lines = " -> ".join(x for x in (_lines(c.before), _lines(c.after)) if x)
            tokens = " -> ".join(str(r.tokens) for r in (c.before, c.after) if r)
            kinds = f"  {_kinds(c)}" if _kinds(c) else ""
            out.append(f"  {c.status:<8} {c.key[0]}  {c.key[1]}{kinds}  lines {lines}  "
                       f"tokens {tokens}")
    return "\n".join(out) + "\n" if out else "no manifests\n"


def _cell(text: str) -> str:
    """Text safe inside a markdown table cell (pipes and backticks escaped)."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")


def render_markdown(diffs: list[TaskDiff]) -> str:
    """A pull-request comment: a section per task that changed, a table of its changes."""
    out = ["## ctxopt context diff", ""]
    changed = [d for d in diffs if d.changes or d.tokens_before != d.tokens_after]
    if not changed:
        out.append(f"No change in the context of {len(diffs)} task(s).")
    for diff in changed:
        out += [f"### {_cell(diff.task or diff.name)}", "", _summary(diff), "",
                "| change | file | symbol | kind | lines | tokens |", "|---|---|---|---|---|---|"]
        for c in diff.changes:
            lines = " → ".join(x for x in (_lines(c.before), _lines(c.after)) if x)
            tokens = " → ".join(str(r.tokens) for r in (c.before, c.after) if r)
            kinds = " → ".join(dict.fromkeys(r.kind for r in (c.before, c.after) if r))
            out.append(f"| {c.status} | `{_cell(c.key[0])}` | `{_cell(c.key[1])}` "
                       f"| {_cell(kinds)} | {lines} | {tokens} |")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _row_json(row: Row | None) -> dict[str, object] | None:
    if row is None:
        return None
    return {"hash": row.hash, "start_line": row.start_line, "end_line": row.end_line,
            "kind": row.kind, "tokens": row.tokens}


def render_json(diffs: list[TaskDiff]) -> str:
    """The JSON document (``ctxopt/schema/diff.schema.json``)."""
    document = {
        "schema_version": DIFF_SCHEMA_VERSION,
        "tasks": [{
            "name": d.name, "task": d.task, "tokens_before": d.tokens_before,
            "tokens_after": d.tokens_after, "counts": {s: d.count(s) for s in STATUSES},
            "changes": [{"status": c.status, "file": c.key[0], "symbol": c.key[1],
                         "before": _row_json(c.before), "after": _row_json(c.after)}
                        for c in d.changes],
        } for d in diffs],
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


DIFF_RENDERERS = {"text": render_text, "json": render_json, "markdown": render_markdown}


def render_diff(diffs: list[TaskDiff], output_format: str) -> str:
    """``diffs`` as text, JSON or markdown."""
    return DIFF_RENDERERS[output_format](diffs)


@dataclass(frozen=True, slots=True)
class Gate:
    """A ``--fail-on`` condition: a status (any such change fails), or ``tokens`` with a
    limit (fails when a task's token total grew by more than ``limit``)."""

    what: str
    limit: int = 0


_TOKENS_GATE = re.compile(r"^tokens\s*>\s*(\d+)$")


def parse_gates(text: str) -> list[Gate]:
    """``added,removed,reshown,changed,moved,tokens>N`` (any subset, comma-separated).

    Raises
    ------
    UsageError
        For an unknown condition.
    """
    gates = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        found = _TOKENS_GATE.match(part)
        if found is not None:
            gates.append(Gate("tokens", int(found.group(1))))
        elif part in STATUSES:
            gates.append(Gate(part))
        else:
            raise UsageError(f"unknown --fail-on condition {part!r} (use "
                             f"{', '.join(STATUSES)} or tokens>N)")
    return gates


def failed_gates(diffs: list[TaskDiff], gates: list[Gate]) -> list[str]:
    """A line for each gate that the diffs fail (empty: all pass)."""
    failures = []
    for gate in gates:
        if gate.what == "tokens":
            grown = [(d, (d.tokens_after or 0) - (d.tokens_before or 0)) for d in diffs]
            over = [f"{d.task or d.name} (+{g})" for d, g in grown if g > gate.limit]
            if over:
                failures.append(f"tokens grew by more than {gate.limit}: {', '.join(over)}")
            continue
        count = sum(d.count(gate.what) for d in diffs)
        if count:
            failures.append(f"{count} {gate.what}")
    return failures
