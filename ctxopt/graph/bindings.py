"""Pure: the names a file binds by importing them, and the modules its imports name.

A binding is (module specifier, name, local): the file's ``local`` name stands for ``name``
of the module the specifier names (``from .billing import charge as make_charge`` binds
``make_charge`` to ``charge`` of ``.billing``). A re-export is a binding too (``from .http
import Redirect`` in an ``__init__.py``, ``export { x } from "./y"``, ``pub use
store::Store``), so following bindings from file to file walks re-export chains
(``graph.resolve``). ``name`` and ``local`` ``"*"`` stand for a star import or re-export.

The tags give the import statements and their lines (``import`` and ``import_member``
references); the statement text around those lines gives what the tag queries do not
capture: aliases, Rust ``use`` lists and JavaScript/TypeScript named imports.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence

__all__ = ["import_bindings", "import_specifiers", "Binding"]

Binding = tuple[str, str, str]  # (module specifier, name, local)
Use = tuple[str, str, int, "int | None"]  # (name, kind, line, enclosing), as in FileTags

_JS_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})
_IDENTIFIER = r"(?:[^\W\d]|\$)[\w$]*"  # letters of any script (``task.IDENTIFIER``)
_JS_NAMED = re.compile(
    r"\b(?:import|export)\s+(?:type\s+)?(?:" + _IDENTIFIER + r"\s*,\s*)?\{([^{}]*)\}\s*from\s*"
    r"([\"'])([^\"'\n]+)\2")
_JS_STAR = re.compile(r"\bexport\s*\*\s*from\s*([\"'])([^\"'\n]+)\1")
_RUST_STATEMENT_LINES = 40  # a `use` list longer than this is cut (rare, and harmless)


def import_specifiers(uses: Iterable[Use]) -> list[str]:
    """Every module specifier the import uses of one file name, in order: each ``import``
    use, and for each ``import_member`` its statement's module joined with the member
    (``from pkg import mod`` may name the submodule ``pkg.mod``)."""
    uses = list(uses)
    modules = _statement_modules(uses)
    found = []
    for name, kind, line, _ in uses:
        if kind == "import":
            found.append(name)
        elif kind == "import_member" and line in modules:
            module = modules[line]
            found.append(module + ("" if module.endswith(".") else ".") + name)
    return found


def _statement_modules(uses: Sequence[Use]) -> dict[int, str]:
    """Line of each ``import_member`` use -> the module of its statement: the ``import``
    use on the same line, else the nearest one above (a statement spanning lines)."""
    module_at: dict[int, str] = {}
    for name, kind, line, _ in uses:
        if kind == "import":
            module_at.setdefault(line, name)
    starts = sorted(module_at)
    modules: dict[int, str] = {}
    for _, kind, line, _ in uses:
        if kind == "import_member":
            i = bisect.bisect_right(starts, line)
            if i:
                modules[line] = module_at[starts[i - 1]]
    return modules


def import_bindings(language: str, uses: Iterable[Use], lines: Sequence[str]) -> list[Binding]:
    """The bindings of one file (see the module docstring), in source order.

    ``uses``: the file's references as (name, kind, line, enclosing); ``lines``: its text
    split into lines (line n is ``lines[n - 1]``). Languages other than Python, Rust and
    JavaScript/TypeScript bind nothing here (their uses resolve through imported files)."""
    uses = list(uses)
    if language == "python":
        return _python_bindings(uses, lines)
    if language == "rust":
        return _rust_bindings(uses, lines)
    if language in _JS_LANGUAGES:
        return _js_bindings("\n".join(lines))
    return []


# `as` between blanks: a line without it renames nothing (checked before a per-name pattern)
_AS = re.compile(r"\sas\s")
_STAR_IMPORT = re.compile(r"^\s*from\s+\S+\s+import\s*\*")


# What follows a name its statement renames: `` as local`` (``_alias``)
_AS_LOCAL = re.compile(r"\s+as\s+(" + _IDENTIFIER + ")")
_NAME_CHARACTER = re.compile(r"[\w.:]")  # before a name: it is the end of another


def _alias(text: str, name: str) -> str | None:
    r"""The local name ``text`` (an import statement's line) gives ``name`` (``name as
    local``), or None: the first place where ``name`` stands on its own (after no letter,
    digit, ``_``, ``.`` or ``:``) and is followed by `` as `` and an identifier. (What
    ``re.search(r"(?<![\w.:])" + re.escape(name) + r"\s+as\s+(...)")`` finds, without
    compiling a pattern for each name: that was 80% of the time here on a cold index of
    sympy, whose workers start with an empty cache of patterns.)"""
    if _AS.search(text) is None:
        return None
    at = text.find(name)
    while at >= 0:
        if at == 0 or _NAME_CHARACTER.match(text, at - 1) is None:
            match = _AS_LOCAL.match(text, at + len(name))
            if match:
                return match.group(1)
        at = text.find(name, at + 1)
    return None


def _python_bindings(uses: list[Use], lines: Sequence[str]) -> list[Binding]:
    modules = _statement_modules(uses)
    found: list[Binding] = []
    for name, kind, line, _ in uses:
        if kind == "import_member" and line in modules:
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            found.append((modules[line], name, _alias(text, name) or name))
        elif kind == "import":
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            if _STAR_IMPORT.search(text):
                found.append((name, "*", "*"))
    return found


def _rust_statement(lines: Sequence[str], line: int) -> str:
    """The text of the ``use`` statement starting on ``line``, up to its semicolon."""
    parts = []
    for text in lines[line - 1:line - 1 + _RUST_STATEMENT_LINES]:
        parts.append(text)
        if ";" in text:
            break
    return " ".join(parts)


def _rust_bindings(uses: list[Use], lines: Sequence[str]) -> list[Binding]:
    found: list[Binding] = []
    for spec, kind, line, _ in uses:
        # (a list names its items after a path of one segment too: ``crate::{Db, Frame}``,
        # ``clients::{Client}``; trial 8 found them bound to nothing)
        if kind != "import" or not 0 < line <= len(lines):
            continue
        statement = _rust_statement(lines, line)
        # (the path as a whole: `a` is no path of `pub(crate) use a::{B}` at `crate`)
        at = re.search(rf"(?<![\w:]){re.escape(spec)}(?![\w])", statement)
        rest = statement[at.end():].lstrip() if at else ""
        if rest.startswith("::{"):
            body = rest[3:].split("}", 1)[0]
            for item in (part.strip() for part in body.split(",")):
                if not item or item == "self" or "{" in item:
                    continue
                if item == "*":
                    found.append((spec, "*", "*"))
                    continue
                path, _, alias = (p.strip() for p in item.partition(" as "))
                name = path.rsplit("::", 1)[-1]
                found.append((f"{spec}::{path}", name, alias or name))
        elif rest.startswith("::*"):
            found.append((spec, "*", "*"))
        elif "::" in spec:  # (``use serde;`` binds a crate, no definition)
            name = spec.rsplit("::", 1)[-1]
            if name in ("crate", "self", "super"):
                continue
            renamed = re.match(r"as\s+(" + _IDENTIFIER + ")", rest)
            found.append((spec, name, renamed.group(1) if renamed else name))
    return found


def _js_bindings(text: str) -> list[Binding]:
    found: list[tuple[int, Binding]] = []
    for match in _JS_NAMED.finditer(text):
        module = match.group(3)
        for item in (part.strip() for part in match.group(1).split(",")):
            item = re.sub(r"^type\s+", "", item)
            name, _, alias = (p.strip() for p in item.partition(" as "))
            if re.fullmatch(_IDENTIFIER, name) and (not alias or re.fullmatch(_IDENTIFIER, alias)):
                found.append((match.start(), (module, name, alias or name)))
    for match in _JS_STAR.finditer(text):
        found.append((match.start(), (match.group(2), "*", "*")))
    return [binding for _, binding in sorted(found, key=lambda entry: entry[0])]
