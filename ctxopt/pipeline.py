"""The gather pipeline: the only place that knows the order of the stages.

task parser -> indexer -> ring walker -> source reader -> budget fitter -> (renderers)
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from .errors import BudgetTooSmall, BudgetTooSmallForContent, UsageError
from .fit import fit_budget, smallest_form
from .files.redaction import clean_blocks
from .files.safety import HygieneConfig
from .files.text import display_text
from .graph.view import IndexView as Index
from .model import Block, Diagnostic, Dropped, Fidelity, Result, Selection
from .render import render_block, render_header, text_and_used
from .source import read_blocks
from .store import IndexOptions, StoredIndex, open_index
from .task import ParsedTask, limit_task, parse_task
from .tokens import Cl100kCounter, TokenCounter
from .walk import WalkConfig, walk_rings

__all__ = ["GatherConfig", "gather", "resolve_scope", "why_nothing_found", "DEFAULT_BUDGET"]

DEFAULT_BUDGET = 12000
# Most rounds of fit-measure-refit to reserve exactly what the header takes; usually one
# or two do (the header only grows with what is selected at small budgets).
_FIT_ROUNDS = 10


@dataclass(frozen=True, slots=True)
class GatherConfig:
    """Options of one gather. ``budget`` is in cl100k_base tokens; ``scope`` is a path
    relative to the root (a directory or a file) that items must lie under; ``hygiene``
    says what to do with secrets, submodules and slow files; ``calibrated_for`` names the
    model whose calibration factor the counter applies (the header says so)."""

    budget: int = DEFAULT_BUDGET
    max_ring: int = 3
    include_tests: bool = True
    scope: str | None = None
    hygiene: HygieneConfig = HygieneConfig()
    calibrated_for: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.budget, bool) or not isinstance(self.budget, int) or self.budget <= 0:
            raise UsageError(f"budget must be a positive integer, got {self.budget!r}")
        if not 0 <= self.max_ring <= 4:
            raise UsageError(f"max_ring must be between 0 and 4, got {self.max_ring}")


def resolve_scope(root: Path, scope: str) -> str:
    """``scope`` (relative to ``root``, or absolute) as a root-relative POSIX path.

    Raises
    ------
    UsageError
        When the scope lies outside the root or does not exist.
    """
    root = root.resolve()
    candidate = Path(scope)
    target = (candidate if candidate.is_absolute() else root / candidate).resolve()
    if not target.is_relative_to(root):
        raise UsageError(f"scope {scope!r} is outside the root {root}")
    if not target.exists():
        raise UsageError(f"scope {scope!r} does not exist under {root}")
    relative = target.relative_to(root).as_posix()
    return "" if relative == "." else relative


def gather(root: Path | str, task: str, config: GatherConfig | None = None, *,
           counter: TokenCounter | None = None, index: Index | StoredIndex | None = None,
           index_options: IndexOptions | None = None) -> Result:
    """Answer "which code should the model see for this task, within the budget?".

    Parameters
    ----------
    root : path
        The repository's root directory.
    task : str
        The task in natural language ("fix Storage bug").
    config : GatherConfig, optional
        Budget (tokens), ring limit, test and scope filters.
    counter : TokenCounter, optional
        Defaults to exact cl100k_base counts.
    index : Index or StoredIndex, optional
        An index of ``root``. When omitted, the persistent index (``store.open_index``)
        is brought up to date and used.
    index_options : IndexOptions, optional
        Where and how to keep that persistent index (its ``hygiene`` is replaced by
        ``config.hygiene``).

    Returns
    -------
    Result
        The selection, whose text rendering (``render.render_text``) is at most
        ``config.budget`` tokens. An empty selection with nothing excluded means the task
        matched nothing in the repository.

    Raises
    ------
    UsageError
        Empty task, missing root, bad scope.
    BudgetTooSmall
        The budget cannot hold the output header; ``BudgetTooSmallForContent`` when it
        holds the header but not even the smallest form of any candidate block.
    """
    config = config or GatherConfig()
    counter = counter or Cl100kCounter()
    root = Path(root)
    if not task or not task.strip():
        raise UsageError("the task is empty: say what you want to do, e.g. \"fix Storage bug\"")
    if not root.is_dir():
        raise UsageError(f"root {str(root)!r} is not a directory")
    scope = resolve_scope(root, config.scope) if config.scope else None
    # bytes that are not UTF-8 (from argv) as \xHH; a task read from a file keeps its lines
    task = "\n".join(display_text(line) for line in task.split("\n"))
    parsed, task_note = limit_task(parse_task(task))
    empty = Result(task=task, intent=parsed.intent, budget=config.budget,
                   selection=Selection(blocks=()), task_note=task_note,
                   calibrated_for=None if config.calibrated_for is None
                   else display_text(config.calibrated_for))
    if counter.count(render_header(empty, config.budget)) > config.budget:
        raise BudgetTooSmall(config.budget, _smallest_header_budget(empty, counter))

    if index is None:
        options = replace(index_options or IndexOptions(), hygiene=config.hygiene)
        stored, _ = open_index(root, options)
        with stored:
            return _gather_with(root, parsed, empty, config, scope, counter, stored)
    return _gather_with(root, parsed, empty, config, scope, counter, index)


def _smallest_header_budget(empty: Result, counter: TokenCounter) -> int:
    """The smallest budget whose own header fits in it (tokens). The header quotes the
    budget and the tokens used, so its size grows with them: the count is repeated at
    the budget it asks for until it holds (a fixed point in a few rounds)."""
    need = 1
    for _ in range(_FIT_ROUNDS):
        at = counter.count(render_header(replace(empty, budget=need), need))
        if at <= need:
            break
        need = at
    return need


def _gather_with(root: Path, parsed: ParsedTask, empty: Result, config: GatherConfig,
                 scope: str | None, counter: TokenCounter, index: Index | StoredIndex) -> Result:
    walk_config = WalkConfig(max_ring=config.max_ring, include_tests=config.include_tests,
                             scope=scope or None)
    items = walk_rings(index, parsed, walk_config)
    blocks = read_blocks(root, items, index, counter)
    blocks, redacted = clean_blocks(blocks, counter, config.hygiene)
    diagnostics = tuple(sorted(
        {replace(d, path=display_text(d.path)) for d in (*index.diagnostics, *redacted)},
        key=lambda d: (d.path, d.reason, d.detail)))
    if not blocks:
        return replace(empty, diagnostics=diagnostics, indexed_files=len(index.files))

    result = _fit_exactly(replace(empty, diagnostics=diagnostics), blocks, counter)
    if result.selection.blocks:
        return result
    # The fitter's rounds can miss a budget that holds one small block and the header
    # that block brings (its symbols): show the cheapest block in its smallest form.
    smallest, header, needs = _smallest_result(result, blocks, counter)
    if header + needs > config.budget:
        raise BudgetTooSmallForContent(config.budget, header, needs)
    return smallest


def _smallest_result(empty: Result, blocks: list[Block], counter: TokenCounter
                     ) -> tuple[Result, int, int]:
    """The cheapest block in its smallest form (``fit.smallest_form``), every other one
    excluded; with the tokens of the header (and separators) and of that block."""
    cost = _block_cost(counter)
    ranked = sorted(blocks, key=lambda b: (-b.score, b.path, b.start_line))  # ties: best first
    forms = [(smallest_form(b, cost=cost, count=counter.count), b) for b in ranked]
    form, original = min(forms, key=lambda pair: cost(pair[0]))
    needs = cost(form)
    if form is original:
        shortened: tuple[Dropped, ...] = ()
    else:
        what = "kept 1 line" if form.kind is Fidelity.TRUNCATED else "reduced to its signature"
        shortened = (replace(_dropped(original), action=form.kind.value, reason=(
            f"{what}: needs {cost(original)} tokens, the budget has room for one small "
            "block")),)
    excluded = tuple(replace(_dropped(b), reason=f"needs {cost(b)} tokens, the budget has "
                             "room for one small block") for b in ranked if b is not original)
    result = replace(empty, selection=Selection(blocks=(form,), truncated=shortened,
                                                excluded=excluded))
    _, used = text_and_used(result, counter.count)
    return result, used - needs, needs


def _block_cost(counter: TokenCounter) -> Callable[[Block], int]:
    """Block -> tokens of its rendering, remembered (the fitter asks again and again)."""
    known: dict[str, int] = {}

    def cost(block: Block) -> int:
        text = render_block(block)
        if text not in known:
            known[text] = counter.count(text)
        return known[text]

    return cost


def _fit_exactly(empty: Result, blocks: list[Block], counter: TokenCounter) -> Result:
    """Fit ``blocks`` into the budget less exactly what the header takes.

    The header's size depends on what is selected (symbols, counts, the ``used`` figure),
    so the room for blocks starts at the budget less a pessimistic header and is then
    set to the budget less the header (and separators) measured on the rendered text:
    room the header did not need is given back to the fitter, an overflow is taken away,
    and once both a room that holds and one that overflows are known, the room between
    them is bisected. The fit with the most room
    that holds is kept; the last resort drops blocks until the exact text fits (the hard
    guarantee).
    """
    budget = empty.budget
    cost = _block_cost(counter)
    ranked = sorted(blocks, key=lambda b: (-b.score, b.path, b.start_line))
    pessimistic = replace(empty, selection=Selection(
        blocks=tuple(ranked[:5]), truncated=tuple(_dropped(b) for b in blocks),
        excluded=tuple(_dropped(b) for b in blocks)))
    room = max(0, budget - counter.count(render_header(pessimistic, budget)))
    best: Result | None = None
    best_room, overflow_room = -1, None
    result = empty
    for _ in range(_FIT_ROUNDS):
        selection = fit_budget(blocks, room, cost=cost, count=counter.count)
        result = replace(empty, selection=selection)
        _, used = text_and_used(result, counter.count)
        exact = budget - (used - sum(cost(b) for b in selection.blocks))  # room the header leaves
        if used <= budget:
            if room > best_room:
                best, best_room = result, room
            if exact <= room or not (selection.truncated or selection.excluded):
                break
            room = exact
        else:
            overflow_room = room if overflow_room is None else min(overflow_room, room)
            room = max(0, min(exact, room - (used - budget)))
        if overflow_room is not None and not best_room < room < overflow_room:
            room = (best_room + overflow_room) // 2  # bisect between holds and overflows
        if room <= best_room:
            break
    return best if best is not None else _trim_to_budget(result, counter)


def _dropped(block: Block) -> Dropped:
    return Dropped(block.path, block.start_line, block.end_line, block.tokens, block.score,
                   "excluded", "")


def _trim_to_budget(result: Result, counter: TokenCounter) -> Result:
    """Drop the lowest-ranked blocks until the exact text fits (the hard guarantee)."""
    while True:
        _, used = text_and_used(result, counter.count)
        blocks = result.selection.blocks
        if used <= result.budget or not blocks:
            return result
        last = blocks[-1]
        selection = replace(result.selection, blocks=blocks[:-1], excluded=(
            *result.selection.excluded,
            Dropped(last.path, last.start_line, last.end_line, last.tokens, last.score,
                    "excluded", "the output header and separators left no room")))
        result = replace(result, selection=selection)


# How a skip reason reads after a file's name; others read "was skipped (reason)".
_SKIPPED_AS = {"not checked out": "is not checked out", "submodule": "is in a submodule",
               "vendored": "is vendored", "generated": "is generated", "binary": "is binary",
               "minified": "is minified", "too large": "is too large",
               "unreadable": "is unreadable"}


def why_nothing_found(root: Path, result: Result) -> str:
    """One line saying why ``result`` (a gather that selected nothing) is empty.

    Files the task names come first: skipped ones with their reason (a file inside a
    skipped directory or submodule with that directory's), empty ones as empty; then
    "no source files indexed" with the skip counts, or that nothing matched.
    """
    notes = []
    for symbol in parse_task(result.task).symbols:
        if "/" not in symbol and "." not in symbol:
            continue
        skip = _skip_of(symbol, result.diagnostics)
        if skip is not None:
            notes.append(f"{skip.path} {_SKIPPED_AS.get(skip.reason, f'was skipped ({skip.reason})')}"
                         + (f" ({skip.detail})" if skip.detail and skip.reason in _SKIPPED_AS else ""))
        elif _is_empty_file(root, symbol):
            notes.append(f"{symbol} is empty")
    if notes:
        return "; ".join(notes)
    if result.indexed_files == 0:
        skipped = Counter(d.reason for d in result.diagnostics)
        return "no source files indexed" + (": " + ", ".join(
            f"{n} {reason}" for reason, n in sorted(skipped.items())) if skipped else "")
    return "no definition, file or keyword matched"


def _skip_of(named: str, diagnostics: tuple[Diagnostic, ...]) -> Diagnostic | None:
    """The diagnostic of the file ``named`` (a path, or its last parts), or of a skipped
    directory or submodule holding it."""
    for d in diagnostics:
        if d.path == named or d.path.endswith("/" + named):
            return d
    for d in diagnostics:
        directory = d.path.rstrip("/")
        if (d.path.endswith("/") or d.reason == "submodule") and named.startswith(directory + "/"):
            return d
    return None


def _is_empty_file(root: Path, named: str) -> bool:
    try:
        path = (root / named).resolve()
        return path.is_relative_to(root.resolve()) and path.is_file() and \
            not path.read_bytes().strip()
    except (OSError, ValueError):
        return False
