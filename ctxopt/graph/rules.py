"""How uses of names become edges of the symbol graph (pure).

Nodes are files (id: the path) and definitions (id: ``path#i``, the definition's index in
its file's tags). Edges are keyed by kind:

- ``contains``: file -> top-level definition, definition -> member, type -> method
  declared out of line;
- ``references``: the referring definition (or file, at module level) -> the definition
  the name resolves to, with the referring ``lines`` and ``via``, the most telling kind of
  use (call, type, import_member, reference);
- ``inherits``: class -> base class definition;
- ``imports``: file -> file;
- ``tests``: test definition (or test file) -> the definition it references.
"""
from __future__ import annotations

import functools
import posixpath
import re
from collections import defaultdict
from collections.abc import Sequence

from ..model import Definition
from ..parsing.kinds import TYPE_KINDS

__all__ = ["MAX_AMBIGUOUS_TARGETS", "MAX_ATTRIBUTE_TARGETS", "VIA_PRIORITY", "EdgeGroups",
           "is_test_path", "is_benchmark_path", "test_definitions", "TEST_ATTRIBUTE_LANGUAGES", "symbol_id", "split_symbol", "OWNER_KINDS", "out_of_line_owner",
           "choose_owners", "attribute_impl_uses", "file_stem"]

MAX_AMBIGUOUS_TARGETS = 5
# Attribute uses (`x.name` without a call) resolve only within the file and the files it
# imports: a lone definition elsewhere is too often another object's attribute.
MAX_ATTRIBUTE_TARGETS = 0
# The most telling kind of use names an edge ("calls" over "imports").
VIA_PRIORITY = {"inherit": 0, "call": 1, "type": 2, "import_member": 3, "reference": 4}
_TEST_PATH = re.compile(
    r"(^|/)(tests?|__tests__|spec|testing)/|(^|/)test_[^/]*\.py$|_test\.(py|go)$"
    r"|\.(test|spec)\.[jt]sx?$|(^|/)conftest\.py$"
    # .NET and Swift test projects (Tests/, App.Tests/); JUnit, xUnit, XCTest, ScalaTest
    # and PHPUnit class files (StoreTest.java, StoreTests.cs, src/ReaderTest.php, and
    # PHPUnit's shared bases, ReaderTestCase.php); RSpec and Minitest files.
    # (not ``Spec.java``: JavaPoet's MethodSpec and KotlinPoet's FunSpec are the code; a
    # Spock, Kotest or Quick spec lives in a test directory)
    r"|(^|/)([\w.-]+\.)?Tests?/|[a-z0-9]Tests?\.(java|kt|cs|swift|scala|php)$"
    r"|[a-z0-9]TestCase\.php$|_(spec|test)\.rb$"
    # Gradle's test source sets (Kotlin Multiplatform's src/commonTest/, src/jvmTest/,
    # Android's src/androidTest/: trial 39, okio's test helpers shown with --no-tests)
    r"|(^|/)src/[a-z][A-Za-z0-9]*Test/"
)
# Attributes and annotations that mark a definition as a test wherever it lies (its
# signature's leading lines): Rust #[test], #[tokio::test] and #[cfg(test)] modules,
# JUnit @Test, NUnit [Test], xUnit [Fact] / [Theory], MSTest [TestMethod], PHPUnit
# #[Test] and #[\PHPUnit\Framework\Attributes\Test] (alone or first in its group), and
# PHPUnit's docblock annotation (`/** @test */`, or a ` * @test` line of one: a PHP
# signature starts at such a docblock, ``treesitter._leading``). Limits: a `Test` attribute
# of any namespace (`#[Foo\Test]`, `@org.other.Test`) counts, and annotations are
# matched in their usual case only (`@Test` in Java, `@test` in a docblock).
_TEST_ATTRIBUTE = re.compile(
    r"^\s*(?:#\[(?:cfg\(test\)|(?:\w+::)*test)\]|@(?:\w+\.)*Test\b"
    r"|#\[\\?(?:\w+\\)*Test\b"
    r"|\[(?:Test|Fact|Theory|TestMethod)\b"
    r"|(?:/\*\*|\*)(?:.*[\s*])?@test\b)", re.MULTILINE)


# Languages whose tests may live beside the code, marked by attributes.
TEST_ATTRIBUTE_LANGUAGES = frozenset({"rust", "java", "kotlin", "scala", "csharp", "swift", "cpp",
                                      "php"})


@functools.lru_cache(maxsize=1 << 16)  # asked for the same few paths thousands of times a gather
def is_test_path(path: str) -> bool:
    """True for files that hold tests by the common conventions of each language."""
    return bool(_TEST_PATH.search(path))


# Directories of code that shows how to use a project: it uses the project's names, and
# defines its own of the same (zustand's demos each define a `useStore`). A leading "_"
# is Go's way to keep such a directory out of the build (trial 39: chi's `_examples/`).
_EXAMPLE_PATH = re.compile(r"(^|/)_?(examples?|demos?|samples?)/", re.IGNORECASE)


def is_example_path(path: str) -> bool:
    """True for files under an ``examples``, ``demo`` or ``samples`` directory (singular
    or plural, any case, with or without a leading ``_``)."""
    return bool(_EXAMPLE_PATH.search(path))


# Directories of benchmarks (xarray's asv_bench/, zod's packages/bench/, Cargo's benches/):
# they use the project's names as tests do, and a fix seldom goes there.
_BENCHMARK_PATH = re.compile(r"(^|/)(benchmarks?|bench|benches|asv_bench)/", re.IGNORECASE)


def is_benchmark_path(path: str) -> bool:
    """True for files under a ``bench``, ``benches``, ``benchmark(s)`` or ``asv_bench``
    directory (any case)."""
    return bool(_BENCHMARK_PATH.search(path))


def test_definitions(definitions: Sequence[Definition]) -> frozenset[int]:
    """The indexes of the definitions of one file that are tests by their attributes
    (``#[test]``, ``@Test``, ``[Fact]``: see ``_TEST_ATTRIBUTE``), with everything nested
    in them (the members of a Rust ``#[cfg(test)] mod tests``). ``definitions`` are one
    file's, each ``parent`` an index into them."""
    found: set[int] = set()
    for i, definition in enumerate(definitions):  # parents come before their members
        if (definition.parent in found
                or (definition.signature and _TEST_ATTRIBUTE.search(_attributes(definition.signature)))):
            found.add(i)
    return frozenset(found)


def _attributes(signature: str) -> str:
    """The lines of a signature before the definition's own first line that are
    attributes, annotations or a docblock's (PHP's, ``treesitter._leading``)."""
    lines = signature.split("\n")
    head = [line for line in lines[:-1] if line.lstrip().startswith(("#[", "@", "[", "/**", "*"))]
    return "\n".join(head)


def symbol_id(path: str, index: int) -> str:
    """Graph node id of the ``index``-th definition of ``path``."""
    return f"{path}#{index}"


def split_symbol(node: str) -> tuple[str, int]:
    """(path, definition index) of a definition's node id."""
    path, _, index = node.rpartition("#")
    return path, int(index)


# The reasons of ``graph.resolve``, most certain first.
REASONS = ("same file", "imported name", "imported file", "same namespace", "same package")


_REASON_RANKS = {reason: rank for rank, reason in enumerate(REASONS)}


def _reason_rank(reason: str) -> int:
    return _REASON_RANKS.get(reason, len(REASONS))


class EdgeGroups:
    """Collects uses into edges keyed (other end, edge kind).

    ``add`` one use at a time; ``edges`` gives (other end, kind, {``lines``: sorted unique
    lines, ``via``: the most telling use kind by ``VIA_PRIORITY``, ``resolved``: the reason
    of ``graph.resolve``, the most certain of the uses'}), sorted. A use of kind
    ``inherit`` makes an ``inherits`` edge, any other a ``references`` edge; a use from a
    test file of a definition outside tests also makes a ``tests`` edge.
    """

    def __init__(self) -> None:
        self.lines: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.via: dict[tuple[str, str], str] = {}
        self.reason: dict[str, str] = {}

    def add(self, other: str, ref_kind: str, line: int, tests: bool, reason: str = "") -> None:
        """Record one use of kind ``ref_kind`` at ``line`` (1-indexed), resolved for
        ``reason``."""
        key = (other, "inherits" if ref_kind == "inherit" else "references")
        self.lines[key].append(line)
        # (ranked only when they differ: a name's uses mostly share their reason and kind)
        known_reason = self.reason.get(other)
        if known_reason != reason and (known_reason is None
                                       or _reason_rank(reason) < _reason_rank(known_reason)):
            self.reason[other] = reason
        known = self.via.get(key)
        if known != ref_kind and (known is None or VIA_PRIORITY[ref_kind] < VIA_PRIORITY[known]):
            self.via[key] = ref_kind
        if tests:
            self.lines[(other, "tests")].append(line)

    def edges(self) -> list[tuple[str, str, dict]]:
        """The grouped edges, sorted by (other end, kind)."""
        lines, via, reason = self.lines, self.via, self.reason
        edges = []
        # (the keys sorted, not the items: each key is once, so the order is the same)
        for key in sorted(lines):
            found = lines[key]  # (most are one line: no set to sort)
            edges.append((key[0], key[1], {
                "lines": tuple(sorted(set(found))) if len(found) > 1 else (found[0],),
                "via": via.get(key, "reference"), "resolved": reason.get(key[0], "")}))
        return edges


# Definitions that methods declared out of line can belong to.
OWNER_KINDS = TYPE_KINDS


def out_of_line_owner(definitions: Sequence[Definition], index: int) -> str | None:
    """The name of the type a method declared out of line belongs to, else None.

    A definition is out of line when its qualified name holds a scope that its enclosing
    definitions do not explain (``Storage.Get`` at top level, ``kv.Storage.get`` inside
    namespace ``kv``: Go receivers, Rust impl blocks, C++ ``Type::f``, Kotlin and Swift
    extensions); its owner is named by the scope's last part."""
    definition = definitions[index]
    parent = definitions[definition.parent].qualified_name + "." if definition.parent is not None else ""
    qualified = definition.qualified_name
    if qualified == parent + definition.name or not qualified.endswith("." + definition.name):
        return None
    return qualified[:-len(definition.name) - 1].rsplit(".", 1)[-1]


def choose_owners(path: str, candidates: Sequence[str]) -> list[str]:
    """Of the type definitions (node ids) named like the owner of a method declared out of
    line in ``path``: the one ``path`` defines itself (a Rust ``impl Args`` beside its
    ``struct Args``: each module of a directory may have its own), else those in the same
    directory (a Go package), else those in a file with the same stem (``storage.hpp`` for
    ``storage.cpp``), else the only one."""
    same_file = [c for c in candidates if c.rpartition("#")[0] == path]
    if same_file:
        return same_file
    directory = posixpath.dirname(path)
    same_directory = [c for c in candidates if posixpath.dirname(c.rpartition("#")[0]) == directory]
    if same_directory:
        return same_directory
    stem = file_stem(path)
    same_stem = [c for c in candidates if file_stem(c.rpartition("#")[0]) == stem]
    return same_stem or (list(candidates) if len(candidates) == 1 else [])


def file_stem(path: str) -> str:
    """A file's name without its directories and last extension (``Value`` of
    ``rules/outputs/Value.py``)."""
    return posixpath.splitext(posixpath.basename(path))[0]


def attribute_impl_uses(language: str, definitions: Sequence[Definition],
                        uses: Sequence[tuple[str, str, int, int | None]]
                        ) -> list[tuple[str, str, int, int | None]]:
    """Uses with Rust ``impl Trait for Type`` attributed to ``Type``.

    An ``impl`` block is not a definition, so its ``inherit`` use of the trait lies at
    module level, as if the whole file implemented it. It belongs to the type named by the
    ``type`` use on the same line when this file defines that type at top level."""
    if language != "rust":
        return list(uses)
    top = {d.name: i for i, d in enumerate(definitions) if d.parent is None and d.kind in OWNER_KINDS}
    implementors = {line: top[name] for name, kind, line, enclosing in uses
                    if kind == "type" and enclosing is None and name in top}
    return [(name, kind, line, implementors[line])
            if kind == "inherit" and enclosing is None and line in implementors
            and top.get(name) != implementors[line] else (name, kind, line, enclosing)
            for name, kind, line, enclosing in uses]
