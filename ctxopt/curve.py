"""``ctxopt curve``: what each step of budget buys for a task (issue 17).

One index read, one walk and one plan (``pipeline.prepare``); the selection at each budget
is the one ``gather`` makes at that budget (``pipeline.fit_prepared``). Because the fitter
is monotone, each row shows everything the row before it showed, and says what it adds:
blocks it shows for the first time, blocks it shows whole that were a signature or cut
before, and cut blocks it shows more lines of.

Units: budgets, ``used`` and every count of tokens are cl100k_base tokens (scaled when a
calibrated counter is passed); relevance is the sum of the walker's scores (``model.Item``).
"""
from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .errors import BudgetTooSmall, UsageError
from .model import Block, Fidelity, Result
from .pipeline import GatherConfig, fit_prepared, prepare
from .render import provenance, task_line
from .store import IndexOptions
from .tokens import TokenCounter
from .wording import counted

__all__ = ["DEFAULT_BUDGETS", "MAX_BUDGETS", "Change", "Curve", "CurveRow", "budget_curve",
           "budgets_between", "candidate_key", "parse_budgets", "plot_description",
           "render_curve_json", "render_curve_text", "render_curve_plot", "require_matplotlib"]

DEFAULT_BUDGETS = (1000, 2000, 4000, 8000, 16000)
MAX_BUDGETS = 64  # rows of one curve; each costs a fit
CURVE_SCHEMA_VERSION = 1
# what a ring's blocks are, for the text table's "adds" column
RING_NAMES = ("named", "members", "callers/tests", "same file/words", "callers of callers")


def parse_budgets(text: str) -> tuple[int, ...]:
    """``"1000,2000,4000"`` -> (1000, 2000, 4000): positive whole numbers of tokens,
    sorted, duplicates dropped.

    Raises
    ------
    UsageError
        An empty list, a value that is not a positive whole number, or more than
        ``MAX_BUDGETS`` budgets.
    """
    values = []
    for part in text.split(","):
        part = part.strip().replace("_", "")
        if not part.isdigit() or int(part) <= 0:
            raise UsageError(f"--budgets takes positive whole numbers of tokens separated by "
                             f"commas, got {text!r}")
        values.append(int(part))
    return _checked(values)


def budgets_between(low: int, high: int, steps: int) -> tuple[int, ...]:
    """``steps`` budgets from ``low`` to ``high`` tokens (both included), evenly spaced on
    a logarithmic scale (each about the same factor above the one before), rounded to
    whole tokens, duplicates dropped.

    Raises
    ------
    UsageError
        ``low`` or ``high`` not positive, ``low > high``, ``steps`` below 1 (2 when
        ``low < high``) or above ``MAX_BUDGETS``.
    """
    if low <= 0 or high <= 0:
        raise UsageError(f"--from and --to must be positive numbers of tokens, got {low} "
                         f"and {high}")
    if low > high:
        raise UsageError(f"--from ({low}) must not be above --to ({high})")
    if steps < (1 if low == high else 2):
        raise UsageError(f"--steps must be at least 2 between two budgets, got {steps}")
    if steps > MAX_BUDGETS:
        raise UsageError(f"--steps must be at most {MAX_BUDGETS}, got {steps}")
    if steps == 1:
        return (low,)
    ratio = math.log(high / low) / (steps - 1)
    return _checked([round(low * math.exp(ratio * n)) for n in range(steps - 1)] + [high])


def _checked(values: list[int]) -> tuple[int, ...]:
    budgets = tuple(sorted(set(values)))
    if len(budgets) > MAX_BUDGETS:
        raise UsageError(f"at most {MAX_BUDGETS} budgets, got {len(budgets)}")
    return budgets


@dataclass(frozen=True, slots=True)
class Change:
    """One block a row adds or upgrades: its lines as shown, symbols, ring, reason, and
    its form (``kind``) in this row and, for an upgrade, the row before (``was``)."""

    file: str
    start_line: int
    end_line: int
    symbols: tuple[str, ...]
    ring: int
    reason: str
    kind: str
    was: str | None = None


@dataclass(frozen=True, slots=True)
class CurveRow:
    """What one budget shows. ``used`` is None (and ``minimum`` the smallest budget that
    shows a block) when the budget is too small for any block. ``relevance`` sums the
    scores of the blocks shown in any form, ``relevance_full`` of those shown whole."""

    budget: int
    used: int | None
    blocks: int
    files: int
    full: int
    truncated: int
    signature: int
    excluded: int
    relevance: float
    relevance_full: float
    added: tuple[Change, ...]
    upgraded: tuple[Change, ...]
    grown: int
    minimum: int | None = None


@dataclass(frozen=True, slots=True)
class Curve:
    """The rows of one task, in budget order, and the gather the first fitted row comes
    from (``result``: task, intent, root and commit for the JSON). No rows: the task
    matched nothing (``pipeline.why_nothing_found(root, result)`` says why)."""

    result: Result
    rows: tuple[CurveRow, ...]
    results: tuple[Result | None, ...] = ()  # per row: the gather (None: too small)


def budget_curve(root: Path | str, task: str, budgets: tuple[int, ...],
                 config: GatherConfig | None = None, *, counter: TokenCounter | None = None,
                 index_options: IndexOptions | None = None) -> Curve:
    """The selection ``gather`` would make at each budget, from one walk (tokens).

    Raises what ``pipeline.prepare`` raises (``UsageError`` for an empty task, a missing
    root, a bad scope), and ``UsageError`` when ``budgets`` is empty.
    """
    if not budgets:
        raise UsageError("no budgets to fit")
    prepared = prepare(root, task, config, counter=counter, index_options=index_options)
    if not prepared.blocks:
        return Curve(result=prepared.empty, rows=())
    rows: list[CurveRow] = []
    results: list[Result | None] = []
    first: Result | None = None
    previous: dict[tuple, Block] = {}
    key = candidate_key(prepared.blocks)
    for budget in sorted(set(budgets)):
        try:
            result = fit_prepared(prepared, budget)
        except BudgetTooSmall as exc:
            rows.append(_too_small(budget, exc.minimum, len(prepared.blocks)))
            results.append(None)
            continue
        first = first or result
        shown = {key(b): b for b in result.selection.blocks}
        rows.append(_row(result, shown, previous, len(prepared.blocks)))
        results.append(result)
        previous = shown
    return Curve(result=first or prepared.empty, rows=tuple(rows), results=tuple(results))


def candidate_key(candidates: tuple[Block, ...]) -> Callable[[Block], tuple]:
    """What identifies a block shown in any form as the candidate it is a form of: the
    candidate of its file, ring and score whose lines hold its lines (a cut names only
    the definitions it shows, ``fit.truncate_block``: keyed by its names, ripgrep's
    `Glob.ext` cut, then whole, counted as a new block; trial 39); a block the fitter made
    of no candidate (the rest of a file), by its own lines."""
    by_file: dict[tuple, list[tuple[int, int, int]]] = {}
    for n, block in enumerate(candidates):
        by_file.setdefault((block.path, block.ring, block.score), []).append(
            (block.start_line, block.end_line, n))

    def key(block: Block) -> tuple:
        for start, end, n in by_file.get((block.path, block.ring, block.score), ()):
            if start <= block.start_line and block.end_line <= end:
                return ("candidate", n)
        return block.path, block.start_line, block.end_line, block.reason
    return key


def _too_small(budget: int, minimum: int, candidates: int) -> CurveRow:
    return CurveRow(budget=budget, used=None, blocks=0, files=0, full=0, truncated=0,
                    signature=0, excluded=candidates, relevance=0.0, relevance_full=0.0,
                    added=(), upgraded=(), grown=0, minimum=minimum)


def _change(block: Block, was: Block | None = None) -> Change:
    return Change(file=block.path, start_line=block.start_line, end_line=block.end_line,
                  symbols=block.symbols, ring=block.ring, reason=block.reason,
                  kind=block.kind.value, was=None if was is None else was.kind.value)


def _row(result: Result, shown: dict[tuple, Block], previous: dict[tuple, Block],
         candidates: int) -> CurveRow:
    blocks = result.selection.blocks
    added = tuple(_change(b) for key, b in shown.items() if key not in previous)
    upgraded, grown = [], 0
    for key, block in shown.items():
        before = previous.get(key)
        if before is None or before == block:
            continue
        if block.kind is Fidelity.TRUNCATED:
            grown += 1
        elif before.kind is not block.kind:
            upgraded.append(_change(block, before))
    kinds = [b.kind for b in blocks]
    return CurveRow(
        budget=result.budget, used=result.used, blocks=len(blocks),
        files=len({b.path for b in blocks}), full=kinds.count(Fidelity.FULL),
        truncated=kinds.count(Fidelity.TRUNCATED), signature=kinds.count(Fidelity.SIGNATURE),
        excluded=candidates - len(blocks), relevance=round(sum(b.score for b in blocks), 3),
        relevance_full=round(sum(b.score for b in blocks if b.kind is Fidelity.FULL), 3),
        added=added, upgraded=tuple(upgraded), grown=grown)


def _adds(row: CurveRow) -> str:
    """The text table's last column: new blocks by ring, upgrades, longer cuts."""
    if row.used is None:
        return f"too small: a block needs a budget of {row.minimum}"
    by_ring: dict[int, int] = {}
    for change in row.added:
        by_ring[change.ring] = by_ring.get(change.ring, 0) + 1
    parts = []
    if row.added:
        rings = ", ".join(f"{RING_NAMES[ring]} {n}" for ring, n in sorted(by_ring.items()))
        parts.append(f"+{len(row.added)} ({rings})")
    if row.upgraded:
        parts.append(f"{len(row.upgraded)} to whole")
    if row.grown:
        parts.append(f"{row.grown} longer")
    return ", ".join(parts) or "-"


def render_curve_text(curve: Curve) -> str:
    """The curve as a table: a row per budget, what it shows and what it adds."""
    columns = (("budget", 7), ("used", 7), ("blocks", 6), ("files", 5), ("full", 4),
               ("cut", 4), ("sig", 4), ("relevance", 9), ("whole", 7))
    lines = [f"# ctxopt curve for: {task_line(curve.result.task)}",
             ("# relevance: summed score of the blocks shown (whole: of those shown whole); "
              "adds: over the budget before (new blocks by ring, upgrades to whole, cut "
              "blocks shown longer)"),
             " ".join(f"{name:>{width}}" for name, width in columns) + "  adds"]
    for row in curve.rows:
        used = "-" if row.used is None else row.used
        cells = (row.budget, used, row.blocks, row.files, row.full, row.truncated,
                 row.signature, f"{row.relevance:.1f}", f"{row.relevance_full:.1f}")
        lines.append(" ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, columns))
                     + "  " + _adds(row))
    return "\n".join(lines) + "\n"


def _change_json(change: Change) -> dict[str, object]:
    document: dict[str, object] = {
        "file": change.file, "start_line": change.start_line, "end_line": change.end_line,
        "symbols": list(change.symbols), "ring": change.ring, "reason": change.reason,
        "kind": change.kind}
    if change.was is not None:
        document["was"] = change.was
    return document


def render_curve_json(curve: Curve) -> str:
    """The curve as JSON (``ctxopt/schema/curve.schema.json``), keys sorted."""
    document = {
        "schema_version": CURVE_SCHEMA_VERSION, **provenance(curve.result),
        "task": curve.result.task, "intent": curve.result.intent.value,
        "rows": [{
            "budget": row.budget, "used": row.used, "minimum": row.minimum,
            "blocks": row.blocks, "files": row.files, "full": row.full,
            "truncated": row.truncated, "signature": row.signature, "excluded": row.excluded,
            "relevance": row.relevance, "relevance_full": row.relevance_full,
            "added": [_change_json(c) for c in row.added],
            "upgraded": [_change_json(c) for c in row.upgraded], "grown": row.grown,
        } for row in curve.rows]}
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


PLOT_FORMATS = ("png", "svg")


def require_matplotlib(plot_format: str) -> None:
    """Raise ``UsageError`` (one line) unless a ``plot_format`` plot can be drawn: the
    format is png or svg and matplotlib (the ``plot`` extra) is installed."""
    if plot_format not in PLOT_FORMATS:
        raise UsageError(f"a plot is png or svg, not {plot_format!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise UsageError(f"--format {plot_format} needs matplotlib: pip install "
                         "'ctxopt[plot]'") from exc


def render_curve_plot(curve: Curve, plot_format: str) -> bytes:
    """The curve as a PNG or SVG image: relevance shown (any form, and whole) against
    the tokens used, one marker per budget, labelled with the budget.

    Drawn with matplotlib (the ``plot`` extra) on its Agg backend, no display needed;
    the SVG's marker groups have the ids ``relevance`` and ``relevance-full``, and both
    formats carry the points as their description (``plot_description``).

    Raises
    ------
    UsageError
        matplotlib is not installed, or ``plot_format`` is not png or svg.
    """
    require_matplotlib(plot_format)
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    rows = [row for row in curve.rows if row.used is not None]
    figure = Figure(figsize=(7, 4.2), dpi=100)
    axes = figure.subplots()
    used = [row.used or 0 for row in rows]  # rows too small for a block are left out
    shown, = axes.plot(used, [row.relevance for row in rows], marker="o",
                       label="shown (any form)")
    whole, = axes.plot(used, [row.relevance_full for row in rows], marker="s",
                       linestyle="--", label="shown whole")
    shown.set_gid("relevance")
    whole.set_gid("relevance-full")
    labels: dict[tuple[int, float], list[str]] = {}  # budgets that show the same text
    for row in rows:
        labels.setdefault((row.used or 0, row.relevance), []).append(str(row.budget))
    for point, budgets in labels.items():
        axes.annotate(", ".join(budgets), point, textcoords="offset points",
                      xytext=(0, 7), ha="center", fontsize=7)
    axes.margins(x=0.1, y=0.12)
    axes.set_xlabel("tokens used (cl100k_base)")
    axes.set_ylabel("relevance shown (summed score)")
    axes.set_title(f"ctxopt curve: {_title(curve.result.task)}", fontsize=10)
    axes.grid(True, alpha=0.3)
    axes.legend(loc="lower right", fontsize=8, title="points: the budget asked for",
                title_fontsize=7)
    figure.tight_layout()
    buffer = io.BytesIO()
    metadata: dict[str, str | None] = {"Description": plot_description(rows)}
    metadata["Date" if plot_format == "svg" else "Software"] = None  # the same bytes each run
    figure.savefig(buffer, format=plot_format, metadata=metadata)
    return buffer.getvalue()


def plot_description(rows: list[CurveRow]) -> str:
    """The points a plot draws, as its files' description (a PNG's ``tEXt`` chunk, an
    SVG's ``dc:description``): ``"3 points (budget: tokens used, relevance, whole):
    1000: 997, 962.0, 474.1; ..."``, one per fitted row, so the picture says what it
    shows."""
    points = "; ".join(f"{row.budget}: {row.used}, {row.relevance:.1f}, "
                       f"{row.relevance_full:.1f}" for row in rows)
    return f"{counted(len(rows), 'point')} (budget: tokens used, relevance, whole): {points}"


def _title(task: str) -> str:
    line = " ".join(task.split())
    return line if len(line) <= 60 else line[:59] + "…"
