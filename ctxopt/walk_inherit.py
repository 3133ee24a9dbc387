"""Ring 1 along inheritance (pure): what a seed class inherits, and what a seed method
overrides or is overridden by.

A class named in a task runs code it does not define: the constructor and the other
members of its bases that it does not override (a task about ``Gauge()`` needs
``MeterBase.__init__`` when ``Gauge`` has no constructor of its own). A method named in a
task is the override of a base's method and may be overridden in subclasses; each of those
is where its behaviour may really be decided. The walk follows ``inherits`` edges (class ->
base class, ``graph.rules``) up to ``WalkConfig.max_base_depth`` levels, nearer bases
first, as a method resolution order does.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .graph.view import IndexView
from .parsing.kinds import CALLABLE_KINDS, TYPE_KINDS
from .seeds import node_order

if TYPE_CHECKING:
    from .walk import _Walk

__all__ = ["CONSTRUCTOR_NAMES", "constructor_of", "inheritance_ring", "type_of"]

# The names a constructor or initializer has, by language convention: Python, JavaScript
# and TypeScript, PHP, Ruby, Swift and Kotlin, Rust's and Go-like ``new``; a member named
# like its class (Java, C#, C++) counts too (``_is_constructor``).
CONSTRUCTOR_NAMES = frozenset({"__init__", "__new__", "__post_init__", "constructor",
                               "__construct", "initialize", "init", "new"})


def _is_constructor(index: IndexView, member: str, owner: str) -> bool:
    name = index.definition(member).name
    return name in CONSTRUCTOR_NAMES or name == index.definition(owner).name


def constructor_of(index: IndexView, cls: str, depth: int) -> str | None:
    """The constructor that runs when type ``cls`` is called: its own, else the nearest
    base's up to ``depth`` levels up (``WalkConfig.max_base_depth``; 0: its own only);
    None when none is defined in the repository."""
    for owner in [cls] + [base for base, _ in _ancestors(index, cls, depth)]:
        for member in _members(index, owner):
            if (index.definition(member).kind in CALLABLE_KINDS
                    and _is_constructor(index, member, owner)):
                return member
    return None


def _members(index: IndexView, node: str) -> list[str]:
    """The definitions directly inside ``node``, in file order."""
    found = [v for v, _, _ in index.edges_out(node, ("contains",)) if not index.is_file(v)]
    return sorted(found, key=lambda n: node_order(index, n))


def type_of(index: IndexView, node: str) -> str | None:
    """The type a method belongs to (its enclosing definition, or the owner of a method
    declared out of line), None for a definition outside every type."""
    for parent, _, _ in index.edges_in(node, ("contains",)):
        if not index.is_file(parent) and index.definition(parent).kind in TYPE_KINDS:
            return parent
    return None


def _ancestors(index: IndexView, cls: str, depth: int) -> list[tuple[str, int]]:
    """(base class, level) of ``cls``'s bases up to ``depth`` levels, breadth first."""
    seen, frontier = {cls}, [cls]
    found: list[tuple[str, int]] = []
    for level in range(1, depth + 1):
        step = []
        for node in frontier:
            for base, _, _ in index.edges_out(node, ("inherits",)):
                if base not in seen and not index.is_file(base):
                    seen.add(base)
                    step.append(base)
        found += [(b, level) for b in step]
        frontier = step
    return found


def _descendants(index: IndexView, cls: str, depth: int) -> list[str]:
    """``cls``'s subclasses up to ``depth`` levels, breadth first."""
    seen, frontier = {cls}, [cls]
    found: list[str] = []
    for _ in range(depth):
        step = [s for node in frontier for s, _, _ in index.edges_in(node, ("inherits",))
                if s not in seen and not index.is_file(s)]
        step = list(dict.fromkeys(step))
        seen.update(step)
        found += step
        frontier = step
    return found


def inheritance_ring(walk: _Walk, node: str, ring0: list[str]) -> None:
    """Ring 1 around one seed definition along inheritance: for a type, the members of its
    bases it does not override (constructors first, then by relevance, at most
    ``max_inherited``); for a method, the base methods it overrides and the overrides in
    subclasses (at most ``max_overrides``, most relevant first)."""
    index = walk.index
    kind = index.definition(node).kind
    if kind in TYPE_KINDS:
        _inherited_members(walk, node, ring0)
    elif kind in CALLABLE_KINDS:
        owner = type_of(index, node)
        if owner is not None:
            _overrides(walk, node, owner, ring0)


def _inherited_members(walk: _Walk, cls: str, ring0: list[str]) -> None:
    index, config, w = walk.index, walk.config, walk.weights
    label = index.definition(cls).qualified_name
    defined = {index.definition(m).name for m in _members(index, cls)}
    constructors: list[str] = []
    others: list[str] = []
    for base, _level in _ancestors(index, cls, config.max_base_depth):
        members = _members(index, base)
        for member in members:
            name = index.definition(member).name
            if name in defined or member in ring0:
                continue
            if index.definition(member).kind not in CALLABLE_KINDS:
                continue
            (constructors if _is_constructor(index, member, base) else others).append(member)
        defined |= {index.definition(m).name for m in members}  # nearer bases shadow farther
    # the nearest base's constructor is the one that runs
    for member in constructors[:1]:
        walk.add(member, 1, w.inherited_constructor + w.inherited_relevance * walk.rel(member),
                 f"constructor {label} inherits",
                 walk.header_if_longer(member, config.large_definition_lines))
    ranked = walk.byrelevance_scores(others, config.max_inherited)
    for member in ranked:
        walk.add(member, 1, w.inherited + w.inherited_relevance * walk.rel(member),
                 f"inherited by {label}",
                 walk.header_if_longer(member, config.large_definition_lines),
                 walk.detail(member))


def _overrides(walk: _Walk, method: str, owner: str, ring0: list[str]) -> None:
    index, config, w = walk.index, walk.config, walk.weights
    name = index.definition(method).name
    label = index.definition(method).qualified_name
    for base, _level in _ancestors(index, owner, config.max_base_depth):
        same = [m for m in _members(index, base) if index.definition(m).name == name]
        if same:  # the nearest definition is the one overridden
            for member in same:
                if member not in ring0:
                    walk.add(member, 1, w.overridden + w.override_relevance * walk.rel(member),
                             f"overridden by {label}",
                             walk.header_if_longer(member, config.large_definition_lines))
            break
    if _is_constructor(index, method, owner):
        return  # every subclass has its own constructor: they are its subclasses, not overrides
    found = [m for sub in _descendants(index, owner, config.max_base_depth)
             for m in _members(index, sub) if index.definition(m).name == name and m not in ring0]
    for member in walk.byrelevance_scores(found, config.max_overrides):
        walk.add(member, 1, w.override + w.override_relevance * walk.rel(member),
                 f"overrides {label}",
                 walk.header_if_longer(member, config.large_definition_lines))
