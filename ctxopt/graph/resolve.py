"""Pure: which definitions a use of a name means, and why.

``resolve`` is the one rule of the symbol graph's ``references``, ``inherits`` and ``tests``
edges; the stored index applies it both ways (the uses out of a node, and, for a
definition, every use whose resolution includes it), so the two directions always agree.

A use of ``name`` in file F resolves, in this order, to:

1. nothing in another language: candidates are only definitions in F's language or one
   with a real bridge to it (C and C++ headers, JavaScript and TypeScript, the JVM
   languages);
2. the definitions of F itself (``same file``);
3. what F's imports bind the name to, following re-export chains from file to file
   (``__init__.py``, ``from .x import y as z``, ``export { x } from``, ``pub use``; see
   ``graph.bindings``) (``imported name``);
4. the candidates in the files F imports (``imported file``);
5. for a C++, C#, Java, Kotlin or Scala use inside a namespace, the candidates of that
   namespace (``same namespace``);
6. the candidates in F's directory that are not members of a type (``same package``: a
   call ``x.get()`` names no package function);
7. every candidate, when there are at most ``MAX_AMBIGUOUS_TARGETS``
   (``one of N definitions``), but in a statically typed language
   (``NAMED_OWNER_LANGUAGES``) not a member of a type that F never names.

The last rule is from trial 39, where a call on a standard-library object linked to the
project's methods of the same name: commons-lang's ``Objects.requireNonNull`` to
``SerializationUtils.requireNonNull``, ``str.length()`` to ``StringUtils.length``;
ripgrep's ``Some(..)`` to a variant ``EncodingMode::Some`` of another crate; chi's
``r.Header.Get`` to ``usersResource.Get`` of an example. Where types are declared, a
use of a method, field or variant of another type (a Rust ``impl`` method, a Go method
with a receiver, a Java or PHP static method, an enum's variant) names that type in the
file: as a variable's or parameter's type, a constructor call, a qualifier
(``SerializationUtils.requireNonNull``, ``Utils::substr``, ``EncodingMode::Some``), an
import; or the use is inside the type. So such a member is one of the candidates only
when F uses its type's name anywhere (``ResolutionData.uses_name``), or the use is inside
that type (``_reachable_member``). What this misses, measured on the trial's
repositories (with step 8, of the ``references`` edges commons-lang lost 19%, chi 26%,
ripgrep 16%, monolog 6%, in samples nearly all wrong links): a call on a value whose type the file never writes,
as a chained call (``a.b().c()``) or a type inferred (Go's ``r := NewRouter()`` then
``r.Get``: 19 of chi's test-to-``Mux`` edges; Rust's ``let``, Kotlin's ``val``, Java's
``var``), a qualifier the parse does not record (Rust's ``grep::pcre2::Builder::new()``),
a method inherited through a base the file does not name (``C extends B``, ``B extends
A``: ``A``'s methods in ``C``; a PHP trait used by a base class), a method promoted from
a Go embedded struct; each such use was only a guess among up to five namesakes.
Python, Ruby and JavaScript/TypeScript are left out: their calls name no types. In Go a
member of a type of the use's own package (its directory) stays a candidate: there a value
comes from the package's constructor, ``s := New()`` then ``s.Get(k)``, as in a test of
the package (the fixture ``go_storage``'s ``TestGetMissing``); a package's
``w.Write`` on an ``http.ResponseWriter`` keeps its guesses among the package's own
``Write`` methods.

8. Then, per use (``qualified_statics``, for the answers of steps 4 to 7): in Java, C# and
   PHP, a static method of a type is called through its type's name, ``Util.req(x)``,
   ``Utils::substr($s)``, whose parse records the qualifier as a use on the call's line; so
   a static method is a target only when its type is used on the use's line, or the use
   is inside that type or in a file with a subclass of it (``self::``, ``parent::``, a
   Java call of an inherited static), or the file imports it statically (Java's
   ``import static a.Util.req`` or ``a.Util.*``, C#'s ``using static a.Util``). Trial 39:
   monolog's ``substr($x, 0, 1)``, PHP's own function, linked to ``Utils::substr`` in
   every file importing ``Utils``; commons-lang's ``if (StringUtils.isEmpty(tok))`` to
   the nine ``ArrayUtils.isEmpty`` of another import. A qualifier on another line than
   its method's name (``Util\n.req(x)``) is missed. C#'s extension methods
   (``static T F(this X x)``) are called on values, and are not judged.

From step 5 on, a use in a file that is not a test file (``rules.is_test_path``) has no
candidates in test files: code does not use a definition of a test, a fixture or test
data that it does not import (pylint's ``tests/functional/`` holds thousands of sample
modules whose names would otherwise become callees of the checkers).

A type or inherit use has as candidates only definitions that can be types (``names_a_type``):
Go's built-in ``string`` is not the method ``string`` of a type in the same file.

Attribute uses (kind ``reference``) stop after step 4 (``MAX_ATTRIBUTE_TARGETS``). A type
nested in a class (``sim::Loader::Input``) is a candidate for a type use only in the file
that defines it, in files that import that file, and inside the class itself: elsewhere the
use would have to be qualified.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import Protocol

from ..model import Definition
from ..parsing.kinds import (CALLABLE_KINDS, MODULE_KINDS, TYPE_KINDS, TYPE_USE_KINDS, TYPE_USE_REFERENCES,
                             TYPE_VALUE_KINDS, TYPE_VALUE_LANGUAGES)
from .rules import MAX_AMBIGUOUS_TARGETS, MAX_ATTRIBUTE_TARGETS, is_test_path

__all__ = ["ResolutionData", "resolve", "imported_definitions", "compatible", "names_a_type",
           "compatible_candidates", "owner_type",
           "NAMESPACED_LANGUAGES", "NAMED_OWNER_LANGUAGES", "STATIC_QUALIFIED_LANGUAGES",
           "qualified_statics", "is_static_method", "is_static_signature", "depends_on_enclosing",
           "MAX_REEXPORT_DEPTH"]

_MEMBER_KINDS = frozenset({"method", "field"})
# Re-export chains longer than this are not followed (a cycle ends earlier).
MAX_REEXPORT_DEPTH = 8
_FAMILIES = {"c": "c", "cpp": "c", "javascript": "js", "typescript": "js", "tsx": "js",
             "java": "jvm", "kotlin": "jvm", "scala": "jvm"}
NAMESPACED_LANGUAGES = frozenset({"cpp", "csharp", "java", "kotlin", "scala"})
# Where a use of another type's member names that type in the file (step 7).
NAMED_OWNER_LANGUAGES = frozenset({"c", "cpp", "csharp", "go", "java", "kotlin", "php", "rust",
                                   "scala", "swift"})
# Where a static method is called through its type's name, recorded as a use (step 8).
STATIC_QUALIFIED_LANGUAGES = frozenset({"csharp", "java", "php"})
_STATIC = re.compile(r"\bstatic\b")
_EXTENSION = re.compile(r"\(\s*this\s")  # C#'s `static T F(this X x)`
_SPECIFIER_PARTS = re.compile(r"[.\\]")


class ResolutionData(Protocol):
    """What resolution reads of an index."""

    def definitions_named(self, name: str) -> list[str]:
        """Node ids of the definitions called ``name``, by path then position."""
        ...

    def definition(self, node: str) -> Definition:
        """The definition of a node id."""
        ...

    def language(self, path: str) -> str | None:
        """The language of a parsed file, None for others."""
        ...

    def imports(self, path: str) -> frozenset[str]:
        """The files ``path`` imports."""
        ...

    def bindings(self, path: str) -> Sequence[tuple[str, str, str | None]]:
        """(local, name, file the module names or None) of each binding of ``path``."""
        ...

    def candidates(self, name: str, language: str | None) -> Sequence[tuple[str, str]]:
        """(node id, path) of the definitions called ``name`` that a use in ``language``
        may name (``compatible_candidates``; an index may cache it)."""
        ...

    def uses_name(self, path: str, name: str) -> bool:
        """True when the file ``path`` has a use of ``name`` (of any kind: a type, a call,
        a qualifier; an index answers it from its uses by name)."""
        ...

    def name_uses(self, path: str, name: str) -> Sequence[tuple[int, str, int | None]]:
        """(line, kind, enclosing) of each use of ``name`` in the file ``path``."""
        ...

    def import_specifiers(self, path: str) -> Sequence[tuple[str, int]]:
        """(module specifier as written, ``a.Util.req``, its line) of each of the file's
        imports, in order."""
        ...


def compatible_candidates(data: ResolutionData, name: str, language: str | None
                          ) -> list[tuple[str, str]]:
    """(node id, path) of the definitions called ``name`` in a language ``compatible``
    with ``language``, by path then position."""
    found = []
    for node in data.definitions_named(name):
        path = _path(node)
        if compatible(language, data.language(path)):
            found.append((node, path))
    return found


def compatible(language: str | None, other: str | None) -> bool:
    """True when a use in ``language`` may name a definition in ``other``."""
    if language is None or other is None:
        return False
    return language == other or _FAMILIES.get(language, language) == _FAMILIES.get(other, other)


def _path(node: str) -> str:
    return node.rpartition("#")[0]


def _top_level(data: ResolutionData, path: str, name: str) -> list[str]:
    """The definitions of ``name`` that ``path`` exports: not members of a class."""
    found = []
    for node in data.definitions_named(name):
        if _path(node) == path:
            parent = data.definition(node).parent
            if parent is None or data.definition(f"{path}#{parent}").kind in MODULE_KINDS:
                found.append(node)
    return found


def imported_definitions(data: ResolutionData, path: str, name: str, *,
                         by_original: bool = False) -> list[str]:
    """The definitions that ``path``'s imports bind ``name`` to, through re-exports.

    ``by_original``: ``name`` is the imported name (the ``charge`` of ``import charge as
    make_charge``, as the import statement's own use names it), else the local one."""
    bindings = data.bindings(path)
    key = 1 if by_original else 0
    frontier = [(target, original) for local, original, target in [*bindings]
                if (local, original)[key] == name and target is not None]
    if not by_original:
        frontier += [(target, name) for local, _, target in bindings
                     if local == "*" and target is not None]
    seen: set[tuple[str, str]] = set()
    found: list[str] = []
    for _ in range(MAX_REEXPORT_DEPTH):
        following = []
        for file, original in frontier:
            if (file, original) in seen:
                continue
            seen.add((file, original))
            here = _top_level(data, file, original)
            if here:
                found += [node for node in here if node not in found]
                continue
            for local, deeper, target in data.bindings(file):
                if target is not None and local in (original, "*"):
                    following.append((target, deeper if local == original else original))
        if not following:
            break
        frontier = following
    return found


def resolve(data: ResolutionData, path: str, name: str, kind: str,
            enclosing: int | None) -> tuple[list[str], str]:
    """(node ids, reason) of the definitions a use means (see the module docstring).

    ``kind``: the use's reference kind (call, type, inherit, import_member, reference);
    ``enclosing``: the index of the definition the use is in (None: module level)."""
    language = data.language(path)
    pairs = data.candidates(name, language)
    if kind in TYPE_USE_REFERENCES:
        pairs = [(c, where) for c, where in pairs if names_a_type(data, c, language)]
    local = [node for node, where in pairs if where == path]
    if local:
        return local, "same file"
    bound = imported_definitions(data, path, name, by_original=kind == "import_member")
    bound = [c for c in bound if compatible(language, data.language(_path(c)))
             and (kind not in TYPE_USE_REFERENCES or names_a_type(data, c, language))]
    if bound:
        return bound, "imported name"
    if not pairs:
        return [], ""
    imported = data.imports(path)
    if kind == "type" and language in NAMESPACED_LANGUAGES:
        pairs = [(c, where) for c, where in pairs if _visible(data, path, imported, enclosing, c)]
    via_import = [node for node, where in pairs if where in imported]
    if via_import:
        return via_import, "imported file"
    if not is_test_path(path):  # code does not use a test's definitions it does not import
        pairs = [(c, where) for c, where in pairs if not is_test_path(where)]
        if not pairs:
            return [], ""
    candidates = [node for node, _ in pairs]
    if kind == "reference" and len(candidates) > MAX_ATTRIBUTE_TARGETS:
        return [], ""
    if language in NAMESPACED_LANGUAGES and enclosing is not None:
        scope = data.definition(f"{path}#{enclosing}").qualified_name.split(".")
        namespace = [c for c in candidates if _within(data.definition(c).qualified_name, scope)]
        if namespace:
            return namespace, "same namespace"
    directory = posixpath.dirname(path)
    package = [node for node, where in pairs
               if posixpath.dirname(where) == directory and _free(data, node)]
    if package:
        return package, "same package"
    if len(candidates) > MAX_AMBIGUOUS_TARGETS:
        return [], ""
    if language in NAMED_OWNER_LANGUAGES:
        candidates = [c for c in candidates if _reachable_member(data, path, enclosing, c)]
        if not candidates:
            return [], ""
    return candidates, f"one of {len(candidates)} definitions"


def depends_on_enclosing(language: str | None) -> bool:
    """Whether ``resolve``'s answer for a use in ``language`` may depend on the definition
    the use is in (a namespace's, a type's own members: steps 5 and 7), so that a cache of
    answers must key them by it."""
    return language in NAMESPACED_LANGUAGES or language in NAMED_OWNER_LANGUAGES


def names_a_type(data: ResolutionData, node: str, language: str | None) -> bool:
    """True when a type or inherit use in ``language`` may mean the definition ``node``
    (a node id): a type, namespace, module or macro, or, in a language where a class is a
    value, a variable or constant (``parsing.kinds``); never a function, method or field
    of the same name."""
    kind = data.definition(node).kind
    return kind in TYPE_USE_KINDS or (kind in TYPE_VALUE_KINDS
                                      and language in TYPE_VALUE_LANGUAGES)


def _free(data: ResolutionData, node: str) -> bool:
    """True for a definition that is not a member of a type (nor a method declared out
    of line): a function, type, constant or variable of its file or namespace."""
    definition = data.definition(node)
    if definition.kind in _MEMBER_KINDS:
        return False
    return definition.parent is None or \
        data.definition(f"{_path(node)}#{definition.parent}").kind in MODULE_KINDS


def owner_type(data: ResolutionData, node: str) -> str | None:
    """The name of the type whose member the definition ``node`` is (a method, field,
    constant or enum variant inside it, or a method declared out of line: a Rust ``impl``
    method, a Go method with a receiver, C++'s ``Type::f``), None for other definitions
    (a type itself, a function of a file, module or namespace)."""
    definition = data.definition(node)
    if definition.kind in TYPE_KINDS or definition.kind in MODULE_KINDS:
        return None
    if definition.parent is not None:
        parent = data.definition(f"{_path(node)}#{definition.parent}")
        return parent.name if parent.kind in TYPE_KINDS else None
    if definition.kind in _MEMBER_KINDS:  # declared out of line: Owner.name
        parts = definition.qualified_name.split(".")
        return parts[-2] if len(parts) > 1 else None
    return None


def _reachable_member(data: ResolutionData, path: str, enclosing: int | None,
                      candidate: str) -> bool:
    """False for a member of a type (``owner_type``) that a use in ``path`` can reach only
    through a value of that type, when ``path`` never names the type and the use is not
    inside it, nor in a Go package's own types (step 7 of the module docstring)."""
    owner = owner_type(data, candidate)
    if owner is None or data.uses_name(path, owner) or any(
            _specifier_name(specifier) == owner  # (imported, perhaps as an alias)
            for specifier, _ in data.import_specifiers(path)):
        return True
    if data.language(path) == "go" and posixpath.dirname(_path(candidate)) == \
            posixpath.dirname(path):
        return True  # Go's package: `s := New()`, then `s.Get(k)`
    return _inside(data, path, enclosing, owner)


def _inside(data: ResolutionData, path: str, enclosing: int | None, owner: str) -> bool:
    """True when the definition a use is in (``enclosing``, None: module level) is the
    type named ``owner`` or inside it."""
    return enclosing is not None and \
        owner in data.definition(f"{path}#{enclosing}").qualified_name.split(".")


def _specifier_name(specifier: str) -> str:
    """The name an import specifier ends with (``Utils`` of ``App\\Utils`` or ``a.Utils``)."""
    return _SPECIFIER_PARTS.split(specifier)[-1]


def is_static_method(definition: Definition) -> bool:
    """True for a method declared ``static`` (Java, C#, PHP: its signature says so before
    its name), but a C# extension method, which is called on a value."""
    return is_static_signature(definition.kind, definition.name, definition.signature)


def is_static_signature(kind: str, name: str, signature: str) -> bool:
    """``is_static_method`` of a definition's kind, name and signature (as the index
    stores them)."""
    if kind not in CALLABLE_KINDS:
        return False
    head = signature.split(name + "(", 1)[0]
    return bool(_STATIC.search(head)) and not _EXTENSION.search(signature)


def qualified_statics(data: ResolutionData, path: str, name: str, line: int,
                      enclosing: int | None, targets: list[str], reason: str) -> list[str]:
    """``targets`` (``resolve``'s answer for a use of ``name`` on ``line``) without the
    static methods the use does not reach (step 8 of the module docstring)."""
    language = data.language(path)
    if language not in STATIC_QUALIFIED_LANGUAGES or reason in ("same file", "imported name"):
        return targets
    return [target for target in targets
            if _reaches_static(data, path, language, name, line, enclosing, target)]


def _reaches_static(data: ResolutionData, path: str, language: str, name: str, line: int,
                    enclosing: int | None, target: str) -> bool:
    if not is_static_method(data.definition(target)):
        return True
    owner = owner_type(data, target)
    if owner is None or _inside(data, path, enclosing, owner):
        return True
    if any(at == line or kind == "inherit" for at, kind, _ in data.name_uses(path, owner)):
        return True
    # (or through an alias the file imports it as: ``use App\Utils as U;`` then
    # ``U::f()``, ``using U = App.Utils;`` then ``U.F()``: the alias is a second import
    # name on the import's line; review 39)
    specifiers = data.import_specifiers(path)
    import_lines = {at for specifier, at in specifiers if _specifier_name(specifier) == owner}
    if any(at in import_lines and _specifier_name(alias) != owner
           and any(used == line for used, _, _ in data.name_uses(path, alias))
           for alias, at in specifiers):
        return True
    for specifier, _ in specifiers:
        parts = _SPECIFIER_PARTS.split(specifier)
        if (language == "java" and parts[-2:] in ([owner, name], [owner, "*"])) or \
                (language == "csharp" and parts[-1] == owner):
            return True
    return False


def _within(qualified_name: str, scope: list[str]) -> bool:
    """True when a definition's enclosing scope is a non-empty prefix of ``scope``."""
    outer = qualified_name.split(".")[:-1]
    return bool(outer) and scope[:len(outer)] == outer


def _visible(data: ResolutionData, path: str, imported: frozenset[str], enclosing: int | None,
             candidate: str) -> bool:
    """False for a type nested in a class that an unqualified use here cannot see."""
    definition = data.definition(candidate)
    if definition.parent is None or _path(candidate) in imported:
        return True
    owner = data.definition(f"{_path(candidate)}#{definition.parent}")
    if owner.kind not in TYPE_KINDS:
        return True
    if enclosing is None:
        return False
    scope = data.definition(f"{path}#{enclosing}").qualified_name.split(".")
    return scope[:len(owner.qualified_name.split("."))] == owner.qualified_name.split(".")
