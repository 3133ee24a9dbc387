"""Value types shared by the pipeline stages.

Coordinates everywhere after discovery: paths are ``str`` relative to the repository
root with ``/`` separators; lines are 1-indexed and ranges inclusive at both ends.
All types are frozen values: equal content means equal objects.
"""
from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field


class Fidelity(str, enum.Enum):
    """How much of a block the output shows."""

    FULL = "full"
    TRUNCATED = "truncated"
    SIGNATURE = "signature"


class Tier(enum.IntEnum):
    """What the budget fitter may do to a block, by its score band (best tier first).

    Scores come from the ring walker: ring 0 (definitions the task names) scores
    100-150, rings 1-2 (members, enclosing definitions, callees, callers, tests) 60-99,
    rings 3-4 (same-file siblings, word matches, callers of callers) 10-59; see
    ``RING_BANDS``; the rest of a shown file below 10 (``FILL_BAND``). The source reader
    never merges blocks of different tiers.
    """

    TRUNCATE = 0  # score >= 100: whole, or cut to the most lines that fit
    SIGNATURE = 1  # score >= 60: whole, or reduced to its signature
    WHOLE = 2  # score >= 10: whole or excluded
    # below (``FILL_BAND``): the rest of a file a block shows, once every other block is
    # shown (``source.read_blocks``, ``fit._Planner``)
    FILL = 3

    @property
    def floor(self) -> float:
        """The lowest score of the tier."""
        return _TIER_FLOORS[self]

    @classmethod
    def of(cls, score: float) -> Tier:
        """The tier of a block or item with this score."""
        return next(tier for tier in cls if score >= tier.floor)


@dataclass(frozen=True, slots=True)
class Band:
    """The scores of one ring: ``low`` (weight 0) to ``low + span`` (weight 1)."""

    low: float
    span: float

    def score(self, weight: float) -> float:
        """The score for ``weight`` (clamped to [0, 1]), rounded to 3 decimals."""
        return round(self.low + self.span * max(0.0, min(1.0, weight)), 3)


# Score bands per ring, indexed by ring. Nothing outside ring 0 reaches 100, so no other
# item outranks a definition the task names; rings 1-2 stay in the SIGNATURE tier.
RING_BANDS: tuple[Band, ...] = (Band(100.0, 50.0), Band(60.0, 39.0), Band(60.0, 30.0),
                                Band(30.0, 29.0), Band(10.0, 19.0))
# The rest of a file the walker's blocks show part of (``Tier.FILL``), weight its best
# block's score over ring 0's best: below every ring's band.
FILL_BAND = Band(0.0, 9.0)
_TIER_FLOORS = {Tier.TRUNCATE: RING_BANDS[0].low, Tier.SIGNATURE: RING_BANDS[1].low,
                Tier.WHOLE: RING_BANDS[4].low, Tier.FILL: float("-inf")}


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
    macro, constant, variable, module, field (see grammars/README.md). ``qualified_name`` joins the enclosing
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
    items; its band per ring is ``RING_BANDS[ring]`` and its ``Tier`` says what the
    fitter may do to it.
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
    # The first line a cut block of this item keeps (``Block.focus_line``), below its
    # start when the task points at a line further down (``FOCUS_ABOVE`` lines above
    # that line); None: from the item's start
    focus_line: int | None = None
    # The lines the task points at inside the item (1-indexed), nearest the failure first,
    # which a cut of its block keeps first, whatever else the block holds (trial 19: a C#
    # frame's line 21 of an 8-line method, near enough its start to need no focus, was
    # hidden in its class's block by lines holding the task's words)
    pointed_lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Member:
    """An item a block holds (``source.read_blocks``): its symbol (None: it names none),
    its lines and its reason. A cut names only the members whose lines it shows
    (``label_members``)."""

    symbol: str | None
    start_line: int
    end_line: int
    reason: str


# What a whole file's block adds to its best block's reason (``source._whole_file``).
WHOLE_FILE = " (whole file)"


def label_members(members: Sequence[Member]) -> tuple[tuple[str, ...], str]:
    """(symbols, reason) of a block holding ``members``, best first: their distinct
    symbols, and the best one's reason with how many more there are.

    Examples
    --------
    >>> label_members([Member("f", 1, 2, "named f"), Member("g", 4, 5, "calls f")])
    (('f', 'g'), 'named f (+1 more)')
    """
    symbols = tuple(dict.fromkeys(m.symbol for m in members if m.symbol))
    more = f" (+{len(members) - 1} more)" if len(members) > 1 else ""
    return symbols, (members[0].reason + more if members else "")


# An item's ``focus_line`` lies this many lines above the line the task points at, so
# that a cut keeps the line with up to this many lines above it (``seeds._focus``).
FOCUS_ABOVE = 3


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
    signature: str = ""  # the block's definitions reduced to their headers ('' if none)
    focus_line: int = 0  # where the best item starts; truncation keeps lines from here
    cells: str = ""  # a notebook's block: the cells it shows (``cell 3, lines 2-5``)
    # file lines that matter most when the block is cut (``elide``), best first; () when
    # a cut keeps lines from ``focus_line`` on
    salient: tuple[int, ...] = ()
    # the lines the task points at inside the block (``Item.pointed_lines`` of its items,
    # the best item's first; (): none): such a block goes first among blocks of its score
    # (``fit._rank``), and a cut reveals each, also one above ``focus_line`` (trial 21: a
    # caller's frame in a method merged above the failing one's)
    pointed_lines: tuple[int, ...] = ()
    # ``focus_line`` is that line inside a body, in no definition starting in the block: a
    # cut opens at its statement under the headers of the scopes around it, not at a
    # header read from it down (``elide.reveal_chunks``' ``in_body``)
    opens_in_body: bool = False
    # a cut around salient lines (``fit.truncate_block``): the lines it keeps, gaps
    # between them marked ``⋮ N lines`` (a gap of one line is shown instead, uncounted);
    # 0: a cut that shows all of start_line..end_line, or no cut
    kept: int = 0
    # the file line ranges such a cut shows (1-indexed, inclusive; a gap of one line is
    # shown); (): every line of start_line..end_line
    shown: tuple[tuple[int, int], ...] = ()
    # (qualified name, first line, last line) of a definition the block holds only part of:
    # a window around a call in a long caller, a class header, the lines around a line the
    # task points at (``source.read_blocks``); None: each definition it names is whole
    part_of: tuple[str, int, int] | None = None
    # a whole file's block (``source._whole_file``): how many of the first ``salient``
    # lines are its ring-0 blocks' lines; the fitter grows those as a ring-0 block and
    # adds the rest of the file later, as an upgrade (``fit._Planner``); 0: not a whole file
    cover: int = 0
    # a block the walker asked to show as its signature (``content``): its lines whole,
    # which the fitter shows once every other block is (``Tier.FILL``, ``fit._Planner``);
    # "": none
    whole: str = ""
    # ``whole`` is a test's: shown only after every other fill (the rest of the files
    # shown too), when budget is still left
    whole_last: bool = False
    # a whole file's block: for each of its ring 1-2 blocks, best first, (how many of the
    # first ``salient`` lines show it and the blocks before it, its score); the fitter
    # shows each as an upgrade ranked by that score, before the rest of the file
    near_covers: tuple[tuple[int, float], ...] = ()
    # the items the block holds, best first (``symbols`` and ``reason`` name them); a cut
    # names only those whose lines it shows (``fit.truncate_block``)
    members: tuple[Member, ...] = ()
    # the headers of containers above the block that ``signature`` lists members inside
    # (``source._signature``): (the first and last lines of the container's header, its
    # Allman `{` line too, the text of ``signature`` from that header to its first member,
    # with the "⋮" marking members left out above); the renderer leaves that text out when a block above in the
    # file shows the last line or one below it, and otherwise labels the block from the
    # first (``render._unwrapped``)
    wrappers: tuple[tuple[int, int, str], ...] = ()
    # a signature whose last definition, shown ``{ ... }``, goes on below the block: that
    # definition's last line; the renderer opens it (``{``) when the next block in the
    # file shows lines inside it (``render._opened``); 0: none
    opens: int = 0
    # the file line ranges ``signature``'s lines show (``source.signature_rows``: headers
    # with the line of an Allman ``{``, a docstring's first lines, a closing ``}``; not a
    # body's placeholder nor a ``⋮`` line), for the JSON's ``lines`` of a block shown as
    # its signature; (): a line is not where the index said (the file changed since)
    signature_ranges: tuple[tuple[int, int], ...] = ()


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
class Upcoming:
    """A block a budget does not show whole, and the budgets that would show more of it.

    ``block`` is the whole block; ``shown`` how the budget shows it now (None: excluded);
    ``adds`` the form the fitter's next step for it shows (the block's own ``kind`` when
    that step shows it whole: a test the walker chose as a signature stays one); ``budget`` the smallest budget
    (tokens) that shows that form, ``full_budget`` the smallest that shows it whole. A
    budget shows everything a smaller one shows (``fit.fit_text`` is monotone), so asking
    for ``budget`` adds this block and everything listed before it.
    """

    block: Block
    shown: Fidelity | None
    adds: Fidelity
    budget: int
    full_budget: int


@dataclass(frozen=True, slots=True)
class Explained:
    """What the fitter did with one candidate of the walker (``gather --explain``).

    ``item`` is the walker's item; ``action`` is what the block the item was read into is
    shown as, ``full``, ``truncated`` or ``signature`` (the fitter's doing, or a signature
    the walker asked for), or ``excluded`` (left out by the fitter), or else ``not read``
    (no block holds it: its lines were blank, its file unreadable or redacted); ``detail``
    says why (the fitter's reason, or that the walker asked; empty for a block shown
    whole untouched); ``block`` is (path, first line, last line) of that block, 1-based
    inclusive, or None when not read.
    """

    item: Item
    action: str
    detail: str
    block: tuple[str, int, int] | None


@dataclass(frozen=True, slots=True)
class Selection:
    """What the budget fitter kept, in output order, and what it cut."""

    blocks: tuple[Block, ...]
    truncated: tuple[Dropped, ...] = ()
    excluded: tuple[Dropped, ...] = ()


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a result came from, for the JSON contract (``contract.origin_of``).

    ``root``: the absolute root; ``commit``: HEAD's commit id when the root lies in a git
    work tree (else None) and ``dirty``: whether tracked files differ from it (None without
    a commit); ``files``: files the index selected, ``parsed``: of them, those parsed,
    ``diagnosed``: files skipped or degraded (see ``Result.diagnostics``).
    """

    root: str
    commit: str | None
    dirty: bool | None
    files: int
    parsed: int
    diagnosed: int


@dataclass(frozen=True, slots=True)
class Result:
    """The answer to one gather: the selection plus what it was fitted for.

    ``indexed_files`` is how many files the index holds, set when nothing was found
    (None otherwise): 0 means every file was skipped (see ``diagnostics``).
    ``calibrated_for`` names the model whose calibration factor scaled the counts.
    ``task_note`` says how the task was read: how a huge task was cut before searching,
    a place it points at past the end of its file (``; ``-separated; None: neither).
    ``used`` is the token count of the text rendering, which its header states; the
    gather that made the selection sets it, None has the renderer measure it.
    ``origin`` says where the result came from (set by ``pipeline.gather``).
    ``upcoming`` lists the blocks not shown whole, in the order a larger budget adds them.
    ``explained`` says what the fitter did with each walker candidate (None: not asked).
    ``task_symbols`` are the symbols the task was searched for (``ParsedTask.symbols``,
    as ``task.limit_task`` cuts them), so that no reader parses the task again; they are
    not rendered. ``unknown_paths`` are those of them that are paths with directories
    naming no file of the index (``seeds.files_named``): a file deleted since, or one the
    task would add. ``gone_definitions`` are (symbol, path) of those of them that no
    definition of the index is, and that one of a file the index's update dropped was.
    ``out_of_scope`` are (symbol, path, scope) of those of them whose definitions all
    lie outside the gather's ``--scope``. ``excluded_named`` are the diagnostics (reason
    ``excluded``) of the files ``--exclude`` or a ``.ctxoptignore`` left out that those of
    them name (a path, or its last parts) or that hold a gone definition.
    """

    task: str
    intent: Intent
    budget: int
    selection: Selection
    diagnostics: tuple[Diagnostic, ...] = field(default=())
    indexed_files: int | None = None
    calibrated_for: str | None = None
    task_note: str | None = None
    used: int | None = None
    origin: Origin | None = None
    upcoming: tuple[Upcoming, ...] = ()
    explained: tuple[Explained, ...] | None = None
    task_symbols: tuple[str, ...] = ()
    unknown_paths: tuple[str, ...] = ()
    gone_definitions: tuple[tuple[str, str], ...] = ()
    out_of_scope: tuple[tuple[str, str, str], ...] = ()
    excluded_named: tuple[Diagnostic, ...] = ()
