"""BM25 over the ``postings`` table: the stored form of ``lexical.LexicalIndex``."""
from __future__ import annotations

import functools
import marshal
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from .. import lexical
from ..errors import IndexStoreError

__all__ = ["postings_of", "StoredLexical", "guarded"]


def postings_of(documents: Any) -> tuple[int, int, int, list[tuple[str, bytes]]]:
    """(definition documents, their summed length, the file document's length, postings
    rows (term, data)) of one file's ``lexical.FileDocuments`` (see the module docstring)."""
    entries: dict[str, list[int | None]] = {term: [tf] for term, tf in documents.file.items()}
    total = 0
    for i, terms in enumerate(documents.definitions):
        length = sum(terms.values())
        total += length
        for term, tf in terms.items():
            entry = entries.get(term)
            if entry is None:
                entry = entries[term] = [None]  # not in the file's document
            entry += (i, tf, length)
    dumps = marshal.dumps
    return (len(documents.definitions), total, sum(documents.file.values()),
            [(term, dumps(tuple(entry))) for term, entry in entries.items()])


def guarded(method: Callable) -> Callable:
    """A query method whose SQLite errors become ``IndexStoreError`` (``self._failure``)."""
    @functools.wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise self._failure(exc) from exc
    return guarded


class StoredLexical:
    """``lexical.LexicalIndex`` over the ``postings`` table: the same scores, bit for bit,
    in the same order (documents by path, then definition index), reading only the rows
    of the query's terms. ``lexical.K1`` and ``lexical.B`` are read at query time."""

    def __init__(self, conn: sqlite3.Connection, paths: dict[int, str],
                 file_length: dict[str, int], definitions: int, definition_length: int,
                 failure: Callable[[sqlite3.DatabaseError], Exception] | None = None) -> None:
        """``paths``: file id -> path; ``file_length``: path -> length of the file's
        document, for every parsed file; ``definitions``: how many definition documents,
        ``definition_length``: their summed length; ``failure``: the error to raise for a
        failed query (default: ``IndexStoreError``)."""
        self._conn = conn
        self._paths = paths
        self._file_length = file_length
        self._definitions = (definitions, definition_length)
        self._files = (len(file_length), sum(file_length.values()))
        self._terms: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
        self._by_path: dict[str, dict[str, tuple[int, ...]]] = {}
        self._failure = failure or (lambda exc: IndexStoreError(f"the index failed: {exc}"))

    def _rows(self, term: str) -> list[tuple[str, tuple[int, ...]]]:
        """(path, unpacked data) of the files holding ``term``, by path."""
        rows = self._terms.get(term)
        if rows is None:
            try:
                term.encode("utf-8")
            except UnicodeEncodeError:  # no document holds such a term
                rows = []
            else:
                paths = self._paths
                rows = sorted((paths[file_id], marshal.loads(data)) for file_id, data in
                              self._conn.execute("SELECT file_id, data FROM postings WHERE term = ?",
                                                 (term,)))
            self._terms[term] = rows
        return rows

    def score_definitions(self, query: Counter[str]) -> dict[str, float]:
        """Node id -> BM25 score for every definition matching at least one query term."""
        n, total = self._definitions
        return lexical.bm25(query, n, total, lambda term: [
            (f"{path}#{data[i]}", data[i + 1], data[i + 2])
            for path, data in self._rows(term) for i in range(1, len(data), 3)])

    def score_files(self, query: Counter[str]) -> dict[str, float]:
        """Path -> BM25 score for every file matching at least one query term."""
        n, total = self._files
        return lexical.bm25(query, n, total, lambda term: [
            (path, data[0], self._file_length[path])
            for path, data in self._rows(term) if data[0] is not None])


    def holds(self, term: str) -> bool:
        """Whether any file's document holds ``term``."""
        return bool(self._rows(term))

    def terms_held(self, node: str, terms: Iterable[str]) -> list[str]:
        """The ``terms`` the document of definition ``node`` (``path#i``) holds, in their
        order."""
        path, _, i = node.rpartition("#")
        index = int(i)
        held = []
        for term in terms:
            by_path = self._by_path.get(term)
            if by_path is None:
                by_path = self._by_path[term] = dict(self._rows(term))
            data = by_path.get(path)
            if data is not None and index in data[1::3]:
                held.append(term)
        return held


for _name in ("score_definitions", "score_files", "holds", "terms_held"):
    setattr(StoredLexical, _name, guarded(getattr(StoredLexical, _name)))
