"""Ring 1 along parameter flow (pure): the callees a parameter the task names is passed on to.

A task that names a keyword argument (``strict=True``, ``lazy=False``) or a parameter
("the encoding is ignored") is usually about where that argument is finally used, often two
or three calls below the function the task names. From each seed definition that takes such
a parameter (a class by its constructor), the walk follows call edges to the callees whose
own parameter lists hold the same name, and on from those, up to
``WalkConfig.max_flow_depth`` calls down: the path the argument travels.

Parameter names come from the stored signatures (``Definition.signature``: the header with
its whole parameter list, see ``treesitter.signature_of``).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .graph.view import IndexView
from .parsing.kinds import CALLABLE_KINDS, TYPE_KINDS
from .seeds import node_order
from .task import IDENTIFIER, ParsedTask
from .walk_inherit import constructor_of

if TYPE_CHECKING:
    from .walk import _Walk

__all__ = ["flow_ring", "parameter_names", "task_parameters"]

_IDENTIFIER = re.compile(IDENTIFIER)
# `name=value` in a task: a keyword argument as written in a call (not `==`)
_KEYWORD_ARGUMENT = re.compile(rf"(?<![\w.])({IDENTIFIER})\s*=(?!=)")
# Words that are parameter names in every other signature and so say nothing on their own.
_RECEIVERS = frozenset({"self", "cls", "this", "args", "kwargs", "kw", "kwds", "options",
                        "opts", "ctx", "context"})


def parameter_names(signature: str, name: str) -> set[str]:
    """The parameter names of a callable's ``signature`` (its header as stored), the
    parameter list being the first parenthesis after ``name``; empty when there is none.

    Each comma-separated parameter contributes the identifier before its ``:`` (Python,
    TypeScript, Rust, Kotlin, Swift), else the first and last identifiers before its
    ``=`` (Go's ``name Type`` and C-like ``Type name``): a type name may slip in, which
    costs nothing unless the task names that type too.
    """
    match = re.search(rf"\b{re.escape(name)}\s*(?:<[^()]*?>)?\s*\(", signature)
    if match is None:
        return set()
    start = match.end()
    depth, end = 1, start
    while end < len(signature) and depth:
        depth += {"(": 1, ")": -1}.get(signature[end], 0)
        end += 1
    names: set[str] = set()
    for part in _split_top_level(signature[start:end - 1]):
        head = part.split("=", 1)[0]
        colon = re.search(r"(?<!:):(?!:)", head)
        words = _IDENTIFIER.findall(head[:colon.start()] if colon else head)
        words = [w for w in words if w not in ("mut", "const", "final", "ref", "out", "in")]
        if words:
            names.update((words[0], words[-1]) if not colon else (words[-1],))
    return names - _RECEIVERS


def _split_top_level(text: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def task_parameters(task: ParsedTask) -> tuple[set[str], set[str]]:
    """(keyword arguments written ``name=value`` in the task, every word of the task
    that could name a parameter: its identifiers and keywords, as written and lower-case)."""
    explicit = set(_KEYWORD_ARGUMENT.findall(task.raw))
    words = {s for s in task.symbols if _IDENTIFIER.fullmatch(s)} | set(task.keywords)
    return explicit, words | explicit


def _callable_of(index: IndexView, node: str, base_depth: int) -> str | None:
    """The node when it is callable; a type's constructor (its own, else the nearest
    base's up to ``base_depth`` levels up)."""
    kind = index.definition(node).kind
    if kind in CALLABLE_KINDS:
        return node
    if kind in TYPE_KINDS:
        return constructor_of(index, node, base_depth)
    return None


def _parameters(index: IndexView, node: str, cache: dict[str, set[str]]) -> set[str]:
    known = cache.get(node)
    if known is None:
        d = index.definition(node)
        known = cache[node] = (parameter_names(d.signature, d.name)
                               if d.kind in CALLABLE_KINDS else set())
    return known


def flow_ring(walk: _Walk, task: ParsedTask, starts: list[str], ring0: list[str]) -> None:
    """Ring 1 along parameter flow (see the module docstring) from the seeds ``starts``:
    at most ``max_flow`` callees, nearer and more relevant first, each shown whole (or by
    its header when long); none in ``ring0``."""
    index, config, w = walk.index, walk.config, walk.weights
    if config.max_flow_depth <= 0 or config.max_flow <= 0:
        return
    explicit, words = task_parameters(task)
    if not words:
        return
    cache: dict[str, set[str]] = {}
    found: dict[str, tuple[int, str]] = {}  # callee -> (depth, reason)
    for seed in starts:
        if index.is_file(seed):
            continue
        start = _callable_of(index, seed, config.max_base_depth)
        if start is None:
            continue
        # the seed's own parameters the task names; a keyword argument may also reach it
        # through **kwargs, so it flows from any seed
        flowing = (_parameters(index, start, cache) & words) | explicit
        if flowing:
            _follow(index, start, flowing, config.max_flow_depth, config.max_base_depth,
                    cache, found, ring0)
    ranked = sorted(found.items(), key=lambda f: (f[1][0], -walk.rel(f[0]), node_order(index, f[0])))
    for callee, (depth, reason) in ranked[: config.max_flow]:
        weight = w.flow - w.flow_fall * (depth - 1) + w.flow_relevance * walk.rel(callee)
        walk.add(callee, 1, weight, reason,
                 walk.header_if_longer(callee, config.large_definition_lines))


def _follow(index: IndexView, start: str, flowing: set[str], depth: int, base_depth: int,
            cache: dict[str, set[str]], found: dict[str, tuple[int, str]], ring0: list[str]
            ) -> None:
    """Breadth first from ``start`` along call edges, through callees that take one of the
    ``flowing`` parameters; record each such callee with its depth. A called type stands
    for its constructor, looked for up to ``base_depth`` levels of bases up."""
    frontier = [(start, flowing)]
    seen = {start}
    for level in range(1, depth + 1):
        step = []
        for node, names in frontier:
            label = index.definition(node).qualified_name
            for callee, _, data in index.edges_out(node, ("references",)):
                if callee in seen or index.is_file(callee) or data.get("via") != "call":
                    continue
                target = _callable_of(index, callee, base_depth)
                if target is None or target in seen:
                    continue
                passed = _parameters(index, target, cache) & names
                if not passed:
                    continue
                seen.update((callee, target))
                step.append((target, passed))
                if target not in ring0 and (target not in found or found[target][0] > level):
                    found[target] = (level, f"{label} passes {', '.join(sorted(passed))} to it")
        frontier = step
