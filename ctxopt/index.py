"""Stage 2: repository -> ``Index`` (tags of every file and a networkx symbol graph).

``build_index`` does the IO (discovery, reading, parsing); ``build_graph`` is pure over
``FileTags``. Graph nodes are files (id: the path) and definitions (id: ``path#i``, the
definition's index in its file's tags). Edges are keyed by kind:

- ``contains``: file -> top-level definition, definition -> member, Go type -> method;
- ``references``: the referring definition (or file, at module level) -> the definition
  the name resolves to, with the referring ``lines`` and ``via``, the most telling kind of
  use (call, type, import_member, reference);
- ``inherits``: class -> base class definition;
- ``imports``: file -> file;
- ``tests``: test definition (or test file) -> the definition it references.

A name resolves to the definitions in the same file, else in the files the referrer
imports, else to every definition of that name when there are at most
``MAX_AMBIGUOUS_TARGETS`` of them (more says nothing about which one is meant).
"""
from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # networkx loads only when a graph is built in memory (start-up time)
    import networkx as nx

from .discover import discover_sources
from .imports import ImportResolver
from .manifests import go_modules, read_ts_paths
from .files.safety import HygieneConfig
from .parsing.parse import parse_file
from .lexical import FileDocuments, LexicalIndex, file_documents
from .model import Definition, Diagnostic, FileTags
from .graph.rules import (MAX_AMBIGUOUS_TARGETS, MAX_ATTRIBUTE_TARGETS, VIA_PRIORITY, is_test_path,
                          symbol_id)

__all__ = ["Index", "build_index", "build_graph", "is_test_path", "MAX_AMBIGUOUS_TARGETS"]


@dataclass
class Index:
    """The indexed repository.

    Attributes
    ----------
    files : list of str
        Every discovered file, sorted (parsed or not).
    tags : dict of str to FileTags
        Tags of each parsed file.
    graph : networkx.MultiDiGraph
        See the module docstring for nodes and edges.
    by_name : dict of str to list of str
        Definition name -> node ids, sorted.
    diagnostics : list of Diagnostic
        Files skipped or degraded.
    """

    files: list[str]
    tags: dict[str, FileTags]
    graph: nx.MultiDiGraph
    by_name: dict[str, list[str]]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    lexical: LexicalIndex = field(default_factory=lambda: LexicalIndex(()))

    # The query surface the walker and the source reader use; nothing outside this module
    # reads ``graph``, ``tags`` or ``by_name`` directly, so the storage can change.

    def definition(self, node: str) -> Definition:
        """The ``Definition`` of a symbol node id."""
        data = self.graph.nodes[node]
        return self.tags[data["path"]].definitions[data["index"]]

    def path_of(self, node: str) -> str:
        """The file a node belongs to."""
        return self.graph.nodes[node]["path"]

    def is_file(self, node: str) -> bool:
        """True for file nodes, False for definitions."""
        return self.graph.nodes[node]["type"] == "file"

    def is_test(self, node: str) -> bool:
        """True when the node lies in a test file."""
        return bool(self.graph.nodes[node]["test"])

    def definitions_named(self, name: str) -> list[str]:
        """Node ids of the definitions called exactly ``name``, sorted."""
        return list(self.by_name.get(name, ()))

    def name_counts(self) -> dict[str, int]:
        """Every definition name -> how many definitions have it."""
        return {name: len(nodes) for name, nodes in self.by_name.items()}

    def file_tags(self, path: str) -> FileTags | None:
        """The tags of a parsed file, None for files that were not parsed."""
        return self.tags.get(path)

    def line_count(self, path: str) -> int | None:
        """The line count of a parsed file, None for files that were not parsed."""
        tags = self.tags.get(path)
        return tags.line_count if tags else None

    def file_definitions(self, path: str) -> tuple[Definition, ...] | None:
        """The definitions of a parsed file, None for files that were not parsed."""
        tags = self.tags.get(path)
        return tags.definitions if tags else None

    def edges_in(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        """(source, edge kind, edge data) of the edges of ``kinds`` into ``node``."""
        return [(source, key, data) for source, _, key, data
                in self.graph.in_edges(node, keys=True, data=True) if key in kinds]

    def edges_out(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        """(target, edge kind, edge data) of the edges of ``kinds`` out of ``node``."""
        return [(target, key, data) for _, target, key, data
                in self.graph.out_edges(node, keys=True, data=True) if key in kinds]


def build_index(root: Path, *, config: HygieneConfig | None = None) -> Index:
    """Discover, read and parse every file under ``root`` and build the graph.

    Files that cannot be read or parsed become diagnostics; this never raises for a
    single bad file. This is the in-memory build; ``store.open_index`` keeps the same
    index on disk and updates it incrementally. ``config`` sets the input hygiene (secrets, submodules, parse time
    limit); a file whose parse times out is dropped from ``files``.
    """
    config = config or HygieneConfig()
    files, diagnostics = discover_sources(root, config=config)
    tags: dict[str, FileTags] = {}
    documents: list[FileDocuments] = []
    for path in list(files):
        try:
            data = (root / path).read_bytes()
        except OSError as exc:
            diagnostics.append(Diagnostic(path, "unreadable", exc.strerror or ""))
            continue
        parsed = parse_file(path, data, config)
        if isinstance(parsed, Diagnostic):
            if parsed.reason:
                diagnostics.append(parsed)
            files.remove(path)
            continue
        if parsed.tags is None:
            continue
        tags[path] = parsed.tags
        documents.append(file_documents(path, parsed.text, parsed.tags))
    graph, by_name = build_graph(files, tags, ImportResolver(files, go_modules(root, files),
                                                             read_ts_paths(root, files)))
    return Index(files=files, tags=tags, graph=graph, by_name=by_name, diagnostics=diagnostics,
                 lexical=LexicalIndex(documents))


def build_graph(files: list[str], tags: dict[str, FileTags], resolver: ImportResolver
                ) -> tuple[nx.MultiDiGraph, dict[str, list[str]]]:
    """Build the symbol graph from parsed tags (pure).

    Returns the graph and the name -> node ids table used to resolve references.
    """
    import networkx as nx

    graph = nx.MultiDiGraph()
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in files:
        graph.add_node(path, type="file", path=path, test=is_test_path(path))
    for path in sorted(tags):
        file_tags = tags[path]
        test = is_test_path(path)
        for i, definition in enumerate(file_tags.definitions):
            node = symbol_id(path, i)
            graph.add_node(node, type="symbol", path=path, index=i, test=test)
            by_name[definition.name].append(node)
            parent = path if definition.parent is None else symbol_id(path, definition.parent)
            graph.add_edge(parent, node, key="contains")

    # Methods declared out of line (Go receivers, Rust impl blocks, C++ `Type::f`, Kotlin
    # and Swift extensions) belong to their type.
    for path in sorted(tags):
        for i, definition in enumerate(tags[path].definitions):
            for candidate in owners_of(tags, by_name, path, i):
                graph.add_edge(candidate, symbol_id(path, i), key="contains")

    imported: dict[str, set[str]] = defaultdict(set)
    for path in sorted(tags):
        file_tags = tags[path]
        last_module = None
        for ref in file_tags.references:
            if ref.kind == "import":
                last_module = ref.name
                for target in resolver.resolve(file_tags.language, path, ref.name):
                    if target != path:
                        imported[path].add(target)
            elif ref.kind == "import_member" and last_module is not None:
                # `from pkg import mod` may name a submodule
                joined = last_module + ("" if last_module.endswith(".") else ".") + ref.name
                for target in resolver.resolve(file_tags.language, path, joined):
                    if target != path:
                        imported[path].add(target)
        for target in sorted(imported[path]):
            graph.add_edge(path, target, key="imports")

    for path in sorted(tags):
        _add_reference_edges(graph, path, tags[path], by_name, imported[path])
    return graph, dict(by_name)


_OWNER_KINDS = frozenset({"class", "struct", "interface", "trait", "enum", "type"})


def owners_of(tags: dict[str, FileTags], by_name: dict[str, list[str]], path: str,
              index: int) -> list[str]:
    """Node ids of the type a method declared out of line belongs to (pure).

    A definition is out of line when its qualified name holds a scope that its enclosing
    definitions do not explain (``Storage.Get`` at top level, ``kv.Storage.get`` inside
    namespace ``kv``). Its owner is a class-like definition named like the scope's last
    part: in the same directory (a Go package), else in a file with the same stem
    (``storage.hpp`` for ``storage.cpp``), else the only one in the repository.
    """
    definitions = tags[path].definitions
    definition = definitions[index]
    parent = definitions[definition.parent].qualified_name + "." if definition.parent is not None else ""
    if definition.qualified_name == parent + definition.name:
        return []
    owner = definition.qualified_name[:-len(definition.name) - 1].rsplit(".", 1)[-1]
    candidates = []
    for node in by_name.get(owner, []):
        node_path, _, node_index = node.rpartition("#")
        if tags[node_path].definitions[int(node_index)].kind in _OWNER_KINDS:
            candidates.append(node)
    if not candidates:
        return []
    directory, stem = posixpath.dirname(path), posixpath.splitext(posixpath.basename(path))[0]
    same_directory = [c for c in candidates if posixpath.dirname(c.rpartition("#")[0]) == directory]
    if same_directory:
        return same_directory
    same_stem = [c for c in candidates
                 if posixpath.splitext(posixpath.basename(c.rpartition("#")[0]))[0] == stem]
    return same_stem or (candidates if len(candidates) == 1 else [])


def _add_reference_edges(graph: nx.MultiDiGraph, path: str, file_tags: FileTags,
                         by_name: dict[str, list[str]], imported: set[str]) -> None:
    test = is_test_path(path)
    lines: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    via: dict[tuple[str, str, str], str] = {}
    for ref in file_tags.references:
        if ref.kind == "import":
            continue
        candidates = by_name.get(ref.name)
        if not candidates:
            continue
        source = path if ref.enclosing is None else symbol_id(path, ref.enclosing)
        local = [c for c in candidates if graph.nodes[c]["path"] == path]
        via_import = [c for c in candidates if graph.nodes[c]["path"] in imported]
        limit = MAX_ATTRIBUTE_TARGETS if ref.kind == "reference" else MAX_AMBIGUOUS_TARGETS
        targets = local or via_import or (candidates if len(candidates) <= limit else [])
        kind = "inherits" if ref.kind == "inherit" else "references"
        for target in targets:
            if target == source:
                continue  # recursion says nothing new
            lines[(source, target, kind)].append(ref.line)
            known = via.get((source, target, kind))
            if known is None or VIA_PRIORITY[ref.kind] < VIA_PRIORITY[known]:
                via[(source, target, kind)] = ref.kind
            if test and not graph.nodes[target]["test"]:
                lines[(source, target, "tests")].append(ref.line)
    for (source, target, kind), ref_lines in sorted(lines.items()):
        graph.add_edge(source, target, key=kind, lines=tuple(sorted(set(ref_lines))),
                       via=via.get((source, target, kind), "reference"))
