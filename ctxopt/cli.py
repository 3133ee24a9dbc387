"""Command line (click): options -> GatherConfig -> pipeline -> renderer -> exit code.

Exit codes: 0 context emitted; 1 nothing relevant found or a runtime failure; 2 bad
input (click's usage errors and ``UsageError``).
"""
from __future__ import annotations

import enum
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

import click

from . import __version__
from .errors import CtxoptError
from .hygiene import DEFAULT_PARSE_TIMEOUT, HygieneConfig
from .pipeline import DEFAULT_BUDGET, GatherConfig, gather
from .render import RENDERERS
from .tokens import Cl100kCounter


class ExitStatus(enum.IntEnum):
    """What ``ctxopt`` exits with."""

    OK = 0
    NOTHING_FOUND = 1
    USAGE = 2


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so a failure leaves the old file."""
    directory = path.resolve().parent
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ctxopt")
def main() -> None:
    """ctxopt: the most relevant code for a task, fitted to a token budget."""


@main.command()
@click.argument("task")
@click.option("--root", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=".", show_default=True, help="Repository root.")
@click.option("--budget", type=click.IntRange(min=1), default=DEFAULT_BUDGET, show_default=True,
              help="Most tokens (cl100k_base) the text output may use, header included.")
@click.option("--format", "output_format", type=click.Choice(sorted(RENDERERS)),
              default="text", show_default=True, help="Output format.")
@click.option("--max-ring", type=click.IntRange(0, 4), default=3, show_default=True,
              help="0: definitions only ... 4: callers of callers.")
@click.option("--tests/--no-tests", default=True, show_default=True,
              help="Include test files.")
@click.option("--scope", type=str, default=None,
              help="Keep only code under this path (relative to the root).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to FILE instead of standard output.")
@click.option("--allow-secrets", is_flag=True, default=False,
              help="Emit credential files and text that looks like secrets (off: skipped or redacted).")
@click.option("--submodules", is_flag=True, default=False,
              help="Index submodules and nested repositories too.")
@click.option("--parse-timeout", type=click.FloatRange(min=0, min_open=True),
              default=DEFAULT_PARSE_TIMEOUT, show_default=True,
              help="Seconds one file may take to parse before it is skipped.")
def gather_command(task: str, root: Path, budget: int, output_format: str, max_ring: int,
                   tests: bool, scope: str | None, output: Path | None, allow_secrets: bool,
                   submodules: bool, parse_timeout: float) -> None:
    """Print the code most relevant to TASK, fitted to the token budget."""
    counter = Cl100kCounter()
    try:
        config = GatherConfig(budget=budget, max_ring=max_ring, include_tests=tests,
                              scope=scope, hygiene=HygieneConfig(
                                  allow_secrets=allow_secrets, submodules=submodules,
                                  parse_timeout=parse_timeout))
        result = gather(root, task, config, counter=counter)
    except CtxoptError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(exc.exit_code)
    if not result.selection.blocks and not result.selection.excluded:
        click.echo(f"ctxopt: nothing relevant found for {task.strip()!r} under {root} "
                   "(no definition, file or keyword matched)", err=True)
        sys.exit(ExitStatus.NOTHING_FOUND)
    text = RENDERERS[output_format](result, counter.count)
    if output_format == "text" and result.diagnostics:
        reasons = Counter(d.reason for d in result.diagnostics)
        summary = ", ".join(f"{n} {reason}" for reason, n in sorted(reasons.items()))
        click.echo(f"ctxopt: skipped or degraded files: {summary}", err=True)
    if output is None:
        click.echo(text, nl=False)
    else:
        _write_atomically(output, text)


gather_command.name = "gather"
main.add_command(gather_command, "gather")
