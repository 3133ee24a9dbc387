"""Helpers for tests that read the graph of a stored index."""
from __future__ import annotations

from ctxopt.store import StoredIndex

KINDS = ("contains", "references", "inherits", "imports", "tests")


def every_node(index: StoredIndex) -> list[str]:
    """Every file and definition node of an index, files first."""
    nodes = list(index.files)
    for path in index.files:
        nodes += [f"{path}#{i}" for i in range(len(index.file_definitions(path) or ()))]
    return nodes


def label(index: StoredIndex, node: str) -> str:
    """A file's path, or ``path:qualified name`` for a definition."""
    if index.is_file(node):
        return node
    return f"{index.path_of(node)}:{index.definition(node).qualified_name}"


def edges(index: StoredIndex, kind: str) -> set[tuple[str, str]]:
    """{(source label, target label)} of every edge of ``kind``."""
    return {(label(index, node), label(index, target))
            for node in every_node(index) for target, _, _ in index.edges_out(node, (kind,))}


def edge_data(index: StoredIndex, kind: str) -> dict[tuple[str, str], dict]:
    """(source label, target label) -> edge data of every edge of ``kind``."""
    return {(label(index, node), label(index, target)): data
            for node in every_node(index) for target, _, data in index.edges_out(node, (kind,))}
