"""The commands users reach ctxopt through from other tools: ``mcp`` (agents and editors),
``config`` (the effective settings), ``snapshot`` and ``diff`` (CI); and the group-level
pieces they share: the configuration file as click's ``default_map``, ``--quiet``,
``--version`` and colour. ``cli`` registers them on its group.
"""
from __future__ import annotations

import codecs
import errno
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from . import __version__
from .config import SETTINGS, ConfigFile, load_config
from .errors import CtxoptError, IndexStoreError, NotAnIndexError
from .files.safety import read_regular
from .files.text import display_text

__all__ = ["RootPath", "apply_config", "config_from_root", "root_or_repository", "quiet", "version_text",
           "use_colour", "announce_root", "exclude_option", "file_rule_options", "index_options", "SECONDS", "Whole", "Boolean", "COMMANDS", "ROOT_OPTION", "MAX_RING_OPTION",
           "TESTS_OPTION", "SCOPE_OPTION", "parse_cache_problem", "check_parse_cache_environment",
           "check_cache_dir_environment", "directory_problem"]

_CONFIG_KEY = "ctxopt.config"


class _Seconds(click.ParamType):
    """A positive, finite number of seconds. click's ``FloatRange`` lets ``nan`` through
    (every comparison with it is false) and ``inf``, which no timeout can wait for."""

    name = "seconds"

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        number = click.FLOAT.convert(value, param, ctx)
        if not (math.isfinite(number) and number > 0):
            self.fail(f"{value!r} is not a positive number of seconds", param, ctx)
        return number


SECONDS = _Seconds()


class Whole(click.IntRange):
    """click's ``IntRange`` (``Whole(min=1)``, ``Whole(0, 4)``) named ``integer``: its own
    name made ``--budget abc`` say "'abc' is not a valid integer range" to a user who
    gave no range."""

    name = "integer"


class Boolean(click.types.BoolParamType):
    """click's boolean, whose error lists the words it takes without the empty one: click
    8.2 said "Recognized values: , 0, 1, f, ..." with a blank first value (trial 16)."""

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            words = sorted(word for word in getattr(self, "bool_states", {}) if word)
            self.fail(f"{value!r} is not a valid boolean. Recognized values: "
                      f"{', '.join(words) or 'true, false'}", param, ctx)


def apply_config(ctx: click.Context) -> None:
    """Load the configuration file found from the working directory into
    ``ctx.default_map`` (below the command line and the environment, click's order).

    Raises ``errors.ConfigError`` (exit 2) for a malformed file."""
    found = load_config(Path.cwd())
    ctx.meta[_CONFIG_KEY] = found
    if found is not None:
        ctx.default_map = found.default_map()


def config_from_root(ctx: click.Context, _param: click.Parameter | None,
                     root: Path | None) -> Path | None:
    """The callback of an eager ``--root``: when ``--root`` is given on the command line,
    the command takes its settings from the configuration file found from that root (as
    ``apply_config`` finds one from the working directory), so that ``ctxopt gather
    --root ../other`` uses ``../other``'s settings. Returns ``root`` unchanged.

    Raises ``errors.ConfigError`` (exit 2) for a malformed file."""
    if root is None or ctx.get_parameter_source("root") is not ParameterSource.COMMANDLINE:
        return root
    found = load_config(root)
    ctx.find_root().meta[_CONFIG_KEY] = found
    ctx.default_map = found.default_map().get(ctx.info_name or "") if found else None
    return root


def config_file_source(ctx: click.Context, param_name: str) -> str | None:
    """``FILE:LINE: key`` when the value of ``ctx``'s parameter ``param_name`` came from
    the configuration file (click's ``default_map``), else None: a value the file gave is
    named by its place there, as ``load_config`` names one it rejects itself."""
    if ctx.get_parameter_source(param_name) is not ParameterSource.DEFAULT_MAP:
        return None
    found: ConfigFile | None = ctx.find_root().meta.get(_CONFIG_KEY)
    key = next((s.key for s in SETTINGS if s.param == param_name), None)
    if found is None or key is None:
        return None
    return f"{found.where(key)}: {key}"


def quiet() -> bool:
    """True when ``--quiet`` was given: diagnostics on stderr are silenced (errors are not)."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.find_root().params.get("quiet"))


def use_colour() -> bool | None:
    """click's ``color`` argument: False when ``NO_COLOR`` is set (https://no-color.org),
    else None (click keeps colours only on a terminal)."""
    return False if os.environ.get("NO_COLOR") else None


def version_text() -> str:
    """``ctxopt VERSION (tree-sitter V, tree-sitter-language-pack V, Python V)``."""
    from importlib import metadata  # only here: it costs a tenth of a gather's start

    def installed(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "not installed"

    python = ".".join(map(str, sys.version_info[:3]))
    return (f"ctxopt {__version__} (tree-sitter {installed('tree-sitter')}, "
            f"tree-sitter-language-pack {installed('tree-sitter-language-pack')}, "
            f"Python {python})")


def exclude_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--exclude PATTERN`` (repeatable; env ``CTXOPT_EXCLUDE``, whitespace-separated)."""
    return click.option(
        "--exclude", multiple=True, metavar="PATTERN", envvar="CTXOPT_EXCLUDE",
        help="Never index files matching this gitignore-style pattern (repeatable).")(function)


# --- ctxopt config ----------------------------------------------------------------------

def _source(ctx: click.Context, name: str, envvar: str, found: ConfigFile | None) -> str:
    source = ctx.get_parameter_source(name)
    if source is ParameterSource.ENVIRONMENT:
        return f"environment {envvar}"
    if source is ParameterSource.DEFAULT_MAP and found is not None:
        return f"file {found.path}"
    return "default"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(f'"{v}"' for v in value) + "]"
    if value is None:
        return "(unset)"
    if isinstance(value, (int, float)):
        return str(value)
    return f'"{value}"'


@click.command("config")
@click.pass_context
def config_command(ctx: click.Context) -> None:
    """Print the effective settings and where each comes from (the command line is not
    consulted: environment, configuration file, default)."""
    root = ctx.find_root()
    found: ConfigFile | None = root.meta.get(_CONFIG_KEY)
    lines = [f"# configuration file: {found.path if found else 'none found from ' + str(Path.cwd())}"]
    for setting in SETTINGS:
        command = root.command.commands[setting.commands[0]]  # type: ignore[attr-defined]
        with command.make_context(setting.commands[0], [], parent=root,
                                  resilient_parsing=True) as sub:
            value = sub.params.get(setting.param)
            where = _source(sub, setting.param, setting.envvar, found)
            if where.startswith("environment"):
                # (resilient parsing left a bad value unset: convert it as the command
                # would, so that it fails as there, exit 2)
                param = next(p for p in command.params if p.name == setting.param)
                value = param.process_value(sub, param.value_from_envvar(sub))
        lines.append(f"{setting.key} = {_shown(value)}\t# {where}")
    click.echo("\n".join(lines))  # (nothing when a setting fails)


COMMANDS: list[click.Command] = [config_command]


def file_rule_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The options that say which files are indexed and parsed: ``--max-file-size``,
    ``--parse-timeout`` and ``--exclude`` (the index's commands, and ``tags``, which
    reads files as the index does)."""
    from .discover import MAX_FILE_BYTES
    from .files.safety import DEFAULT_PARSE_TIMEOUT

    function = click.option(
        "--max-file-size", type=Whole(min=1), default=MAX_FILE_BYTES,
        envvar="CTXOPT_MAX_FILE_SIZE", show_default=True,
        help="Skip files larger than this many bytes.")(function)
    function = click.option(
        "--parse-timeout", type=SECONDS, default=DEFAULT_PARSE_TIMEOUT, show_default=True,
        envvar="CTXOPT_PARSE_TIMEOUT",
        help="Seconds one file may take to parse before it is skipped.")(function)
    return exclude_option(function)


def _index_in_a_directory(_ctx: click.Context, _param: click.Parameter,
                          value: Path | None) -> Path | None:
    """``--index`` (or ``$CTXOPT_INDEX``, or the configuration file) in a directory that
    exists; else ``click.BadParameter`` (exit 2). A path the user names is used, never
    made: a typo in it made a whole directory tree without a word (trial 13), where ``-o``
    refuses a missing directory. (A file where a directory goes is the index's to report.)
    A file there that is not a ctxopt index is refused here too (``location.check_ours``),
    so that the error names where the path came from (review 38: ``index = "README.md"``
    in the configuration file was an error about an --index never given)."""
    from .store.location import check_ours

    if value is not None and not any(p.exists() and not p.is_dir() for p in value.parents) \
            and not value.parent.is_dir():
        raise click.BadParameter(f"directory {str(value.parent)!r} does not exist")
    if value is not None:
        try:
            check_ours(value)
        except NotAnIndexError as exc:
            raise click.BadParameter(str(exc)) from exc
        except IndexStoreError:
            pass  # (a path it cannot read: the index says why it cannot write there)
    return value


def index_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The options that say where and how the persistent index is kept, and which files
    it holds (``file_rule_options``)."""
    from .store import INDEX_ENV

    function = click.option(
        "--index", "index_path", type=click.Path(dir_okay=False, path_type=Path),
        envvar=INDEX_ENV, default=None, callback=_index_in_a_directory,
        help=f"Index database [default: ROOT/.ctxopt/index.db; env: {INDEX_ENV}].")(function)
    function = click.option(
        "--jobs", type=Whole(min=1), default=None, envvar="CTXOPT_JOBS",
        help="Worker processes for parsing [default: all cores].")(function)
    return file_rule_options(function)


def root_or_repository(ctx: click.Context, param: click.Parameter | None,
                       root: Path | None) -> Path:
    """The callback of ``ROOT_OPTION``: ``--root`` as given (with the configuration file
    found from it: ``config_from_root``), else the root of the repository around the
    current directory (``gitrepo.repository_root``), so that running from a subdirectory
    sees the whole repository and uses its one index. Outside any repository the current
    directory is the root, and a note on stderr says so (it may be a home directory;
    ``announce_root``)."""
    from .gitrepo import find_repository_root

    root = config_from_root(ctx, param, root)
    if root is not None:
        return root
    found = find_repository_root(Path.cwd())
    if found is not None:
        return found
    here = Path.cwd().resolve()
    ctx.meta[_ROOT_NOTE] = here
    return here


_ROOT_NOTE = "ctxopt.root_note"  # ctx.meta key: the root root_or_repository took from the cwd


def announce_root(files: int) -> None:
    """Print the note on the root ``root_or_repository`` took from the current directory
    (outside any repository), once, with the ``files`` the index will hold: called when
    they are listed, before any is read (``IndexOptions.listed``), so that a bad option
    parsed after ``--root`` is still one ``Error:`` line alone and a run in a home
    directory says how much it is about to read."""
    ctx = click.get_current_context(silent=True)
    here = None if ctx is None else ctx.meta.pop(_ROOT_NOTE, None)
    if here is not None:
        note(f"no git work tree or ctxopt index in {here} or above it; indexing {here} "
             f"itself, {files:,} file{'' if files == 1 else 's'} (pass --root to choose)")


class RootPath(click.Path):
    """An existing directory, as ``click.Path(exists=True, file_okay=False)``, and a path
    through a symbolic link loop said to be one (click called it a directory that does not
    exist: trial 39's `--root weird/loop1`)."""

    def __init__(self) -> None:
        super().__init__(exists=True, file_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        try:
            os.stat(value)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                self.fail(f"{self.name.title()} {display_text(os.fsdecode(value))!r} is a "
                          "symbolic link loop.", param, ctx)
        except (TypeError, ValueError):
            pass  # (click says what is wrong with it)
        return super().convert(value, param, ctx)


# The options gather, index and curve share (--task-file: gather and curve), defined once.
ROOT_OPTION = click.option(
    "--root", type=RootPath(), default=None,
    is_eager=True, callback=root_or_repository,
    help="Repository root; its configuration file is used.  [default: the repository around "
         "the current directory, found as git does]")
MAX_RING_OPTION = click.option(
    "--max-ring", type=Whole(0, 4), default=3, show_default=True,
    envvar="CTXOPT_MAX_RING", help="0: definitions only ... 4: callers of callers.")
TESTS_OPTION = click.option("--tests/--no-tests", type=Boolean(), default=True,
                            show_default=True, envvar="CTXOPT_TESTS",
                            help="Include test files.")


def _scope_under_root(ctx: click.Context, _param: click.Parameter,
                      value: str | None) -> str | None:
    """``--scope`` (from the command line, ``$CTXOPT_SCOPE`` or the configuration file)
    checked against the root (``pipeline.resolve_scope``) as click parses it, so that a bad
    one is ``click.BadParameter`` (exit 2) named by where it came from. Returned as given."""
    root = ctx.params.get("root")
    if value and isinstance(root, Path):
        from .errors import UsageError
        from .pipeline import resolve_scope

        try:
            resolve_scope(root, value)
        except UsageError as exc:
            raise click.BadParameter(str(exc).removeprefix("scope ")) from None
    return value


SCOPE_OPTION = click.option("--scope", type=str, default=None, envvar="CTXOPT_SCOPE",
                            callback=_scope_under_root,
                            help="Keep only code under this path (relative to the root).")
TASK_FILE_OPTION = click.option(
    "--task-file", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    default=None, help="Read the task from this file (- is standard input).")


def walk_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The options of a gather that ``mcp`` and ``snapshot`` share with ``gather``."""
    from .pipeline import DEFAULT_BUDGET

    for option in reversed((
        click.option("--budget", type=Whole(min=1), default=DEFAULT_BUDGET,
                     envvar="CTXOPT_BUDGET", show_default=True,
                     help="Most tokens (cl100k_base) of a gather's text output."),
        MAX_RING_OPTION,
        TESTS_OPTION,
    )):
        function = option(function)
    return index_options(function)


# --- ctxopt mcp -------------------------------------------------------------------------

@click.command("mcp")
@click.option("--root", type=RootPath(), default=None, is_eager=True, callback=config_from_root,
              help="Repository root [default: the client's first root, else the working "
                   "directory]; its configuration file is used.")
@walk_options
def mcp_command(root: Path | None, budget: int, max_ring: int, tests: bool,
                parse_timeout: float, index_path: Path | None, jobs: int | None,
                max_file_size: int, exclude: tuple[str, ...]) -> None:
    """Serve ctxopt's tools (gather, tags, index, tokens, compact) to an MCP client over
    stdio.

    The options set the defaults of the gather tool and how the index is kept; the
    parse cache is $CTXOPT_PARSE_CACHE's (default: the user cache directory)."""
    from .errors import UsageError
    from .files.safety import HygieneConfig
    from .mcp_server import ServerSettings, serve

    check_parse_cache_environment()
    if sys.stdin is None or sys.stdout is None:
        raise UsageError("the MCP server speaks over standard input and output, and one of "
                         "them is closed")
    serve(ServerSettings(root=root, index_path=index_path, jobs=jobs,
                         max_file_bytes=max_file_size, budget=budget, max_ring=max_ring,
                         include_tests=tests, hygiene=HygieneConfig(
                             parse_timeout=parse_timeout, exclude=exclude)))


COMMANDS.append(mcp_command)


# --- ctxopt snapshot / diff -------------------------------------------------------------

_MANIFEST_MARK = "# ctxopt manifest "


@click.command("snapshot")
@click.option("--tasks", "tasks_file", required=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="Tasks: one a line, or a TOML ([[task]] text, budget) or JSON list.")
@click.option("-o", "--output", "output_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("ctxopt-snapshot"), show_default=True,
              help="Directory to write one manifest per task into.")
@click.option("--root", type=RootPath(), default=".", show_default=True, is_eager=True,
              callback=config_from_root,
              help="Repository root; its configuration file is used.")
@walk_options
def snapshot_command(tasks_file: Path, output_dir: Path, root: Path, budget: int,
                     max_ring: int, tests: bool, parse_timeout: float,
                     index_path: Path | None, jobs: int | None, max_file_size: int,
                     exclude: tuple[str, ...]) -> None:
    """Write the manifest of each task of TASKS into a directory, for `ctxopt diff`.

    The index is brought up to date once; every task is gathered before anything is
    written. Manifests of earlier snapshots in the directory that no task names any more
    are removed; other files are left alone."""
    from dataclasses import replace

    from .files.safety import HygieneConfig
    from .pipeline import GatherConfig, gather
    from .render import render_manifest, task_line
    from .snapshot import manifest_name, read_tasks
    from .store import IndexOptions, open_index
    from .tokens import Cl100kCounter

    check_parse_cache_environment()
    tasks = read_tasks(tasks_file)
    hygiene = HygieneConfig(parse_timeout=parse_timeout, exclude=exclude)
    base = GatherConfig(budget=budget, max_ring=max_ring, include_tests=tests, hygiene=hygiene)
    counter = Cl100kCounter()
    options = IndexOptions(path=index_path, jobs=jobs, max_file_bytes=max_file_size,
                           hygiene=hygiene, notify=note)
    index, _ = open_index(root, options)
    written: dict[str, str] = {}
    with index:
        for task in tasks:
            config = base if task.budget is None else replace(base, budget=task.budget)
            try:
                result = gather(root, task.text, config, counter=counter, index=index)
            except CtxoptError as exc:  # (one of several tasks: say which)
                exc.args = (f"task '{task_line(task.text)}': {exc}",)
                raise
            written[manifest_name(task.text)] = render_manifest(result, counter.count)
            if not result.selection.blocks:
                note(f"nothing relevant found for {task.text!r}")
    _write_snapshot(output_dir, written)
    note(f"wrote {len(written)} manifest{'s' if len(written) != 1 else ''} to {output_dir}")


# The name ``snapshot.manifest_name`` gives a manifest: only such files of an earlier
# snapshot are removed (a manifest the user wrote there under another name is theirs).
_SNAPSHOT_NAME = re.compile(r"[a-z0-9-]+-[0-9a-f]{8}\.tsv")


def _write_snapshot(directory: Path, manifests: dict[str, str]) -> None:
    """Write ``{file name: manifest}`` into ``directory`` (created), each file atomically,
    and remove manifests of earlier snapshots that are not among them (files named as
    ``snapshot.manifest_name`` names them that hold a manifest).

    Raises ``UsageError``, before anything is written, when a file of one of those names
    exists and is not a ctxopt manifest (trial 7: a file of the user's was replaced). A
    manifest is known by its first line, not by ``-o``'s record of what ctxopt wrote
    (``cli_output``): a snapshot directory is committed and rewritten by CI jobs on fresh
    machines, which hold no record."""
    from .errors import UsageError

    for name in manifests:
        target = directory / name
        if target.exists() and not (target.is_file() and _is_manifest(target)):
            raise UsageError(f"cannot write the snapshot into {str(directory)!r}: {name} "
                             "exists and is not a ctxopt manifest; move it or choose "
                             "another directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in manifests.items():
            temporary = directory / f".{name}.tmp"
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, directory / name)
        for stale in directory.glob("*.tsv"):
            if stale.name not in manifests and _SNAPSHOT_NAME.fullmatch(stale.name) \
                    and _is_manifest(stale):
                stale.unlink()
    except OSError as exc:
        raise UsageError(f"cannot write the snapshot into {str(directory)!r}: "
                         f"{exc.strerror or exc}") from exc


def _is_manifest(path: Path) -> bool:
    """Whether the file at ``path`` starts as a ctxopt manifest does, after a UTF-8 BOM
    (``snapshot.parse_manifest`` drops it); False: unreadable."""
    try:
        head = read_regular(path, len(_MANIFEST_MARK) + len(codecs.BOM_UTF8))
    except OSError:
        return False
    return head.removeprefix(codecs.BOM_UTF8).startswith(_MANIFEST_MARK.encode())


_STATUS_COLOURS = {"added": "green", "removed": "red", "reshown": "blue", "changed": "yellow",
                   "moved": "cyan"}


@click.command("diff")
@click.argument("old", type=click.Path(path_type=Path))
@click.argument("new", type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True, help="Output format (markdown: for a "
                                                      "pull-request comment).")
@click.option("--fail-on", "fail_on", default="", metavar="CONDITIONS",
              help="Exit 1 when any of these hold (comma-separated): added, removed, "
                   "reshown, changed, moved, tokens>N (a task's tokens grew by more than "
                   "N).")
def diff_command(old: Path, new: Path, output_format: str, fail_on: str) -> None:
    """Compare two manifests, or two snapshot directories, by file and symbol: what was
    added, removed, reshown (shown as another kind: full, signature...), changed (other
    content) or moved (same content, other lines)."""
    from .diff import compare_paths, failed_gates, parse_gates, render_diff

    gates = parse_gates(fail_on)
    diffs = compare_paths(old, new)
    text = render_diff(diffs, output_format)
    if output_format == "text":
        text = "\n".join(_coloured(line) for line in text.split("\n"))
    click.echo(text, nl=False, color=use_colour())
    failures = failed_gates(diffs, gates)
    if failures:
        click.echo(f"ctxopt: diff failed --fail-on {fail_on}: {'; '.join(failures)}", err=True)
        sys.exit(1)


def _coloured(line: str) -> str:
    word = line.strip().split(" ", 1)[0]
    if line.startswith("  ") and word in _STATUS_COLOURS:
        return line.replace(word, click.style(word, fg=_STATUS_COLOURS[word]), 1)
    return line


def parse_cache_problem(value: str | None) -> str | None:
    """Why ``value``, of ``--parse-cache`` or ``$CTXOPT_PARSE_CACHE``, cannot name the
    parse cache, or None: unset, ``off``, or a path whose nearest existing part (itself,
    else its closest existing parent) is a directory. The index goes on without a cache
    it cannot make, so a path that can never be a directory (a file, or below one) is
    refused before any work instead; whether the directory can be written is left to the
    index."""
    from .store.parsecache import OFF

    if value is None or value.strip().lower() == OFF:
        return None
    problem = directory_problem(value)
    return None if problem is None else f"{problem} (a directory or {OFF!r} expected)"


def directory_problem(value: str) -> str | None:
    """Why ``value`` can never be a directory (itself, else its closest existing parent,
    is something else), or None."""
    path = Path(os.path.expanduser(value))
    existing = next(p for p in (path, *path.parents) if os.path.lexists(p))
    return None if existing.is_dir() else f"{str(existing)!r} is not a directory"


def check_cache_dir_environment() -> None:
    """Raise ``UsageError`` (exit 2) when ``$CTXOPT_CACHE_DIR`` can never be a directory:
    the parse cache, the memo and the record of written outputs would all go without a
    word (trial 12, 13: a regular file there)."""
    from .calibration import CACHE_DIR_ENV
    from .errors import UsageError

    value = os.environ.get(CACHE_DIR_ENV)
    problem = directory_problem(value) if value else None
    if problem is not None:
        raise UsageError(f"{CACHE_DIR_ENV}: {problem} (a directory expected)")


def check_parse_cache_environment() -> None:
    """For the commands that have no ``--parse-cache`` but whose index reads
    ``$CTXOPT_PARSE_CACHE`` (mcp, snapshot, curve): raise ``UsageError`` (exit 2) when it
    cannot name the cache (``parse_cache_problem``)."""
    from .errors import UsageError
    from .store.parsecache import CACHE_ENV

    problem = parse_cache_problem(os.environ.get(CACHE_ENV))
    if problem is not None:
        raise UsageError(f"{CACHE_ENV}: {problem}")


def note(text: str) -> None:
    """A diagnostic line on stderr (``ctxopt: ...``), silenced by ``--quiet``; a name that
    is not UTF-8 (the root's, a file's) is shown as ``\\xHH``."""
    if not quiet():
        click.echo(f"ctxopt: {display_text(text)}", err=True)


COMMANDS += [snapshot_command, diff_command]
