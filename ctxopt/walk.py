"""Stage 3 (pure): index + parsed task -> scored ``Item`` list, by rings.

Seeds are the definitions the task names (exact name or qualified name first, then
case-insensitive; dotted names by suffix; file paths by suffix). When nothing matches,
keywords are matched against definition names split into words (weighted by inverse
document frequency, as in BM25) and against file paths. From the seeds:

- ring 0: the seed definitions (score 100-150);
- ring 1: their members, the class or module around them, subclasses (60-99);
- ring 2: callers and referrers of rings 0-1, and tests (60-90);
- ring 3: siblings in the same file (30-59);
- ring 4: callers of callers (10-29).

Nothing outside ring 0 reaches 100, so no other item outranks a ring-0 definition.
"""
from __future__ import annotations

import math
import posixpath
from collections import defaultdict
from dataclasses import dataclass

from .index import Index, is_test_path
from .model import Definition, Item
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
    max_keyword_seeds: int = 5
    max_callers: int = 30  # hub symbols have hundreds of callers; keep the best
    max_siblings: int = 8
    max_transitive: int = 20

    def __post_init__(self) -> None:
        if not 0 <= self.max_ring <= 4:
            raise ValueError(f"max_ring must be between 0 and 4, got {self.max_ring}")


@dataclass(frozen=True, slots=True)
class Seed:
    """A node the task names, with how well it matches (0-1) and why."""

    node: str
    quality: float
    reason: str


# Score bands per ring: (base, span). Ring 0 is 100 + 50*quality.
_BANDS = {0: (100.0, 50.0), 1: (60.0, 39.0), 2: (60.0, 30.0), 3: (30.0, 29.0), 4: (10.0, 19.0)}
_PATHLIKE_SUFFIXES = (".py", ".pyi", ".go", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".rs",
                      ".java", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".kt",
                      ".swift", ".scala", ".md", ".toml", ".yaml", ".yml", ".json", ".cfg")


def _score(ring: int, weight: float) -> float:
    base, span = _BANDS[ring]
    return round(base + span * max(0.0, min(1.0, weight)), 3)


def _is_path(symbol: str) -> bool:
    return "/" in symbol or symbol.lower().endswith(_PATHLIKE_SUFFIXES)


def _in_scope(path: str, config: WalkConfig) -> bool:
    if not config.include_tests and is_test_path(path):
        return False
    if config.scope:
        scope = config.scope.strip("/")
        return path == scope or path.startswith(scope + "/") or scope in ("", ".")
    return True


def _specificity(matches: int) -> float:
    """1 for a unique match, falling slowly as a name gets more common."""
    return 1.0 / (1.0 + math.log(max(1, matches)))


def find_seeds(index: Index, task: ParsedTask, config: WalkConfig | None = None) -> list[Seed]:
    """The nodes the task names, best first (see the module docstring)."""
    config = config or WalkConfig()
    seeds: dict[str, Seed] = {}

    def offer(node: str, quality: float, reason: str) -> None:
        # the scope filters what is shown, not where the walk starts
        if not config.include_tests and is_test_path(index.path_of(node)):
            return
        if index.is_test(node):
            quality *= 0.6  # the code under test comes before its tests
        known = seeds.get(node)
        if known is None or quality > known.quality:
            seeds[node] = Seed(node, round(quality, 4), reason)

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
                for node in qualified:
                    offer(node, _specificity(len(qualified)), f"definition of {symbol}")
                continue
            # `module.name` or `pkg.module.Class`: the other parts name the file's path
            qualifiers = {p.lower() for p in parts[:-1]}
            by_path = [n for n in exact
                       if qualifiers & set(split_identifier(index.path_of(n).rsplit(".", 1)[0]))
                       or qualifiers & {w.lower() for w in index.path_of(n).replace(".", "/").split("/")}]
            if by_path:
                for node in by_path:
                    offer(node, 0.85 * _specificity(len(by_path)), f"definition of {symbol}")
                continue
        if exact:
            for node in exact:
                offer(node, 0.95 * _specificity(len(exact)), f"definition of {name}")
            continue
        folded = lower_names.get(name.lower(), [])
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

    if not seeds:
        for seed in _keyword_seeds(index, task, config):
            seeds[seed.node] = seed
    return sorted(seeds.values(), key=lambda s: (-s.quality, _node_order(index, s.node)))


def _node_order(index: Index, node: str) -> tuple[str, int]:
    if index.is_file(node):
        return (node, 0)
    return (index.path_of(node), index.definition(node).start_line)


def _keyword_seeds(index: Index, task: ParsedTask, config: WalkConfig) -> list[Seed]:
    keywords = set(task.keywords)
    if not keywords:
        return []
    document_frequency: dict[str, int] = defaultdict(int)
    name_words: dict[str, set[str]] = {}
    counts = index.name_counts()
    for name in counts:
        words = set(split_identifier(name))
        name_words[name] = words
        for word in words & keywords:
            document_frequency[word] += counts[name]
    total = max(1, sum(counts.values()))
    idf = {w: math.log(1 + total / df) for w, df in document_frequency.items()}
    best_idf = max(idf.values(), default=1.0)
    scored: list[tuple[float, str, str]] = []
    for name, words in name_words.items():
        hits = words & keywords
        if not hits:
            continue
        weight = sum(idf[w] for w in hits) / best_idf
        coverage = len(hits) / len(words)
        quality = min(1.0, 0.5 * weight / max(1, len(keywords)) * 2) * (0.5 + 0.5 * coverage)
        for node in index.definitions_named(name):
            if _in_scope(index.path_of(node), config):
                scored.append((quality, node, f"name {name} matches {', '.join(sorted(hits))}"))
    for path in index.files:
        words = set(split_identifier(path.rsplit(".", 1)[0]))
        hits = words & keywords
        if hits and _in_scope(path, config):
            quality = 0.6 * len(hits) / len(keywords)
            scored.append((quality, path, f"path {path} matches {', '.join(sorted(hits))}"))
    scored.sort(key=lambda s: (-s[0], _node_order(index, s[1])))
    return [Seed(node, round(0.5 * q, 4), reason)
            for q, node, reason in scored[: config.max_keyword_seeds]]


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
            lines: tuple[int, int] | None = None) -> None:
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
                    score=_score(ring, weight), ring=ring, reason=reason, symbol=symbol)
        key = (path, lines[0], lines[1])
        known = self.items.get(key)
        if known is None or (item.score, -item.ring) > (known.score, -known.ring):
            self.items[key] = item

    def _line_count(self, path: str) -> int:
        tags = self.index.file_tags(path)
        return tags.line_count if tags else 10**9  # the source reader clamps unknown lengths


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
    seeds = find_seeds(index, task, config)
    collect = _Collector(index, config)
    ring0 = []
    for seed in seeds:
        collect.add(seed.node, 0, seed.quality, seed.reason)
        ring0.append(seed.node)

    # Ring 1: members, the enclosing definition, subclasses.
    members: list[str] = []
    for node in ring0:
        if index.is_file(node):
            continue
        label = _label(index, node)
        for child in _children(index, node):
            kind = index.definition(child).kind
            collect.add(child, 1, 0.9 if kind in ("method", "function") else 0.6,
                        f"member of {label}")
            members.append(child)
        for parent, _, _ in _in_edges(index, node, ("contains",)):
            if not index.is_file(parent) and parent not in ring0:
                d = index.definition(parent)
                collect.add(parent, 1, 0.7, f"contains {label}",
                            _header_range(index, parent, d, config))
        for subclass, _, _ in _in_edges(index, node, ("inherits",)):
            collect.add(subclass, 1, 0.6, f"subclass of {label}")

    # Ring 2: callers and referrers of rings 0-1, and tests.
    callers: dict[str, tuple[float, str, list[tuple[int, int]]]] = {}
    for target in ring0 + members:
        if index.is_file(target):
            continue
        label = _label(index, target)
        for source, kind, lines in _in_edges(index, target, ("references", "tests", "inherits")):
            if kind == "imports":
                weight_penalty = 0.3  # an import line says less than a call
            else:
                weight_penalty = 0.0
            if source in ring0 or source == target:
                continue
            is_test = kind == "tests" or index.is_test(source)
            weight = (0.5 if target in ring0 else 0.3) + 0.2 * min(1.0, len(lines) / 3)
            verb = "tests" if is_test else kind
            weight -= (0.2 if is_test else 0.0) + weight_penalty
            known = callers.get(source)
            if known is None or weight > known[0]:
                callers[source] = (weight, f"{verb} {label}",
                                   _caller_ranges(index, source, lines, config))
    ranked_callers = sorted(callers.items(), key=lambda c: (-c[1][0], _node_order(index, c[0])))
    for source, (weight, reason, ranges) in ranked_callers[: config.max_callers]:
        for lines in ranges:
            collect.add(source, 2, weight, reason, lines)

    # Ring 3: siblings of the seeds in the same file.
    for node in ring0:
        if index.is_file(node):
            continue
        d = index.definition(node)
        path = index.path_of(node)
        siblings = [n for n in _children(index, path) if n != node] if d.parent is None else \
            [n for n in _children(index, f"{path}#{d.parent}") if n != node]
        siblings.sort(key=lambda n: (abs(index.definition(n).start_line - d.start_line), n))
        for sibling in siblings[: config.max_siblings]:
            sd = index.definition(sibling)
            distance = abs(sd.start_line - d.start_line) / max(1, index.file_tags(path).line_count)
            collect.add(sibling, 3, 0.8 - 0.6 * distance, f"in the same file as {d.qualified_name}",
                        _header_range(index, sibling, sd, config)
                        if sd.end_line - sd.start_line + 1 > config.caller_max_lines else None)

    # Ring 4: callers of callers.
    transitive: dict[str, tuple[float, str, list[tuple[int, int]]]] = {}
    for caller, _ in ranked_callers[: config.max_callers]:
        if index.is_file(caller):
            continue
        label = _label(index, caller)
        for source, kind, lines in _in_edges(index, caller, ("references",)):
            if source in callers or source in ring0:
                continue
            weight = 0.3 + 0.3 * min(1.0, len(lines) / 3)
            if source not in transitive or weight > transitive[source][0]:
                transitive[source] = (weight, f"calls {label} (a caller)",
                                      _caller_ranges(index, source, lines, config))
    ranked = sorted(transitive.items(), key=lambda c: (-c[1][0], _node_order(index, c[0])))
    for source, (weight, reason, ranges) in ranked[: config.max_transitive]:
        for lines in ranges:
            collect.add(source, 4, weight, reason, lines)

    return sorted(collect.items.values(), key=lambda i: (-i.score, i.path, i.start_line, i.end_line))
