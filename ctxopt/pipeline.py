"""The gather pipeline: the only place that knows the order of the stages.

task parser -> indexer -> ring walker -> source reader -> budget fitter -> (renderers)
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NoReturn

from .contract import origin_of
from .errors import BudgetTooSmall, BudgetTooSmallForContent, IndexMovedAside, UsageError
from .files.redaction import clean_blocks
from .files.safety import HygieneConfig
from .files.text import display_lines, display_text, without_invisible
from .fit import PlanStep, TextPlan, plan_steps
from .graph.view import IndexView
from .lexical import query_terms
from .model import Block, Diagnostic, Item, Result, Selection
from .render import Layout, render_header
from .seeds import built_from, callers_code, files_named, in_repository, place_file
from .source import read_blocks
from .store import IndexOptions, StoredIndex, open_index
from .task import ParsedTask, is_path_symbol, limit_task, parse_task
from .tokens import Cl100kCounter, TokenCounter
from .walk import WalkConfig, outermost_tests, walk_rings

__all__ = ["DEFAULT_BUDGET", "GatherConfig", "Prepared", "fit_prepared", "gather", "prepare",
           "resolve_scope", "why_nothing_found", "named_files_left_out", "lines_past_the_end"]

DEFAULT_BUDGET = 12000
# Most rounds of counting the header at the budget it asks for (a fixed point in a few).
_HEADER_ROUNDS = 10


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
    hygiene: HygieneConfig = field(default_factory=HygieneConfig)
    calibrated_for: str | None = None

    def __post_init__(self) -> None:
        _check_budget(self.budget)
        if not 0 <= self.max_ring <= 4:
            raise UsageError(f"max_ring must be between 0 and 4, got {self.max_ring}")


def _check_budget(budget: object) -> None:
    """Raise ``UsageError`` unless ``budget`` is a positive whole number (not a bool)."""
    if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
        raise UsageError(f"budget must be a positive integer, got {budget!r}")


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
           counter: TokenCounter | None = None, index: IndexView | StoredIndex | None = None,
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
    index : IndexView or StoredIndex, optional
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
    prepared = prepare(root, task, config, counter=counter, index=index,
                       index_options=index_options)
    return fit_prepared(prepared, config.budget)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A task walked and read, ready to be fitted to any budget (``fit_prepared``).

    ``empty``: the result with nothing selected (task, intent, diagnostics, origin, and
    ``indexed_files`` when no block was found); ``layout``: the text's token costs;
    ``blocks``: the candidate blocks; ``items``: the walker's items they were read from,
    best first (``explain``); ``steps``: the fitter's plan (``fit.plan_steps``), which
    does not depend on the budget; ``counter``: the token counter.
    """

    empty: Result
    layout: Layout
    blocks: tuple[Block, ...]
    items: tuple[Item, ...]
    steps: tuple[PlanStep, ...]
    counter: TokenCounter


def prepare(root: Path | str, task: str, config: GatherConfig | None = None, *,
            counter: TokenCounter | None = None, index: IndexView | StoredIndex | None = None,
            index_options: IndexOptions | None = None) -> Prepared:
    """Everything ``gather`` does before fitting: parse the task, bring the index up to
    date (or use ``index``), walk the rings, read and clean the blocks, plan the fit.

    Parameters and errors are ``gather``'s, but ``config.budget`` is not checked: a
    budget too small for the header fails in ``fit_prepared``, once the blocks are known,
    so that the minimum it states is one that shows a block.
    """
    config = config or GatherConfig()
    counter = counter or Cl100kCounter()
    root = Path(root)
    if not task or not task.strip():
        raise UsageError("the task is empty: say what you want to do, e.g. \"fix Storage bug\"")
    if not root.is_dir():
        raise UsageError(f"root {str(root)!r} is not a directory")
    scope = resolve_scope(root, config.scope) if config.scope else None
    # bytes that are not UTF-8 (from argv) as \xHH; a task read from a file keeps its lines;
    # searched for without the characters that only change how it looks (review 32)
    parsed, task_note = limit_task(parse_task(display_lines(without_invisible(task))))
    task = display_lines(task)
    empty = Result(task=task, intent=parsed.intent, budget=config.budget,
                   selection=Selection(blocks=()), task_note=task_note,
                   task_symbols=parsed.symbols,
                   calibrated_for=None if config.calibrated_for is None
                   else display_text(config.calibrated_for))
    layout = Layout(empty, counter.count, additive=isinstance(counter, Cl100kCounter))
    if index is None:
        options = replace(index_options or IndexOptions(), hygiene=config.hygiene)
        try:
            stored, report = open_index(root, options)
            with stored:
                return _prepare_with(root, parsed, layout, config, scope, counter, stored,
                                     report.removed_definitions)
        except IndexMovedAside as exc:  # damage a query met: moved aside, so rebuilt now
            if options.notify:
                options.notify(str(exc).replace("run again to rebuild it", "rebuilding it"))
        stored, report = open_index(root, options)
        with stored:
            return _prepare_with(root, parsed, layout, config, scope, counter, stored,
                                 report.removed_definitions)
    return _prepare_with(root, parsed, layout, config, scope, counter, index)


def fit_prepared(prepared: Prepared, budget: int, *, explain: bool = False) -> Result:
    """The result ``gather`` gives at ``budget`` tokens for a prepared task: the same
    selection, ``used`` figure and ``upcoming`` blocks; with ``explain``, also what the
    fitter did with each walker candidate (``Result.explained``, ``explain.explain``).

    Raises
    ------
    UsageError
        ``budget`` is not a positive integer.
    BudgetTooSmall
        As ``gather``: the header does not fit, or (``BudgetTooSmallForContent``) no block
        does beside it.
    """
    _check_budget(budget)
    empty = replace(prepared.empty, budget=budget)
    layout = prepared.layout.for_budget(budget)
    if layout.header_tokens(empty.selection, budget) > budget:
        header_minimum = _smallest_header_budget(empty, prepared.counter)
        if not prepared.blocks:
            raise BudgetTooSmall(budget, header_minimum)
        _raise_with_working_minimum(prepared, budget, header_minimum, None)
    if not prepared.blocks:
        return empty
    try:
        fitted = TextPlan(list(prepared.blocks), layout, steps=prepared.steps).fit(budget)
    except BudgetTooSmallForContent as exc:
        _raise_with_working_minimum(prepared, budget, exc.minimum, exc)
    result = replace(empty, selection=fitted.selection, used=fitted.used,
                     upcoming=fitted.upcoming)
    if explain:
        from .explain import explain as explained

        result = replace(result, explained=explained(prepared.items, prepared.blocks, result))
    return result


def _raise_with_working_minimum(prepared: Prepared, budget: int, start: int,
                                first: BudgetTooSmallForContent | None) -> NoReturn:
    """Raise ``BudgetTooSmallForContent`` for ``budget`` with a ``minimum`` that shows a
    block: from ``start`` (tokens), each too-small budget's own ``header + smallest
    block`` is tried in turn (the header quotes the budget, so it can grow on the way).
    The header and block figures are those at ``budget``, or at ``start`` when the
    header does not fit ``budget`` (``first`` is None); ``BudgetTooSmall`` when the
    header's own minimum ``start`` shows a block already."""
    need, told = start, first
    for _ in range(_HEADER_ROUNDS):
        layout = prepared.layout.for_budget(need)
        try:
            TextPlan(list(prepared.blocks), layout, steps=prepared.steps).fit(need)
        except BudgetTooSmallForContent as exc:
            told = told or exc
            if exc.minimum <= need:  # cannot happen: the plan's first step fits there
                break
            need = exc.minimum
            continue
        break
    if told is None:  # the header's own minimum shows a block already
        raise BudgetTooSmall(budget, need)
    raise BudgetTooSmallForContent(budget, told.header, told.smallest_block, need)


def _smallest_header_budget(empty: Result, counter: TokenCounter) -> int:
    """The smallest budget whose own header fits in it (tokens). The header quotes the
    budget and the tokens used, so its size grows with them: the count is repeated at
    the budget it asks for until it holds (a fixed point in a few rounds)."""
    need = 1
    for _ in range(_HEADER_ROUNDS):
        at = counter.count(render_header(replace(empty, budget=need), need))
        if at <= need:
            break
        need = at
    return need


def _prepare_with(root: Path, parsed: ParsedTask, layout: Layout, config: GatherConfig,
                  scope: str | None, counter: TokenCounter,
                  index: IndexView | StoredIndex,
                  removed: Mapping[str, tuple[str, ...]] | None = None) -> Prepared:
    walk_config = WalkConfig(max_ring=config.max_ring, include_tests=config.include_tests,
                             scope=scope or None)
    past = lines_past_the_end(index, parsed)
    if past:  # the header says so: a note on how the task was read, as a cut is
        noted = replace(layout.result, task_note="; ".join(
            note for note in (layout.result.task_note, *past) if note))
        layout = Layout(noted, layout.count, additive=layout.additive)
    items = walk_rings(index, parsed, walk_config)
    hidden = None if config.include_tests else (lambda path: outermost_tests(index, path)[1])
    # the rest of the files shown fills a budget the candidates leave unused; a walk
    # kept close (``max_ring`` below 3, where same-file siblings start) asked for less
    blocks = read_blocks(root, items, index, counter, terms=query_terms(in_repository(index, parsed)),
                         hidden=hidden, fill=config.max_ring >= 3)
    blocks, redacted = clean_blocks(blocks, counter, config.hygiene)
    diagnostics = tuple(sorted(
        {replace(d, path=display_text(d.path)) for d in (*index.diagnostics, *redacted)},
        key=lambda d: (d.path, d.reason, d.detail)))
    # (review 35: a file the index holds, hidden by --no-tests or written from a
    # subdirectory, was said not to exist by a look at the root's directory alone)
    # (nor is a file of the caller's own code in a stack frame: trial 21's ./src/main.rs)
    callers = callers_code(index, parsed)
    unknown = tuple(s for s in parsed.symbols if "/" in s and is_path_symbol(s)
                    and s not in callers and not files_named(index, s))
    gone = _gone_definitions(index, parsed.symbols, removed or {})
    empty = replace(layout.result, diagnostics=diagnostics, origin=origin_of(root, index),
                    indexed_files=None if blocks else len(index.files), unknown_paths=unknown,
                    gone_definitions=gone,
                    out_of_scope=_out_of_scope(index, parsed.symbols, walk_config),
                    excluded_named=_excluded_named(
                        index.excluded, (*parsed.symbols, *(path for _, path in gone))))
    steps = plan_steps(blocks, layout) if blocks else ()
    return Prepared(empty=empty, layout=layout, blocks=tuple(blocks), items=tuple(items),
                    steps=steps, counter=counter)


# How a skip reason reads after a file's name; others read "was skipped (reason)".
_SKIPPED_AS = {"excluded": "is excluded", "not checked out": "is not checked out", "submodule": "is in a submodule",
               "vendored": "is vendored", "generated": "is generated", "binary": "is binary",
               "minified": "is minified", "too large": "is too large",
               "unreadable": "is unreadable"}


def _gone_definitions(index: IndexView, symbols: tuple[str, ...],
                      removed: Mapping[str, tuple[str, ...]]) -> tuple[tuple[str, str], ...]:
    """(symbol, path) for each of the task's ``symbols`` that no definition of ``index``
    is (its qualified name, or one ending with it) and that a definition of a file the
    index's update dropped was, ``removed`` (path -> its definitions' qualified names:
    ``UpdateReport.removed_definitions``): the file was deleted since the index was made."""
    found = []
    for symbol in symbols:
        if "/" in symbol or not removed or _named_definitions(index, symbol):
            continue
        found += [(symbol, path) for path, held in removed.items()
                  if any(_names(qualified, symbol) for qualified in held)][:1]
    return tuple(found)


def _excluded_named(excluded: list[Diagnostic], named: tuple[str, ...]
                    ) -> tuple[Diagnostic, ...]:
    """The diagnostics of ``excluded`` (files ``--exclude`` or a ``.ctxoptignore`` left
    out) whose path is one of ``named`` or ends with one (``util.go`` names
    ``pkg/util.go``), paths escaped for display; ``()`` when none is."""
    names = [name for name in named if "/" in name or "." in name]
    return tuple(replace(d, path=display_text(d.path)) for d in excluded
                 if any(_names_file(d.path, name) for name in names))


def _out_of_scope(index: IndexView, symbols: tuple[str, ...], config: WalkConfig
                  ) -> tuple[tuple[str, str, str], ...]:
    """(symbol, path, scope) for each of the task's ``symbols`` whose definitions all lie
    outside ``config.scope`` (``WalkConfig.admits``), path that of the first: what the
    task names is not shown. (Trial 37: ``fix Command.Find --scope doc`` showed doc's
    callers and said nothing of command.go.)"""
    if not config.scope:
        return ()
    found = []
    for symbol in symbols:
        paths = [index.path_of(node) for node in _named_definitions(index, symbol)]
        paths = [path for path in paths if config.admits(path, scope=False)]
        if paths and not any(map(config.admits, paths)):
            found.append((symbol, paths[0], config.scope))
    return tuple(found)


def _named_definitions(index: IndexView, symbol: str) -> list[str]:
    """The definitions (node ids) a symbol of the task names: its qualified name, or one
    ending with it (``Storage.get`` names ``kv.Storage.get``); none for a path."""
    if "/" in symbol:
        return []
    return [node for node in index.definitions_named(symbol.rpartition(".")[2])
            if _names(index.definition(node).qualified_name, symbol)]


def _names(qualified: str, symbol: str) -> bool:
    return qualified == symbol or qualified.endswith("." + symbol)


def _names_file(path: str, written: str) -> bool:
    """Whether the path ``written`` in a task (a path, or its last parts) names ``path``."""
    return path == written or path.endswith("/" + written)


def why_nothing_found(root: Path, result: Result) -> str:
    """One line saying why ``result`` (a gather that selected nothing) is empty.

    Files the task names come first: skipped ones with their reason (a file inside a
    skipped directory or submodule with that directory's), empty ones as empty; then
    "no source files indexed" with the skip counts, or that nothing matched, with what
    of the task was searched when it was cut (``Result.task_note``).
    """
    notes = named_files_left_out(root, result)
    if notes:
        return "; ".join(notes)
    if result.indexed_files == 0:
        skipped = Counter(d.reason for d in result.diagnostics)
        return "no source files indexed" + (": " + ", ".join(
            f"{n} {reason}" for reason, n in sorted(skipped.items())) if skipped else "")
    # (a task cut to its first characters may hold its names further on: say so)
    return "no definition, file or keyword matched" + (f"; {result.task_note}"
                                                        if result.task_note else "")


def lines_past_the_end(index: IndexView, task: ParsedTask) -> list[str]:
    """One note for each place the task points at that starts past the end of the file
    it names (``the task points at line 99999 of main.go, which has 12 lines``: a trace
    of another version of the file), in the task's order; ``[]`` when there is none."""
    notes = []
    for reference in task.references:
        for path in place_file(index, reference):
            lines = index.line_count(path)
            # (a built file's line is none of its source's: review 35)
            if lines is not None and reference.start_line > lines \
                    and not built_from(reference.path, path):
                notes.append(f"the task points at line {reference.start_line} of "
                             f"{display_text(path)}, "
                             f"which has {lines} line{'' if lines == 1 else 's'}")
    return list(dict.fromkeys(notes))


def named_files_left_out(root: Path, result: Result) -> list[str]:
    """What became of each file the task names that the index skipped or that ``--exclude``
    or a ``.ctxoptignore`` left out (``Result.excluded_named``), that is empty or
    that does not exist, one note each (``src/db.rs is unreadable (Permission denied)``,
    ``util.go is excluded (--exclude)``, ``a.py is empty``, ``src/b.ts does not exist``), in
    the task's order, and of each symbol it names whose file was deleted since the index
    was made (``Result.gone_definitions``: ``Target.arch was in src/target.rs, which no
    longer exists``; ``WatchConfig is in viper.go, which is excluded (--exclude)`` when the
    file is there but now excluded) or that lies outside ``--scope`` (``Result.out_of_scope``: ``Command.Find is
    in command.go, outside --scope doc``); ``[]`` when every file it names was indexed
    with content."""
    notes = []
    shown = {block.path for block in result.selection.blocks}  # (a degraded one is shown)
    gone = dict(result.gone_definitions)
    excluded = {d.path: d for d in result.excluded_named}
    outside = {symbol: (path, scope) for symbol, path, scope in result.out_of_scope}
    for symbol in result.task_symbols:
        if symbol in gone:
            # (dropped from the index as excluded, not deleted: trial 38)
            skip = excluded.get(display_text(gone[symbol]))
            notes.append(f"{symbol} was in {gone[symbol]}, which no longer exists" if skip is None
                         else f"{symbol} is in {skip.path}, which {_skip_note(skip)}")
            continue
        if symbol in outside:
            path, scope = outside[symbol]
            notes.append(f"{symbol} is in {path}, outside --scope {scope}")
            continue
        if "/" not in symbol and "." not in symbol:
            continue
        skip = _skip_of(symbol, (*result.diagnostics, *result.excluded_named))
        # (a file of that name is shown: review 38's "util.go" with pkg/util.go excluded
        # and other/util.go shown was told util.go is not shown)
        if skip is not None and (skip.path in shown
                                 or any(_names_file(path, symbol) for path in shown)):
            continue
        if skip is not None:
            notes.append(f"{skip.path} {_skip_note(skip)}")
        elif _is_empty_file(root, symbol):
            notes.append(f"{symbol} is empty")
        elif symbol in result.unknown_paths and _is_missing_file(root, symbol, shown):
            notes.append(f"{symbol} does not exist")
    return list(dict.fromkeys(notes))


def _skip_note(skip: Diagnostic) -> str:
    """How a skipped file's reason reads after its name: ``is excluded (--exclude)``."""
    return (_SKIPPED_AS.get(skip.reason, f"was skipped ({skip.reason})")
            + (f" ({skip.detail})" if skip.detail and skip.reason in _SKIPPED_AS else ""))


def _skip_of(named: str, diagnostics: tuple[Diagnostic, ...]) -> Diagnostic | None:
    """The diagnostic of the file ``named`` (a path, or its last parts), or of a skipped
    directory or submodule holding it."""
    for d in diagnostics:
        if _names_file(d.path, named):
            return d
    for d in diagnostics:
        directory = d.path.rstrip("/")
        if (d.path.endswith("/") or d.reason == "submodule") and named.startswith(directory + "/"):
            return d
    return None


def _is_missing_file(root: Path, named: str, shown: set[str]) -> bool:
    """Whether ``named``, a path with directories, is no file of the root's although its
    directory is one (trial 19: ``source/utils/timeout.ts``, deleted since the index, left
    the output about other files and said nothing), and no file shown ends with it. A path
    whose directory is not the root's (``usr/lib/python3.11/json/decoder.py`` of a
    library's frame, ``app/node_modules/...``) names no file of the repository; a file
    name alone may be anywhere in it."""
    if "/" not in named or not is_path_symbol(named) or any(
            _names_file(path, named) for path in shown):
        return False
    try:
        path = root.resolve() / named
        return path.parent.is_dir() and path.parent.resolve().is_relative_to(root.resolve()) \
            and not path.exists() and not path.is_symlink()
    except (OSError, ValueError):
        return False


def _is_empty_file(root: Path, named: str) -> bool:
    try:
        path = (root / named).resolve()
        return path.is_relative_to(root.resolve()) and path.is_file() and \
            not path.read_bytes().strip()
    except (OSError, ValueError):
        return False
