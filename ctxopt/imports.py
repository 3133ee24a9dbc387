"""Pure: resolve import specifiers to files inside the repository.

Python: absolute (``a.b``) and relative (``.b``, ``..``) module names, ``src/``-style
layouts found by suffix. JavaScript/TypeScript: relative specifiers with extension and
``index`` resolution. Go: packages inside a module named by a ``go.mod``.
"""
from __future__ import annotations

import posixpath
from collections import defaultdict

__all__ = ["ImportResolver"]

_JS_EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.ts")


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
    """

    def __init__(self, paths: list[str], go_modules: dict[str, str] | None = None) -> None:
        self._paths = set(paths)
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

    def python_module_of(self, path: str) -> str | None:
        """The dotted module name of a Python file, as laid out from the root."""
        return _python_module(path)

    def resolve(self, language: str, importer: str, specifier: str) -> list[str]:
        """Files that ``specifier``, imported from ``importer``, names (possibly none)."""
        if language == "python":
            return self._resolve_python(importer, specifier)
        if language in ("javascript", "typescript", "tsx"):
            return self._resolve_js(importer, specifier)
        if language == "go":
            return self._resolve_go(specifier)
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
            return []
        base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
        if base.startswith(".."):
            return []
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
