"""``ctxopt curve``: the command line of ``curve.budget_curve`` (click only: options ->
budgets -> curve -> renderer; ``cli`` registers it and owns the error boundary)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from .cli_output import emit, exit_nothing_found, indexing_progress, output_target
from .commands import (MAX_RING_OPTION, ROOT_OPTION, SCOPE_OPTION, TASK_FILE_OPTION, TESTS_OPTION,
                       check_parse_cache_environment, index_options)
from .errors import UsageError
from .taskinput import TaskCommand, read_task

__all__ = ["curve_command"]

_FORMATS = ("text", "json", "png", "svg")
_STEPS = 8  # --steps' default: budgets between --from and --to (set by hand with curve)


def _budgets(budgets: str | None, low: int | None, high: int | None,
             steps: int | None) -> tuple[int, ...]:
    """The budgets to fit from ``--budgets`` or ``--from/--to/--steps`` (defaults:
    ``curve.DEFAULT_BUDGETS``; ``--steps`` ``_STEPS``). Raises ``UsageError`` for a bad or mixed
    choice."""
    from .curve import DEFAULT_BUDGETS, budgets_between, parse_budgets

    ranged = (low, high, steps) != (None, None, None)
    if budgets is not None and ranged:
        raise UsageError("--budgets and --from/--to/--steps are alternatives: give one")
    if budgets is not None:
        return parse_budgets(budgets)
    if not ranged:
        return DEFAULT_BUDGETS
    if low is None or high is None:
        raise UsageError(f"--from and --to go together, and --steps needs both ({_STEPS} "
                         "steps by default)")
    return budgets_between(low, high, _STEPS if steps is None else steps)


@click.command("curve", cls=TaskCommand)
@click.argument("task", required=False)
@TASK_FILE_OPTION
@ROOT_OPTION
@click.option("--budgets", type=str, default=None, metavar="N,N,...",
              help="Budgets to fit, comma-separated.  [default: 1000,2000,4000,8000,16000]")
@click.option("--from", "low", type=int, default=None, help="Smallest budget (with --to).")
@click.option("--to", "high", type=int, default=None, help="Largest budget (with --from).")
@click.option("--steps", type=int, default=None,
              help=f"Budgets from --from to --to, evenly spaced on a log scale.  "
                   f"[default: {_STEPS}]")
@click.option("--format", "output_format", type=click.Choice(_FORMATS), default="text",
              show_default=True, help="A table, JSON, or a plot (png, svg: needs matplotlib, "
                                      "the 'plot' extra).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              default=None, help="Write to FILE instead of standard output (as gather's -o).")
@MAX_RING_OPTION
@TESTS_OPTION
@SCOPE_OPTION
@index_options
def curve_command(task: str | None, task_file: Path | None, root: Path,
                  budgets: str | None, low: int | None, high: int | None, steps: int | None,
                  output_format: str, output: str | None, max_ring: int, tests: bool,
                  scope: str | None, index_path: Path | None, jobs: int | None,
                  max_file_size: int, parse_timeout: float, exclude: tuple[str, ...]) -> None:
    """What each step of budget buys for TASK: for each budget, what gather would show
    (tokens, blocks, files, whole, cut and signature blocks, relevance) and what it adds
    over the budget before. One index read and one walk; the fitter runs per budget."""
    from .curve import (budget_curve, render_curve_json, render_curve_plot,
                        render_curve_text, require_matplotlib)
    from .files.safety import HygieneConfig
    from .pipeline import GatherConfig
    from .store import IndexOptions

    chosen = _budgets(budgets, low, high, steps)
    check_parse_cache_environment()
    task = read_task(task, task_file)
    target = output_target(output, root=root, inputs=(task_file,))
    if output_format == "png" and target is None and sys.stdout.isatty():
        raise UsageError("a PNG is not for a terminal: write it with -o FILE")
    if output_format in ("png", "svg"):
        require_matplotlib(output_format)  # before the walk, not after
    config = GatherConfig(budget=max(chosen), max_ring=max_ring, include_tests=tests,
                          scope=scope, hygiene=HygieneConfig(parse_timeout=parse_timeout,
                                                            exclude=exclude))
    with indexing_progress() as feedback:
        options = IndexOptions(path=index_path, jobs=jobs, max_file_bytes=max_file_size,
                               progress=feedback.progress, listed=feedback.listed)
        curve = budget_curve(root, task, chosen, config, index_options=options)
    if not curve.rows:
        from .pipeline import why_nothing_found

        exit_nothing_found(task, root, why_nothing_found(root, curve.result))
    data: str | bytes
    if output_format == "text":
        data = render_curve_text(curve)
    elif output_format == "json":
        data = render_curve_json(curve)
    else:
        data = render_curve_plot(curve, output_format)
    emit(data, target, output)

