"""Stage 3 (pure): index + parsed task -> scored ``Item`` list, by rings.

Seeds are the definitions the task names (exact name or qualified name first, then
case-insensitive; dotted names by suffix; file paths by suffix). When nothing matches,
keywords are matched against definition names split into words (weighted by inverse
document frequency, as in BM25) and against file paths. From the seeds:

- ring 0: the seed definitions;
- ring 1: their members, the class or module around them, subclasses, callees;
- ring 2: callers and referrers of rings 0-1, and tests;
- ring 3: siblings in the same file, further word matches, the best match of each other
  matching file;
- ring 4: callers of callers.

Each ring scores within its band (``model.RING_BANDS``); nothing outside ring 0 reaches
100, so no other item outranks a ring-0 definition.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from .graph.rules import is_test_path
from .graph.view import IndexView as Index
from .lexical import name_words, query_terms
from .model import RING_BANDS, Definition, Fidelity, Item
from .task import ParsedTask, split_identifier

__all__ = ["WalkConfig", "Seed", "find_seeds", "walk_rings"]


@dataclass(frozen=True, slots=True)
class WalkConfig:
    """Knobs of the ring walk; each default says why it is what it is."""

    max_ring: int = 3
    include_tests: bool = True
    scope: str | None = None  # repo-relative directory or file; None keeps everything
    # A caller longer than this contributes a window around its calls, not its whole body.
    caller_max_lines: int = 60
    caller_window: int = 6  # lines either side of a call in such a window
    # A containing class is shown by its header, at most this many lines.
    header_max_lines: int = 15
    # Lexical seeds: the best BM25 matches join the named definitions in ring 0.
    max_keyword_seeds: int = 10
    min_seed_relevance: float = 0.25  # relative to the best match
    lexical_seed_quality: float = 0.5  # word matches score at most this...
    named_seed_floor: float = 0.5  # ...and named definitions at least this
    max_matches_per_symbol: int = 8
    file_weight: float = 0.5  # how much a file's own match lifts its definitions
    test_discount: float = 0.5  # tests rank below the code they test
    # A definition longer than this is shown by its header; its members compete on their own.
    large_definition_lines: int = 150
    max_members_of_large: int = 6
    max_callers: int = 5  # hub symbols have hundreds of callers; keep the most relevant
    max_callees: int = 6  # per seed, the most relevant helpers it uses
    max_tests: int = 3  # tests of the seeds and their members, the most relevant first
    # Callees and siblings below this relevance are shown as signatures ("detail by
    # distance"). 0 shows them whole: on the localization benchmark, signatures for them
    # cost line recall (0.588 -> 0.547 at 0.3), while signatures for tests gained 0.02.
    full_detail_relevance: float = 0.0
    max_siblings: int = 8
    max_transitive: int = 20
    # Files that match the task but have nothing shown get one signature each.
    max_signature_files: int = 10

    def __post_init__(self) -> None:
        if not 0 <= self.max_ring <= 4:
            raise ValueError(f"max_ring must be between 0 and 4, got {self.max_ring}")


@dataclass(frozen=True, slots=True)
class Seed:
    """A node the task names, with how well it matches (0-1) and why."""

    node: str
    quality: float
    reason: str


_PATHLIKE_SUFFIXES = (".py", ".pyi", ".go", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".rs",
                      ".java", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".kt",
                      ".swift", ".scala", ".md", ".toml", ".yaml", ".yml", ".json", ".cfg")


def _is_path(symbol: str) -> bool:
    return "/" in symbol or symbol.lower().endswith(_PATHLIKE_SUFFIXES)


def _in_scope(path: str, config: WalkConfig, scope: bool = True) -> bool:
    if not config.include_tests and is_test_path(path):
        return False
    if scope and config.scope:
        scope = config.scope.strip("/")
        return path == scope or path.startswith(scope + "/") or scope in ("", ".")
    return True


def _specificity(matches: int) -> float:
    """1 for a unique match, falling slowly as a name gets more common."""
    return 1.0 / (1.0 + math.log(max(1, matches)))


def relevance(index: Index, task: ParsedTask, config: WalkConfig | None = None) -> dict[str, float]:
    """Lexical relevance of each definition to the task, in [0, 1] (1 for the best).

    A definition's BM25 score is combined with its file's (weighted by
    ``config.file_weight``), so a strong function in a strong file ranks first; test code
    is discounted by ``config.test_discount``.
    """
    return _relevance(index, task, config or WalkConfig())[0]


def _rank_files(index: Index, definitions: dict[str, float], files: dict[str, float],
                config: WalkConfig) -> list[str]:
    best_file = max(files.values(), default=0.0) or 1.0
    top: dict[str, list[float]] = defaultdict(list)
    for node, value in definitions.items():
        top[index.path_of(node)].append(value)
    score = {}
    for path in set(files) | set(top):
        discount = config.test_discount if is_test_path(path) else 1.0
        best_three = sorted(top.get(path, ()), reverse=True)[:3]
        score[path] = discount * files.get(path, 0.0) / best_file + sum(best_three) / 3
    return sorted(score, key=lambda p: (-score[p], p))


def _relevance(index: Index, task: ParsedTask, config: WalkConfig
               ) -> tuple[dict[str, float], dict[str, float]]:
    """(definition relevance in [0, 1], raw BM25 file scores)."""
    terms = query_terms(task)
    if not terms:
        return {}, {}
    definition_scores = index.lexical.score_definitions(terms)
    file_scores = index.lexical.score_files(terms)
    best_file = max(file_scores.values(), default=0.0) or 1.0
    combined: dict[str, float] = {}
    for node, score in definition_scores.items():
        path = index.path_of(node)
        value = score * (1.0 + config.file_weight * file_scores.get(path, 0.0) / best_file)
        if is_test_path(path):
            value *= config.test_discount
        combined[node] = value
    best = max(combined.values(), default=0.0)
    if best <= 0:
        return {}, file_scores
    return {node: value / best for node, value in combined.items()}, file_scores


def find_seeds(index: Index, task: ParsedTask, config: WalkConfig | None = None,
               relevance_of: dict[str, float] | None = None) -> list[Seed]:
    """The nodes the task names, best first (see the module docstring)."""
    config = config or WalkConfig()
    relevance_of = relevance(index, task, config) if relevance_of is None else relevance_of
    seeds: dict[str, Seed] = {}

    def offer(node: str, quality: float, reason: str) -> None:
        # the scope filters what is shown, not where the walk starts
        if not config.include_tests and is_test_path(index.path_of(node)):
            return
        if index.is_test(node):
            quality *= 0.6  # the code under test comes before its tests
        quality *= 0.7 + 0.3 * relevance_of.get(node, 0.0)
        # a definition the task names outranks any mere word match, however common its name
        quality = config.named_seed_floor + (1 - config.named_seed_floor) * quality
        known = seeds.get(node)
        if known is None or quality > known.quality:
            seeds[node] = Seed(node, round(quality, 4), reason)

    def offer_all(nodes: list[str], quality: float, reason: str) -> None:
        # a name defined in many places says little: keep the most relevant few
        ranked = sorted(nodes, key=lambda n: (-relevance_of.get(n, 0.0), _node_order(index, n)))
        for node in ranked[: config.max_matches_per_symbol]:
            offer(node, quality * _specificity(len(nodes)), reason)

    lower_names: dict[str, list[str]] = defaultdict(list)
    for name in index.name_counts():
        lower_names[name.lower()].extend(index.definitions_named(name))
    path_seeds: list[str] = []
    for symbol in task.symbols:
        if _is_path(symbol):
            wanted = symbol.strip("./")
            for path in index.files:
                if path == wanted or path.endswith("/" + wanted):
                    path_seeds.append(path)
            continue
        parts = symbol.split(".")
        name = parts[-1]
        exact = index.definitions_named(name)
        if len(parts) > 1:
            qualified = [n for n in exact
                         if ("." + index.definition(n).qualified_name).endswith("." + symbol)]
            if qualified:
                offer_all(qualified, 1.0, f"definition of {symbol}")
                continue
            # `module.name` or `pkg.module.Class`: the other parts name the file's path
            qualifiers = {p.lower() for p in parts[:-1]}
            by_path = [n for n in exact
                       if qualifiers & set(split_identifier(index.path_of(n).rsplit(".", 1)[0]))
                       or qualifiers & {w.lower() for w in index.path_of(n).replace(".", "/").split("/")}]
            if by_path:
                offer_all(by_path, 0.85, f"definition of {symbol}")
                continue
        if exact:
            offer_all(exact, 0.95, f"definition of {name}")
            continue
        folded = lower_names.get(name.lower(), [])
        if not folded and len(name) > 3 and name.lower().endswith("s"):
            folded = lower_names.get(name.lower()[:-1], [])  # "Blueprints" names `Blueprint`
        for node in folded:
            offer(node, 0.7 * _specificity(len(folded)),
                  f"definition of {index.definition(node).name} (matches {name})")

    seeded_files = {index.path_of(n) for n in seeds}
    for path in sorted(set(path_seeds)):
        if path in seeded_files:
            for node in [n for n in seeds if index.path_of(n) == path]:
                seed = seeds[node]
                seeds[node] = Seed(node, min(1.0, seed.quality + 0.1), seed.reason + f" in {path}")
        else:
            seeds[path] = Seed(path, 0.8, f"file {path} named in the task")

    # The definitions whose words match the task best, as in a search engine.
    terms = sorted(query_terms(task))
    lexical = sorted((n for n, r in relevance_of.items() if r >= config.min_seed_relevance),
                     key=lambda n: (-relevance_of[n], _node_order(index, n)))
    for node in lexical[: config.max_keyword_seeds]:
        if node in seeds or not _in_scope(index.path_of(node), config, scope=False):
            continue
        words = _matching_words(index, node, terms)
        seeds[node] = Seed(node, round(config.lexical_seed_quality * relevance_of[node], 4),
                           f"{index.definition(node).qualified_name} matches {words}")
    return sorted(seeds.values(), key=lambda s: (-s.quality, _node_order(index, s.node)))


def _matching_words(index: Index, node: str, terms: list[str]) -> str:
    """The task's words found in a definition's name, else 'the task's words'."""
    in_name = name_words(index.definition(node).name)
    found = [t for t in terms if t in in_name]
    return ", ".join(found) if found else "the task's words"


def _node_order(index: Index, node: str) -> tuple[str, int]:
    if index.is_file(node):
        return (node, 0)
    return (index.path_of(node), index.definition(node).start_line)


def _header_range(index: Index, node: str, definition: Definition, config: WalkConfig
                  ) -> tuple[int, int]:
    end = min(definition.end_line, definition.start_line + config.header_max_lines - 1)
    for child in _children(index, node):
        end = min(end, max(definition.start_line, index.definition(child).start_line - 1))
        break
    return definition.start_line, end


def _children(index: Index, node: str) -> list[str]:
    children = [v for v, _, _ in index.edges_out(node, ("contains",)) if not index.is_file(v)]
    return sorted(children, key=lambda n: _node_order(index, n))


_VERBS = {"call": "calls", "type": "uses", "import_member": "imports", "reference": "uses",
          "inherit": "subclasses"}


def _in_edges(index: Index, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, tuple[int, ...]]]:
    """(source, verb or edge kind, lines) of the edges of ``kinds`` into ``node``."""
    found = []
    for source, key, data in index.edges_in(node, kinds):
        verb = "tests" if key == "tests" else _VERBS.get(data.get("via", ""), key)
        found.append((source, verb, data.get("lines", ())))
    found.sort(key=lambda e: (_node_order(index, e[0]), e[1]))
    return found


def _label(index: Index, node: str) -> str:
    if index.is_file(node):
        return node
    return index.definition(node).qualified_name


class _Collector:
    """Keeps the best item per (path, range) and each node's ring."""

    def __init__(self, index: Index, config: WalkConfig) -> None:
        self.index = index
        self.config = config
        self.items: dict[tuple[str, int, int], Item] = {}
        self.ring_of: dict[str, int] = {}

    def add(self, node: str, ring: int, weight: float, reason: str,
            lines: tuple[int, int] | None = None, fidelity: Fidelity = Fidelity.FULL) -> None:
        path = self.index.path_of(node)
        if not _in_scope(path, self.config) or ring > self.config.max_ring:
            return
        self.ring_of.setdefault(node, ring)
        if lines is None:
            if self.index.is_file(node):
                lines = (1, max(1, self._line_count(path)))
            else:
                d = self.index.definition(node)
                lines = (d.start_line, d.end_line)
        symbol = None if self.index.is_file(node) else _label(self.index, node)
        item = Item(path=path, start_line=lines[0], end_line=lines[1],
                    score=RING_BANDS[ring].score(weight), ring=ring, reason=reason, symbol=symbol,
                    fidelity=fidelity)
        key = (path, lines[0], lines[1])
        known = self.items.get(key)
        if known is None or (item.score, -item.ring) > (known.score, -known.ring):
            self.items[key] = item

    def _line_count(self, path: str) -> int:
        count = self.index.line_count(path)
        return 10**9 if count is None else count  # the source reader clamps unknown lengths


def _caller_ranges(index: Index, caller: str, lines: tuple[int, ...], config: WalkConfig
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


def walk_rings(index: Index, task: ParsedTask, config: WalkConfig | None = None) -> list[Item]:
    """Walk out from the task's seeds and return scored items, best first.

    Parameters
    ----------
    index : Index
        The indexed repository.
    task : ParsedTask
        The parsed task.
    config : WalkConfig, optional
        Ring limit, test and scope filters, caps.

    Returns
    -------
    list of Item
        Sorted by score (descending), then path, then start line. Empty when the task
        names nothing in the repository.
    """
    config = config or WalkConfig()
    relevance_of, file_scores = _relevance(index, task, config)
    seeds = find_seeds(index, task, config, relevance_of)
    collect = _Collector(index, config)

    def rel(node: str) -> float:
        return relevance_of.get(node, 0.0)

    ring0 = [seed.node for seed in seeds]
    large: set[str] = set()
    for seed in seeds:
        lines = None
        if not index.is_file(seed.node):
            d = index.definition(seed.node)
            if d.end_line - d.start_line + 1 > config.large_definition_lines and _children(index, seed.node):
                large.add(seed.node)  # shown by its header; its members compete in ring 1
                lines = _header_range(index, seed.node, d, config)
        collect.add(seed.node, 0, seed.quality, seed.reason, lines)

    # Ring 1: members, the enclosing definition, subclasses, callees.
    members: list[str] = []
    for node in ring0:
        if index.is_file(node):
            continue
        label = _label(index, node)
        children = _children(index, node)
        if node in large:
            # a large class is shown by its header and the members the task points at
            children = sorted(children, key=lambda c: (-rel(c), _node_order(index, c)))
            children = children[: config.max_members_of_large]
        for child in children:
            kind = index.definition(child).kind
            base = 0.3 if kind in ("method", "function") else 0.1
            collect.add(child, 1, base + 0.6 * rel(child), f"member of {label}")
            members.append(child)
        for parent, _, _ in _in_edges(index, node, ("contains",)):
            if not index.is_file(parent) and parent not in ring0:
                d = index.definition(parent)
                collect.add(parent, 1, 0.5, f"contains {label}",
                            _header_range(index, parent, d, config))
        for subclass, _, _ in _in_edges(index, node, ("inherits",)):
            collect.add(subclass, 1, 0.3 + 0.5 * rel(subclass), f"subclass of {label}")
        callees = [(callee, data) for callee, _, data in index.edges_out(node, ("references", "inherits"))
                   if callee not in ring0 and not index.is_file(callee)]
        # a long function calls dozens of helpers: keep the ones the task's words point at
        callees.sort(key=lambda c: (-rel(c[0]), _node_order(index, c[0])))
        for callee, data in callees[: config.max_callees]:
            d = index.definition(callee)
            lines = (_header_range(index, callee, d, config)
                     if d.end_line - d.start_line + 1 > config.large_definition_lines else None)
            verb = "base class of" if data.get("via") == "inherit" else "used by"
            collect.add(callee, 1, 0.1 + 0.7 * rel(callee), f"{verb} {label}", lines,
                        Fidelity.FULL if rel(callee) >= config.full_detail_relevance
                        else Fidelity.SIGNATURE)

    # Ring 2: callers and referrers of rings 0-1, and tests.
    callers: dict[str, tuple[float, str, list[tuple[int, int]], bool]] = {}
    for target in ring0 + members:
        if index.is_file(target):
            continue
        label = _label(index, target)
        for source, kind, lines in _in_edges(index, target, ("references", "tests", "inherits")):
            if source in ring0 or source == target:
                continue
            is_test = kind == "tests" or index.is_test(source)
            if is_test:
                weight, verb = 0.05 + 0.15 * rel(source), "tests"
            else:
                weight = (0.25 if target in ring0 else 0.15) + 0.1 * min(1.0, len(lines) / 3)
                weight += 0.55 * rel(source) - (0.15 if kind == "imports" else 0.0)
                verb = kind
            known = callers.get(source)
            if known is None or weight > known[0]:
                callers[source] = (weight, f"{verb} {label}",
                                   _caller_ranges(index, source, lines, config), is_test)
    ranked_callers = sorted(callers.items(), key=lambda c: (-c[1][0], _node_order(index, c[0])))
    # callers and tests each get their own quota, so that neither crowds out the other
    ranked_callers = ([c for c in ranked_callers if not c[1][3]][: config.max_callers]
                      + [c for c in ranked_callers if c[1][3]][: config.max_tests])
    for source, (weight, reason, ranges, is_test) in ranked_callers:
        # a test shows how the code is used; its name and signature say most of that
        fidelity = Fidelity.SIGNATURE if is_test else Fidelity.FULL
        for lines in ranges:
            collect.add(source, 2, weight, reason, lines, fidelity)

    # Ring 3: siblings of the seeds in the same file, then further word matches.
    for node in ring0:
        if index.is_file(node):
            continue
        d = index.definition(node)
        path = index.path_of(node)
        siblings = [n for n in _children(index, path) if n != node] if d.parent is None else \
            [n for n in _children(index, f"{path}#{d.parent}") if n != node]
        siblings.sort(key=lambda n: (-rel(n), abs(index.definition(n).start_line - d.start_line), n))
        for sibling in siblings[: config.max_siblings]:
            sd = index.definition(sibling)
            collect.add(sibling, 3, 0.2 + 0.7 * rel(sibling), f"in the same file as {d.qualified_name}",
                        _header_range(index, sibling, sd, config)
                        if sd.end_line - sd.start_line + 1 > config.caller_max_lines else None,
                        Fidelity.FULL if rel(sibling) >= config.full_detail_relevance
                        else Fidelity.SIGNATURE)
    matches = sorted((n for n, r in relevance_of.items() if n not in collect.ring_of and r > 0.2),
                     key=lambda n: (-rel(n), _node_order(index, n)))
    for node in matches[: config.max_transitive]:
        d = index.definition(node)
        lines = (_header_range(index, node, d, config)
                 if d.end_line - d.start_line + 1 > config.caller_max_lines else None)
        collect.add(node, 3, 0.8 * rel(node), "matches the task's words", lines,
                    Fidelity.SIGNATURE)

    # Detail by distance: the best-matching files not yet shown get their best definition
    # as a signature, so the model at least learns where else to look.
    shown = {item.path for item in collect.items.values()}
    added = 0
    for rank, path in enumerate(_rank_files(index, relevance_of, file_scores, config)):
        if added >= config.max_signature_files or rank >= 4 * config.max_signature_files:
            break
        if path in shown or not _in_scope(path, config):
            continue
        in_file = [n for n in relevance_of if index.path_of(n) == path]
        if not in_file:
            continue
        best = max(in_file, key=lambda n: (rel(n), -index.definition(n).start_line))
        weight = 0.95 - 0.5 * rank / (4 * config.max_signature_files)
        collect.add(best, 3, weight, f"best match in {path}", None, Fidelity.SIGNATURE)
        shown.add(path)
        added += 1

    # Ring 4: callers of callers.
    transitive: dict[str, tuple[float, str, list[tuple[int, int]]]] = {}
    for caller, _ in ranked_callers:
        if index.is_file(caller):
            continue
        label = _label(index, caller)
        for source, kind, lines in _in_edges(index, caller, ("references",)):
            if source in callers or source in ring0:
                continue
            weight = 0.2 + 0.2 * min(1.0, len(lines) / 3) + 0.6 * rel(source)
            if source not in transitive or weight > transitive[source][0]:
                transitive[source] = (weight, f"calls {label} (a caller)",
                                      _caller_ranges(index, source, lines, config))
    ranked = sorted(transitive.items(), key=lambda c: (-c[1][0], _node_order(index, c[0])))
    for source, (weight, reason, ranges) in ranked[: config.max_transitive]:
        for lines in ranges:
            collect.add(source, 4, weight, reason, lines)

    return sorted(collect.items.values(), key=lambda i: (-i.score, i.path, i.start_line, i.end_line))
