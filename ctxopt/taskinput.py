"""Where ``ctxopt gather`` takes its task from: the TASK argument, standard input (``-``)
or a file (``--task-file``); and a command class that never mistakes a task for an option.

Real issue titles often begin with an option's name ("--update fails when the remote is
down"). A command-line word that starts with a dash and has a space before any ``=`` is
never an option, so it is taken as the task; a task that starts with a dash and has no
space goes after ``--`` (``ctxopt gather -- -v``), as with any command-line tool.
"""
from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import click

from .errors import UsageError
from .files.text import decode_written, looks_binary

__all__ = ["TaskCommand", "read_task", "STDIN"]

STDIN = "-"


def _looks_like_words(arg: str) -> bool:
    """True for ``--update fails`` (a phrase), False for ``--scope=my dir`` (an option)."""
    return arg.startswith("-") and any(c.isspace() for c in arg.split("=", 1)[0])


class TaskCommand(click.Command):
    """A click command whose dash-led phrases are its positional argument, not options."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes_value = {name for param in self.get_params(ctx)
                       if isinstance(param, click.Option) and not param.is_flag
                       and not param.count for name in param.opts}
        kept: list[str] = []
        phrases: list[str] = []
        for i, arg in enumerate(args):
            if arg == "--":
                kept += args[i:]
                break
            value_of_option = bool(kept) and kept[-1] in takes_value
            (phrases if _looks_like_words(arg) and not value_of_option else kept).append(arg)
        if phrases:
            at = kept.index("--") + 1 if "--" in kept else len(kept)
            kept[at:at] = (["--"] if "--" not in kept else []) + phrases
        return super().parse_args(ctx, kept)


def read_task(task: str | None, task_file: Path | None, stdin: BinaryIO) -> str:
    """The task text: ``task``, or all of ``stdin`` (bytes) when ``task`` is ``-``, or the text of
    ``task_file`` (``-``: standard input), without the blank lines around it. A BOM is
    honoured (UTF-8, UTF-16, UTF-32); other bytes that are not UTF-8 are kept as surrogate
    escapes (shown as ``\\xHH`` like names from the command line).

    Raises
    ------
    UsageError
        Both or neither of ``task`` and ``task_file`` given, the file cannot be read, or
        the bytes read are binary (``looks_binary``), not text.
    """
    if task is not None and task_file is not None:
        raise UsageError("give the task once: as TASK or with --task-file, not both")
    if task is None and task_file is None:
        raise UsageError("missing the task: give TASK, - to read it from standard input, "
                         "or --task-file PATH")
    if task_file is not None and str(task_file) != STDIN:
        try:
            data = task_file.read_bytes()
        except OSError as exc:
            raise UsageError(f"cannot read the task file {str(task_file)!r}: "
                             f"{exc.strerror or exc}") from exc
        return _task_text(data, f"the task file {str(task_file)!r}")
    if task is None or task == STDIN:
        return _task_text(stdin.read(), "the task on standard input")
    return task


def _task_text(data: bytes, source: str) -> str:
    """The text of a task given as bytes (``decode_written``: a UTF-16 file from Windows
    PowerShell is text). Raises ``UsageError`` when the bytes are binary, not text."""
    if looks_binary(data):
        raise UsageError(f"{source} is binary (NUL or control bytes), not text")
    return decode_written(data).strip()
