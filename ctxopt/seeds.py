"""Ring 0 of the walk (pure): the definitions and files a task names, and how relevant
each definition is to the task's words.

Seeds are the definitions the task names (exact name or qualified name first, then
case-insensitive; dotted names by suffix; file paths by suffix), and with a name of two
words or more the definitions spelled with its words in another style (``find_in_map``
for ``FindInMap``). When nothing matches, keywords are matched against definition names
split into words (weighted by inverse document frequency, as in BM25) and against file
paths.
"""
from __future__ import annotations

import contextlib
import math
import re
import weakref
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from itertools import chain

from .graph.names import dotted_names
from .graph.rules import file_stem, is_benchmark_path, is_example_path, is_test_path, split_symbol
from .graph.view import IndexView
from .lexical import REPORT_WORDS, abbreviation_terms, name_words, query_terms, term_words
from .model import FOCUS_ABOVE, Definition
from .anchors import DOCUMENT_EXTENSIONS, section_lines
from .parsing.kinds import CALLABLE_KINDS, DATA_KINDS, MODULE_KINDS, TYPE_USE_KINDS
from .task import (IDENTIFIER, STOP_WORDS, ParsedTask, Reference, case_shape, is_path_symbol,
                   split_identifier)
from .walk_config import WalkConfig

__all__ = ["Seed", "WordMatches", "best_first", "callers_code", "find_seeds", "files_named", "style_twins", "twin_table",
           "in_repository", "most_relevant", "node_order", "place_file", "relevance",
           "relevance_scores"]


@dataclass(frozen=True, slots=True)
class Seed:
    """A node the task names, with how well it matches (0-1) and why."""

    node: str
    quality: float
    reason: str
    # lines to show instead of the whole definition or file (1-indexed inclusive), for a
    # place the task points at inside a long one
    lines: tuple[int, int] | None = None
    # the first line a cut block of it keeps (``Item.focus_line``), so that the line the
    # task points at stays in view; None: the definition's first line
    focus: int | None = None
    # the lines the task points at inside it (1-indexed), nearest the failure first, which
    # a cut of the seed's block keeps first (``Item.pointed_lines``)
    places: tuple[int, ...] = ()


def _specificity(matches: int) -> float:
    """1 for a unique match, falling slowly as a name gets more common."""
    return 1.0 / (1.0 + math.log(max(1, matches)))


def path_discount(path: str, config: WalkConfig, benchmarks_wanted: bool) -> float:
    """The factor a match in the file at ``path`` counts for: ``config.test_discount`` in a
    test file (``is_test_path``), ``config.benchmark_discount`` in benchmark code
    (``is_benchmark_path``) unless ``benchmarks_wanted`` (the task speaks of benchmarks:
    ``speaks_of(task, "bench")``), else 1."""
    if is_test_path(path):
        return config.test_discount
    return 1.0 if benchmarks_wanted or not is_benchmark_path(path) else config.benchmark_discount


def relevance(index: IndexView, task: ParsedTask, config: WalkConfig | None = None) -> dict[str, float]:
    """Lexical relevance of each definition to the task, in [0, 1] (1 for the best).

    A definition's BM25 score is combined with its file's (weighted by
    ``config.file_weight``), so a strong function in a strong file ranks first; test code
    is discounted by ``config.test_discount``, and benchmark code (``is_benchmark_path``)
    by ``config.benchmark_discount`` unless the task speaks of benchmarks.
    """
    return relevance_scores(index, task, config or WalkConfig())[0]


def relevance_scores(index: IndexView, task: ParsedTask, config: WalkConfig
               ) -> tuple[dict[str, float], dict[str, float]]:
    """(definition relevance in [0, 1], raw BM25 file scores)."""
    task = in_repository(index, task)
    terms = query_terms(task)
    if not terms:
        return {}, {}
    for term, weight in _abbreviations(index, task).items():
        terms[term] = max(terms[term], weight)
    benchmarks_wanted = speaks_of(task, "bench")
    definition_scores = index.lexical.score_definitions(terms)
    file_scores = index.lexical.score_files(terms)
    best_file = max(file_scores.values(), default=0.0) or 1.0
    combined: dict[str, float] = {}
    discounts: dict[str, float] = {}  # path -> path_discount: a file's definitions share it
    for node, score in definition_scores.items():
        path = index.path_of(node)
        value = score * (1.0 + config.file_weight * file_scores.get(path, 0.0) / best_file)
        if index.is_test(node):
            value *= config.test_discount
        else:
            discount = discounts.get(path)
            if discount is None:
                discount = discounts[path] = path_discount(path, config, benchmarks_wanted)
            value *= discount
        combined[node] = value
    best = max(combined.values(), default=0.0)
    if best <= 0:
        return {}, file_scores
    return {node: value / best for node, value in combined.items()}, file_scores


def _abbreviations(index: IndexView, task: ParsedTask) -> Counter[str]:
    """``lexical.abbreviation_terms`` of the task's prose words that no document holds,
    learned from the repository's definition names (read only for such a word)."""
    written = {symbol.lower() for symbol in task.symbols}
    # (a word without terms, such as ``import`` or ``object``, is ignored, not unknown)
    unknown = [k for k in task.keywords if k not in written and k not in REPORT_WORDS
               and (terms := name_words(k)) and not any(map(index.lexical.holds, terms))]
    return abbreviation_terms(unknown, index.definition_names()) if unknown else Counter()


def find_seeds(index: IndexView, task: ParsedTask, config: WalkConfig | None = None,
               relevance_of: dict[str, float] | None = None) -> list[Seed]:
    """The nodes the task names, best first (see the module docstring).

    ``relevance_of`` is each definition's lexical relevance (computed when omitted).
    Seed qualities are in [0, 1]; their weights are ``config.weights`` (``seed_*``).
    """
    config = config or WalkConfig()
    relevance_of = relevance(index, task, config) if relevance_of is None else relevance_of
    found = _SeedSet(index, config, relevance_of, _speaks_of_tests(task))
    framed = _framed_names(task) if _seed_references(found, task) else set()
    framed |= callers_code(index, task)
    path_seeds: list[str] = []
    # path -> (the anchor of the task's link to it, the lines of the section it names)
    sections: dict[str, tuple[str, tuple[int, int]]] = {}
    # (a place's file name alone names what ``place_file`` finds for it, trial 13)
    placed = {r.path for r in task.references if _only_a_file_name(r.path)}
    for symbol in task.symbols:
        if is_path_symbol(symbol):
            named = files_named(index, symbol)
            anchor = _section_anchor(task.raw, symbol)
            if anchor is not None:
                # (of several documents of that name, the ones holding the section: a
                # link's README.md is one of a monorepo's many, review 38)
                holding = {p: lines for p in named if (lines := _section(index, p, anchor))}
                named = list(holding) or named
                sections.update((path, (anchor, lines)) for path, lines in holding.items())
            path_seeds += named if len(named) < 2 or symbol not in placed else []
        elif symbol not in framed:
            _seed_symbol(found, symbol)
    for word in task.titled:
        _seed_titled(found, word)
    _seed_files(found, sorted(set(path_seeds)), sections)
    _seed_plain_words(found, task)
    _seed_words(found, task)
    if not found.seeds:  # nothing better: a plain word may still be a name
        _seed_plain_words(found, task, every=True)
    return sorted(found.seeds.values(), key=lambda s: (-s.quality, node_order(index, s.node)))


def in_repository(index: IndexView, task: ParsedTask) -> ParsedTask:
    """``task`` with each path it names cut to the part of it that is in the repository
    (``pkg/routes.py`` of ``srv/app/pkg/routes.py``), so that the directories above the
    repository in a stack frame give no words. A place in a file under directories none
    of which hold it in the repository (a library's frame,
    ``/usr/lib/python3/json/decoder.py``) gives no words at all; another path that names
    no file (a file to add, ``routes.py:619`` of a file since renamed) is kept whole. A
    path with directories that names a repository file is one of ``task.addresses``
    (``_addressed``): its directories give no words. The file of a stack frame
    (``task.places``) gives none either: its frame's place says where it is (trial 12:
    ``read`` of a C frame's ``read.c`` matched every ``read`` field of the repository)."""
    callers = callers_code(index, task)
    if callers:  # (their paths are among the places)
        task = _without_symbols(task, [s for s in callers if not is_path_symbol(s)])
    if task.places:
        places = set(task.places)
        task = replace(task, raw=_without_paths(task.raw, places), places=(),
                       symbols=tuple(s for s in task.symbols if s not in places))
    referenced = {reference.path for reference in task.references}
    parts = {s: _repository_part(index, s, s in referenced) if is_path_symbol(s) else s
             for s in task.symbols}
    symbols = tuple(dict.fromkeys(part for part in parts.values() if part))
    if symbols != task.symbols:
        task = replace(task, symbols=symbols)
    addresses = {s for s in symbols if "/" in s and is_path_symbol(s)
                 and s not in task.addresses and files_named(index, s)}
    # each way the task writes an address (`/srv/app/lib/db.py` and `lib/db.py`)
    written = {s: part for s, part in parts.items() if part in addresses}
    return _addressed(task, written) if written else task


def callers_code(index: IndexView, task: ParsedTask) -> frozenset[str]:
    """The task's symbols that are the caller's own code, not the repository's: the file
    and the qualified function of each stack frame whose place names no file of the
    repository and whose function's qualifier holds no word the repository does (trial 21:
    ``myapp::main at ./src/main.rs:9:5``, the user's application, was said not to exist
    and seeded build.rs's ``main`` by its name). They name nothing here, as a library's
    frame's file gives no words (``in_repository``); a frame whose function has no
    qualifier (``File "/srv/app/run.py", line 9, in main``) keeps its name, which may be
    the repository's still, and so does one whose qualifier the repository holds (a file
    gone since: its note says so)."""
    found: set[str] = set()
    for reference in task.references:
        if not (reference.frame and reference.function) or place_file(index, reference):
            continue
        named = [s for s in task.symbols if "." in s and not is_path_symbol(s)
                 and s.rpartition(".")[2] == reference.function]
        if named and not any(index.lexical.holds(term)
                             for symbol in named for part in symbol.split(".")[:-1]
                             for term in name_words(part)):
            found.update(named)
            found.add(reference.path)
    return frozenset(found)


def _without_paths(text: str, paths: set[str]) -> str:
    """``text`` with each path of ``paths`` (a ``Reference.path``) that it writes as a
    whole made a blank: with ``/`` or ``\\`` between its parts and the root it was read
    without (``/``, ``C:\\``, ``file:///``, ``/_/``, ``../``), and neither name nor path
    characters on either side (review 31: the place ``test.c`` made ``parse_latest.c`` of
    the prose ``parse_la``)."""
    spelled = "|".join(r"[/\\]".join(map(re.escape, path.split("/")))
                       for path in sorted(paths, key=len, reverse=True))
    return re.sub(rf"{_PATH_BEFORE}(?:{spelled}){_PATH_AFTER}", " ", text)


# A path written whole: neither name nor path characters on either side of it, but for
# the root it was read without (``/``, ``C:\\``, ``file:///``, ``/_/``, ``../``).
_PATH_BEFORE = (r"(?<![\w.~@+/\\-])"
                r"(?:[a-z][\w+.-]*:/+|[A-Za-z]:[/\\]|~/|/_/|(?:\.{0,2}[/\\])+)?")
_PATH_AFTER = r"(?![\w/\\-]|\.\w)"


def _addressed(task: ParsedTask, addresses: dict[str, str]) -> ParsedTask:
    """``task`` knowing that its paths ``addresses`` (as written -> the repository path)
    are the repository's files: a path names its file, and its directories only say where
    the file is (``src/main/java/...`` would make every ``main`` a match, ``sansio/``
    every file beside the one named). The text holds each such path as its file name
    (``lexical.query_terms`` reads joined words and compounds from it), and the keywords
    that only their directories gave are dropped."""
    text = task.raw
    directories: set[str] = set()
    for path, located in addresses.items():
        name = located.rpartition("/")[2]
        # only where written whole: `lib/db.py` is no part of `vendor/lib/db.py`
        # (its root, as read: `/lib/db.py` of `./lib/db.py`; a `.storybook/` keeps its dot)
        text = re.sub(rf"{_PATH_BEFORE}{re.escape(_relative(path))}{_PATH_AFTER}",
                      name.replace("\\", r"\\"), text)
        for word in _IDENTIFIER.findall(path.removesuffix(name)):
            directories.update(_keywords_of(word))
    left = {k for w in _IDENTIFIER.findall(text) for k in _keywords_of(w)}
    keywords = tuple(k for k in task.keywords if k not in directories or k in left)
    return replace(task, raw=text, keywords=keywords,
                   addresses=task.addresses + tuple(addresses.values()))


def _relative(path: str) -> str:
    """``path`` without the root it was written from (``/``, ``./``, ``../``): a directory
    named with a dot (``.config/``) keeps it (review 32)."""
    return re.sub(r"^(?:\.{0,2}/)+", "", path)


def _repository_part(index: IndexView, written: str, referenced: bool) -> str:
    """The repository path a written path ends with, ``""`` for a ``referenced`` path
    with directories that names no file (a library's frame), else ``written`` itself."""
    named = files_named(index, written)
    if len(named) == 1 and _relative(written).endswith("/" + named[0]):
        return named[0]  # the written path is longer: what is left of it is outside
    return "" if referenced and not named and "/" in written else written


def files_named(index: IndexView, written: str) -> list[str]:
    """The repository files a path written in a task names: those it is a suffix of
    (``db.py``, ``storage/db.py``), else the longest one that is a suffix of it (an
    absolute path from a traceback, ``/srv/app/storage/db.py``), else the one file that
    shares the most trailing directories with it, at least one (an installed package's
    ``site-packages/click/core.py`` is the repository's ``src/click/core.py``: trial 17's
    traceback of click pointed at no file, and its frames' names seeded every namesake)."""
    wanted = _relative(written)
    # (all kinds end with the written file name: only files of that name are looked at)
    same_name = index.files_called(wanted.rpartition("/")[2])
    named = [p for p in same_name if p == wanted or p.endswith("/" + wanted)]
    if named:
        return named
    within = [p for p in same_name if wanted.endswith("/" + p)]
    if within:
        return [max(within, key=len)]
    shared = {p: _shared_tail(p, wanted) for p in same_name}
    most = max(shared.values(), default=0)
    best = [p for p, parts in shared.items() if parts == most]
    if most >= 2 and len(best) == 1:
        return best
    return _built_source(index, wanted) if not same_name else []


# A built JavaScript file's extension -> the TypeScript sources it may be built from (in
# any case, as ``language_for_path`` reads them: review 35, ``TIMEOUT.JS``).
_BUILT = (".js", ".mjs", ".cjs")
_SOURCES = (".ts", ".tsx", ".mts", ".cts")


def _built_source(index: IndexView, wanted: str) -> list[str]:
    """The one TypeScript source of a built JavaScript path that names no file: of the
    files of its stem with a TypeScript extension, the one sharing the most trailing
    directories with it, at least one (trial 19: a Node trace's
    ``node_modules/ky/distribution/utils/timeout.js`` is ky's ``source/utils/timeout.ts``);
    a tie, or a shared stem alone, names none; ``[]`` for any other path."""
    stem, dot, extension = wanted.rpartition(".")
    if not dot or "." + extension.lower() not in _BUILT:
        return []
    name = stem.rpartition("/")[2]
    shared = {p: _shared_tail(p, stem + p[p.rindex("."):])
              for source in _SOURCES for written in dict.fromkeys((source, source.upper()))
              for p in index.files_called(name + written)}
    most = max(shared.values(), default=0)
    best = [p for p, parts in shared.items() if parts == most]
    return best if most >= 2 and len(best) == 1 else []


def built_from(written: str, path: str) -> bool:
    """Whether the repository file ``path`` a written path names is the TypeScript source
    of the built JavaScript file written (``files_named``): a line of it is none of the
    source's."""
    return written.lower().endswith(_BUILT) and path.lower().endswith(_SOURCES)


def _shared_tail(path: str, other: str) -> int:
    """How many trailing parts (directories and the file name) two paths share."""
    count = 0
    for mine, theirs in zip(reversed(path.split("/")), reversed(other.split("/"))):
        if mine != theirs:
            break
        count += 1
    return count


def _framed_names(task: ParsedTask) -> set[str]:
    """The task's symbols that only name the function of a stack frame
    (``org.jsoup.Jsoup.parse`` of ``at org.jsoup.Jsoup.parse(Jsoup.java:78)``). The
    caller asks only when the repository holds the place of one of the trace's frames:
    such a frame seeds the definition at its line, at its distance from the failure; as
    a symbol it seeded every overload at a quality of its own, the outermost frames took
    the room of the innermost, and a frame of the caller's own code (``App.main``) seeded
    every ``main`` (trial 8), and a Rust caller's frame (``walkdir::IntoIter::handle_entry``,
    a long function) was seeded whole by its name, not by a window around its line
    (trial 11). A symbol is framed when its last part is a frame's function, whatever its
    qualifier (a Go frame's ``(*Mux).ServeHTTP`` is ``ServeHTTP``, a Rust frame's crate is
    no name of the repository's). When no frame's place is in the repository, the names
    are all there is."""
    functions = {reference.function for reference in task.references if reference.function}
    return {symbol for symbol in task.symbols if symbol.rpartition(".")[2] in functions}


def _seed_references(found: _SeedSet, task: ParsedTask) -> bool:
    """Places the task points at (``task.references``) are seeds of the top quality:
    the innermost definition around the line, shown whole when short and else by a
    window of ``caller_max_lines`` around the line (from the definition's first line when
    that is at most half the window above it); a line outside every definition seeds
    that window of its file. A stack frame that names a function the line is not in (a
    trace from another version of the file) seeds the nearest definition of that name in
    the file instead, when there is one; not a V8 frame, whose name is that of the property
    or variable a function was assigned to (``inst._zod.parse`` of an arrow function inside
    a constructor, ``safeParse`` of ``_safeParse``), most often no definition's name: it
    sent zod's trace, of that very tree, to an interface's ``parse`` member (trial 14). The frames of a trace (Python, JVM, V8, Rust:
    ``Reference.frame``; ``task.references`` puts the one nearest the failure first): the
    first has the top quality, the k-th after it ``1 / (1 + k * frame_decay)``
    (``WalkConfig``): every frame of a Java trace scored 150, and its outermost frames took
    the room of the innermost's line (trial 8). Other places keep the top quality.
    Returns whether the repository holds the place of a frame."""
    index, config = found.index, found.config
    half = config.caller_max_lines // 2
    frames = 0
    for reference in task.references:
        for path in place_file(index, reference):
            # a trace's innermost frame is where it failed, the frames further out say
            # how it got there
            quality = 1.0 / (1.0 + config.frame_decay * frames) if reference.frame else 1.0
            frames += bool(reference.frame)
            first, last = reference.start_line, reference.end_line
            window = (max(1, first - half), last + half)
            definitions = list(enumerate(index.file_definitions(path) or ()))
            if built_from(reference.path, path):
                _seed_built(found, path, reference, definitions, quality)
                continue
            around = [(d.end_line - d.start_line, i, d) for i, d in definitions
                      if d.start_line <= first <= d.end_line]
            # (the block's header names the file: the reason names the line only)
            where = f"line {first}" if last == first else f"lines {first}-{last}"
            if (reference.function and reference.frame != "v8"
                    and not any(d.name == reference.function for _, _, d in around)):
                named = [(abs(d.start_line - first), i, d) for i, d in definitions
                         if d.name == reference.function]
                if named:
                    _, i, definition = min(named, key=lambda a: (a[0], a[1]))
                    span = definition.end_line - definition.start_line
                    lines = None if span < config.caller_max_lines else (
                        definition.start_line, definition.start_line + config.caller_max_lines - 1)
                    _keep_best(found, Seed(
                        f"{path}#{i}", quality, f"{definition.qualified_name}, which the stack frame "
                        f"names ({where} is outside it: another version?)", lines))
                    found.referenced.add(f"{path}#{i}")
                    continue
            if not around:
                _keep_best(found, Seed(path, quality, f"the task points at {where}", window,
                                       _focus(window[0], first), (first,)))
                found.referenced.add(path)
                continue
            span, i, definition = min(around, key=lambda a: (a[0], -a[1]))
            start = max(definition.start_line, window[0])
            if start - definition.start_line <= half:
                # (its header too, when at most half a window above: trial 10's jsoup
                # window of parsePseudoSelector began 4 lines below `private Evaluator
                # parse...() {`; trial 12's hiredis window of processBulkItem 18 lines below
                # its header left out the length parse the crash was about)
                start = definition.start_line
            lines = None if span < config.caller_max_lines else (
                start, min(definition.end_line, window[1]))
            _keep_best(found, Seed(f"{path}#{i}", quality,
                                   f"{definition.qualified_name} holds {where}", lines,
                                   _focus((lines or (definition.start_line,))[0], first), (first,)))
            found.referenced.add(f"{path}#{i}")
    return frames > 0


def _seed_built(found: _SeedSet, path: str, reference: Reference,
                definitions: list[tuple[int, Definition]], quality: float) -> None:
    """Seed a place in a built JavaScript file by its TypeScript source ``path``: the
    line of a built file is not the source's, so the frame's function, when the source
    defines one callable of that name outside interfaces and type declarations, else the
    file itself. (A V8 frame's name is the property a function was assigned to: trial
    14's `inst._zod.parse` named an interface's `parse` member, and of several the first
    is a guess; review 35.)"""
    config = found.config
    built = reference.path.rpartition("/")[2]
    declared = {i for i, d in definitions if d.kind in ("interface", "type")}
    named = [(i, d) for i, d in definitions
             if reference.function and d.name in (reference.function, "#" + reference.function)
             and d.kind in CALLABLE_KINDS and d.parent not in declared]
    if len(named) != 1:
        _keep_best(found, Seed(path, quality, f"the source of {built}, which the task points at"))
        found.referenced.add(path)
        return
    i, definition = named[0]
    lines = None if definition.end_line - definition.start_line < config.caller_max_lines else (
        definition.start_line, definition.start_line + config.caller_max_lines - 1)
    _keep_best(found, Seed(f"{path}#{i}", quality, f"{definition.qualified_name}, which the "
                           f"stack frame of {built} names", lines))
    found.referenced.add(f"{path}#{i}")


def place_file(index: IndexView, reference: Reference) -> list[str]:
    """The one file a place the task points at is in ([] when the repository has none),
    of those its path names (``files_named``): the first in which a definition of the
    frame's function holds the line, else the first long enough to hold it, else the
    first. (Trial 12: okio's ``RealBufferedSource.kt:110`` frame, of the JVM, went to
    the first of its Kotlin Multiplatform namesakes, commonMain's, which has 70 lines.)
    A path that is only a file name (``main.cpp:5``) and names several files names none of
    them, unless a stack frame's function is defined in one: then the first such one (the
    name a compiler or a trace gives is most often the user's own file, not a namesake)."""
    paths = files_named(index, reference.path)
    if len(paths) < 2:
        return paths
    function = reference.function
    defining = {path: [d for d in index.file_definitions(path) or () if d.name == function]
                if function else [] for path in paths}
    if _only_a_file_name(reference.path):
        # (trial 13: a compiler's ``main.cpp:5:8: note:`` named the repository's 8
        # ``main.cpp``, each shown whole, none of them the user's)
        paths = [path for path in paths if defining[path]]
        if not paths:
            return []

    def fit(path: str) -> tuple[bool, bool]:
        holds = any(d.start_line <= reference.start_line <= d.end_line for d in defining[path])
        count = index.line_count(path)
        return not holds, count is None or count < reference.end_line
    return [min(paths, key=fit)]


def _only_a_file_name(path: str) -> bool:
    """Whether a written path is a file name alone, without directories (``main.cpp``)."""
    return "/" not in path.strip("./")


def _keep_best(found: _SeedSet, seed: Seed) -> None:
    """Keep ``seed`` unless its node is a seed of a higher quality already (a recursive
    function's frames point at it more than once), with the places of both, the better
    seed's first (trial 20: a Java trace's `Caused by` frame at line 201 of the function
    its outer frame points at, line 207, was dropped with its seed, and a cut hid it)."""
    known = found.seeds.get(seed.node)
    if known is None:
        found.seeds[seed.node] = seed
        return
    best, other = (seed, known) if known.quality < seed.quality else (known, seed)
    found.seeds[seed.node] = replace(
        best, places=tuple(dict.fromkeys(best.places + other.places)))


def _focus(start: int, line: int) -> int | None:
    """Where a cut block of lines from ``start`` begins so that ``line`` stays in view:
    None (at ``start``, the definition's first line) when ``line`` is among the first
    lines any cut block keeps, else a few lines above ``line``."""
    return None if line - start <= FOCUS_ABOVE * 2 else line - FOCUS_ABOVE


class _SeedSet:
    """The seeds found so far, each node kept at its best quality."""

    def __init__(self, index: IndexView, config: WalkConfig, relevance_of: dict[str, float],
                 tests_wanted: bool) -> None:
        self.index, self.config, self.relevance_of = index, config, relevance_of
        self.tests_wanted = tests_wanted  # the task speaks of tests
        self.seeds: dict[str, Seed] = {}
        self.referenced: set[str] = set()  # seeded by a place in a file the task points at
        # (qualified symbol, the definitions it named), e.g. ``WorkerPool.Start``
        self.qualified: list[tuple[str, list[str]]] = []

    def offer(self, node: str, quality: float, reason: str) -> None:
        """Offer a definition the task names, with how well the name matches."""
        w = self.config.weights
        # the scope filters what is shown, not where the walk starts
        if not self.config.include_tests and self.index.is_test(node):
            return
        if self.index.is_test(node):
            quality *= w.seed_test  # the code under test comes before its tests
        quality *= w.seed_base + w.seed_relevance * self.relevance_of.get(node, 0.0)
        # a definition the task names outranks any mere word match, however common its name
        floor = self.config.named_seed_floor
        quality = floor + (1 - floor) * quality
        known = self.seeds.get(node)
        if known is None or quality > known.quality:
            self.seeds[node] = Seed(node, round(quality, 4), reason)

    def code_first(self, nodes: list[str]) -> list[str]:
        """``nodes`` without tests, unless the task speaks of tests or they are all tests:
        a name of the code that a test also defines (a mock ``Storage``, a fixture
        ``dataarray`` matching "dataArray") names the code; its tests come as tests. So
        for examples (``is_example_path``): a name the project and its examples define
        names the project's (trial 8: each zustand demo's `useStore` was ring 0)."""
        code = nodes if self.tests_wanted else [n for n in nodes if not self.index.is_test(n)]
        code = code or nodes
        project = [n for n in code if not is_example_path(self.index.path_of(n))]
        return project or code

    def offer_all(self, nodes: list[str], quality: float, reason: str,
                  limit: int | None = None) -> None:
        """Offer every definition of a name: a name defined in many places says little,
        so only the most relevant few (``limit``, else ``max_matches_per_symbol``), at
        a quality that falls with their number."""
        ranked = most_relevant(self.index, nodes, self.relevance_of,
                               self.config.max_matches_per_symbol if limit is None else limit)
        for node in ranked:
            self.offer(node, quality * _specificity(len(nodes)), reason)


def _seed_symbol(found: _SeedSet, symbol: str) -> None:
    """Seed the definitions a symbol of the task names: by qualified name, by name with
    the other parts naming the file's path, by exact name, else case-insensitively."""
    index, w = found.index, found.config.weights
    parts = symbol.split(".")
    name = parts[-1]
    exact = found.code_first(_definitions_named(index, name))
    if len(parts) > 1:
        qualified = [n for n in exact
                     if dotted_names(index.path_of(n), index.definition(n).qualified_name, symbol)]
        if qualified:
            found.offer_all(qualified, w.seed_qualified, f"definition of {symbol}")
            found.qualified.append((symbol, qualified))
            return
        # `module.name` or `pkg.module.Class`: the other parts name the file's path
        qualifiers = {p.lower() for p in parts[:-1]}
        paths = {n: _path_words(index.path_of(n)) for n in exact}
        by_path = [n for n in exact if qualifiers & paths[n] and _pointed_to(index, n, parts[-2])]
        if by_path:
            found.offer_all(by_path, w.seed_by_path, f"definition of {symbol}")
            # (``unittest.TestCase.tearDown`` found as ``Test.tearDown`` in a unittest/
            # directory is a guess: only where every qualifier is found is it named)
            named = [n for n in by_path if qualifiers <= paths[n] | {
                p.lower() for p in index.definition(n).qualified_name.split(".")}]
            if named:
                found.qualified.append((symbol, named))
            return
    if exact:
        # a qualifier that names nothing (``self.name``, ``tc.preprocess``) leaves a name
        # that may be defined everywhere: only its most relevant few are meant
        found.offer_all(exact, w.seed_exact, f"definition of {name}",
                        _UNQUALIFIED_MATCHES if len(parts) > 1 else None)
        if len(parts) == 1:
            _seed_style_twins(found, name)
        return
    if _CAPITALISED.fullmatch(case_shape(name)):
        # a capitalised word ("False", "Running") may open a sentence: its case is all that
        # makes it a name, so only a definition spelled the same way is one ("Blueprints"
        # names `Blueprint`), not `FALSE` or `running`
        folded = index.definitions_named(name[:-1]) if _plural(name) else []
    else:
        folded = index.definitions_named_any_case(name)
        if not folded and _plural(name):
            folded = index.definitions_named_any_case(name.lower()[:-1])
    folded = found.code_first(folded)
    for node in folded:
        found.offer(node, w.seed_folded * _specificity(len(folded)),
                    f"definition of {index.definition(node).name} (matches {name})")


def _pointed_to(index: IndexView, node: str, qualifier: str) -> bool:
    """Whether a qualifier whose last part is ``qualifier`` and whose parts name the
    file's path points to the definition ``node``: one of the module's own (at the top
    of its file or of a module in it), or a member of a definition called ``qualifier``
    (trial 21: ``serde_json::value::Value`` named each ``type Value = ...`` of the impl
    blocks in ``src/value/de.rs``; ``KeyClassifier::Value`` names one of them)."""
    definition = index.definition(node)
    # (its owner by its qualified name: a Rust impl's or a Go receiver's member has none
    # around it in the file)
    owners = definition.qualified_name.split(".")[:-1]
    if not owners or owners[-1] == qualifier:
        return True
    parent = definition.parent
    return parent is not None and \
        (index.file_definitions(index.path_of(node)) or ())[parent].kind in MODULE_KINDS


def _seed_titled(found: _SeedSet, word: str) -> None:
    """A capitalised word of a title (``ParsedTask.titled``) names the definitions so
    called in files named after it (``Value`` in outputs/Value.py), and nothing else:
    "Kubernetes Pod", "False Positive" and "XDG Base Directory" are prose."""
    index = found.index
    named = [n for n in _definitions_named(index, word)
             if file_stem(index.path_of(n)).lower() == word.lower()]
    if named:
        found.offer_all(found.code_first(named), found.config.weights.seed_exact,
                        f"definition of {word}")


def _definitions_named(index: IndexView, name: str) -> list[str]:
    """The definitions called ``name`` and the JavaScript private members ``#name``
    (stored with their ``#``): a task writes ``Ky.#retry``, ``Ky#retry`` or ``retry``
    (``task`` reads the first two as ``Ky.retry``) for the member ``#retry``."""
    private = index.definitions_named("#" + name)
    if not private:
        return index.definitions_named(name)
    return sorted(index.definitions_named(name) + private, key=split_symbol)


def _seed_style_twins(found: _SeedSet, name: str) -> None:
    """Seed the definitions named with the same words as ``name`` in another style
    (``find_in_map`` for ``FindInMap``, ``FindInMap`` for ``find_in_map``), at the
    quality of a case-insensitive match: a project names the class of a thing and the
    function that does it with the same words (a rule ``FindInMap`` and the resolver
    ``find_in_map``), and the task that names one is often about the other. Only a name
    of two words or more: one word in another case is as often another thing. Only a
    type or a function (``_TWIN_KINDS``): a field or variable so named holds one, a use
    of the type; and only the code's unless the task speaks of tests, even when only
    tests define the twin (trial 21: the test fields ``gsonBuilder`` were ring 0 for
    "Add a GsonBuilder option")."""
    index, w = found.index, found.config.weights
    nodes = found.code_first([node for node in style_twins(index, name)
                              if found.tests_wanted or not index.is_test(node)])
    for node in most_relevant(index, nodes, found.relevance_of,
                              found.config.max_matches_per_symbol):
        found.offer(node, w.seed_folded * _specificity(len(nodes)),
                    f"definition of {index.definition(node).name} (the words of {name})")


# What a style twin may be: a type or a module, or what does something (a function, a
# macro); not a field, variable or constant, which holds a value.
_TWIN_KINDS = CALLABLE_KINDS | TYPE_USE_KINDS


def twin_table(index: IndexView) -> dict[str, list[str]]:
    """The repository's definition names by their letters and digits in lower case
    (``findinmap``: ``FindInMap``, ``find_in_map``), for ``style_twins``: one pass over
    the names (24,210 on sympy, about 10 ms) where a scan for each name took 20 ms. Made
    once for each index object (the seeds' twins and the walk's share it).

    Parameters
    ----------
    index : IndexView
        The indexed repository.

    Returns
    -------
    dict of str to list of str
        Key: a name without ``_``, lower case; value: the names so spelt, as listed.
    """
    try:
        return _TWIN_TABLES[index]
    except (KeyError, TypeError):
        pass
    table: dict[str, list[str]] = {}
    for name in index.definition_names():
        table.setdefault(name.replace("_", "").lower(), []).append(name)
    with contextlib.suppress(TypeError):  # (an index that takes no weak reference)
        _TWIN_TABLES[index] = table
    return table


_TWIN_TABLES: weakref.WeakKeyDictionary[IndexView, dict[str, list[str]]] = \
    weakref.WeakKeyDictionary()


def style_twins(index: IndexView, name: str) -> list[str]:
    """The nodes of the types and functions (``_TWIN_KINDS``) named with the same words as
    ``name`` in another style (``find_in_map`` and ``FindInMap``), in name order; none for
    a name of one word (in another case it is as often another thing). Names are looked
    up in ``twin_table(index)``."""
    words = split_identifier(name)
    if len(words) < 2:
        return []
    joined = "".join(words)
    found = twin_table(index).get(joined, [])
    twins = [n for n in found if n != name and split_identifier(n) == words]
    return [node for twin in sorted(twins) for node in index.definitions_named(twin)
            if index.definition(node).kind in _TWIN_KINDS]


def _path_words(path: str) -> set[str]:
    """A path's parts and their words, lower case (``pkg``, ``db_store``, ``db``, ``store``
    for ``pkg/db_store.py``)."""
    return (set(split_identifier(path.rsplit(".", 1)[0]))
            | {p.lower() for p in path.replace(".", "/").split("/")})


# How many definitions of a name are seeds when its qualifier names none of them
# (``self.name``: eight unrelated ``name`` properties were ring 0 in a conan task); 3 and
# the usual 8 gave the same benchmark figures on every task (6ef0131).
_UNQUALIFIED_MATCHES = 3
# A capital, then lower-case letters or digits (``[A-Z][a-z0-9]+`` in letters of any
# script: ``task.case_shape``)
_CAPITALISED = re.compile(r"U[l0]+")


def _plural(name: str) -> bool:
    return len(name) > 3 and name.lower().endswith("s")


def _section_anchor(text: str, written: str) -> str | None:
    """The anchor a link of ``text`` gives the document path ``written`` (a
    ``anchors.DOCUMENT_EXTENSIONS`` file), percent-encoded or not: ``unexpected-json-structure`` of
    ``.../Troubleshooting.md#unexpected-json-structure``; None when it has none (a line
    anchor, ``#L10``, is a place: ``task.references``)."""
    if written.rpartition(".")[2].lower() not in DOCUMENT_EXTENSIONS:
        return None
    match = re.search(rf"(?<![\w.-]){re.escape(written)}#([\w%-]+)", text)
    if match is None or re.fullmatch(r"L\d+(?:-L?\d+)?", match.group(1)):
        return None
    return match.group(1)


def _seed_files(found: _SeedSet, paths: list[str],
                sections: dict[str, tuple[str, tuple[int, int]]]) -> None:
    """Files the task names: their seeds gain a little, or the file itself is a seed; a
    document whose link names a section of it (``sections``: path -> (anchor, lines)) by
    the lines of that section (trial 38: gson's exception messages link
    ``Troubleshooting.md#...``, and the guide was shown from its top, 3,785 of 8,000
    tokens)."""
    index, w = found.index, found.config.weights
    seeded_files = {index.path_of(n) for n in found.seeds}
    for path in paths:
        if path in seeded_files:
            for node in [n for n in found.seeds if index.path_of(n) == path]:
                seed = found.seeds[node]
                found.seeds[node] = replace(  # (a reference's lines kept; it says its file)
                    seed, quality=min(1.0, seed.quality + w.seed_in_named_file),
                    reason=seed.reason if node in found.referenced else seed.reason + f" in {path}")
        elif path in sections:
            anchor, lines = sections[path]
            found.seeds[path] = Seed(path, w.seed_file, f"section {anchor} of {path}, "
                                     "named in the task", lines, lines[0], (lines[0],))
        else:
            found.seeds[path] = Seed(path, w.seed_file, f"file {path} named in the task")


def _section(index: IndexView, path: str, anchor: str) -> tuple[int, int] | None:
    """The lines of the section ``anchor`` names in the document at ``path``
    (``anchors.section_lines``), None when it cannot be read or has no such section."""
    lines = index.read_lines(path)
    if lines is None:
        return None
    return section_lines("\n".join(lines), anchor)


# A task this short ("fix get") is a verb and the name of what to work on.
_SHORT_TASK_WORDS = 3


def _seed_plain_words(found: _SeedSet, task: ParsedTask, *, every: bool = False) -> None:
    """A word of the prose that is exactly the name of definitions outside tests (``get``
    in "fix get") seeds the most relevant few of them in a task of at most
    ``_SHORT_TASK_WORDS`` words (a verb and what to work on). In a longer task a short
    word (``db``, ``b``) does, if it names one definition or (``every``: when nothing
    else matched) several; a stop word never does: written plainly, a name defined in
    several places, or a stop word, is as likely a word of the sentence."""
    index, config = found.index, found.config
    short_task = len(task.raw.split()) <= _SHORT_TASK_WORDS
    for word in task.plain_words:
        if not short_task and (len(word) > 2 or word.lower() in STOP_WORDS):
            continue
        named = [n for n in _definitions_named(index, word) if not index.is_test(n)]
        if not (short_task or every) and len(named) != 1:
            continue
        quality = round(config.lexical_seed_quality * _specificity(len(named)), 4)
        reason = (f"the only definition named {word}" if len(named) == 1
                  else f"one of {len(named)} definitions named {word}")
        for node in most_relevant(index, named, found.relevance_of, config.max_matches_per_symbol):
            if node not in found.seeds:
                found.seeds[node] = Seed(node, quality, reason)


def _seed_words(found: _SeedSet, task: ParsedTask) -> None:
    """The definitions whose words match the task best, as in a search engine; tests
    only when the task speaks of tests (else they come as tests of the seeds). A
    qualified symbol that named its definitions by their qualified names has said what
    it names: its words (``start`` of ``WorkerPool.Start``) search no further here, so
    that ``Service.Start`` is no seed (the walk may still reach it, lower). What it
    names may use its own name, as ``DataArray.quantile`` passes the work on to
    ``self._to_temp_dataset().quantile()``, a namesake the index cannot tell: then the
    namesakes are seeds (``_seed_namesakes``) and its name searches on, but not its
    qualifier's words (trial 21: ``Map::retain``, which calls ``self.map.retain(f)``,
    seeded every variant and field named ``Map``)."""
    index, config, relevance_of = found.index, found.config, found.relevance_of
    words = WordMatches(index, task)
    if found.qualified:
        handing_on = {symbol for symbol, nodes in found.qualified
                      if any(_uses_own_name(index, node) for node in nodes)}
        for symbol, nodes in found.qualified:
            if symbol in handing_on:
                _seed_namesakes(found, symbol.rpartition(".")[2], nodes, words)
        task = _without_symbols(task, [symbol for symbol, _ in found.qualified], handing_on)
        relevance_of = relevance(index, task, config)
        words = WordMatches(index, task)
    candidates = (n for n, r in relevance_of.items() if r >= config.min_seed_relevance)
    _seed_matches(found, candidates, relevance_of, words, config.max_keyword_seeds)


def _seed_namesakes(found: _SeedSet, name: str, named: list[str], words: WordMatches) -> None:
    """Seed the functions called ``name`` other than ``named`` (those a qualified symbol
    named, which call their own name), as the task's words match them: one of them is
    what the named function hands the work on to."""
    index = found.index
    namesakes = [n for n in _definitions_named(index, name)
                 if n not in named and index.definition(n).kind in CALLABLE_KINDS
                 and found.relevance_of.get(n, 0.0) >= found.config.min_seed_relevance]
    _seed_matches(found, namesakes, found.relevance_of, words, found.config.max_matches_per_symbol)


def _seed_matches(found: _SeedSet, candidates: Iterable[str], relevance_of: dict[str, float],
                  words: WordMatches, limit: int) -> None:
    """Seed the ``limit`` most relevant of ``candidates`` as word matches, at a quality
    of their relevance, a variable's or constant's cut to ``data_seed_share`` of it (not
    tests, unless the task speaks of tests)."""
    index, config = found.index, found.config
    if not (config.include_tests and found.tests_wanted):
        candidates = (n for n in candidates if not index.is_test(n))
    for node in most_relevant(index, candidates, relevance_of, limit):
        if node in found.seeds or not config.admits(index.path_of(node), scope=False):
            continue
        quality = config.lexical_seed_quality * relevance_of[node]
        if index.definition(node).kind in DATA_KINDS:
            quality *= config.data_seed_share
        found.seeds[node] = Seed(node, round(quality, 4),
                                 f"{index.definition(node).qualified_name} matches "
                                 f"{words.of(node)}")


def _speaks_of_tests(task: ParsedTask) -> bool:
    """Whether a word of the task, or of a name it writes, is "test" or starts so."""
    return speaks_of(task, "test")


def speaks_of(task: ParsedTask, prefix: str) -> bool:
    """Whether a word of the task, or of a name it writes, starts with ``prefix`` (both
    are lower case)."""
    return any(w.startswith(prefix) for w in chain(
        task.keywords, *(split_identifier(s) for s in task.symbols)))


def _uses_own_name(index: IndexView, node: str) -> bool:
    """Whether the function ``node`` calls a name it is called itself (``quantile`` in
    ``quantile``: a namesake, or itself; a class that makes its own instances does not
    count)."""
    definition, path = index.definition(node), index.path_of(node)
    tags = index.file_tags(path) if definition.kind in CALLABLE_KINDS else None
    return tags is not None and any(
        r.name == definition.name and definition.start_line <= r.line <= definition.end_line
        for r in tags.references)


def _without_symbols(task: ParsedTask, symbols: list[str],
                     named: Collection[str] = ()) -> ParsedTask:
    """``task`` without what the places its text writes ``symbols`` (dotted names,
    written with ``.``, ``::``, ``->`` or ``$`` between their parts) give: the symbols, the
    keywords of their words that the rest of the text does not hold, and their text, which
    the joined words and compounds of ``lexical.query_terms`` are read from; a symbol of
    ``named`` is cut to its name, its last part (``retain`` of ``Map.retain``): only its
    qualifier goes. The task is not parsed again."""
    kept = {s: s.rpartition(".")[2] if s in named else "" for s in symbols}

    def name_of(match: re.Match[str]) -> str:
        # (a blank for a part that holds a separator of its own, a JavaScript ``$``)
        return " " + kept.get(_SEPARATOR.sub(".", match.group(0).removesuffix("()")), "") + " "
    spelled = "|".join(r"(?:\.|::|->|\$)".join(map(re.escape, s.split("."))) for s in symbols)
    text = re.sub(rf"(?<![\w.])(?:{spelled})(?:\(\))?(?!\w)", name_of, task.raw)
    theirs = {w for s in symbols for part in s.split(".") for w in _keywords_of(part)}
    held = {w for word in _IDENTIFIER.findall(text) for w in _keywords_of(word)} & theirs
    return replace(task, raw=text,
                   symbols=tuple(dict.fromkeys(kept.get(s, s) for s in task.symbols if kept.get(s, s))),
                   keywords=tuple(k for k in task.keywords if k not in theirs or k in held))


_IDENTIFIER = re.compile(IDENTIFIER)
# What a task writes between the parts of a dotted name besides ``.``
_SEPARATOR = re.compile(r"::|->|\$")


def _keywords_of(word: str) -> list[str]:
    """The keywords a word of the task can give (``task.parse_task``): itself and its parts,
    lower-case."""
    return [word.lower(), *split_identifier(word)]


class WordMatches:
    """Which of a task's words each definition's document holds, as the task wrote them
    (``lexical.term_words``), for the reasons of word-matched seeds and items."""

    # the words a reason names at most, in the task's order
    SHOWN = 4

    def __init__(self, index: IndexView, task: ParsedTask) -> None:
        task = in_repository(index, task)
        self._index = index
        self._terms = list(query_terms(task))
        self._words = term_words(task.raw)

    def of(self, node: str) -> str:
        """``handling, name`` for a definition whose document holds the terms of those
        words (the first ``SHOWN``, then ``...``), or ``the task's words`` when it holds
        none of the query's own terms (an abbreviation learned from the repository)."""
        held = self._index.lexical.terms_held(node, self._terms)
        shown = list(dict.fromkeys(
            self._words.get(t) or t.lstrip("=").replace("_", " ") for t in held))
        if not shown:
            return "the task's words"
        more = ", ..." if len(shown) > self.SHOWN else ""
        return ", ".join(shown[:self.SHOWN]) + more


def node_order(index: IndexView, node: str) -> tuple[str, int]:
    """(path, first line) of a node: file order, a file before its definitions."""
    if index.is_file(node):
        return (node, 0)
    return (index.path_of(node), index.start_line(node))


def most_relevant(index: IndexView, nodes: Iterable[str], relevance_of: dict[str, float],
                  limit: int) -> list[str]:
    """The first ``limit`` of ``nodes`` by relevance (descending), ties in file order."""
    return best_first(index, nodes, lambda n: relevance_of.get(n, 0.0), limit)


def best_first(index: IndexView, nodes: Iterable[str], score: Callable[[str], float],
               limit: int) -> list[str]:
    """The first ``limit`` of ``nodes`` sorted by (``score`` descending, ``node_order``),
    reading the first lines of only the nodes that tie by score and path with the last
    one kept (sorting many nodes by ``node_order`` reads the definitions of their files)."""
    def coarse(node: str) -> tuple[float, str]:
        return (-score(node), index.path_of(node))

    ranked = sorted(nodes, key=coarse)
    if limit <= 0:
        return []
    end = limit
    while end < len(ranked) and coarse(ranked[end]) == coarse(ranked[limit - 1]):
        end += 1
    return sorted(ranked[:end], key=lambda n: (-score(n), node_order(index, n)))[:limit]


