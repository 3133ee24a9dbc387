"""Where ``ctxopt gather`` takes its task from: the TASK argument, standard input (``-``)
or a file (``--task-file``); and a command class that never mistakes a task for an option.

Real issue titles often begin with an option's name ("--update fails when the remote is
down"). A command-line word that starts with a dash and has a space before any ``=`` is
never an option, so it is taken as the task; so is a word ``--NAME[=...]`` that names no
option of the command or of ``ctxopt`` (``--update=<pattern>``, an issue title) when the
command is given no other task, with a note on stderr, unless NAME is a misspelling of
one (``--fromat=json``: click's "No such option", with the option it may mean). Any other
task that starts with a dash goes after ``--`` (``ctxopt gather -- -v``), as with any
command-line tool.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO

import click

from .errors import UsageError
from .files.safety import read_regular
from .files.text import decode_written, looks_binary
from .task import MAX_TASK_CHARS

__all__ = ["TaskCommand", "read_task", "standard_input", "STDIN", "TASK_BYTES_READ"]

STDIN = "-"


def _looks_like_words(arg: str) -> bool:
    """True for ``--update fails`` (a phrase), False for ``--scope=my dir`` (an option)."""
    return arg.startswith("-") and any(c.isspace() for c in arg.split("=", 1)[0])


def _option_names(command: click.Command, ctx: click.Context) -> set[str]:
    """The names of ``command``'s options (``--budget``, ``-o``...)."""
    return {name for param in command.get_params(ctx) if isinstance(param, click.Option)
            for name in (*param.opts, *param.secondary_opts)}


# How alike (``difflib.SequenceMatcher.ratio``) an unknown option's name and a known one are
# when it is a misspelling: a transposition or a letter missing or added scores 0.8 to
# 0.95 on gather's options (``--fromat`` 0.88, ``--rooot`` 0.92, ``--window-size`` 0.76);
# ``--update`` and ``--budget`` 0.62, ``--json`` 0.67, but other tools' options may score
# more (``--index-url`` 0.78 beside ``--index``), so the error says where such a task goes
_MISSPELT = 0.75


def _misspelt(name: str, known: set[str]) -> list[str]:
    """The options of ``known`` that the option name ``name`` misspells, most alike first."""
    import difflib

    return difflib.get_close_matches(name, known, n=3, cutoff=_MISSPELT)


class TaskCommand(click.Command):
    """A click command whose dash-led phrases are its positional argument, not options."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes_value = {name for param in self.get_params(ctx)
                       if isinstance(param, click.Option) and not param.is_flag
                       and not param.count for name in param.opts}
        known = _option_names(self, ctx)
        if ctx.parent is not None:  # ``ctxopt gather TASK -q``: said to go before, not a task
            known |= _option_names(ctx.parent.command, ctx.parent)
        kept: list[str] = []
        phrases: list[str] = []
        unknown: list[str] = []  # ``--NAME[=...]`` naming no option
        positional = 0
        for i, arg in enumerate(args):
            if arg == "--":
                positional += len(args) - i - 1
                kept += args[i:]
                break
            value_of_option = bool(kept) and kept[-1] in takes_value
            if value_of_option or not arg.startswith("-") or arg == "-":
                # (a value of --task-file is a task given)
                positional += not value_of_option or kept[-1] == "--task-file"
                kept.append(arg)
            elif _looks_like_words(arg):
                phrases.append(arg)
            elif arg.startswith("--") and arg.split("=", 1)[0] not in known:
                unknown.append(arg)
                kept.append(arg)
            else:
                positional += arg.startswith("--task-file=")
                kept.append(arg)
        if len(unknown) == 1 and not phrases and not positional:
            name = unknown[0].split("=", 1)[0]
            if meant := _misspelt(name, known):
                raise click.NoSuchOption(name, possibilities=meant, ctx=ctx, message=(
                    f"No such option '{name}' (a task shaped like an option goes after --: "
                    f"ctxopt {ctx.info_name} [OPTIONS] -- {unknown[0]})."))
            # the only task word given: an issue title such as ``--update=<pattern>``
            kept.remove(unknown[0])
            phrases.append(unknown[0])
            if not ctx.find_root().params.get("quiet"):
                click.echo(f"ctxopt: {ctx.info_name} has no option {name}, "
                           f"so {unknown[0]!r} is read as the task (put such a task last, after "
                           f"--: ctxopt {ctx.info_name} [OPTIONS] -- TASK)",
                           err=True)
        if phrases:
            at = kept.index("--") + 1 if "--" in kept else len(kept)
            kept[at:at] = (["--"] if "--" not in kept else []) + phrases
        return super().parse_args(ctx, kept)


# Most bytes of a task read from a file or standard input: room for the characters a task
# is read to (``task.MAX_TASK_CHARS``) in any encoding (UTF-32: 4 bytes each, and a BOM).
# More is never read: ``yes | ctxopt gather -`` or ``--task-file /dev/zero`` would fill
# the memory first.
TASK_BYTES_READ = 4 * MAX_TASK_CHARS + 4


def read_task(task: str | None, task_file: Path | None,
              stdin: BinaryIO | None = None) -> str:
    """The task text: ``task``, or ``stdin`` (bytes; its first ``TASK_BYTES_READ``) when
    ``task`` is ``-``, or the text of ``task_file`` (``-``: standard input; its first
    ``TASK_BYTES_READ`` bytes), without the blank lines around it. ``stdin``: the
    process's standard input (``standard_input``) when not given. A BOM is
    honoured (UTF-8, UTF-16, UTF-32); other bytes that are not UTF-8 are kept as surrogate
    escapes (shown as ``\\xHH`` like names from the command line).

    Raises
    ------
    UsageError
        Both or neither of ``task`` and ``task_file`` given, the file cannot be read (or
        is a socket or device: ``read_regular``; a FIFO is read as a pipe, so that
        ``--task-file <(...)`` works), or the bytes read are binary (``looks_binary``), not
        text.
    """
    if task is not None and task_file is not None:
        raise UsageError("give the task once: as TASK or with --task-file, not both")
    if task is None and task_file is None:
        raise UsageError("missing the task: give TASK, - to read it from standard input, "
                         "or --task-file PATH")
    if task_file is not None and str(task_file) != STDIN:
        try:
            data = read_regular(task_file, TASK_BYTES_READ, pipes=True)
        except OSError as exc:
            raise UsageError(f"cannot read the task file {str(task_file)!r}: "
                             f"{exc.strerror or exc}") from exc
        return _task_text(data, f"the task file {str(task_file)!r}")
    if task is None or task == STDIN:
        source = stdin if stdin is not None else standard_input()
        return _task_text(source.read(TASK_BYTES_READ), "the task on standard input")
    return task


def standard_input(instead: str = "give the task as an argument or with --task-file PATH"
                   ) -> BinaryIO:
    """The bytes of standard input. Raises ``UsageError`` (saying what to do ``instead``)
    when it is closed (``<&-``: Python then has no ``sys.stdin``)."""
    if sys.stdin is None:
        raise UsageError(f"standard input is closed: {instead}")
    return sys.stdin.buffer


def _task_text(data: bytes, source: str) -> str:
    """The text of a task given as bytes (``decode_written``: a UTF-16 file from Windows
    PowerShell is text). Raises ``UsageError`` when the bytes are binary, not text."""
    if looks_binary(data):
        raise UsageError(f"{source} is binary (NUL or control bytes), not text")
    return decode_written(data).strip()
