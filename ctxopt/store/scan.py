"""Reading one file into the rows the index stores (runs in worker processes).

``scan_one`` reads, hashes, classifies and parses a file and returns a ``ScanResult``;
``definition_rows`` and ``reference_rows`` make the ``defs``, ``uses`` and
``import_specs`` rows (see ``ctxopt.store``), ``unpack_uses`` reads a ``uses`` row back.
"""
from __future__ import annotations

import gc
import hashlib
import marshal
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import cast

from ..files.reasons import REASON_PARSE_TIMEOUT
from ..files.safety import HygieneConfig
from ..graph.bindings import import_bindings
from ..graph.rules import attribute_impl_uses, out_of_line_owner
from ..model import Diagnostic, FileTags
from ..parsing.kinds import IMPORT_KINDS
from ..parsing.parse import parse_file
from .parsecache import ParseCache

__all__ = ["ScanResult", "content_digest", "scan_one", "scan_chunk",
           "packed", "unpacked", "definition_rows", "reference_rows", "unpack_uses"]


@dataclass(frozen=True, slots=True)
class ScanResult:
    """What scanning one file found.

    ``status``: ``"same"`` (the content hash equals the stored one: only ``size``,
    ``mtime_ns`` and ``checked_ns`` are set), ``"gone"`` (the file vanished: only ``path``)
    or ``"new"`` (every field). ``skip``: a skip reason (``''``: dropped without a
    diagnostic) or None for a selected file; ``language`` is None for files not parsed.
    ``notes``: the marshalled (reason, detail) diagnostics of a kept file, or None;
    ``lexical``: the ``store.lexical.postings_of`` the file's lexical documents
    (``lexical.file_postings``), or None; ``defs``,
    ``uses``, ``imports``, ``bindings``: rows of the ``defs``, ``uses``, ``import_specs``
    and ``bindings`` tables without the file id (``definition_rows``, ``reference_rows``,
    ``graph.bindings``; a binding's file is resolved later). Sizes in bytes, times in
    nanoseconds since the epoch.
    """

    status: str
    path: str
    size: int = 0
    mtime_ns: int = 0
    checked_ns: int = 0
    hash: str = ""
    language: str | None = None
    line_count: int = 0
    skip: str | None = None
    detail: str = ""
    notes: bytes | None = None
    lexical: tuple[int, int, int, list[tuple[str, bytes]]] | None = None
    defs: tuple[tuple, ...] = ()
    uses: tuple[tuple, ...] = ()
    imports: tuple[tuple, ...] = ()
    bindings: tuple[tuple, ...] = ()
    cached: bool = False

    def fields(self) -> tuple:
        """Every field, in order: ``ScanResult(*result.fields())`` is ``result`` again."""
        return (self.status, self.path, self.size, self.mtime_ns, self.checked_ns,
                *self.content(), self.cached)

    def content(self) -> tuple:
        """The fields that depend only on the file's content, path and the options (what
        the parse cache stores), in field order from ``hash`` to ``bindings``."""
        return (self.hash, self.language, self.line_count, self.skip, self.detail, self.notes,
                self.lexical, self.defs, self.uses, self.imports, self.bindings)


def content_digest(data: bytes) -> str:
    """The hash a file's content is known by in the index (``files.hash``): BLAKE2b of
    16 bytes, in hex."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def scan_one(root: str, path: str, old_hash: str | None,
             config: HygieneConfig = HygieneConfig(),
             generated: bool | None = None, cache: ParseCache | None = None) -> ScanResult:
    """Read, hash, classify and parse one file (see ``ScanResult``); ``generated`` is the
    file's ``.gitattributes`` verdict (``discover.Candidate.generated``). With a ``cache``,
    a file whose content changed is looked up there first, and a new scan stored there
    (but not a parse timeout: that depends on the machine's load)."""
    result, key = _looked_up(root, path, old_hash, config, generated, cache)
    if key is not None and cache is not None:
        cache.put(key, result.content())
    return result


def _looked_up(root: str, path: str, old_hash: str | None, config: HygieneConfig,
               generated: bool | None, cache: ParseCache | None
               ) -> tuple[ScanResult, bytes | None]:
    """(``scan_one``'s result, the cache key to store it under, or None when it is not
    to be stored: no cache, found there, unchanged, or a parse timeout)."""
    checked_ns = time.time_ns()
    full = os.path.join(root, path)
    try:
        with open(full, "rb") as handle:
            info = os.fstat(handle.fileno())
            data = handle.read()
    except FileNotFoundError:
        return ScanResult("gone", path), None
    except OSError as exc:
        return ScanResult("new", path, checked_ns=checked_ns, skip="unreadable",
                          detail=exc.strerror or ""), None
    digest = content_digest(data)
    stat = (info.st_size, info.st_mtime_ns, checked_ns)  # size, mtime_ns, checked_ns
    if digest == old_hash:
        return ScanResult("same", path, *stat), None
    if cache is None:
        return _scan_content(path, data, digest, stat, config, generated), None
    key = cache.key(path, digest, generated)
    fields = cache.get(key)
    if fields is not None:
        return ScanResult(*("new", path, *stat, *fields, True)), None  # the last field: cached
    result = _scan_content(path, data, digest, stat, config, generated)
    return result, (key if result.skip != REASON_PARSE_TIMEOUT else None)


def _scan_content(path: str, data: bytes, digest: str, stat: tuple[int, int, int],
                  config: HygieneConfig, generated: bool | None) -> ScanResult:
    """Classify and parse the content of a file (``scan_one``)."""
    parsed = parse_file(path, data, config, reference_tuples=True, generated=generated)
    if isinstance(parsed, Diagnostic):  # skipped by a content rule, or not parsed in time
        return ScanResult("new", path, *stat, hash=digest, skip=parsed.reason,
                          detail=parsed.detail)
    notes = parsed.notes
    kept_notes = marshal.dumps(tuple((d.reason, d.detail) for d in notes)) if notes else None
    if parsed.tags is None:  # no supported language
        return ScanResult("new", path, *stat, hash=digest, notes=kept_notes)
    from ..lexical import file_postings

    tags = parsed.tags
    language = parsed.language or ""
    as_tuples = cast("list[tuple[str, str, int, int | None]]", list(tags.references))
    references = attribute_impl_uses(language, tags.definitions, as_tuples)
    uses, imports = reference_rows(references)
    # bound by import uses alone (``graph.bindings``), read from the import_specs rows:
    # not looked for among every use (95% of sympy's are no imports)
    bindings = import_bindings(language, [row[1:] for row in imports], parsed.text.split("\n"))
    return ScanResult("new", path, *stat, hash=digest, language=parsed.language,
                      line_count=tags.line_count, notes=kept_notes,
                      lexical=file_postings(path, parsed.text, tags),
                      defs=definition_rows(tags), uses=uses, imports=imports,
                      bindings=tuple((i, *b) for i, b in enumerate(bindings)))


def definition_rows(tags: FileTags) -> tuple[tuple, ...]:
    """The ``defs`` rows of a file's definitions (without file id); ``owner`` is the scope
    name of the type a method declared out of line belongs to (``graph.rules``)."""
    return tuple((i, d.name, d.kind, d.qualified_name, d.start_line, d.end_line, d.signature,
                  d.parent, out_of_line_owner(tags.definitions, i))
                 for i, d in enumerate(tags.definitions))


def reference_rows(references: Iterable[tuple[str, str, int, int | None]]
                   ) -> tuple[tuple[tuple, ...], tuple[tuple, ...]]:
    """(uses rows, import_specs rows) of a file's references as (name, kind, line,
    enclosing) tuples. A use packs as ``line,kind,enclosing`` (enclosing empty at module
    level), uses joined by ``;``. The uses rows are sorted by name, the order of their
    table's key: stored in that order they fill its pages (in the order of the names'
    first uses, a quarter of sympy's 14 MB of ``uses`` pages stayed empty)."""
    packed: dict[str, list[str]] = {}
    imports: list[tuple] = []
    for name, kind, line, enclosing in references:
        if kind in IMPORT_KINDS:
            imports.append((len(imports), name, kind, line, enclosing))
            if kind == "import":
                continue
        entry = f"{line},{kind},{'' if enclosing is None else enclosing}"
        entries = packed.get(name)
        if entries is None:
            packed[name] = [entry]
        else:
            entries.append(entry)
    uses = tuple((name, len(entries), ";".join(entries))
                 for name, entries in sorted(packed.items()))
    return uses, tuple(imports)


def unpack_uses(packed: str) -> Iterator[tuple[int, str, int | None]]:
    """(line, kind, enclosing) of each use packed by ``reference_rows``."""
    for entry in packed.split(";"):
        line, kind, enclosing = entry.split(",")
        yield int(line), kind, int(enclosing) if enclosing else None


def scan_chunk(root: str, chunk: list[tuple[str, str | None, bool | None]],
               config: HygieneConfig, cache: ParseCache | None = None) -> list[tuple]:
    """``scan_one`` of each (path, old hash, generated) of ``chunk``, in a worker process,
    each result packed for its parent (``packed``); the worker only reads ``cache``, and
    its parent stores the new entries (``unpacked``)."""
    gc.disable()  # a worker makes no reference cycles worth collecting (see without_cyclic_gc)
    return [packed(*_looked_up(root, path, old_hash, config, generated, cache))
            for path, old_hash, generated in chunk]


def packed(result: ScanResult, key: bytes | None) -> tuple:
    """A worker's result as sent to its parent: (status, path, size, mtime_ns,
    checked_ns, cached, cache key or None, the marshalled ``content()`` or None for a
    file that is not "new"). The marshalled content is also the parse cache's entry, so
    a new scan is marshalled once, not once for the cache and again for the pipe."""
    content = marshal.dumps(result.content()) if result.status == "new" else None
    return (result.status, result.path, result.size, result.mtime_ns, result.checked_ns,
            result.cached, key, content)


def unpacked(fields: tuple, cache: ParseCache | None) -> ScanResult:
    """The ``ScanResult`` of a ``packed`` result, its entry stored in ``cache`` when the
    worker found it to be stored (and there is a cache)."""
    status, path, size, mtime_ns, checked_ns, cached, key, content = fields
    if content is None:
        return ScanResult(status, path, size, mtime_ns, checked_ns)
    if key is not None and cache is not None:
        cache.put_marshalled(key, content)
    return ScanResult(*(status, path, size, mtime_ns, checked_ns, *marshal.loads(content), cached))
