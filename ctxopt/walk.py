"""Stage 3 (pure): index + parsed task -> scored ``Item`` list, by rings.

Seeds (``seeds.find_seeds``) are the definitions and files the task names, and the
definitions whose words match it best. From the seeds, one function per ring:

- ring 0: the seeds (``seed_ring``);
- ring 1: their members, the class or module around them (by its header, or whole when
  short and the seed is a field or constant), subclasses, callees (``member_ring``);
  what they inherit, override or are overridden by (``walk_inherit.inheritance_ring``);
  the callees a parameter the task names is passed on to (``walk_flow.flow_ring``);
- ring 2: callers and referrers of rings 0-1, and tests (``caller_ring``); the seeds'
  files whole when short (``short_file_ring``);
- ring 3: siblings in the same file (``sibling_ring``), further word matches
  (``word_match_ring``), the best match of each other matching file
  (``signature_file_ring``);
- ring 4: callers of callers (``transitive_ring``).

Each ring scores within its band (``model.RING_BANDS``) by the weights of
``RingWeights``, or by a fitted ``Ranker`` where ``WalkConfig.rankers`` has one (ring 3
by default: ``walk_config.RANKERS``); nothing outside ring 0 reaches 100, so no other item
outranks a ring-0 definition. The walk is breadth-first by relation, like networkx's
``bfs_layers``, with each layer ranked and capped like ``bfs_beam_edges``.
"""
from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Iterable

from .graph.view import IndexView
from .model import RING_BANDS, Definition, Fidelity, Item
from .ranges import subtract_ranges
from .parsing.kinds import CALLABLE_KINDS, CONTAINER_KINDS
from .seeds import (Seed, WordMatches, best_first, find_seeds, most_relevant, node_order,
                    path_discount, relevance_scores, speaks_of, style_twins)
from .task import ParsedTask
from .walk_config import Ranker, RingWeights, WalkConfig
from .walk_flow import flow_ring
from .walk_inherit import inheritance_ring

__all__ = [
    "Ranker",
    "RingWeights",
    "Seed",
    "WalkConfig",
    "caller_ring",
    "find_seeds",
    "member_ring",
    "seed_ring",
    "sibling_ring",
    "short_file_ring",
    "signature_file_ring",
    "transitive_ring",
    "outermost_tests",
    "walk_rings",
    "word_match_ring",
]


def _header_range(index: IndexView, node: str, definition: Definition, config: WalkConfig
                  ) -> tuple[int, int]:
    """The lines (1-based, inclusive) that show a definition's header: from its first
    line to the line above its first member in its own file, at most
    ``header_max_lines``. (A member declared in another file, a Kotlin extension or a Go
    method, says nothing of where this file's header ends: trial 17's ``Moshi`` header was
    cut to its doc comment's first line by extensions at lines 26-37 of another file.)"""
    end = min(definition.end_line, definition.start_line + config.header_max_lines - 1)
    path = index.path_of(node)
    starts = [index.definition(child).start_line for child in _children(index, node)
              if index.path_of(child) == path]
    if starts:
        end = min(end, max(definition.start_line, min(starts) - 1))
    return definition.start_line, end


def _children(index: IndexView, node: str) -> list[str]:
    children = [v for v, _, _ in index.edges_out(node, ("contains",)) if not index.is_file(v)]
    return sorted(children, key=lambda n: node_order(index, n))


_VERBS = {"call": "calls", "type": "uses", "import_member": "imports", "reference": "uses",
          "inherit": "subclasses"}


# Lines above which a block's size no longer counts (``Ranker.size``): a whole file of
# 10**9 lines (its length unknown) is no larger than a long module.
_SIZE_CAP = 5000


def _in_edges(index: IndexView, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, tuple[int, ...]]]:
    """(source, verb or edge kind, lines) of the edges of ``kinds`` into ``node``."""
    found = []
    for source, key, data in index.edges_in(node, kinds):
        verb = "tests" if key == "tests" else _VERBS.get(data.get("via", ""), key)
        found.append((source, verb, data.get("lines", ())))
    found.sort(key=lambda e: (node_order(index, e[0]), e[1]))
    return found


def _label(index: IndexView, node: str) -> str:
    if index.is_file(node):
        return node
    return index.definition(node).qualified_name


class _Walk:
    """One walk: the index, the knobs, each definition's relevance, which of the task's
    words it holds (``words``), each file's match (``file_scores``, as
    ``relevance_scores`` gives them), and the best item kept per (path, range) with each
    node's ring (the first ring that reached it)."""

    def __init__(self, index: IndexView, config: WalkConfig, relevance_of: dict[str, float],
                 words: WordMatches, file_scores: dict[str, float] | None = None) -> None:
        self.index = index
        self.config = config
        self.weights = config.weights
        self.relevance_of = relevance_of
        self.words = words
        self.file_scores = file_scores or {}
        self.best_file = max(self.file_scores.values(), default=0.0) or 1.0
        self.items: dict[tuple[str, int, int], Item] = {}
        self.ring_of: dict[str, int] = {}
        self.seed_paths: set[str] = set()  # the files of ring-0 items
        # path -> outermost_tests(index, path), read once per file
        self._tests_in: dict[str, tuple[bool, list[tuple[int, int]]]] = {}

    def rel(self, node: str) -> float:
        """The node's lexical relevance to the task, in [0, 1]."""
        return self.relevance_of.get(node, 0.0)

    def byrelevance_scores(self, nodes: Iterable[str], limit: int) -> list[str]:
        """The ``limit`` most relevant of ``nodes``, most relevant first, ties in file order."""
        return most_relevant(self.index, nodes, self.relevance_of, limit)

    def detail(self, node: str) -> Fidelity:
        """FULL when the node is relevant enough to show whole ("detail by distance")."""
        return (Fidelity.FULL if self.rel(node) >= self.config.full_detail_relevance
                else Fidelity.SIGNATURE)

    def header_if_longer(self, node: str, lines: int) -> tuple[int, int] | None:
        """The node's header range when its definition is longer than ``lines``, else
        None (the whole definition)."""
        d = self.index.definition(node)
        if d.end_line - d.start_line + 1 > lines:
            return _header_range(self.index, node, d, self.config)
        return None

    def add(self, node: str, ring: int, weight: float, reason: str,
            lines: tuple[int, int] | None = None, fidelity: Fidelity = Fidelity.FULL,
            focus: int | None = None, pointed: tuple[int, ...] = ()) -> None:
        """Offer ``node`` (its ``lines``, else its whole definition or file) at ``ring``
        with ``weight`` in [0, 1]; kept when in scope and better than what is known.
        ``focus``: the first line a cut block of it keeps (``Item.focus_line``);
        ``pointed``: the lines the task points at (``Item.pointed_lines``)."""
        path = self.index.path_of(node)
        if not self.config.admits(path) or ring > self.config.max_ring or (
                not self.config.include_tests and self.index.is_test(node)):
            return
        if lines is None:
            if self.index.is_file(node):
                lines = (1, max(1, self._line_count(path)))
            else:
                d = self.index.definition(node)
                lines = (d.start_line, d.end_line)
        if not self.config.include_tests:
            clipped = self._without_tests(path, lines, whole_file=self.index.is_file(node))
            if clipped is None:
                return
            lines = clipped
        self.ring_of.setdefault(node, ring)
        ranker = self.config.ranker(ring)
        if ranker is not None:
            weight = ranker.weight(self.features(node, weight, path, lines))
        if ring == 0:
            self.seed_paths.add(path)
        symbol = None if self.index.is_file(node) else _label(self.index, node)
        item = Item(path=path, start_line=lines[0], end_line=lines[1],
                    score=RING_BANDS[ring].score(weight), ring=ring, reason=reason,
                    symbol=symbol, fidelity=fidelity,
                    focus_line=focus if focus is not None and lines[0] < focus <= lines[1]
                    else None,
                    pointed_lines=tuple(line for line in pointed if lines[0] <= line <= lines[1]))
        key = (path, lines[0], lines[1])
        known = self.items.get(key)
        if known is None or (item.score, -item.ring) > (known.score, -known.ring):
            self.items[key] = item

    def _without_tests(self, path: str, lines: tuple[int, int], *, whole_file: bool
                       ) -> tuple[int, int] | None:
        """``lines`` of ``path`` without the lines of the tests marked in the code (a
        Rust ``#[cfg(test)] mod tests`` or ``#[test]`` function: ``IndexView.is_test``),
        for a walk without tests: a whole file, a window around a use, a definition
        holding one. The longest run left (the first of equal ones); None when nothing is
        left, or ``whole_file`` and every top-level definition is a test (a file of tests
        only is left out, as a test file is)."""
        known = self._tests_in.get(path)
        if known is None:
            known = self._tests_in[path] = outermost_tests(self.index, path)
        only_tests, spans = known
        if whole_file and only_tests:
            return None
        runs = subtract_ranges([lines], spans)
        return max(runs, key=lambda run: run[1] - run[0], default=None)

    def features(self, node: str, weight: float, path: str,
                 lines: tuple[int, int]) -> dict[str, float]:
        """What ``Ranker`` weighs for an item of ``node`` (``lines`` of ``path``) offered
        with the hand-set ``weight``: see ``Ranker``'s fields."""
        index = self.index
        is_file = index.is_file(node)
        in_degree = 0 if is_file else len(index.edges_in(node, ("references",)))
        return {
            "hand": weight, "relevance": self.rel(node), "in_degree": math.log1p(in_degree),
            "test": 1.0 if index.is_test(node) else 0.0,
            "size": math.log(max(1, min(lines[1] - lines[0] + 1, _SIZE_CAP))),
            "seed_file": 1.0 if path in self.seed_paths else 0.0,
            "file_match": self.file_scores.get(path, 0.0) / self.best_file,
        }

    def _line_count(self, path: str) -> int:
        count = self.index.line_count(path)
        return 10**9 if count is None else count  # the source reader clamps unknown lengths


def _caller_ranges(index: IndexView, caller: str, lines: tuple[int, ...], config: WalkConfig
                   ) -> list[tuple[int, int]]:
    """The caller's whole definition when short, else windows around its calls."""
    if not index.is_file(caller):
        d = index.definition(caller)
        if d.end_line - d.start_line + 1 <= config.caller_max_lines:
            return [(d.start_line, d.end_line)]
        low, high = d.start_line, d.end_line
    else:
        low, high = 1, 10**9
    windows: list[tuple[int, int]] = []
    for line in lines or (low,):
        start, end = max(low, line - config.caller_window), min(high, line + config.caller_window)
        if windows and start <= windows[-1][1] + 1:
            windows[-1] = (windows[-1][0], end)
        else:
            windows.append((start, end))
    return windows


def _uses(lines: tuple[int, ...], weights: RingWeights) -> float:
    """How often a caller uses its target, in [0, 1]."""
    return min(1.0, len(lines) / weights.uses_saturation)


def outermost_tests(index: IndexView, path: str) -> tuple[bool, list[tuple[int, int]]]:
    """(whether ``path`` has top-level definitions and all are tests, the line ranges of
    its tests marked in the code whose parent definition is not a test, in order: a Rust
    ``#[cfg(test)] mod tests``, a ``#[test]`` function; ``IndexView.is_test``). Ranges are
    1-based and inclusive."""
    definitions = index.file_definitions(path) or ()
    tests = {i for i in range(len(definitions)) if index.is_test(f"{path}#{i}")}
    if not tests:
        return False, []
    spans = sorted((d.start_line, d.end_line) for i, d in enumerate(definitions)
                   if i in tests and d.parent not in tests)
    only_tests = all(i in tests for i, d in enumerate(definitions) if d.parent is None)
    return only_tests, spans


def walk_rings(index: IndexView, task: ParsedTask, config: WalkConfig | None = None) -> list[Item]:
    """Walk out from the task's seeds and return scored items, best first.

    Parameters
    ----------
    index : IndexView
        The indexed repository.
    task : ParsedTask
        The parsed task.
    config : WalkConfig, optional
        Ring limit, test and scope filters, caps and ``RingWeights``.

    Returns
    -------
    list of Item
        Sorted by score (descending), then path, then start line. Empty when the task
        names nothing in the repository.

    Notes
    -----
    Each ring is one function below, run in ring order; an item reached twice keeps its
    best score (``_Walk.add``). The weights are ``config.weights``.
    """
    config = config or WalkConfig()
    relevance_of, file_scores = relevance_scores(index, task, config)
    seeds = find_seeds(index, task, config, relevance_of)
    walk = _Walk(index, config, relevance_of, WordMatches(index, task), file_scores)
    ring0 = [seed.node for seed in seeds]
    large = seed_ring(walk, seeds)
    members: list[str] = []
    for node in ring0:
        if not index.is_file(node):
            members += member_ring(walk, node, ring0, node in large)
    twin_ring(walk, ring0)
    # relations that reach far are followed only from what the task names, not from
    # mere word matches (whose inheritance and data flow are mostly noise)
    named = [seed.node for seed in seeds if seed.quality > config.lexical_seed_quality]
    for node in named:
        if not index.is_file(node):
            inheritance_ring(walk, node, ring0)
    flow_ring(walk, task, named, ring0)
    callers, ranked_callers = caller_ring(walk, ring0, members)
    short_file_ring(walk, ring0)
    for node in ring0:
        if not index.is_file(node):
            sibling_ring(walk, node)
    word_match_ring(walk)
    signature_file_ring(walk, file_scores, speaks_of(task, "bench"))
    transitive_ring(walk, ring0, callers, ranked_callers)
    return sorted(walk.items.values(), key=lambda i: (-i.score, i.path, i.start_line, i.end_line))


def seed_ring(walk: _Walk, seeds: list[Seed]) -> set[str]:
    """Ring 0: each seed, weighted by its quality. A seed definition longer than
    ``large_definition_lines`` that has members is shown by its header (its members then
    compete in ring 1); returns those large seeds."""
    index, config = walk.index, walk.config
    large: set[str] = set()
    for seed in seeds:
        lines = seed.lines
        if lines is None and not index.is_file(seed.node):
            d = index.definition(seed.node)
            if (d.end_line - d.start_line + 1 > config.large_definition_lines
                    and _children(index, seed.node)):
                large.add(seed.node)
                lines = _header_range(index, seed.node, d, config)
        walk.add(seed.node, 0, seed.quality, seed.reason, lines, focus=seed.focus,
                 pointed=seed.places)
    return large


def member_ring(walk: _Walk, node: str, ring0: list[str], large: bool) -> list[str]:
    """Ring 1 around one seed definition: its members, the definition around it (by
    its header), its subclasses and the definitions it uses. Returns the members."""
    index, config, w = walk.index, walk.config, walk.weights
    label = _label(index, node)
    children = _children(index, node)
    if large:
        # a large class is shown by its header and the members the task points at, its
        # methods first: they say what the class does, and a fix changes that (a rule
        # class whose fields quote the task's words, ``tags = ["getatt"]``, kept its
        # fields and lost the method the fix changed); ties in file order (``_children``)
        def methods_first(child: str) -> tuple[bool, float]:
            return index.definition(child).kind not in CALLABLE_KINDS, -walk.rel(child)

        children = sorted(children, key=methods_first)[:config.max_members_of_large]
    for child in children:
        callable_ = index.definition(child).kind in CALLABLE_KINDS
        base = w.callable_member if callable_ else w.other_member
        walk.add(child, 1, base + w.member_relevance * walk.rel(child), f"member of {label}")
    # a field or constant says what a class holds, its methods what the class does: the
    # short class with methods around one is shown whole (a rule class whose code
    # ``id = "E3640"`` the task names), a class around anything else by its header (a
    # record of fields says no more whole)
    datum = index.definition(node).kind not in CALLABLE_KINDS | CONTAINER_KINDS
    for parent, _, _ in _in_edges(index, node, ("contains",)):
        if not index.is_file(parent) and parent not in ring0:
            d = index.definition(parent)
            whole = datum and d.end_line - d.start_line + 1 <= config.large_definition_lines \
                and any(index.definition(child).kind in CALLABLE_KINDS
                        for child in _children(index, parent))
            walk.add(parent, 1, w.enclosing, f"contains {label}",
                     None if whole else _header_range(index, parent, d, config))
    for subclass, _, lines in _in_edges(index, node, ("inherits",)):
        weight = w.subclass + w.subclass_relevance * walk.rel(subclass)
        # (an implementation in no definition, Rust's `impl<P: B> B for &mut P`, is the
        # file's: the lines around it, not the whole file, trial 39's 2,607 lines of walk.rs)
        for window in (_caller_ranges(index, subclass, lines, config)
                       if index.is_file(subclass) else [None]):
            walk.add(subclass, 1, weight, f"subclass of {label}", window)
    callees = [(callee, data) for callee, _, data in index.edges_out(node, ("references", "inherits"))
               if callee not in ring0 and not index.is_file(callee)]
    # a long function calls dozens of helpers: keep the ones the task's words point at
    callees.sort(key=lambda c: (-walk.rel(c[0]), node_order(index, c[0])))
    for callee, data in _first_names(index, callees, config.max_callees):
        verb = "base class of" if data.get("via") == "inherit" else "used by"
        walk.add(callee, 1, w.callee + w.callee_relevance * walk.rel(callee), f"{verb} {label}",
                 walk.header_if_longer(callee, config.large_definition_lines),
                 walk.detail(callee))
    return children


def _first_names(index: IndexView, edges: list[tuple[str, dict]], limit: int
                 ) -> list[tuple[str, dict]]:
    """The ``edges`` to the first ``limit`` definitions by name, each name with all its
    definitions in its file: the overloads of one function are one helper (jotai's five
    signatures of ``atom`` took five of six places, and ``memo3`` was left out)."""
    names: set[tuple[str, str]] = set()
    kept = []
    for node, data in edges:
        name = (index.path_of(node), index.definition(node).qualified_name)
        if name not in names:
            if len(names) >= limit:
                continue
            names.add(name)
        kept.append((node, data))
    return kept


# A caller found in ring 2: (weight, reason, the lines of its uses, is a test).
_Caller = tuple[float, str, tuple[int, ...], bool]


def caller_ring(walk: _Walk, ring0: list[str], members: list[str]
                ) -> tuple[dict[str, _Caller], list[tuple[str, _Caller]]]:
    """Ring 2: the definitions that use, test or subclass rings 0-1, each by its best
    edge; the best ``max_callers`` callers and ``max_tests`` tests are shown (each its own
    quota, so that neither crowds out the other), tests as signatures. Returns every
    caller found and the ones shown, best first."""
    index, config, w = walk.index, walk.config, walk.weights
    callers: dict[str, _Caller] = {}
    for target in ring0 + members:
        if index.is_file(target):
            continue
        label = _label(index, target)
        for source, kind, lines in _in_edges(index, target, ("references", "tests", "inherits")):
            if source in ring0 or source == target:
                continue
            is_test = kind == "tests" or index.is_test(source)
            if is_test:
                weight, verb = w.test + w.test_relevance * walk.rel(source), "tests"
            else:
                weight = ((w.caller_of_seed if target in ring0 else w.caller_of_member)
                          + w.caller_uses * _uses(lines, w))
                weight += (w.caller_relevance * walk.rel(source)
                           - (w.import_penalty if kind == "imports" else 0.0))
                verb = kind
            known = callers.get(source)
            if known is None or weight > known[0]:
                callers[source] = (weight, f"{verb} {label}", lines, is_test)
    ranked = [(source, callers[source]) for tests, most in ((False, config.max_callers),
                                                            (True, config.max_tests))
              for source in best_first(index, (s for s, c in callers.items() if c[3] == tests),
                                       lambda s: callers[s][0], most)]
    for source, (weight, reason, uses, is_test) in ranked:
        # a test shows how the code is used; its name and signature say most of that
        fidelity = Fidelity.SIGNATURE if is_test else Fidelity.FULL
        for lines in _caller_ranges(index, source, uses, config):
            walk.add(source, 2, weight, reason, lines, fidelity)
    return callers, ranked


def short_file_ring(walk: _Walk, ring0: list[str]) -> None:
    """Ring 2: the files of the best seed definitions (the first ``max_short_files``
    files of ``ring0``, best first), whole, when short (at most ``max_short_file_lines``
    lines; not tests). The definition a fix changes is often another one of the short
    module the task points at (a rule, a command), which no relation of the seed
    reaches; a short file shown whole cannot miss it. Like other ring-2 blocks it comes
    as its signatures first, then whole; the seeds' own lines stay in their ring-0
    blocks."""
    index, config = walk.index, walk.config
    if config.max_short_file_lines <= 0:
        return
    holding: dict[str, str] = {}
    for node in ring0:
        if not index.is_file(node):
            holding.setdefault(index.path_of(node), _label(index, node))
    for path, label in list(holding.items())[: config.max_short_files]:
        count = index.line_count(path)
        if count is not None and count <= config.max_short_file_lines and not index.is_test(path):
            walk.add(path, 2, walk.weights.short_file, f"short file holding {label}")


def twin_ring(walk: _Walk, ring0: list[str]) -> None:
    """Ring 1: the style twins (``seeds.style_twins``) of each seed type or function, and
    of the class around a seed field or constant (cfn-lint's rule class ``FindInMap``,
    seeded by its ``id = "E1011"``, and the resolver ``find_in_map`` the rule runs
    through a table of names): a project names the class of a thing and the function
    that does it with the same words. Code only, at most two a name, most relevant
    first."""
    index, config, w = walk.index, walk.config, walk.weights
    names: dict[str, str] = {}  # name -> the label of the seed it comes from
    for node in ring0:
        if index.is_file(node):
            continue
        d = index.definition(node)
        if d.kind in CALLABLE_KINDS | CONTAINER_KINDS:
            names.setdefault(d.name, _label(index, node))
        elif d.parent is not None:
            parent = f"{index.path_of(node)}#{d.parent}"
            names.setdefault(index.definition(parent).name, _label(index, parent))
    seeds = set(ring0)  # (a named compound's twins are seeds already)
    for name, label in names.items():
        twins = [n for n in style_twins(index, name) if n not in seeds and not index.is_test(n)]
        for twin in walk.byrelevance_scores(twins, 2):
            walk.add(twin, 1, w.twin + w.twin_relevance * walk.rel(twin), f"twin of {label}",
                     walk.header_if_longer(twin, config.large_definition_lines),
                     walk.detail(twin))


def sibling_ring(walk: _Walk, node: str) -> None:
    """Ring 3 around one seed definition: the definitions beside it (same file, same
    parent), most relevant and nearest first."""
    index, config, w = walk.index, walk.config, walk.weights
    d = index.definition(node)
    path = index.path_of(node)
    parent = path if d.parent is None else f"{path}#{d.parent}"
    siblings = [n for n in _children(index, parent) if n != node]
    siblings.sort(key=lambda n: (-walk.rel(n), abs(index.definition(n).start_line - d.start_line), n))
    for sibling in siblings[: config.max_siblings]:
        walk.add(sibling, 3, w.sibling + w.sibling_relevance * walk.rel(sibling),
                 f"in the same file as {d.qualified_name}",
                 walk.header_if_longer(sibling, config.caller_max_lines), walk.detail(sibling))


def word_match_ring(walk: _Walk) -> None:
    """Ring 3: definitions not yet reached whose words match the task, as signatures."""
    w = walk.weights
    matches = walk.byrelevance_scores((n for n, r in walk.relevance_of.items()
                                       if n not in walk.ring_of and r > w.word_match_floor),
                                      walk.config.max_transitive)
    for node in matches:
        walk.add(node, 3, w.word_match_relevance * walk.rel(node), f"matches {walk.words.of(node)}",
                 walk.header_if_longer(node, walk.config.caller_max_lines), Fidelity.SIGNATURE)


def signature_file_ring(walk: _Walk, file_scores: dict[str, float],
                        benchmarks_wanted: bool = False) -> None:
    """Ring 3, detail by distance: the best-matching files not yet shown get their best
    definition as a signature, so the model at least learns where else to look
    (``benchmarks_wanted``: see ``seeds.path_discount``)."""
    index, config, w = walk.index, walk.config, walk.weights
    shown = {item.path for item in walk.items.values()}
    considered = 4 * config.max_signature_files  # files ranked below this are not worth it
    added = 0
    by_path: dict[str, list[str]] = defaultdict(list)
    for node in walk.relevance_of:
        by_path[index.path_of(node)].append(node)
    for rank, path in enumerate(_rank_files(by_path, walk.relevance_of, file_scores, config,
                                            considered, benchmarks_wanted)):
        if added >= config.max_signature_files:
            break
        if path in shown or not config.admits(path):
            continue
        in_file = by_path.get(path)
        if not in_file:
            continue
        best = max(in_file, key=lambda n: (walk.rel(n), -index.definition(n).start_line))
        weight = w.signature_file - w.signature_file_fall * rank / considered
        walk.add(best, 3, weight, f"best match in {path}", None, Fidelity.SIGNATURE)
        shown.add(path)
        added += 1


def transitive_ring(walk: _Walk, ring0: list[str], callers: dict[str, _Caller],
                    ranked_callers: list[tuple[str, _Caller]]) -> None:
    """Ring 4: the callers of the callers shown in ring 2, the best ``max_transitive``."""
    index, w = walk.index, walk.weights
    transitive: dict[str, tuple[float, str, tuple[int, ...]]] = {}
    for caller, _ in ranked_callers:
        if index.is_file(caller):
            continue
        label = _label(index, caller)
        for source, _, lines in _in_edges(index, caller, ("references",)):
            if source in callers or source in ring0:
                continue
            weight = (w.transitive + w.transitive_uses * _uses(lines, w)
                      + w.transitive_relevance * walk.rel(source))
            if source not in transitive or weight > transitive[source][0]:
                transitive[source] = (weight, f"calls {label} (a caller)", lines)
    for source in best_first(index, transitive, lambda s: transitive[s][0],
                             walk.config.max_transitive):
        weight, reason, uses = transitive[source]
        for lines in _caller_ranges(index, source, uses, walk.config):
            walk.add(source, 4, weight, reason, lines)


def _rank_files(by_path: dict[str, list[str]], definitions: dict[str, float],
                files: dict[str, float], config: WalkConfig, limit: int,
                benchmarks_wanted: bool = False) -> list[str]:
    """The ``limit`` files that match the task best, best first, ties by path: each file's
    score in ``files`` over the best one (times ``seeds.path_discount``) plus the mean
    of its three most relevant definitions (``by_path``: each file's nodes, keys of
    ``definitions``, which maps a node to its relevance in [0, 1]). The first ``limit`` of
    the full sort, by a heap: a large repository matches tens of thousands of files, of
    which a few dozen are used."""
    best_file = max(files.values(), default=0.0) or 1.0
    score = {}
    for path in files.keys() | by_path.keys():
        discount = path_discount(path, config, benchmarks_wanted)
        nodes = by_path.get(path)
        best_three = sorted(map(definitions.__getitem__, nodes), reverse=True)[:3] if nodes else []
        score[path] = discount * files.get(path, 0.0) / best_file + sum(best_three) / 3
    return heapq.nsmallest(limit, score, key=lambda p: (-score[p], p))
