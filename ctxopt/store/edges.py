"""The edges of the stored index, resolved when asked with the rules of ``ctxopt.graph``.

``contains`` edges come from the ``parent`` column, plus the methods declared out of line
(the ``owner`` column, matched to their type by ``graph.rules.choose_owners``); ``imports``
edges are stored; ``references``, ``inherits`` and ``tests`` edges are the uses of the
``uses`` table resolved by ``graph.resolve.resolve``. The edges into a definition are the
uses (of its name, or of a name an import binds to it) whose resolution includes it, so
both directions apply the same rule and agree.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Protocol

from ..graph.resolve import (MAX_REEXPORT_DEPTH, compatible_candidates,
                             depends_on_enclosing, qualified_statics, resolve)
from ..graph.rules import OWNER_KINDS, EdgeGroups, choose_owners, is_test_path, split_symbol
from ..model import Definition
from .consistency import IndexInconsistent
from .resolved import Resolution, ResolvedCache
from .schema import SQL_VARS, chunks, marks

__all__ = ["EdgeReader"]

Edge = tuple[str, str, dict]
# A resolved use: (enclosing definition index, use kind, line, reason, target node ids)
_Resolved = tuple[int | None, str, int, str, list[str]]
_REFERENCE_KINDS = frozenset({"references", "inherits", "tests"})
# A use into a definition: (referrer file id, enclosing definition index, use kind, line, reason)
_Incoming = tuple[int, "int | None", str, int, str]


class _Definitions(Protocol):
    def definition(self, node: str) -> Definition: ...
    def definitions_named(self, name: str) -> list[str]: ...
    def file_definitions(self, path: str) -> tuple[Definition, ...] | None: ...
    def prefetch_definitions(self, file_ids: list[int]) -> None: ...
    def prefetch_start_lines(self, nodes: Iterable[str]) -> None: ...
    def defer_start_lines(self, nodes: list[str]) -> None: ...


class EdgeReader:
    """Edges out of and into nodes, read from one connection (``graph.resolve.ResolutionData``).

    ``ids``: path -> file id and ``paths`` the reverse, for every stored file (a
    ``consistency.FilePaths``: an id of no file raises ``IndexInconsistent``);
    ``languages``: path -> language of the parsed files; ``index``: where definitions are
    read (the ``StoredIndex``, which caches them)."""

    def __init__(self, conn: sqlite3.Connection, index: _Definitions, ids: dict[str, int],
                 paths: dict[int, str], languages: dict[str, str | None],
                 cache: ResolvedCache | None = None) -> None:
        """``cache``: the resolved uses kept between runs (``store.resolved``)."""
        self._conn = conn
        self._cache = cache or ResolvedCache(conn)
        self._index = index
        self._ids = ids
        self._paths = paths
        self._languages = languages
        self._imports: dict[str, frozenset[str]] = {}
        self._bindings: dict[str, tuple[tuple[str, str, str | None], ...]] = {}
        self._owner_names: dict[str, dict[int, str]] = {}
        self._resolved: dict[tuple, tuple[list[str], str]] = {}
        self._candidates: dict[tuple[str, str | None], list[tuple[str, str]]] = {}
        # name -> the ids of the files that use it (``uses_name``)
        self._users: dict[str, frozenset[int]] = {}
        self._name_uses: dict[tuple[str, str], list[tuple[int, str, int | None]]] = {}
        self._specifiers: dict[str, list[tuple[str, int]]] = {}
        # name -> (file id, definition index) -> the uses resolving there (``_uses_of_name``)
        self._incoming: dict[str, dict[tuple[int, int], list[_Incoming]]] = {}
        self._test_files: dict[int, bool] = {}
        self._edges_in: dict[str, list[Edge]] = {}
        self._out: dict[str, dict[int | None, list[tuple[str, int, str, list[str]]]]] = {}

    # graph.resolve.ResolutionData
    def definitions_named(self, name: str) -> list[str]:
        """Node ids of the definitions called ``name``."""
        return self._index.definitions_named(name)

    def definition(self, node: str) -> Definition:
        """The definition of a node id."""
        return self._index.definition(node)

    def language(self, path: str) -> str | None:
        """The language of a parsed file, None for others."""
        return self._languages.get(path)

    def imports(self, path: str) -> frozenset[str]:
        """The files ``path`` imports."""
        found = self._imports.get(path)
        if found is None:
            found = self._imports[path] = frozenset(self._paths[dst] for (dst,) in self._conn.execute(
                "SELECT dst FROM imports WHERE src = ?", (self._ids[path],)))
        return found

    def bindings(self, path: str) -> Sequence[tuple[str, str, str | None]]:
        """(local, name, file) of each binding of ``path`` (see ``graph.bindings``)."""
        found = self._bindings.get(path)
        if found is None:
            found = self._bindings[path] = tuple(
                (local, name, self._paths[dst] if dst is not None else None)
                for local, name, dst in self._conn.execute(
                    "SELECT local, name, dst FROM bindings WHERE file_id = ? ORDER BY seq",
                    (self._ids[path],)))
        return found

    def candidates(self, name: str, language: str | None) -> Sequence[tuple[str, str]]:
        """``graph.resolve.compatible_candidates``, cached."""
        key = (name, language)
        found = self._candidates.get(key)
        if found is None:
            found = self._candidates[key] = compatible_candidates(self, name, language)
        return found

    def uses_name(self, path: str, name: str) -> bool:
        """True when ``path`` has a use of ``name``: the files using a name are read once,
        by the ``uses`` table's index on names."""
        users = self._users.get(name)
        if users is None:
            users = self._users[name] = frozenset(file_id for (file_id,) in self._conn.execute(
                "SELECT file_id FROM uses WHERE name = ?", (name,)))
        return self._ids[path] in users

    def name_uses(self, path: str, name: str) -> Sequence[tuple[int, str, int | None]]:
        """(line, kind, enclosing) of each use of ``name`` in ``path`` (its ``uses`` row)."""
        key = (path, name)
        found = self._name_uses.get(key)
        if found is None:
            from .scan import unpack_uses  # (here: a warm gather need not load the scanner)
            row = self._conn.execute("SELECT packed FROM uses WHERE file_id = ? AND name = ?",
                                     (self._ids[path], name)).fetchone()
            found = self._name_uses[key] = list(unpack_uses(row[0])) if row else []
        return found

    def import_specifiers(self, path: str) -> Sequence[tuple[str, int]]:
        """(module specifier, line) of each of ``path``'s imports, in order."""
        found = self._specifiers.get(path)
        if found is None:
            found = self._specifiers[path] = self._conn.execute(
                "SELECT name, line FROM import_specs WHERE file_id = ? ORDER BY seq",
                (self._ids[path],)).fetchall()
        return found

    # edges
    def resolve(self, path: str, name: str, kind: str, enclosing: int | None
                ) -> tuple[list[str], str]:
        """``graph.resolve.resolve`` of one use, cached."""
        scoped = enclosing if depends_on_enclosing(self._languages.get(path)) else None
        key = (path, name, kind, scoped)
        found = self._resolved.get(key)
        if found is None:
            found = self._resolved[key] = resolve(self, path, name, kind, enclosing)
        return found

    def owners(self, node: str) -> list[str]:
        """The types a method declared out of line belongs to (none for other nodes)."""
        path, idx = split_symbol(node)
        owner = self._owners_in(path).get(idx)
        if owner is None:
            return []
        candidates = [c for c in self.definitions_named(owner)
                      if self.definition(c).kind in OWNER_KINDS]
        return choose_owners(path, candidates)

    def members(self, node: str, definition: Definition) -> list[str]:
        """The methods declared out of line that belong to the type ``node``."""
        if definition.kind not in OWNER_KINDS:
            return []
        found = []
        for file_id, idx in self._conn.execute(
                "SELECT file_id, idx FROM defs WHERE owner = ? ORDER BY file_id, idx",
                (definition.name,)):
            member = f"{self._paths[file_id]}#{idx}"
            if node in self.owners(member):
                found.append(member)
        return sorted(found, key=split_symbol)

    def _owners_in(self, path: str) -> dict[int, str]:
        found = self._owner_names.get(path)
        if found is None:
            found = self._owner_names[path] = dict(self._conn.execute(
                "SELECT idx, owner FROM defs WHERE file_id = ? AND owner IS NOT NULL",
                (self._ids[path],)))
        return found

    def references_out(self, node: str, path: str, idx: int | None) -> list[Edge]:
        """The ``references``, ``inherits`` and ``tests`` edges of the uses in ``node``."""
        if not self._languages.get(path):
            return []
        groups = EdgeGroups()
        test = is_test_path(path)
        for kind, line, reason, targets in self._uses_in_file(path).get(idx, ()):
            for target in targets:
                if target != node:
                    groups.add(target, kind, line, test and not is_test_path(target), reason)
        return groups.edges()

    def _uses_in_file(self, path: str) -> dict[int | None, list[tuple[str, int, str, list[str]]]]:
        """Enclosing definition index -> (use kind, line, reason, target node ids) of the
        uses in ``path`` that resolve to something, in the order of the ``uses`` rows; read
        (or resolved) once per file, shared by the definitions of the file."""
        found = self._out.get(path)
        if found is not None:
            return found
        found = self._out[path] = {}
        file_id = self._ids[path]
        cached = self._cache.load_file(file_id)
        rows = self._conn.execute("SELECT name, packed FROM uses WHERE file_id = ?",
                                  (file_id,)).fetchall()
        _check_resolved(cached.keys() - {name for name, _ in rows})
        for name, packed in rows:
            resolutions = cached.get(name)
            for enclosing, kind, line, reason, targets in (
                    self._resolve_row(file_id, name, packed) if resolutions is None
                    else self._nodes(resolutions)):
                uses = found.get(enclosing)
                if uses is None:
                    found[enclosing] = [(kind, line, reason, targets)]
                else:
                    uses.append((kind, line, reason, targets))
        return found

    def _resolve_row(self, file_id: int, name: str, packed: str) -> list[_Resolved]:
        """The uses of the ``uses`` row (file, name) that resolve to something, resolved
        now, and kept in the cache."""
        from .scan import unpack_uses  # (here: a warm gather reads resolved uses)

        path = self._paths[file_id]
        found = []
        for line, kind, enclosing in unpack_uses(packed):
            targets, reason = self.resolve(path, name, kind, enclosing)
            if targets:
                kept = qualified_statics(self, path, name, line, enclosing, targets, reason)
                if len(kept) < len(targets) and reason.startswith("one of "):
                    reason = f"one of {len(kept)} definitions"  # (what the use may mean now)
                targets = kept
            if targets:
                found.append((enclosing, kind, line, reason, targets))
        self._cache.add(file_id, name, [
            (enclosing, kind, line, reason, tuple((self._ids[t_path], int(t_idx)) for t_path, _, t_idx
                                                  in (t.rpartition("#") for t in targets)))
            for enclosing, kind, line, reason, targets in found])
        return found

    def _nodes(self, resolutions: Sequence[Resolution]) -> list[_Resolved]:
        """Cached resolutions with their targets as node ids."""
        paths = self._paths
        return [(enclosing, kind, line, reason, [f"{paths[f]}#{i}" for f, i in targets])
                for enclosing, kind, line, reason, targets in resolutions]

    def references_in(self, node: str, path: str, name: str) -> list[Edge]:
        """The ``references``, ``inherits`` and ``tests`` edges of the uses that resolve to
        the definition ``node`` (in ``path``, called ``name``)."""
        edges = self._edges_in.get(node)
        if edges is not None:
            return edges
        incoming = self._incoming.get(name)
        if incoming is None:
            incoming = self._incoming[name] = self._uses_of_name(name)
        target_test = is_test_path(path)
        groups = EdgeGroups()
        paths = self._paths
        found = incoming.get((self._ids[path], int(node.rpartition("#")[2])), ()) \
            if path in self._ids else ()
        add, is_test_file = groups.add, self._is_test_file
        for file_id, enclosing, kind, line, reason in found:
            referrer = paths[file_id]
            source = referrer if enclosing is None else f"{referrer}#{enclosing}"
            if source != node:
                add(source, kind, line, not target_test and is_test_file(file_id), reason)
        edges = self._edges_in[node] = groups.edges()
        # the sources' first lines, to order them (one query, not one per file), read
        # when first needed
        self._index.defer_start_lines([source for source, _, _ in edges])
        return edges

    def _is_test_file(self, file_id: int) -> bool:
        found = self._test_files.get(file_id)
        if found is None:
            found = self._test_files[file_id] = is_test_path(self._paths[file_id])
        return found

    def _uses_of_name(self, name: str) -> dict[tuple[int, int], list[_Incoming]]:
        """(file id, definition index) -> (referrer file id, enclosing definition index,
        use kind, line, reason) of each use of ``name``, or of a name an import binds to
        it, that resolves to that definition, in the order of the ``uses`` rows. Resolved
        once per name: every definition called ``name`` reads its incoming edges from it.
        Kept as numbers: a name's uses reach many definitions, and node ids are made
        only for the ones a walk asks about (``references_in``)."""
        names = sorted(self._names_bound_to(name))
        # the rows' keys from the name index alone (in its order, as a query of the rows
        # themselves reads them); their packed uses only when some are not resolved yet
        rows: list[tuple[int, str]] = []
        for chunk in chunks(names):
            rows += self._conn.execute(
                f"SELECT file_id, name FROM uses WHERE name IN ({marks(len(chunk))})",
                chunk).fetchall()
        cached = self._cache.load(names)
        _check_resolved(cached.keys() - set(rows))
        rows = [row for row in rows if self._languages.get(self._paths[row[0]])]
        unresolved = sorted({file_id for file_id, use_name in rows
                             if (file_id, use_name) not in cached})
        self._prefetch(unresolved)
        packed = self._packed_uses(names) if unresolved else {}
        ids = self._ids
        incoming: dict[tuple[int, int], list[_Incoming]] = {}
        for file_id, use_name in rows:
            resolutions = cached.get((file_id, use_name))
            if resolutions is None:  # resolved now: targets as node ids
                resolutions = [(enclosing, kind, line, reason,
                                tuple((ids[t_path], int(t_idx)) for t_path, _, t_idx
                                      in (t.rpartition("#") for t in targets)))
                               for enclosing, kind, line, reason, targets
                               in self._resolve_row(file_id, use_name,
                                                    packed[(file_id, use_name)])]
            for enclosing, kind, line, reason, targets in resolutions:
                use = (file_id, enclosing, kind, line, reason)
                for target in targets:
                    uses = incoming.get(target)
                    if uses is None:
                        incoming[target] = [use]
                    else:
                        uses.append(use)
        return incoming

    def _packed_uses(self, names: list[str]) -> dict[tuple[int, str], str]:
        """(file id, name) -> the packed uses (``uses.packed``) of the rows of ``names``."""
        found: dict[tuple[int, str], str] = {}
        for chunk in chunks(names):
            found.update(((file_id, use_name), packed) for file_id, use_name, packed in
                         self._conn.execute("SELECT file_id, name, packed FROM uses"
                                            f" WHERE name IN ({marks(len(chunk))})", chunk))
        return found

    def _prefetch(self, file_ids: list[int]) -> None:
        """Read the imports, bindings and definitions of many files at once (one query per
        chunk, not three per file)."""
        self._index.prefetch_definitions(file_ids)  # resolution reads the enclosing ones
        wanted = [f for f in file_ids if self._paths[f] not in self._imports]
        imports: dict[str, set[str]] = {self._paths[f]: set() for f in wanted}
        bindings: dict[str, list[tuple[str, str, str | None]]] = {self._paths[f]: [] for f in wanted}
        for chunk in chunks(wanted):
            places = marks(len(chunk))
            for src, dst in self._conn.execute(
                    f"SELECT src, dst FROM imports WHERE src IN ({places})", chunk):
                imports[self._paths[src]].add(self._paths[dst])
            for file_id, local, name, dst in self._conn.execute(
                    f"SELECT file_id, local, name, dst FROM bindings WHERE file_id IN ({places})"
                    " ORDER BY file_id, seq", chunk):
                bindings[self._paths[file_id]].append(
                    (local, name, self._paths[dst] if dst is not None else None))
        for path, found in imports.items():
            self._imports[path] = frozenset(found)
            self._bindings.setdefault(path, tuple(bindings[path]))

    def _names_bound_to(self, name: str) -> set[str]:
        """``name`` and the local names that imports bind to it, directly or through
        renaming re-exports."""
        names = {name}
        frontier = [name]
        for _ in range(MAX_REEXPORT_DEPTH):
            found = {local for (local,) in self._conn.execute(
                f"SELECT DISTINCT local FROM bindings WHERE name IN ({marks(len(frontier))})",
                frontier)}
            frontier = sorted(found - names - {"*"})
            if not frontier or len(frontier) > SQL_VARS:
                break
            names.update(frontier)
        return names


def _check_resolved(orphans: set) -> None:
    """Raise ``IndexInconsistent`` when ``orphans`` (keys of resolved uses that have no
    ``uses`` row) is not empty: updates drop both together, so the row was deleted."""
    if orphans:
        raise IndexInconsistent(f"the resolved use {min(orphans)!r} has no uses row")
