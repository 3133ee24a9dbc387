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

import re
from collections import defaultdict

__all__ = ["MAX_AMBIGUOUS_TARGETS", "MAX_ATTRIBUTE_TARGETS", "VIA_PRIORITY", "EdgeGroups",
           "is_test_path", "symbol_id", "split_symbol"]

MAX_AMBIGUOUS_TARGETS = 5
# Attribute uses (`x.name` without a call) resolve only within the file and the files it
# imports: a lone definition elsewhere is too often another object's attribute.
MAX_ATTRIBUTE_TARGETS = 0
# The most telling kind of use names an edge ("calls" over "imports").
VIA_PRIORITY = {"inherit": 0, "call": 1, "type": 2, "import_member": 3, "reference": 4}
_TEST_PATH = re.compile(
    r"(^|/)(tests?|__tests__|spec|testing)/|(^|/)test_[^/]*\.py$|_test\.(py|go)$"
    r"|\.(test|spec)\.[jt]sx?$|(^|/)conftest\.py$"
)


def is_test_path(path: str) -> bool:
    """True for files that hold tests by the common conventions of each language."""
    return bool(_TEST_PATH.search(path))


def symbol_id(path: str, index: int) -> str:
    """Graph node id of the ``index``-th definition of ``path``."""
    return f"{path}#{index}"


def split_symbol(node: str) -> tuple[str, int]:
    """(path, definition index) of a definition's node id."""
    path, _, index = node.rpartition("#")
    return path, int(index)


class EdgeGroups:
    """Collects uses into edges keyed (other end, edge kind).

    ``add`` one use at a time; ``edges`` gives (other end, kind, {``lines``: sorted unique
    lines, ``via``: the most telling use kind by ``VIA_PRIORITY``}), sorted. A use of kind
    ``inherit`` makes an ``inherits`` edge, any other a ``references`` edge; a use from a
    test file of a definition outside tests also makes a ``tests`` edge.
    """

    def __init__(self) -> None:
        self.lines: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.via: dict[tuple[str, str], str] = {}

    def add(self, other: str, ref_kind: str, line: int, tests: bool) -> None:
        """Record one use of kind ``ref_kind`` at ``line`` (1-indexed)."""
        key = (other, "inherits" if ref_kind == "inherit" else "references")
        self.lines[key].append(line)
        known = self.via.get(key)
        if known is None or VIA_PRIORITY[ref_kind] < VIA_PRIORITY[known]:
            self.via[key] = ref_kind
        if tests:
            self.lines[(other, "tests")].append(line)

    def edges(self) -> list[tuple[str, str, dict]]:
        """The grouped edges, sorted by (other end, kind)."""
        return [(other, kind, {"lines": tuple(sorted(set(lines))),
                               "via": self.via.get((other, kind), "reference")})
                for (other, kind), lines in sorted(self.lines.items())]
