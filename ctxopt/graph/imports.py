"""Pure: resolve import specifiers to files inside the repository.

Python: absolute (``a.b``) and relative (``.b``, ``..``) module names, ``src/``-style
layouts found by suffix. JavaScript/TypeScript: relative specifiers with extension and
``index`` resolution, and ``tsconfig.json`` ``paths``/``baseUrl`` aliases. Go: packages
inside a module named by a ``go.mod``. Rust: ``mod x;``, and ``use`` paths within the
crate (the directory of ``Cargo.toml`` + ``src``): ``crate::``, ``super::``, ``self::`` and
paths relative to the importing module, to the file of the longest module prefix (the
crate root for ``crate::Name``). Java,
Kotlin and Scala: packages laid out as directories (``com.x.Y`` -> ``.../com/x/Y.java``).
C and C++: ``#include`` relative to the including file, else a unique file with that
path suffix. Ruby: ``require``/``require_relative``. PHP: ``use A\\B\\C`` by PSR-4-style
path suffix, ``require 'x.php'``. C# namespaces do not name files and are not resolved.
"""
from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import dataclass

__all__ = ["ImportResolver", "TsPaths"]

_JS_EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.ts")
_JVM_EXTENSIONS = {"java": (".java", ".kt"), "kotlin": (".kt", ".java"), "scala": (".scala", ".java")}
_RUST_ROOT_FILES = ("lib.rs", "main.rs", "mod.rs")


@dataclass(frozen=True, slots=True)
class TsPaths:
    """The module aliases of one ``tsconfig.json`` (or ``jsconfig.json``).

    ``directory`` is the config's directory ('' for the root); ``base_url`` is
    ``compilerOptions.baseUrl`` resolved against it (None when unset); ``paths`` maps each
    pattern (``@app/*``) to its targets (``src/app/*``), already resolved to
    repository-relative paths.
    """

    directory: str
    base_url: str | None
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()


def _python_module(path: str) -> str | None:
    if not path.endswith((".py", ".pyi")):
        return None
    stem = path.rsplit(".", 1)[0]
    if stem.endswith("/__init__") or stem == "__init__":
        stem = stem[: -len("__init__")].rstrip("/")
    return stem.replace("/", ".") if stem else None


class ImportResolver:
    """Maps import specifiers to repository files.

    Parameters
    ----------
    paths : iterable of str
        Every repository-relative path (all languages).
    go_modules : dict of str to str
        Go module path (from ``go.mod``) -> the directory holding that ``go.mod``
        ('' for the root).
    ts_paths : list of TsPaths
        The ``tsconfig.json`` aliases of the repository (see ``read_ts_paths``).
    """

    def __init__(self, paths: list[str], go_modules: dict[str, str] | None = None,
                 ts_paths: list[TsPaths] | None = None) -> None:
        self._paths = set(paths)
        self._by_basename: dict[str, list[str]] = defaultdict(list)
        for path in sorted(paths):
            self._by_basename[posixpath.basename(path)].append(path)
        # deepest config first: the nearest one applies
        self._ts_paths = sorted(ts_paths or [], key=lambda t: -len(t.directory))
        self._python: dict[str, list[str]] = defaultdict(list)
        self._python_full: dict[str, str] = {}
        self._dirs: dict[str, list[str]] = defaultdict(list)
        for path in sorted(paths):
            self._dirs[posixpath.dirname(path)].append(path)
            module = _python_module(path)
            if module:
                self._python_full[module] = path
                parts = module.split(".")
                for i in range(len(parts)):
                    self._python[".".join(parts[i:])].append(path)
        self._go_modules = dict(go_modules or {})
        self._python_absolute: dict[str, list[str]] = {}  # see _resolve_python

    def resolve(self, language: str, importer: str, specifier: str) -> list[str]:
        """Files that ``specifier``, imported from ``importer``, names (possibly none)."""
        if language == "python":
            return self._resolve_python(importer, specifier)
        if language in ("javascript", "typescript", "tsx"):
            return self._resolve_js(importer, specifier)
        if language == "go":
            return self._resolve_go(specifier)
        if language == "rust":
            return self._resolve_rust(importer, specifier)
        if language in _JVM_EXTENSIONS:
            return self._resolve_jvm(language, specifier)
        if language in ("c", "cpp"):
            return self._resolve_include(importer, specifier)
        if language == "ruby":
            return self._resolve_ruby(importer, specifier)
        if language == "php":
            return self._resolve_php(importer, specifier)
        return []

    def _by_suffix(self, suffix: str) -> list[str]:
        """Paths equal to ``suffix`` or ending with ``/suffix``."""
        return [p for p in self._by_basename.get(posixpath.basename(suffix), [])
                if p == suffix or p.endswith("/" + suffix)]

    def _nearest(self, importer: str, candidates: list[str]) -> list[str]:
        """The candidate sharing the longest directory prefix with ``importer`` (ties: first)."""
        if len(candidates) <= 1:
            return candidates
        def shared(path: str) -> int:
            return len(posixpath.commonpath([posixpath.dirname(importer) or ".",
                                             posixpath.dirname(path) or "."]).split("/"))
        return [max(candidates, key=shared)]

    def _resolve_rust(self, importer: str, specifier: str) -> list[str]:
        segments = [s for s in specifier.split("::") if s]
        if not segments:
            return []
        directory, name = posixpath.split(importer)
        if len(segments) == 1 and segments[0] not in ("crate", "self", "super"):
            # `mod x;`: beside a lib.rs/main.rs/mod.rs, else in the directory named after the file
            base = directory if name in _RUST_ROOT_FILES else posixpath.join(directory, name[:-3])
            return self._rust_module(base, segments)
        source_root = self._rust_source_root(importer)
        if source_root is None:
            return []
        module = self._rust_module_path(importer, source_root)
        if segments[0] == "crate":
            # `use crate::Name`: the crate root when no module is named
            return self._rust_module(source_root, segments[1:]) or self._rust_crate_root(source_root)
        if segments[0] not in ("self", "super"):
            # a path relative to this module (`use store::Store` in lib.rs); anything else
            # names another crate
            return self._rust_module(source_root, module + segments)
        absolute = list(module)
        while segments and segments[0] in ("self", "super"):
            if segments.pop(0) == "super" and absolute:
                absolute.pop()
        absolute += segments
        return self._rust_module(source_root, absolute) or self._rust_crate_root(source_root)

    def _rust_crate_root(self, source_root: str) -> list[str]:
        """The ``lib.rs`` (else ``main.rs``) of a crate's source root."""
        for root_file in ("lib.rs", "main.rs"):
            candidate = posixpath.join(source_root, root_file) if source_root else root_file
            if candidate in self._paths:
                return [candidate]
        return []

    def _rust_module(self, base: str, segments: list[str]) -> list[str]:
        """The file of the longest prefix of ``segments`` that is a module under ``base``."""
        for k in range(len(segments), 0, -1):
            stem = posixpath.join(base, *segments[:k]) if base else posixpath.join(*segments[:k])
            for candidate in (stem + ".rs", stem + "/mod.rs"):
                if candidate in self._paths:
                    return [candidate]
        return []

    def _rust_source_root(self, importer: str) -> str | None:
        """``<crate>/src`` for the nearest ``Cargo.toml`` above ``importer``, else the nearest
        directory above it holding a ``lib.rs`` or ``main.rs``."""
        directory = posixpath.dirname(importer)
        while True:
            manifest = posixpath.join(directory, "Cargo.toml") if directory else "Cargo.toml"
            if manifest in self._paths:
                return posixpath.join(directory, "src") if directory else "src"
            for root_file in ("lib.rs", "main.rs"):
                if (posixpath.join(directory, root_file) if directory else root_file) in self._paths:
                    return directory
            if not directory:
                return None
            directory = posixpath.dirname(directory)

    @staticmethod
    def _rust_module_path(importer: str, source_root: str) -> list[str]:
        relative = posixpath.relpath(importer, source_root or ".")
        parts = relative[:-3].split("/") if relative.endswith(".rs") else relative.split("/")
        if parts[-1] in ("lib", "main", "mod"):
            parts = parts[:-1]
        return [p for p in parts if p and p != "."]

    def _resolve_jvm(self, language: str, specifier: str) -> list[str]:
        segments = specifier.split(".")
        extensions = _JVM_EXTENSIONS[language]
        if segments[-1] in ("*", "_"):
            directory = "/".join(segments[:-1])
            return [p for d, files in sorted(self._dirs.items())
                    if d == directory or d.endswith("/" + directory)
                    for p in files if p.endswith(extensions)]
        # `com.x.Y`, a nested `com.x.Y.Inner` or a static member `com.x.Y.f`
        for k in range(len(segments), 1, -1):
            for extension in extensions:
                found = self._by_suffix("/".join(segments[:k]) + extension)
                if found:
                    return found[:1]
        return []

    def _resolve_include(self, importer: str, specifier: str) -> list[str]:
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
        if beside in self._paths:
            return [beside]
        return self._nearest(importer, self._by_suffix(posixpath.normpath(specifier)))

    def _resolve_ruby(self, importer: str, specifier: str) -> list[str]:
        name = specifier if specifier.endswith(".rb") else specifier + ".rb"
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(importer), name))
        if beside in self._paths:
            return [beside]
        if specifier.startswith("."):
            return []
        found = self._by_suffix(posixpath.normpath(name))
        in_lib = [p for p in found if p == "lib/" + name or p.endswith("/lib/" + name)]
        return self._nearest(importer, in_lib or found)

    def _resolve_php(self, importer: str, specifier: str) -> list[str]:
        if specifier.endswith(".php"):
            beside = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
            return [beside] if beside in self._paths else []
        segments = [s for s in specifier.replace("\\", "/").split("/") if s]
        # PSR-4 maps a namespace prefix to a directory: drop leading segments until a file fits
        for k in range(len(segments) - 1):
            found = self._by_suffix("/".join(segments[k:]) + ".php")
            if found:
                return self._nearest(importer, found)
        return []

    def _resolve_python(self, importer: str, specifier: str) -> list[str]:
        if specifier.startswith("."):
            dots = len(specifier) - len(specifier.lstrip("."))
            package = (_python_module(importer) or "").split(".")
            if not importer.endswith(("__init__.py", "__init__.pyi")):
                package = package[:-1]
            package = package[: len(package) - (dots - 1)] if dots > 1 else package
            rest = specifier[dots:]
            absolute = ".".join([p for p in package if p] + ([rest] if rest else []))
            found = self._python_full.get(absolute)
            if found:
                return [found]
            specifier = absolute
            if not specifier:
                return []
        targets = self._python_absolute.get(specifier)
        if targets is None:  # the importer no longer matters: once per module name
            targets = self._python_absolute[specifier] = self._resolve_absolute(specifier)
        return list(targets)

    def _resolve_absolute(self, specifier: str) -> list[str]:
        """The files a dotted Python module name names (the whole name, else a unique
        suffix, else one under ``src``/``lib``)."""
        if specifier in self._python_full:
            return [self._python_full[specifier]]
        candidates = self._python.get(specifier, [])
        if len(candidates) == 1:
            return list(candidates)
        # prefer the conventional source roots when a suffix is ambiguous
        preferred = [c for c in candidates
                     if _python_module(c) in (f"src.{specifier}", f"lib.{specifier}")]
        return preferred[:1]

    def _resolve_js(self, importer: str, specifier: str) -> list[str]:
        if not specifier.startswith("."):
            return self._resolve_ts_alias(importer, specifier)
        base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
        if base.startswith(".."):
            return []
        return self._js_file(base)

    def _resolve_ts_alias(self, importer: str, specifier: str) -> list[str]:
        """A bare specifier through the nearest tsconfig's ``paths``, then its ``baseUrl``."""
        for config in self._ts_paths:
            if config.directory and not importer.startswith(config.directory + "/"):
                continue
            for pattern, targets in config.paths:
                prefix, star, suffix = pattern.partition("*")
                if star and specifier.startswith(prefix) and specifier.endswith(suffix) \
                        and len(specifier) >= len(prefix) + len(suffix):
                    matched = specifier[len(prefix):len(specifier) - len(suffix)]
                elif not star and specifier == pattern:
                    matched = ""
                else:
                    continue
                for target in targets:
                    found = self._js_file(posixpath.normpath(target.replace("*", matched)))
                    if found:
                        return found
            if config.base_url is not None:
                found = self._js_file(posixpath.normpath(posixpath.join(config.base_url, specifier)))
                if found:
                    return found
            return []
        return []

    def _js_file(self, base: str) -> list[str]:
        """The file an extensionless or ``.js`` path names: itself, with an extension, or
        its directory's ``index``."""
        candidates = [base] + [base + ext for ext in _JS_EXTENSIONS]
        # TypeScript's ESM convention imports "./x.js" for the source file "./x.ts"
        stem, ext = posixpath.splitext(base)
        if ext in (".js", ".jsx", ".mjs", ".cjs"):
            candidates += [stem + e for e in (".ts", ".tsx", ".mts", ".cts")]
        candidates += [f"{base}/index{ext}" for ext in _JS_EXTENSIONS]
        for candidate in candidates:
            if candidate in self._paths:
                return [candidate]
        return []

    def _resolve_go(self, specifier: str) -> list[str]:
        for module, directory in sorted(self._go_modules.items(), key=lambda m: -len(m[0])):
            if specifier == module or specifier.startswith(module + "/"):
                sub = specifier[len(module):].lstrip("/")
                package_dir = posixpath.join(directory, sub) if directory else sub
                return [p for p in self._dirs.get(package_dir.rstrip("/"), [])
                        if p.endswith(".go") and not p.endswith("_test.go")]
        return []
