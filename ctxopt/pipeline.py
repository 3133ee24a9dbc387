"""The gather pipeline: the only place that knows the order of the stages.

task parser -> indexer -> ring walker -> source reader -> budget fitter -> (renderers)
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from .errors import BudgetTooSmall, UsageError
from .fit import fit_budget
from .hygiene import HygieneConfig, clean_blocks, display_text
from .index import Index, build_index
from .model import Block, Dropped, Result, Selection
from .render import render_block, render_header, text_and_used
from .source import read_blocks
from .task import parse_task
from .tokens import Cl100kCounter, TokenCounter
from .walk import WalkConfig, walk_rings

__all__ = ["GatherConfig", "gather", "resolve_scope", "DEFAULT_BUDGET"]

DEFAULT_BUDGET = 12000
# Header lines can come out a few tokens longer than estimated (other symbols, larger
# counts); the final text is measured and trimmed anyway, this only saves a second pass.
_HEADER_SLACK = 8


@dataclass(frozen=True, slots=True)
class GatherConfig:
    """Options of one gather. ``budget`` is in cl100k_base tokens; ``scope`` is a path
    relative to the root (a directory or a file) that items must lie under; ``hygiene``
    says what to do with secrets, submodules and slow files."""

    budget: int = DEFAULT_BUDGET
    max_ring: int = 3
    include_tests: bool = True
    scope: str | None = None
    hygiene: HygieneConfig = HygieneConfig()

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
           counter: TokenCounter | None = None, index: Index | None = None) -> Result:
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
    index : Index, optional
        A prebuilt index of ``root`` (built here when omitted).

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
        The budget cannot hold the output header.
    """
    config = config or GatherConfig()
    counter = counter or Cl100kCounter()
    root = Path(root)
    if not task or not task.strip():
        raise UsageError("the task is empty: say what you want to do, e.g. \"fix Storage bug\"")
    if not root.is_dir():
        raise UsageError(f"root {str(root)!r} is not a directory")
    scope = resolve_scope(root, config.scope) if config.scope else None
    task = display_text(task)  # bytes that are not UTF-8 (from argv) as \xHH
    parsed = parse_task(task)
    empty = Result(task=task, intent=parsed.intent, budget=config.budget,
                   selection=Selection(blocks=()))
    minimum = counter.count(render_header(empty, config.budget))
    if minimum > config.budget:
        raise BudgetTooSmall(config.budget, minimum)

    index = index or build_index(root, config=config.hygiene)
    walk_config = WalkConfig(max_ring=config.max_ring, include_tests=config.include_tests,
                             scope=scope or None)
    items = walk_rings(index, parsed, walk_config)
    blocks = read_blocks(root, items, index, counter)
    blocks, redacted = clean_blocks(blocks, counter, config.hygiene)
    diagnostics = tuple(sorted(
        {replace(d, path=display_text(d.path)) for d in (*index.diagnostics, *redacted)},
        key=lambda d: (d.path, d.reason, d.detail)))
    if not blocks:
        return replace(empty, diagnostics=diagnostics)

    provisional = replace(empty, selection=Selection(
        blocks=tuple(blocks[:5]), truncated=tuple(_dropped(b) for b in blocks),
        excluded=tuple(_dropped(b) for b in blocks)))
    header = counter.count(render_header(provisional, config.budget)) + _HEADER_SLACK
    selection = fit_budget(blocks, max(0, config.budget - header),
                           cost=lambda b: counter.count(render_block(b)), count=counter.count)
    result = replace(empty, selection=selection, diagnostics=diagnostics)
    return _trim_to_budget(result, counter)


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
