"""``IndexView``: the queries the walker and the source reader ask of an index.

``ctxopt.store.StoredIndex`` implements it over SQLite. Node ids and edge kinds are those of
``graph.rules``; an edge is (other end, kind, data) with ``data`` = {``lines``: the
referring lines (1-indexed), ``via``: the most telling use kind, ``resolved``: why the use
names this definition (see ``graph.resolve``)} for ``references``, ``inherits`` and
``tests`` edges, {} for ``contains`` and ``imports``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, Protocol

from ..model import Definition, Diagnostic, FileTags

__all__ = ["IndexView", "LexicalView"]


class LexicalView(Protocol):
    """BM25 scores of the indexed documents for a query's term counts."""

    def score_definitions(self, query: Counter[str]) -> dict[str, float]:
        """Node id -> score for every definition matching at least one query term."""
        ...

    def score_files(self, query: Counter[str]) -> dict[str, float]:
        """Path -> score for every file matching at least one query term."""
        ...

    def holds(self, term: str) -> bool:
        """Whether any file's document holds ``term``."""
        ...

    def terms_held(self, node: str, terms: Iterable[str]) -> list[str]:
        """The ``terms`` the document of definition ``node`` holds, in their order."""
        ...


class IndexView(Protocol):
    """The query surface of an index (see the module docstring)."""

    files: list[str]
    diagnostics: list[Diagnostic]
    excluded: list[Diagnostic]  # files --exclude or a .ctxoptignore left out

    @property
    def lexical(self) -> LexicalView:
        """BM25 over the parsed files' lexical documents."""
        ...

    def definition(self, node: str) -> Definition:
        """The definition of a symbol node id (KeyError for an unknown node)."""
        ...

    def start_line(self, node: str) -> int:
        """The first line of a definition's node id (1-indexed; KeyError for an unknown
        node): ``definition(node).start_line``, which an index may read more cheaply."""
        ...

    def path_of(self, node: str) -> str:
        """The file a node belongs to."""
        ...

    def is_file(self, node: str) -> bool:
        """True for file nodes, False for definitions."""
        ...

    def is_test(self, node: str) -> bool:
        """True when the node lies in a test file (``rules.is_test_path``) or is, or lies
        in, a definition marked as a test (``rules.test_definitions``)."""
        ...

    def files_called(self, name: str) -> list[str]:
        """The indexed files whose file name (after the last ``/``) is ``name``, in the
        order of ``files``."""
        ...

    def definitions_named(self, name: str) -> list[str]:
        """Node ids of the definitions called exactly ``name``, by path then position."""
        ...

    def definitions_named_any_case(self, name: str) -> list[str]:
        """Node ids of the definitions whose name equals ``name`` ignoring case: each
        name's by path then position, the names in the order of their first definition."""
        ...

    def definition_names(self) -> list[str]:
        """The distinct names of the definitions, in no particular order."""
        ...

    def name_counts(self) -> dict[str, int]:
        """Every definition name -> how many definitions have it."""
        ...

    def file_tags(self, path: str) -> FileTags | None:
        """The tags of a parsed file, None for files that were not parsed."""
        ...

    def line_count(self, path: str) -> int | None:
        """The line count of a parsed file, None for files that were not parsed."""
        ...

    def read_lines(self, path: str) -> list[str] | None:
        """The lines of an indexed file as the source reader reads them
        (``files.notebook.read_lines``), None when it cannot be read."""
        ...

    def file_definitions(self, path: str) -> tuple[Definition, ...] | None:
        """The definitions of a parsed file, None for files that were not parsed."""
        ...

    def edges_in(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict[str, Any]]]:
        """(source, edge kind, edge data) of the edges of ``kinds`` into ``node``."""
        ...

    def edges_out(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict[str, Any]]]:
        """(target, edge kind, edge data) of the edges of ``kinds`` out of ``node``."""
        ...
