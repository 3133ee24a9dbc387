"""Value types shared by the pipeline stages.

Coordinates everywhere after discovery: paths are ``str`` relative to the repository
root with ``/`` separators; lines are 1-indexed and ranges inclusive at both ends.
All types are frozen values: equal content means equal objects.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Fidelity(str, enum.Enum):
    """How much of a block the output shows."""

    FULL = "full"
    TRUNCATED = "truncated"
    SIGNATURE = "signature"


class Intent(str, enum.Enum):
    """What the task asks for, read from its verbs and phrases."""

    FIX = "fix"
    MODIFY = "modify"
    ADD = "add"
    REMOVE = "remove"
    UNDERSTAND = "understand"
    GENERAL = "general"


@dataclass(frozen=True, slots=True)
class Definition:
    """A symbol defined in a file.

    ``kind`` is one of class, interface, struct, enum, trait, type, function, method,
    macro, constant, variable, module, namespace, field (see grammars/README.md). ``qualified_name`` joins the enclosing
    definitions' names with ``.`` (``Storage.get``). ``signature`` is the header of the
    definition with its body replaced by a placeholder (see ``treesitter.signature_of``).
    ``parent`` is the index of the enclosing definition in the same ``FileTags``.
    """

    name: str
    kind: str
    qualified_name: str
    start_line: int
    end_line: int
    signature: str
    parent: int | None = None


@dataclass(frozen=True, slots=True)
class Reference:
    """A use of a name: ``kind`` is call, type, inherit, import or reference.

    ``enclosing`` is the index of the innermost definition around the use in the same
    ``FileTags`` (None at module level). For imports, ``name`` is the module specifier as
    written (``a.b``, ``./util``, ``"example.com/m/pkg"`` without quotes).
    """

    name: str
    kind: str
    line: int
    enclosing: int | None = None


@dataclass(frozen=True, slots=True)
class FileTags:
    """Everything the indexer learned from one file."""

    path: str
    language: str
    line_count: int
    definitions: tuple[Definition, ...] = ()
    references: tuple[Reference, ...] = ()


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A file that was skipped or degraded, and why (``reason`` is a short keyword)."""

    path: str
    reason: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Item:
    """A scored piece of the repository chosen by the ring walker.

    ``ring`` is 0 (definitions named by the task) to 4 (transitive). ``score`` orders
    items: ring 0 scores at least 100, rings 1-2 at least 60, rings 3-4 below 60.
    """

    path: str
    start_line: int
    end_line: int
    score: float
    ring: int
    reason: str
    symbol: str | None = None
    # The most detail worth showing: SIGNATURE for items that only name a relevant file
    # or definition ("detail by distance"); the fitter may still reduce FULL items.
    fidelity: Fidelity = Fidelity.FULL


@dataclass(frozen=True, slots=True)
class Block:
    """Lines of one file as they will be shown, with the token count of the content."""

    path: str
    language: str
    start_line: int
    end_line: int
    content: str
    tokens: int
    score: float
    ring: int
    reason: str
    symbols: tuple[str, ...] = ()
    kind: Fidelity = Fidelity.FULL
    omitted_lines: int = 0
    signature: str = ""  # the block's definitions reduced to their headers ('' if none)
    focus_line: int = 0  # where the best item starts; truncation keeps lines from here
    cells: str = ""  # a notebook's block: the cells it shows (``cell 3, lines 2-5``)


@dataclass(frozen=True, slots=True)
class Dropped:
    """A block that was truncated, reduced or excluded by the budget fitter, and why."""

    path: str
    start_line: int
    end_line: int
    tokens: int
    score: float
    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class Selection:
    """What the budget fitter kept, in output order, and what it cut."""

    blocks: tuple[Block, ...]
    truncated: tuple[Dropped, ...] = ()
    excluded: tuple[Dropped, ...] = ()


@dataclass(frozen=True, slots=True)
class Result:
    """The answer to one gather: the selection plus what it was fitted for.

    ``indexed_files`` is how many files the index holds, set when nothing was found
    (None otherwise): 0 means every file was skipped (see ``diagnostics``).
    ``calibrated_for`` names the model whose calibration factor scaled the counts.
    ``task_note`` says how a huge task was cut before searching (None: it was not).
    """

    task: str
    intent: Intent
    budget: int
    selection: Selection
    diagnostics: tuple[Diagnostic, ...] = field(default=())
    indexed_files: int | None = None
    calibrated_for: str | None = None
    task_note: str | None = None
