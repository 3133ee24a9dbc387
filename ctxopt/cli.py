"""Command line (click): options -> GatherConfig -> pipeline -> renderer -> exit code.

Exit codes: 0 context emitted; 1 nothing relevant found or a runtime failure; 2 bad
input (click's usage errors and ``UsageError``); 3 the index cannot be used
(``IndexStoreError``); 130 interrupted. Commands raise; the one
error boundary (``_Main.main``) turns every error into one line on stderr.
"""
from __future__ import annotations

import errno
import itertools
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from click.core import ParameterSource

from .budget import Calibrated, EstimatingCounter, choose_budget
from .calibration import CalibrationStore, user_config_dir
from .errors import BudgetError, CtxoptError, Interrupted, UsageError
from .files.reasons import REASON_BINARY, REASON_DAMAGED_INDEX, REASON_GENERATED
from .files.safety import HygieneConfig, special_file
from .files.text import decode_text, display_text, looks_binary
from .commands import (COMMANDS, MAX_RING_OPTION, ROOT_OPTION, SCOPE_OPTION, SECONDS,
                       TASK_FILE_OPTION, TESTS_OPTION, Whole, apply_config,
                       check_cache_dir_environment, config_file_source, file_rule_options,
                       index_options, note, parse_cache_problem, quiet, version_text)
from .cli_output import (ExitStatus, emit, exit_nothing_found, indexing_progress,
                         output_target)
from .contract import SCHEMAS, load_schema, render_index_json
from .curve_cli import curve_command
from .model import Diagnostic
from .pipeline import (DEFAULT_BUDGET, GatherConfig, fit_prepared, named_files_left_out, prepare,
                       why_nothing_found)
from .render import RENDERERS
from .taskinput import TaskCommand, read_task, standard_input
from .store import IndexOptions, StoredIndex, UpdateReport, open_index
from .store.parsecache import CACHE_ENV
from .tokens import Cl100kCounter, TokenCounter
from .wording import counted


# Commands that never read nor write the user cache directory: a bad
# ``$CTXOPT_CACHE_DIR`` is no error of theirs (``config`` is where one looks at it).
_WITHOUT_CACHE = frozenset({"config", "schema"})
SKIPPED_LISTED = 10  # skipped files ``ctxopt index`` names (its JSON names every one)
_ARGS = "ctxopt.args"  # the command line's arguments, in ``click.Context.meta``


def _asks_for_help(args: list[str]) -> bool:
    """Whether ``args`` ask for a command's help (``-h``, ``--help`` before a ``--``)."""
    return any(arg in ("--help", "-h") for arg in itertools.takewhile(lambda a: a != "--", args))


class _Main(click.Group):
    """The command group and the one error boundary of the command line."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_ARGS] = list(args)  # (what the group's callback reads: click keeps none)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise Interrupted() from exc

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run a command; every error ends the process with one line on stderr: click's
        usage errors and ``UsageError`` exit 2, other ``CtxoptError``s their
        ``exit_code``, Ctrl-C 130. Never a traceback for an expected error. No command at
        all prints the help on stderr and exits 2, as click does."""
        run = super().main
        if not standalone_mode:
            return run(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            status = run(args, prog_name, complete_var, standalone_mode=False, **extra)
            sys.stdout.flush()  # here: a failure at the interpreter's own flush is a traceback
        except click.exceptions.NoArgsIsHelpError as exc:  # no command: the help itself
            exc.show()
            sys.exit(exc.exit_code)
        except click.ClickException as exc:  # click.UsageError and its subclasses
            where = _from_config_file(exc)
            if where is not None:  # as the file's other bad values: FILE:LINE: key ...
                _fail(f"{where}: {exc.message}", exc.exit_code)
            _fail(exc.format_message() + _from_environment(exc) + _misplaced(exc),
                  exc.exit_code, getattr(exc, "ctx", None))
        except CtxoptError as exc:
            _fail(str(exc), exc.exit_code)
        except (Interrupted, click.Abort):
            click.echo("ctxopt: interrupted", err=True)
            sys.exit(ExitStatus.INTERRUPTED)
        except OSError as exc:
            if exc.errno not in _WRITE_ERRORS:
                raise  # (not a failed write of the output: a bug, not to be relabelled)
            _drop_stdout()
            _fail(f"cannot write the output: {exc.strerror or exc}", ExitStatus.FAILURE)
        sys.exit(status if isinstance(status, int) else ExitStatus.OK)


# What a write of the output fails with: a full disk or quota, a file too large, an I/O error.
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _drop_stdout() -> None:
    """Point standard output at the null device: what could not be written is not tried
    again when the interpreter exits (Python's advice for a closed pipe: the "signal"
    module documentation, note on SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _misplaced(exc: click.ClickException) -> str:
    """`` (it goes before the command: ctxopt -q gather ...)`` when ``exc`` is an unknown
    option of a command that is an option of the group (``ctxopt gather TASK -q``), else
    ``""``."""
    ctx = getattr(exc, "ctx", None)
    if not isinstance(exc, click.NoSuchOption) or ctx is None or ctx.parent is None:
        return ""
    group = ctx.parent.command
    if not any(exc.option_name in p.opts for p in group.params):
        return ""
    return f" (it goes before the command: {ctx.parent.command_path} {exc.option_name} {ctx.info_name} ...)"


def _from_environment(exc: click.ClickException) -> str:
    """`` (from CTXOPT_BUDGET)`` when ``exc`` is a bad value that came from an environment
    variable, not from the command line the message names it by; else ``""``."""
    param, ctx = getattr(exc, "param", None), getattr(exc, "ctx", None)
    if not isinstance(exc, click.BadParameter) or param is None or ctx is None \
            or param.name is None:
        return ""
    if ctx.get_parameter_source(param.name) is not ParameterSource.ENVIRONMENT:
        return ""
    names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar or ())
    set_names = [name for name in names if name in os.environ]
    return f" (from {set_names[0]})" if set_names else " (from the environment)"


def _from_config_file(exc: click.ClickException) -> str | None:
    """``FILE:LINE: key`` when ``exc`` is a bad value that came from the configuration
    file (trial 38: ``index = "/nonexistent/x.db"`` was "Invalid value for '--index'", an
    option the user never gave), else None (``commands.config_file_source``)."""
    param, ctx = getattr(exc, "param", None), getattr(exc, "ctx", None)
    if not isinstance(exc, click.BadParameter) or param is None or ctx is None \
            or param.name is None:
        return None
    return config_file_source(ctx, param.name)


def _fail(message: str, code: int, ctx: click.Context | None = None) -> None:
    """Print ``message`` as one ``Error:`` line on stderr (with where to find help, for
    a usage error) and exit with ``code``."""
    text = display_text(" ".join(message.split()))  # a name that is not UTF-8 as \xHH
    if ctx is not None and ctx.command.get_help_option(ctx) is not None:
        text += f" (see '{ctx.command_path} --help')"
    click.echo(f"Error: {text}", err=True)
    sys.exit(code)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(version_text())
        ctx.exit()


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show the versions of ctxopt, tree-sitter and "
                                             "the grammar pack, and exit.")
@click.option("-q", "--quiet", is_flag=True, help="No diagnostics on stderr (errors still).")
@click.pass_context
def main(ctx: click.Context, quiet: bool) -> None:
    """ctxopt: the most relevant code for a task, fitted to a token budget.

    Settings come from the command line, then CTXOPT_* environment variables, then
    .ctxopt.toml or [tool.ctxopt] in pyproject.toml (found from --root when it is given,
    else from the working directory, upwards), then the defaults: see `ctxopt config`."""
    try:
        os.getcwd()  # config, relative paths and git all read it
    except FileNotFoundError:
        raise UsageError("the current directory no longer exists (it was removed): "
                         "cd to one that does") from None
    if ctx.invoked_subcommand not in _WITHOUT_CACHE and not _asks_for_help(ctx.meta[_ARGS]):
        check_cache_dir_environment()
    apply_config(ctx)  # a malformed file raises ConfigError: exit 2


def _index_options(function):
    """The options that say where and how the persistent index is kept
    (``commands.index_options``), and those that change what is indexed."""
    function = index_options(function)
    function = click.option(
        "--allow-secrets", is_flag=True, default=False,
        help="Index and emit credential files and text that looks like secrets "
             "(off: skipped or redacted).")(function)
    function = click.option(
        "--submodules", is_flag=True, default=False,
        help="Index submodules and nested repositories too.")(function)
    function = click.option(
        "--parse-cache", metavar="DIR|off", default=None, envvar=CACHE_ENV,
        callback=_check_parse_cache,
        help="Directory of the parse cache shared by checkouts (off: none).  "
             "[default: the user cache directory]")(function)
    return function


def _check_parse_cache(_ctx: click.Context, _param: click.Parameter,
                       value: str | None) -> str | None:
    """``--parse-cache`` (from the command line, ``$CTXOPT_PARSE_CACHE`` or the
    configuration file): ``off``, or a directory, made when missing; else
    ``click.BadParameter`` (exit 2), before any work (``commands.parse_cache_problem``)."""
    problem = parse_cache_problem(value)
    if problem is not None:
        raise click.BadParameter(problem)
    return value


def _open_index(root: Path, index_path: Path | None, jobs: int | None,
                max_file_size: int, hygiene: HygieneConfig, parse_cache: str | None
                ) -> tuple[StoredIndex, UpdateReport]:
    """Update and open the persistent index, with a progress bar when stderr is a terminal,
    and print the index's note (e.g. a read-only root) on stderr."""
    with indexing_progress() as feedback:
        options = IndexOptions(path=index_path, jobs=jobs, max_file_bytes=max_file_size,
                               progress=feedback.progress, listed=feedback.listed,
                               notify=note, hygiene=hygiene, parse_cache=parse_cache or True)
        return open_index(root, options)


@main.command(cls=TaskCommand)
@click.argument("task", required=False)
@TASK_FILE_OPTION
@ROOT_OPTION
@click.option("--budget", type=Whole(min=1), default=DEFAULT_BUDGET, show_default=True,
              envvar="CTXOPT_BUDGET",
              help="Most tokens (cl100k_base) the text output may use, header included.")
@click.option("--format", "output_format", type=click.Choice(sorted(RENDERERS)),
              default="text", show_default=True, help="Output format.")
@MAX_RING_OPTION
@TESTS_OPTION
@SCOPE_OPTION
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              default=None, help="Write to FILE instead of standard output (- is standard "
                                 "output; a link is written through).")
@click.option("--window", type=int, default=None,
              help="The model's context window in tokens: budget = window - reserve "
                   "(instead of --budget).")
@click.option("--reserve", type=int, default=None,
              help="Tokens of the --window kept free for the answer.  [default: 0]")
@click.option("--model", type=str, default=None, envvar="CTXOPT_MODEL",
              help="Count tokens scaled by the factor `ctxopt calibrate` stored for MODEL.")
@click.option("--budget-from-policy", is_flag=True, default=False,
              help="Use as budget what one tool result may take: a third of --window minus "
                   "--reserve (at least 512).")
@click.option("--explain", is_flag=True, default=False,
              help="After the context, one line per candidate of the walker (score, ring, "
                   "reason) and what the fitter did with it: on standard error, or under "
                   "the key explain in JSON.")
@_index_options
def gather_command(task: str | None, task_file: Path | None, root: Path, budget: int,
                   output_format: str, max_ring: int,
                   tests: bool, scope: str | None, output: str | None, window: int | None,
                   reserve: int | None, model: str | None, budget_from_policy: bool,
                   explain: bool,
                   allow_secrets: bool, submodules: bool, parse_timeout: float,
                   index_path: Path | None, jobs: int | None, max_file_size: int,
                   exclude: tuple[str, ...], parse_cache: str | None) -> None:
    """Print the code most relevant to TASK, fitted to the token budget.

    TASK - reads the task from standard input. A TASK that starts with a dash and has a
    space is the task, never an option; put any other one after -- (ctxopt gather -- -v).
    """
    task = read_task(task, task_file)
    target = output_target(output, root=root, inputs=(task_file,))
    budget = _gather_budget(budget, window, reserve, budget_from_policy)
    counter = _model_counter(Cl100kCounter(), model)
    config = GatherConfig(budget=budget, max_ring=max_ring, include_tests=tests,
                          scope=scope, calibrated_for=model.strip() if model is not None
                          and isinstance(counter, Calibrated) else None, hygiene=HygieneConfig(
                              allow_secrets=allow_secrets, submodules=submodules,
                              parse_timeout=parse_timeout, exclude=exclude))
    with indexing_progress() as feedback:
        options = IndexOptions(path=index_path, jobs=jobs, max_file_bytes=max_file_size,
                               progress=feedback.progress, listed=feedback.listed,
                               notify=note, parse_cache=parse_cache or True)
        prepared = prepare(root, task, config, counter=counter, index_options=options)
    result = fit_prepared(prepared, config.budget, explain=explain)
    summary = _diagnostic_summary(result.diagnostics)
    if not result.selection.blocks and not result.selection.excluded:
        if summary and not quiet():  # (files skipped may be why: too large, minified)
            click.echo(summary, err=True)
        exit_nothing_found(task, root, why_nothing_found(root, result))
    text = RENDERERS[output_format](result, counter.count)
    if output_format == "text" and summary and not quiet():
        click.echo(summary, err=True)
    left_out = named_files_left_out(root, result)
    if output_format == "text" and left_out and not quiet():
        click.echo(display_text("ctxopt: the task names a file that is not shown: "
                                + "; ".join(left_out)), err=True)
    emit(text, target, output)
    if result.explained is not None and output_format != "json":
        from .explain import render_explain_text  # off the counted context: stderr

        click.echo(render_explain_text(result.explained), nl=False, err=True)


gather_command.name = "gather"
main.add_command(gather_command, "gather")


def _gather_budget(budget: int, window: int | None, reserve: int | None,
                   budget_from_policy: bool) -> int:
    """The token budget of ``gather`` from ``--budget``, ``--window``/``--reserve`` and
    ``--budget-from-policy``. Raises ``BudgetError`` for a combination that conflicts."""
    # a budget from the environment or the configuration file gives way to --window
    given = click.get_current_context().get_parameter_source("budget")
    budget = choose_budget(budget=budget if given is ParameterSource.COMMANDLINE else None,
                           window=window, reserve=reserve, default=budget)
    if budget_from_policy:
        from .transcript.policy import result_budget

        if window is None:
            raise BudgetError("--budget-from-policy needs --window: the budget is a third "
                              "of the window minus the reserve")
        budget = result_budget(budget)
    return budget


def _diagnostic_summary(diagnostics: tuple[Diagnostic, ...]) -> str | None:
    """The stderr line counting skipped or degraded files by reason, or None.

    Binary files (images, archives) and lock files (``Cargo.lock``, ``yarn.lock``) are
    skipped on every run of most repositories, so alone they say nothing worth a line;
    next to other reasons they get a short clause. Every count is named by its reason,
    as ``ctxopt index`` and the README's table name it (a lock file is ``generated``).
    A damaged index, rebuilt, is no file: a line of its own says so (trial 37: "skipped or
    degraded files: 1 damaged index" counted it among the source files).
    """
    # (the index's own damage is no file's: its note, made when it was rebuilt, says so)
    reasons = Counter(d.reason for d in diagnostics
                      if not _is_lock_file(d) and d.reason != REASON_DAMAGED_INDEX)
    locks = sum(1 for d in diagnostics if _is_lock_file(d))
    binary = reasons.pop(REASON_BINARY, 0)
    if not reasons:
        return None
    if REASON_GENERATED in reasons:  # other generated files: one count for the reason
        reasons[REASON_GENERATED] += locks
        locks = 0
    routine = [f"{n} {what}" for n, what in ((binary, REASON_BINARY),
                                             (locks, REASON_GENERATED)) if n]
    summary = ", ".join(f"{n} {reason}" for reason, n in sorted(reasons.items()))
    also = f" (and {', '.join(routine)})" if routine else ""
    return f"ctxopt: skipped or degraded files: {summary}{also}"


def _is_lock_file(diagnostic: Diagnostic) -> bool:
    return diagnostic.reason == REASON_GENERATED and diagnostic.detail == "lock file"


def _calibration_store() -> CalibrationStore:
    """The user's calibration file (in ``calibration.user_config_dir``)."""
    return CalibrationStore(user_config_dir())


def _model_counter(base: TokenCounter, model: str | None) -> TokenCounter:
    """``base``, scaled by ``model``'s stored calibration factor when there is one."""
    if model is None:
        return base
    if not model.strip():
        raise BudgetError("the model name is empty")
    factor, problem = _calibration_store().factor(model.strip())
    if problem is not None:
        note(f"{problem}; counting without calibration")
    elif factor is None:
        note(f"no calibration stored for model {model.strip()!r}; counting "
             "cl100k_base tokens (see `ctxopt calibrate`)")
    return base if factor is None else Calibrated(base, factor=factor)


@main.command("tokens")
@click.argument("paths", nargs=-1, type=str)
@click.option("--estimate", is_flag=True,
              help="Fast estimate (about 4 characters a token) instead of exact cl100k_base.")
@click.option("--model", type=str, default=None, envvar="CTXOPT_MODEL",
              help="Scale the count by the factor `ctxopt calibrate` stored for MODEL.")
@click.option("--messages", is_flag=True,
              help="PATH is a transcript (JSON): print its system, tools, conversation and "
                   "total tokens.")
def tokens_command(paths: tuple[str, ...], estimate: bool, model: str | None,
                   messages: bool) -> None:
    """Print the token count of each PATH, or of standard input (no PATH, or -).

    One input prints its count; several print `COUNT<TAB>PATH` lines and a total. Text is
    read as the index reads a file (a BOM decides UTF-16 or UTF-32); a binary input or
    one that is not a regular file (a FIFO, socket or device) is not counted, and a line
    on stderr says so. Exit 1 when nothing is counted.
    """
    if messages:
        _transcript_usage(paths, estimate, model)
        return
    inputs = paths or ("-",)
    texts: list[tuple[str, str]] = []
    for path in inputs:
        special = None if path == "-" else special_file(Path(path), path)
        if special is not None:  # as the index and `ctxopt tags`: a FIFO is never opened
            note(f"no count for {path}: {special.reason}")
            continue
        try:
            data = (standard_input("name the files to count").read() if path == "-"
                    else Path(path).read_bytes())
        except OSError as exc:
            raise UsageError(f"cannot read {path!r}: {exc.strerror or exc}") from exc
        if looks_binary(data):  # the index's rule: a NUL or many control bytes
            note(f"no count for {path}: {REASON_BINARY}")  # note escapes the path
        else:
            texts.append((path, decode_text(data).text))
    if not texts:
        sys.exit(ExitStatus.NOTHING_FOUND)
    counter = _model_counter(EstimatingCounter() if estimate else Cl100kCounter(), model)
    counts = [(counter.count(text), path) for path, text in texts]
    if len(inputs) == 1:
        click.echo(counts[0][0])
        return
    for count, path in counts:
        click.echo(f"{count}\t{display_text(path)}")  # \xHH like gather's paths
    click.echo(f"{sum(count for count, _ in counts)}\ttotal")


def _transcript_usage(paths: tuple[str, ...], estimate: bool, model: str | None) -> None:
    from .transcript.command import usage_lines, usage_of

    if len(paths) != 1 or paths[0] == "-":
        raise UsageError("--messages takes exactly one transcript file")
    counter = _model_counter(EstimatingCounter() if estimate else Cl100kCounter(), model)
    click.echo(usage_lines(usage_of(paths[0], counter, model)), nl=False)


@main.command("compact")
@click.argument("transcript", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write the compacted transcript here (default: standard output).")
@click.option("--window", type=int, required=True, help="The model's context window, in tokens.")
@click.option("--reserve", type=int, default=0, show_default=True,
              help="Tokens kept free for the answer.")
@click.option("--trigger-percent", type=float, default=100, show_default=True,
              help="Compact at or above this percent of the budget (window - reserve).")
@click.option("--target-percent", type=float, default=None,
              help="Compact down to this percent of the budget  [default: 10].")
@click.option("--target-tokens", type=int, default=None, help="...or down to this many tokens.")
@click.option("--recent-tail", type=int, default=8, show_default=True,
              help="At most this many recent units (a call with its results, or a message).")
@click.option("--preserve", multiple=True, metavar="TOOL",
              help="Always keep the calls and results of TOOL (repeatable).")
@click.option("--summarizer-cmd", type=str, default=None, metavar="CMD",
              help="Run CMD with the dropped messages as JSON on stdin; its stdout is the "
                   "summary (the offline summary if it fails).")
@click.option("--summarizer-timeout", type=SECONDS, default=60.0,
              show_default=True, help="Seconds the summarizer command may take.")
@click.option("--model", type=str, default=None,
              help="Price images for MODEL's family and apply its stored calibration.")
@click.option("--estimate", is_flag=True, help="Count about 4 characters a token.")
@click.option("--format", "output_format", type=click.Choice(["json", "text"]), default="json",
              show_default=True)
def compact_command(transcript: str, output: str | None, window: int, reserve: int,
                    trigger_percent: float, target_percent: float | None,
                    target_tokens: int | None, recent_tail: int, preserve: tuple[str, ...],
                    summarizer_cmd: str | None, summarizer_timeout: float, model: str | None,
                    estimate: bool, output_format: str) -> None:
    """Compact an agent TRANSCRIPT (OpenAI or Anthropic JSON) to fit the window."""
    from .transcript.command import compact_file, render_transcript, report_line

    target = output_target(output, inputs=(Path(transcript),))
    counter = _model_counter(EstimatingCounter() if estimate else Cl100kCounter(), model)
    result = compact_file(
        transcript, window=window, reserve=reserve, trigger_percent=trigger_percent,
        target_percent=target_percent, target_tokens=target_tokens,
        recent_tail=recent_tail, preserve=preserve, summarizer_cmd=summarizer_cmd,
        summarizer_timeout=summarizer_timeout, counter=counter, model=model)
    text = (json.dumps(result.transcript.to_document(), indent=1, ensure_ascii=False) + "\n"
            if output_format == "json" else render_transcript(result.transcript))
    emit(text, target, output)
    click.echo(display_text(report_line(result)), err=True)


@main.command("calibrate")
@click.option("--model", type=str, required=True, help="The model's name, as you pass it to --model.")
@click.option("--estimated", type=Whole(min=1), required=True,
              help="The token count ctxopt reported for a text (with --model MODEL).")
@click.option("--actual", type=Whole(min=1), required=True,
              help="The token count MODEL's own tokenizer reported for the same text.")
def calibrate_command(model: str, estimated: int, actual: int) -> None:
    """Learn MODEL's token-count correction factor from one measurement and store it."""
    store = _calibration_store()
    if not model.strip():
        raise BudgetError("the model name is empty")
    previous, observations, _ = store.entry(model.strip())
    counter = Calibrated(Cl100kCounter(), factor=1.0 if previous is None else previous,
                         observations=observations)
    factor = counter.observe(estimated, actual)
    repaired = store.save(model.strip(), factor)
    if repaired is not None:
        note(f"{repaired}; started a new calibration file")
    click.echo(f"{model.strip()}: factor {counter.factor:.4f} "
               f"(was {1.0 if previous is None else previous:.4f}), "
               f"stored in {display_text(str(store.path))}")


@main.command("tags")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True, help="Output format.")
@file_rule_options
def tags_command(paths: tuple[Path, ...], output_format: str, max_file_size: int,
                 parse_timeout: float, exclude: tuple[str, ...]) -> None:
    """Show the definitions and references the indexer finds in PATHS (files or
    directories), like `ctags -x`. Files in unsupported languages are skipped, and so
    are those the index skips (binary, secret, too large...): for a file named in PATHS
    that gives no tag (those, an empty file, one that defines and references nothing) a
    line on stderr says why. Exit 1 when no tag is shown because of that."""
    from .tags import TAG_RENDERERS, collect_tags

    skipped: list[Diagnostic] = []
    records = collect_tags(list(paths), cwd=Path.cwd(), skipped=skipped,
                           max_file_bytes=max_file_size,
                           hygiene=HygieneConfig(parse_timeout=parse_timeout, exclude=exclude))
    for diagnostic in skipped:
        detail = f" ({diagnostic.detail})" if diagnostic.detail else ""
        note(f"no tags for {diagnostic.path}: {diagnostic.reason}{detail}")
    click.echo(TAG_RENDERERS[output_format](records), nl=False)
    if skipped and not records:
        sys.exit(ExitStatus.NOTHING_FOUND)


@main.command("index")
@ROOT_OPTION
@click.option("--format", "output_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True, help="Output format.")
@_index_options
def index_command(root: Path, output_format: str, index_path: Path | None, jobs: int | None,
                  max_file_size: int, allow_secrets: bool, submodules: bool,
                  parse_timeout: float, exclude: tuple[str, ...], parse_cache: str | None) -> None:
    """Build or update the persistent index of ROOT and print what it holds (with the
    options a gather would use, so that the gather finds it current)."""
    index, report = _open_index(root, index_path, jobs, max_file_size, HygieneConfig(
        allow_secrets=allow_secrets, submodules=submodules, parse_timeout=parse_timeout,
        exclude=exclude), parse_cache)
    with index:
        # (an index of no file is not kept, ``StoredIndex.close``: trial 39's link loops
        # printed a path where no index was left, as an empty directory did)
        kept = index.made is None or bool(index.files)
        summary = {"index": display_text(report.path), "kept": kept, **index.summary(),
                   "skipped": report.skipped, "scanned": report.scanned,
                   "parsed": report.parsed, "removed": report.removed,
                   "rebuilt": report.rebuilt, "seconds": round(report.seconds, 3),
                   "parse_cache": {"directory": display_text(report.cache) or None,
                                   "hits": report.cache_hits, "misses": report.cache_misses},
                   "diagnostics": [{"file": display_text(d.path), "reason": d.reason,
                                    "detail": display_text(d.detail)} for d in index.diagnostics]}
    if output_format == "json":
        click.echo(render_index_json(summary), nl=False)
        return
    languages = ", ".join(f"{n} {lang}" for lang, n in summary["languages"].items())
    unparsed = summary["files"] - sum(summary["languages"].values())
    if unparsed:  # (trial 19: 65 files, 53 typescript, and no word of the other 12)
        languages += f"{', ' if languages else ''}{unparsed} in no supported language"
    skipped = ", ".join(f"{n} {reason}" for reason, n in summary["skipped"].items()) or "none"
    edges = ", ".join(f"{n} {kind}" for kind, n in summary["edges"].items())
    where = summary["index"] if kept else f"none (no file to index; {summary['index']} not kept)"
    click.echo(f"index: {where}\n"
               f"files: {summary['files']}{f' ({languages})' if languages else ''}\n"
               f"definitions: {summary['definitions']}\n"
               f"references: {summary['references']} (resolved to edges when queried)\n"
               f"edges: {edges}\n"
               f"skipped: {skipped}\n"
               + _skipped_files(summary["diagnostics"]) +
               f"updated: {report.scanned} read, {report.parsed} parsed, "
               f"{report.removed} removed{' (rebuilt)' if report.rebuilt else ''} "
               f"in {report.seconds:.2f} s" + (
                   f"\nparse cache: {counted(report.cache_hits, 'hit')}, "
                   f"{counted(report.cache_misses, 'miss', 'misses')} "
                   f"({summary['parse_cache']['directory']})" if report.cache else ""))


def _skipped_files(diagnostics: list[dict[str, str]], most: int = SKIPPED_LISTED) -> str:
    """The lines of ``ctxopt index`` naming the files skipped or degraded (``diagnostics``
    of its JSON), each indented under the ``skipped:`` count: the first ``most`` by path,
    then how many more (binary and lock files, skipped in most repositories, last)."""
    files = [d for d in diagnostics if d["reason"] != REASON_DAMAGED_INDEX]  # (its own note)
    ordered = sorted(files, key=lambda d: d["reason"] == REASON_BINARY or (
        d["reason"] == REASON_GENERATED and d["detail"] == "lock file"))  # stable: by path
    lines = [f"  {d['file']} ({d['reason']}{': ' + d['detail'] if d['detail'] else ''})\n"
             for d in ordered[:most]]
    if len(ordered) > most:
        lines.append(f"  ... {len(ordered) - most} more (--format json lists them all)\n")
    return "".join(lines)


@main.command("schema")
@click.argument("name", type=click.Choice(sorted(SCHEMAS)), default="gather")
def schema_command(name: str) -> None:
    """Print the JSON Schema (draft 2020-12) of a JSON output: gather (`gather --format
    json`, and the structured result of the MCP tool gather), diff, index or tags (their
    `--format json`)."""
    click.echo(json.dumps(load_schema(name), indent=2, ensure_ascii=False))


for _command in (*COMMANDS, curve_command):
    main.add_command(_command)
