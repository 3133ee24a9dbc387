"""The kinds of definitions and references: the one table every stage uses.

The values are the ``<kind>`` of the tag queries' captures (``grammars/README.md``), the
same in every language; they are stored in the index and printed by ``ctxopt tags`` and in
the JSON output, so they are part of the output format.
"""
from __future__ import annotations

__all__ = ["DEFINITION_KINDS", "QUALIFIER_KINDS", "TYPE_KINDS", "MODULE_KINDS", "CONTAINER_KINDS",
           "CALLABLE_KINDS", "REFERENCE_KINDS", "IMPORT_KINDS", "TYPE_USE_REFERENCES",
           "TYPE_USE_KINDS", "TYPE_VALUE_KINDS", "TYPE_VALUE_LANGUAGES", "DATA_KINDS"]

DEFINITION_KINDS = ("class", "interface", "struct", "enum", "trait", "type", "function",
                    "method", "macro", "constant", "variable", "module", "namespace", "field")
# Captured only to qualify the names inside (C#, C++ and TypeScript namespaces, PHP's
# `namespace App;`), never kept as definitions: one namespace is declared in many files and
# holds no code of its own, as a file, a Java or Kotlin package does. As a definition its
# name seeded whole files (trial 12: `use` lists, license headers), and its one-line
# signature stood for the class in the same block.
QUALIFIER_KINDS = frozenset({"namespace"})
# Types: a function directly inside one is a method, and a method declared out of line
# (Go receivers, Rust impl blocks, C++ `Type::f`) belongs to one.
TYPE_KINDS = frozenset({"class", "struct", "interface", "trait", "enum", "type"})
# Wrappers of other definitions that are not types: a function inside one stays a function
# (a namespace only while the names are nested: it is no definition, see QUALIFIER_KINDS).
MODULE_KINDS = frozenset({"namespace", "module"})
# Definitions that hold members (a skeleton lists them).
CONTAINER_KINDS = TYPE_KINDS | MODULE_KINDS
# Definitions that can be called: they take parameters and run code.
CALLABLE_KINDS = frozenset({"function", "method"})
# Uses, most telling first: when two captures hit one name on one line, the first is kept.
REFERENCE_KINDS = ("inherit", "import", "import_member", "call", "type", "reference")
# ``import``: the module specifier as written; ``import_member``: a name it binds.
IMPORT_KINDS = frozenset({"import", "import_member"})
# Uses that name a type (``x: T``, ``class A(B)``, ``struct { Embedded }``): they resolve
# only to definitions of ``TYPE_USE_KINDS``, and of ``TYPE_VALUE_KINDS`` in
# ``TYPE_VALUE_LANGUAGES`` (``graph.resolve.names_a_type``), never to a function, method or
# field that shares the name (Go's built-in ``string`` is no method ``string``).
TYPE_USE_REFERENCES = frozenset({"type", "inherit"})
# A module is named where a type is (Ruby's `include Comparable`), and a C macro may stand
# for a type.
TYPE_USE_KINDS = CONTAINER_KINDS | {"macro"}
# Where a class is a value, a variable or constant may hold one (Python's `Base =
# declarative_base()` and type aliases, Ruby's `Point = Struct.new`, `const Base = mixin(A)`).
TYPE_VALUE_KINDS = frozenset({"variable", "constant"})
# Definitions of data: a value, most often a table of literals (messages, option lists).
DATA_KINDS = frozenset({"variable", "constant"})
# The languages where a class is such a value.
TYPE_VALUE_LANGUAGES = frozenset({"python", "ruby", "javascript", "typescript", "tsx"})
