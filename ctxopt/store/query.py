"""The query surface of the stored index (``StoredIndex``)."""
from __future__ import annotations

import contextlib
import marshal
import os
import sqlite3
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..files.reasons import REASON_EXCLUDED
from ..graph.rules import TEST_ATTRIBUTE_LANGUAGES, is_test_path, split_symbol, test_definitions
from ..model import Definition, Diagnostic, FileTags, Reference
from ..errors import IndexMovedAside, IndexStoreError
from .consistency import FilePaths, whole_definitions
from .edges import EdgeReader
from .lexical import StoredLexical, guarded
from .location import is_corruption, move_aside
from .resolved import ResolvedCache
from .schema import SQL_VARS, chunks, key_path, marks
from .update import name_table

__all__ = ["StoredIndex"]


class StoredIndex:
    """``graph.view.IndexView`` over the SQLite store (see ``ctxopt.store``).

    Attributes
    ----------
    files : list of str
        Every selected file, sorted (parsed or not).
    diagnostics : list of Diagnostic
        Files skipped, by reason (see ``discover``), but for those of ``excluded``.
    excluded : list of Diagnostic
        Files ``--exclude`` or a ``.ctxoptignore`` left out (reason ``excluded``): kept
        apart, as the user chose to leave them out, for a task that names one.

    The index reads from one snapshot of the database (a read transaction held until
    ``close``), so a concurrent update cannot change its answers halfway through a gather.
    A query that finds the database damaged, or rows referring to rows that are gone
    (``consistency``), raises ``IndexStoreError``: ``IndexMovedAside`` when the database is
    ctxopt's own, after moving it aside.
    """

    def __init__(self, conn: sqlite3.Connection, root: Path,
                 name_skips: Iterable[Diagnostic] = (), own_location: str | None = None
                 ) -> None:
        """``own_location``: the database file when it is ctxopt's own (the default
        location): found damaged by a query, it is moved aside for the next run to rebuild."""
        self._conn = conn
        self.root = root
        self._own_location = own_location
        # the directory this run made for the database (``ROOT/.ctxopt``): removed on
        # ``close`` when no file was indexed, as it was not there before
        self.made: Path | None = None
        conn.execute("BEGIN")  # a read snapshot for the life of this object
        rows = sorted(((file_id, key_path(key), *rest) for file_id, key, *rest in conn.execute(
            "SELECT id, path, skip, detail, line_count, language, notes, doc_count, doc_length,"
            " file_length FROM files")), key=lambda row: row[1])
        self._id: dict[str, int] = {}
        self._path = FilePaths()  # file id -> path; an id no file has raises IndexInconsistent
        self.files: list[str] = []
        self.diagnostics: list[Diagnostic] = []
        self.excluded: list[Diagnostic] = []
        for skip in name_skips:
            (self.excluded if skip.reason == REASON_EXCLUDED else self.diagnostics).append(skip)
        self._line_count: dict[str, int] = {}
        self._language: dict[str, str | None] = {}
        self._file_length: dict[str, int] = {}  # of the lexical documents of files
        self._definition_count: dict[str, int] = {}  # of the parsed files
        self._documents = [0, 0]  # definition documents, their summed length
        for (file_id, path, skip, detail, line_count, language, notes, doc_count, doc_length,
             file_length) in rows:
            self._id[path] = file_id
            self._path[file_id] = path
            if skip is None:
                self.files.append(path)
                self._line_count[path] = line_count
                self._language[path] = language
                if doc_count is not None:
                    self._file_length[path] = file_length
                    self._definition_count[path] = doc_count
                    self._documents[0] += doc_count
                    self._documents[1] += doc_length
                if notes:
                    self.diagnostics += [Diagnostic(path, *n) for n in marshal.loads(notes)]
            elif skip:
                self.diagnostics.append(Diagnostic(path, skip, detail))
        self.diagnostics.sort(key=lambda d: (d.path, d.reason))
        self._file_set = frozenset(self.files)
        self._files_by_name: dict[str, list[str]] | None = None  # built on first use
        self._definitions: dict[str, tuple[Definition, ...]] = {}
        self._definition_of: dict[str, Definition] = {}
        self._start_lines: dict[str, int] = {}
        # node -> the nodes whose first lines to read with it (``defer_start_lines``)
        self._deferred_starts: dict[str, list[str]] = {}
        self._tags: dict[str, FileTags] = {}
        self._named: dict[str, list[str]] = {}
        self._all_named: dict[str, list[str]] | None = None
        self._test_paths: dict[str, bool] = {}
        self._test_definitions: dict[str, frozenset[int]] = {}
        self._lexical: Any = None
        self._edges: dict[tuple[str, str, tuple[str, ...]], list[tuple[str, str, dict]]] = {}
        self._resolved = ResolvedCache(conn)
        self._edge_reader = EdgeReader(conn, self, self._id, self._path, self._language,
                                       self._resolved)

    @property
    def lexical(self) -> StoredLexical:
        """BM25 over the parsed files' lexical documents, as ``lexical.LexicalIndex``
        (``score_definitions``, ``score_files``), reading only the query's terms."""
        if self._lexical is None:
            definitions, length = self._documents
            self._lexical = StoredLexical(self._conn, self._path, self._file_length,
                                          definitions, length, failure=self._failure)
        return self._lexical

    def _failure(self, exc: sqlite3.DatabaseError) -> IndexStoreError:
        """The error to raise for a query that failed; a damaged database at ctxopt's own
        location is moved aside first, so the next run rebuilds it."""
        location = self._own_location
        if location is None or not is_corruption(exc):
            return IndexStoreError(f"the index failed: {exc}")
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        try:
            aside = move_aside(location)
        except OSError:
            return IndexStoreError(f"the index {location} is damaged ({exc}): delete it to rebuild it")
        return IndexMovedAside(f"the index {location} is damaged ({exc}); moved it to {aside}: "
                               "run again to rebuild it")

    # lifecycle
    def close(self) -> None:
        """End the read snapshot, store the uses resolved meanwhile (``store.resolved``)
        and close the database; remove the directory this run made for it (``made``)
        when no file was indexed (trial 37: a gather in an empty directory exited 1, "no
        source files indexed", and left a ``.ctxopt/`` behind)."""
        try:
            if self._conn.in_transaction:
                self._conn.execute("COMMIT")
            self._resolved.flush()
        except sqlite3.ProgrammingError:  # already closed (see _failure)
            pass
        finally:
            self._conn.close()
            if self.made is not None and not self.files:
                import shutil  # (here: with bz2 and lzma, 3 ms a warm gather needs not)

                shutil.rmtree(self.made, ignore_errors=True)

    def __enter__(self) -> StoredIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def summary(self) -> dict[str, Any]:
        """What the index holds: ``files`` (selected), ``languages`` {name: parsed files},
        ``definitions``, ``references`` (uses of names, resolved when queried), ``edges``
        {``contains``, ``imports``} (the stored edges)."""
        languages = Counter(lang for lang in self._language.values() if lang)
        definitions = self._conn.execute("SELECT COUNT(*) FROM defs").fetchone()[0]
        references = self._conn.execute("SELECT COALESCE(SUM(count), 0) FROM uses").fetchone()[0]
        imports = self._conn.execute("SELECT COUNT(*) FROM imports").fetchone()[0]
        owned = self._conn.execute("SELECT file_id, idx FROM defs WHERE owner IS NOT NULL").fetchall()
        if owned:  # (every name at once: most repositories have no such row, and skip it)
            self._load_all_names()
        receivers = sum(len(self._edge_reader.owners(f"{self._path[file_id]}#{idx}"))
                        for file_id, idx in owned)
        return {"files": len(self.files), "languages": dict(sorted(languages.items())),
                "definitions": definitions, "references": references,
                "edges": {"contains": definitions + receivers, "imports": imports}}

    # graph.view.IndexView
    def definition(self, node: str) -> Definition:
        """The ``Definition`` of a symbol node id (KeyError for an unknown node)."""
        found = self._definition_of.get(node)
        if found is None:
            path, i = split_symbol(node)
            definitions = self._load_definitions(path)
            if not 0 <= i < len(definitions):
                raise KeyError(node)
            found = self._definition_of[node] = definitions[i]
        return found

    def start_line(self, node: str) -> int:
        """The first line of a definition (``definition(node).start_line``), from the
        first lines read for many files at once (``prefetch_start_lines``) when the file's
        definitions were not read."""
        line = self._start_lines.get(node)
        if line is None:
            batch = self._deferred_starts.get(node)
            if batch is not None:  # read once: its nodes no longer point to it
                for other in batch:
                    if self._deferred_starts.get(other) is batch:
                        del self._deferred_starts[other]
                self.prefetch_start_lines(batch)
                line = self._start_lines.get(node)
        return self.definition(node).start_line if line is None else line

    def path_of(self, node: str) -> str:
        """The file a node belongs to."""
        return node if node in self._file_set else node.rpartition("#")[0]

    def files_called(self, name: str) -> list[str]:
        """The indexed files whose file name (after the last ``/``) is ``name``, in the
        order of ``files``: a task's paths (a traceback holds dozens) are looked up
        several times a gather, in lists of up to 10^5 files."""
        if self._files_by_name is None:
            table: dict[str, list[str]] = {}
            for path in self.files:
                table.setdefault(path.rpartition("/")[2], []).append(path)
            self._files_by_name = table
        return self._files_by_name.get(name, [])

    def is_file(self, node: str) -> bool:
        """True for file nodes, False for definitions."""
        return node in self._file_set

    def is_test(self, node: str) -> bool:
        """True when the node lies in a test file or is a test by its attributes, or lies
        in one (``rules.test_definitions``: Rust ``#[test]``, JUnit ``@Test``...)."""
        path = self.path_of(node)
        if self._is_test_path(path):
            return True
        if path == node or self._language.get(path) not in TEST_ATTRIBUTE_LANGUAGES:
            return False
        tests = self._test_definitions.get(path)
        if tests is None:
            tests = self._test_definitions[path] = test_definitions(self.file_definitions(path) or ())
        return int(node.rpartition("#")[2]) in tests

    def _is_test_path(self, path: str) -> bool:
        known = self._test_paths.get(path)
        if known is None:
            known = self._test_paths[path] = is_test_path(path)
        return known

    def definitions_named(self, name: str) -> list[str]:
        """Node ids of the definitions called exactly ``name``, by path then position."""
        if self._all_named is not None:
            return list(self._all_named.get(name, ()))
        found = self._named.get(name)
        if found is None:
            found = [f"{self._path[f]}#{i}" for f, i in sorted(
                self._conn.execute("SELECT file_id, idx FROM defs WHERE name = ?", (name,)),
                key=lambda r: (self._path[r[0]], r[1]))]
            self._named[name] = found
        return list(found)

    def definitions_named_any_case(self, name: str) -> list[str]:
        """Node ids of the definitions whose name equals ``name`` ignoring case
        (``str.lower``): each name's definitions by path then position, the names in the
        order of their first definition. Reads the distinct names (the name index), not
        the definitions."""
        wanted = name.lower()
        names = self._all_named if self._all_named is not None else [
            found for (found,) in self._conn.execute("SELECT DISTINCT name FROM defs")]
        groups = [self.definitions_named(found) for found in names if found.lower() == wanted]
        groups = [group for group in groups if group]
        groups.sort(key=lambda group: split_symbol(group[0]))
        return [node for group in groups for node in group]

    def definition_names(self) -> list[str]:
        """The distinct names of the definitions (the name index, not the definitions)."""
        if self._all_named is not None:
            return list(self._all_named)
        return [found for (found,) in self._conn.execute("SELECT DISTINCT name FROM defs")]

    def name_counts(self) -> dict[str, int]:
        """Every definition name -> how many definitions have it (loads the name table)."""
        return {name: len(nodes) for name, nodes in self._load_all_names().items()}

    def stale_files(self, paths: Iterable[str]) -> list[str]:
        """Those of ``paths`` (indexed files) that may have changed since this snapshot
        of the index read them: their file under ``root`` is gone, or has another size
        or mtime, or, when its mtime is too close to when it was checked to prove it
        unchanged (``update.RACY_NS``, as the update decides), another content hash; in the
        order given. One ``stat`` a path. A path the index does not hold is not stale (it
        is no answer's source)."""
        from .scan import content_digest
        from .update import RACY_NS

        stale = []
        for path in paths:
            file_id = self._id.get(path)
            if file_id is None:
                continue
            size, mtime_ns, checked_ns, digest = self._conn.execute(
                "SELECT size, mtime_ns, checked_ns, hash FROM files WHERE id = ?",
                (file_id,)).fetchone()
            try:
                info = os.stat(self.root / path)
                changed = (info.st_size, info.st_mtime_ns) != (size, mtime_ns) or (
                    checked_ns - mtime_ns <= RACY_NS
                    and content_digest((self.root / path).read_bytes()) != digest)
            except OSError:
                changed = True
            if changed:
                stale.append(path)
        return stale

    def line_count(self, path: str) -> int | None:
        """The line count of a parsed file, None for files that were not parsed."""
        return self._line_count[path] if self._language.get(path) else None

    def file_definitions(self, path: str) -> tuple[Definition, ...] | None:
        """The definitions of a parsed file (``file_tags(path).definitions`` without
        reading its references), None for files that were not parsed."""
        return self._load_definitions(path) if self._language.get(path) else None

    def read_lines(self, path: str) -> list[str] | None:
        """The lines of the file at ``path`` under the root as the source reader reads
        them (``files.notebook.read_lines``), None when it cannot be read."""
        from ..files.notebook import read_lines

        try:
            return read_lines(self.root / path)
        except OSError:
            return None

    def file_tags(self, path: str) -> FileTags | None:
        """The tags of a parsed file, None for files that were not parsed."""
        tags = self._tags.get(path)
        if tags is None:
            language = self._language.get(path)
            if language is None:
                return None
            from .scan import unpack_uses  # (here: the scanner loads the parsers' modules)

            file_id = self._id[path]
            rows = [(name, kind, line, enclosing) for name, packed in self._conn.execute(
                "SELECT name, packed FROM uses WHERE file_id = ?", (file_id,))
                for line, kind, enclosing in unpack_uses(packed)]
            rows += self._conn.execute(  # imports are not uses: the specifiers hold them
                "SELECT name, kind, line, enclosing FROM import_specs WHERE file_id = ?"
                " AND kind = 'import'", (file_id,)).fetchall()
            rows.sort(key=lambda r: (r[2], r[0], r[1]))  # tag order (unique: one per name and line)
            refs = [Reference(*row) for row in rows]
            tags = FileTags(path=path, language=language, line_count=self._line_count[path],
                            definitions=self._load_definitions(path), references=tuple(refs))
            self._tags[path] = tags
        return tags

    def edges_out(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        """(target, edge kind, edge data) of the edges of ``kinds`` out of ``node``."""
        key = ("out", node, tuple(kinds))
        if key not in self._edges:
            self._edges[key] = self._edges_out(node, kinds)
        return list(self._edges[key])

    def edges_in(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        """(source, edge kind, edge data) of the edges of ``kinds`` into ``node``."""
        key = ("in", node, tuple(kinds))
        if key not in self._edges:
            self._edges[key] = self._edges_in(node, kinds)
        return list(self._edges[key])

    def _edges_out(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        found: list[tuple[str, str, dict]] = []
        is_file = node in self._file_set
        path, idx = (node, None) if is_file else split_symbol(node)
        if path not in self._id:
            return found
        if "contains" in kinds:
            definitions = self._load_definitions(path)
            found += [(f"{path}#{i}", "contains", {}) for i, d in enumerate(definitions)
                      if d.parent == idx]
            if idx is not None and 0 <= idx < len(definitions):
                found += [(member, "contains", {})
                          for member in self._edge_reader.members(node, definitions[idx])]
        if "imports" in kinds and is_file:
            found += [(self._path[dst], "imports", {}) for (dst,) in self._conn.execute(
                "SELECT dst FROM imports WHERE src = ? ORDER BY dst", (self._id[path],))]
        wanted = {"references", "inherits", "tests"} & set(kinds)
        if wanted:
            found += [edge for edge in self._edge_reader.references_out(node, path, idx)
                      if edge[1] in wanted]
        return found

    def _edges_in(self, node: str, kinds: tuple[str, ...]) -> list[tuple[str, str, dict]]:
        found: list[tuple[str, str, dict]] = []
        if node in self._file_set:
            if "imports" in kinds and node in self._id:
                found += [(self._path[src], "imports", {}) for (src,) in self._conn.execute(
                    "SELECT src FROM imports WHERE dst = ? ORDER BY src", (self._id[node],))]
            return found
        path, idx = split_symbol(node)
        definitions = self._load_definitions(path)
        if not 0 <= idx < len(definitions):
            return found
        definition = definitions[idx]
        if "contains" in kinds:
            found.append((path if definition.parent is None else f"{path}#{definition.parent}",
                          "contains", {}))
            found += [(owner, "contains", {}) for owner in self._edge_reader.owners(node)]
        wanted = {"references", "inherits", "tests"} & set(kinds)
        if wanted:
            found += [edge for edge in self._edge_reader.references_in(node, path, definition.name)
                      if edge[1] in wanted]
        return found

    # helpers
    def _load_definitions(self, path: str) -> tuple[Definition, ...]:
        definitions = self._definitions.get(path)
        if definitions is None:
            file_id = self._id.get(path)
            rows = [] if file_id is None else self._conn.execute(
                "SELECT idx, name, kind, qualified_name, start_line, end_line, signature, parent"
                " FROM defs WHERE file_id = ? ORDER BY idx", (file_id,)).fetchall()
            definitions = whole_definitions(path, rows, self._definition_count.get(path, 0))
            self._definitions[path] = definitions
        return definitions

    def prefetch_definitions(self, file_ids: list[int]) -> None:
        """Read the definitions of many files (by file id) at once, one query per chunk."""
        wanted = [f for f in file_ids if self._path[f] not in self._definitions]
        found: dict[int, list[tuple]] = {f: [] for f in wanted}
        for chunk in chunks(wanted):
            for file_id, *row in self._conn.execute(
                    "SELECT file_id, idx, name, kind, qualified_name, start_line, end_line,"
                    f" signature, parent FROM defs WHERE file_id IN ({marks(len(chunk))})"
                    " ORDER BY file_id, idx", chunk):
                found[file_id].append(row)
        for file_id, rows in found.items():
            path = self._path[file_id]
            self._definitions[path] = whole_definitions(path, rows,
                                                        self._definition_count.get(path, 0))

    def prefetch_start_lines(self, nodes: Iterable[str]) -> None:
        """Read the first lines of many definitions (node ids) at once, one query per
        chunk (what ordering nodes needs), unless their files' definitions were read."""
        wanted = []
        for node in nodes:
            if node not in self._start_lines and node not in self._file_set:
                path, _, idx = node.rpartition("#")
                if path not in self._definitions and path in self._id:
                    wanted.append((self._id[path], int(idx)))
        paths = self._path
        for chunk in chunks(wanted, SQL_VARS // 2):  # two parameters a definition
            self._start_lines.update(
                (f"{paths[file_id]}#{idx}", line) for file_id, idx, line in self._conn.execute(
                    f"WITH wanted(file_id, idx) AS (VALUES {','.join(['(?, ?)'] * len(chunk))})"
                    " SELECT d.file_id, d.idx, d.start_line FROM wanted CROSS JOIN defs d"
                    " ON d.file_id = wanted.file_id AND d.idx = wanted.idx",
                    [value for pair in chunk for value in pair]))

    def defer_start_lines(self, nodes: list[str]) -> None:
        """Read the first lines of ``nodes`` together (``prefetch_start_lines``) when the
        first of them is asked for (``start_line``): the sources of a definition's
        incoming edges are ordered only when a walk lists them, not when it counts them."""
        self._deferred_starts.update(dict.fromkeys(nodes, nodes))

    def _load_all_names(self) -> dict[str, list[str]]:
        if self._all_named is None:
            self._all_named = name_table(self._conn)
        return self._all_named


for _name in ("summary", "definition", "definitions_named", "definitions_named_any_case",
              "definition_names", "name_counts", "file_definitions",
              "file_tags", "edges_out", "edges_in", "prefetch_definitions", "prefetch_start_lines",
              "start_line", "stale_files"):
    setattr(StoredIndex, _name, guarded(getattr(StoredIndex, _name)))

