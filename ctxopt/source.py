"""Stage 4 (edge: reads files): scored items -> ``Block`` list with token counts.

Each item's line range is widened by ``context_lines`` above; ranges in one file are
merged when they overlap or lie within ``merge_gap`` lines of each other. A merged block
takes the best score, the lowest ring and the best item's reason, and lists its symbols
best first. Blocks whose lines are all blank are dropped. Items of different ``Tier``s
are never merged: a weak neighbour would ride on a strong block's score; and no line is
in two blocks (a merge across lines a stronger tier shows is split around them, each
part a block of the merge's items). A block of more than a few lines carries its salient
lines (``salient_lines``: the line the task points at, lines holding the task's terms or
the seeds' names, the headers of the definitions inside), which a cut of it keeps first
(``fit.truncate_block``). A block that stops inside a definition one of its items names
(a class header, a window around a call in a long caller, the lines around a line the
task points at) says so in ``part_of``: the renderer labels it (``# lines 120-132 (part
of NAME, lines 100-230)``, JSON kind ``window``), and marks the lines of the definition
no block next to it shows (``render._marked``). Files are decoded and split into lines as ``files.text`` says
(BOMs, UTF-16, ``\\r\\n``, ``\\r`` and ``\\n``), the same way the indexer numbered
them.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import replace
from itertools import groupby
from pathlib import Path
from typing import NamedTuple

from .files.notebook import cell_label, is_notebook, read_lines
from .elide import indent_width, prose_lines, statement_spans
from .graph.view import IndexView
from .lexical import name_words, terms_weight
from .model import (FILL_BAND, FOCUS_ABOVE, RING_BANDS, WHOLE_FILE, Block, Definition, Fidelity,
                    Item, Member, Tier, label_members)
from .parsing.kinds import CONTAINER_KINDS
from .parsing.languages import comment_opener, fence_tag
from .ranges import clamp_range, merge_ranges, subtract_ranges
from .tokens import TokenCounter
from .wording import counted, elided, omitted

__all__ = ["CONTEXT_LINES", "DECORATOR_LINES", "MERGE_GAP", "compact_signature", "outline",
           "read_blocks", "read_lines", "signature_rows"]

CONTEXT_LINES = 2
MERGE_GAP = 3
# Tiers whose blocks carry salient lines (``Block.salient``), so that a cut keeps them.
SALIENT_TIERS = frozenset(Tier)
# A comment or docstring line holding the task's words counts this much of a code line.
PROSE_WEIGHT = 0.5
# A block of at most this many lines is never cut around its salient lines.
_SALIENT_MIN_LINES = 12
# A cut keeps this many lines from an item's focus line first (the line the task points
# at is a few lines below it: ``seeds._focus``).
POINTED_LINES = 7
# Most salient lines a block keeps.
_SALIENT_MAX = 64
# A file is shown whole, as one block (``_whole_file``), when its blocks cost at least this
# share of its tokens, or when it costs at most SMALL_FILE_TOKENS.
COVER_RATIO = 0.5
SMALL_FILE_TOKENS = 512
# No file of more tokens is shown whole: a 10,000-token module whose many candidate
# blocks cost half of it became one ring-0 block that took most of 8,000 tokens.
WHOLE_FILE_TOKENS = 2048


# A skeleton lists at most this many members of a class before eliding the rest.
SKELETON_MEMBERS = 40


# A decorator or attribute longer than this many lines (a test's parametrize table) is
# shown in a signature by its first and last lines around a marker.
DECORATOR_LINES = 3
_CLOSERS = (")", "]", "}")


def compact_signature(signature: str) -> str:
    """``signature`` with each decorator or attribute of more than ``DECORATOR_LINES``
    lines cut to its first and last lines around a ``⋮ N lines`` marker: a signature
    names a definition, and a decorator's data (``@pytest.mark.parametrize`` with a
    300-line table) made one cost 1,800 tokens. Decorators are the lines before the
    definition's own first line that open at the first line's indentation with ``@``,
    ``#[`` or ``[`` (continuation lines are indented deeper or close a bracket there)."""
    lines = signature.split("\n")
    if not lines[0].lstrip().startswith(("@", "#[", "[")):
        return signature
    return "\n".join(text for text, _ in _compacted(lines))


def _compacted(lines: list[str]) -> list[tuple[str, int | None]]:
    """``compact_signature``'s lines of a signature's ``lines``: (text, the index in
    ``lines`` of the line it is; None for a marker)."""
    out: list[tuple[str, int | None]] = []
    i = 0
    for end in _decorators(lines) if lines[0].lstrip().startswith(("@", "#[", "[")) else []:
        if end - i > DECORATOR_LINES:
            inner = lines[i + 1]
            marker = inner[: len(inner) - len(inner.lstrip())] + f"⋮ {end - i - 2} lines"
            out += [(lines[i], i), (marker, None), (lines[end - 1], end - 1)]
        else:
            out += [(lines[n], n) for n in range(i, end)]
        i = end
    return out + [(lines[n], n) for n in range(i, len(lines))]


def _decorators(lines: list[str]) -> list[int]:
    """Where each decorator or attribute ends that ``lines`` (a signature's) open with:
    the index of the line past it (``compact_signature``'s rule)."""
    first = lines[0]
    indent = first[: len(first) - len(first.lstrip())]
    ends: list[int] = []
    i = 0
    while i < len(lines) and lines[i].startswith(indent) and \
            lines[i][len(indent):].startswith(("@", "#[", "[")):
        end = i + 1  # the decorator's lines: deeper, or closing its bracket at its indent
        while end < len(lines) and (not lines[end].strip() or (
                lines[end].startswith(indent) and (
                    lines[end][len(indent):len(indent) + 1].isspace()
                    or lines[end][len(indent):].startswith(_CLOSERS)))):
            end += 1
        ends.append(end)
        i = end
    return ends


# A line of a signature as shown: its text and the file lines it shows, in order (none: a
# placeholder, ``...`` of a body, a ``⋮`` line; ``_NOT_FOUND``: a line the file no longer
# has where the index said, changed since it was indexed).
Row = tuple[str, tuple[int, ...]]
_NOT_FOUND = -1


def _skeleton(definitions: tuple, i: int, end: int | None = None,
              file_lines: list[str] | None = None, only: set[int] | None = None) -> list[Row]:
    """A class-like definition's signature with its members' signatures as its body
    (``_skeleton_parts``, joined); a definition with none, its signature with the comma
    its header ends with in ``file_lines`` (``_member_line``: trial 16's Rust fields
    listed beside a method lost theirs). Its rows carry their file lines when
    ``file_lines`` is given."""
    parts = _skeleton_parts(definitions, i, end, file_lines, only)
    if parts is None:
        return _member_line(definitions[i], file_lines)
    return parts[0] + parts[1] + parts[2]


def _skeleton_parts(definitions: tuple, i: int, end: int | None = None,
                    file_lines: list[str] | None = None, only: set[int] | None = None
                    ) -> tuple[list[Row], list[Row], list[Row]] | None:
    """A class-like definition's signature with its members' signatures as its body, as
    rows (``Row``: text and file lines; with ``file_lines`` only) of (head, body, tail);
    None when it has no members to list (its
    signature is all). Members listed: those whose header ends at line ``end`` or above,
    when given (a block that holds part of the class: a member below it is in another
    block, or none, and was listed twice, its label's range wrong; trial 6; a member whose
    header only starts there showed lines past the block, printed again by the next;
    trial 13). ``file_lines`` (given with ``end``) finds a member's header below the doc
    comment it starts with (``header_lines``; trial 8: a Rust field's doc comment ended a
    block, the field was listed in it and shown again by the next block). ``only``: the
    indexes of the members to list, when not all those (the members in a block below
    the class's header: the head then ends with a ``⋮ N lines`` line, the lines between
    the header and the first member listed, when members above them are left out).
    Members that could be listed but are not (past ``SKELETON_MEMBERS``) are counted on a
    ``⋮ N more members`` line; members outside the block are not (trial 16: ``⋮ 40 more
    members`` and ``}``, then a block below showed three of them), and the tail, the
    closing line, is there only when the block holds it (``end`` at or below the class's
    last line), else ``⋮ N lines below omitted``, the class's lines below the block, as a
    cut marks them (``render._marked`` counts them only to the next block). A member whose header ends with a comma in ``file_lines`` keeps
    it (a Rust field, an enum's variant)."""
    definition = definitions[i]
    signature = compact_signature(definition.signature)
    # (members the header declares, a Kotlin or Scala primary constructor's `val`s, show
    # there: trial 12's data class listed them twice)
    header = signature.rpartition("{ ... }")[0]
    # (one line per declaration: Swift's `case read, write` is two members; review 31)
    in_body = [(n, definitions[n]) for n in _one_per_node(definitions, [
        n for n, d in enumerate(definitions) if d.parent == i
        and (not header or d.signature.strip() not in header)])]
    children = [d for n, d in in_body if (only is None or n in only)
                and (end is None or file_lines is None or header_lines(d, file_lines)[1] <= end)]
    if definition.kind not in CONTAINER_KINDS or not children:
        return None
    rows = signature_rows(definition, file_lines)
    lines = [text for text, _ in rows]
    before, placeholder, after = lines[-1].rpartition("{ ... }")
    if placeholder and "{" not in after:  # `{ ... }`, `{ ... };`
        indent = lines[0][: len(lines[0]) - len(lines[0].lstrip())]
        closing: tuple[int, ...] = (definition.end_line,) if file_lines is not None else ()
        head = [*rows[:-1], (before + "{", rows[-1][1])]
        tail: list[Row] = [(indent + "}" + after, closing)]
    elif lines[-1].strip() == "...":
        head, tail = rows[:-1], []
    elif len(lines) > 1 and lines[0].rstrip().endswith("{") and lines[-1].strip() == "}":
        head, tail = rows[:1], rows[-1:]  # a Go struct's or interface's, its members in it
    else:
        return None
    body = [row for child in children[:SKELETON_MEMBERS]
            for row in _member_line(child, file_lines)]
    if only is not None and in_body and in_body[0][1] is not children[0]:
        # (members above the block are left out: the lines between the header and the
        # first member listed, ``⋮ N lines`` as a cut's gap)
        head = [*head, _gap_row(head, body)]
    if end is not None and definition.end_line > end:
        # (the class goes on below the block; re-check 16: an opener left with neither
        # its "}" nor a mark; trial 20: a bare `⋮` said not how much)
        tail = [(omitted(definition.end_line - end, "below"), ())] if tail else []
    if len(children) > SKELETON_MEMBERS:
        body.append((f"⋮ {counted(len(children) - SKELETON_MEMBERS, 'more member')}", ()))
    return head, body, tail


def _gap_row(above: list[Row], below: list[Row]) -> Row:
    """The marker row for the lines between the last line ``above`` shows and the first
    ``below`` shows (``wording.elided``, at the indentation of the row below it, as a
    cut's); a bare ``⋮`` when either is not known."""
    last = max((n for _, shows in above for n in shows), default=_NOT_FOUND)
    first = next((shows[0] for _, shows in below if shows), _NOT_FOUND)
    text = below[0][0] if below else ""
    indent = text[: len(text) - len(text.lstrip())]
    if _NOT_FOUND in (last, first) or first <= last + 1:
        return indent + "⋮", ()
    return indent + elided(first - last - 1), ()


def _member_line(member: Definition, file_lines: list[str] | None) -> list[Row]:
    """``member``'s signature as lines of its container's skeleton (``signature_rows``),
    with the comma its header ends with in ``file_lines`` (the file's text) when it has
    one."""
    rows = signature_rows(member, file_lines)
    text, shows = rows[-1]
    if file_lines is None or text.endswith(","):
        return rows
    last = header_lines(member, file_lines)[1]
    if last > len(file_lines):  # (the file is shorter than when it was indexed)
        return rows
    if file_lines[last - 1].rstrip().endswith(","):
        return [*rows[:-1], (text + ",", shows)]
    return rows


def signature_rows(definition: Definition, file_lines: list[str] | None) -> list[Row]:
    """The lines of ``definition``'s signature as shown (``compact_signature``), each with
    the file lines it shows (``Row``), known from where the signature was cut from the
    file (``treesitter.signature_of``): its header's lines are the file's from
    ``header_lines``' first on, less the decorator lines a marker stands for; a brace
    body's placeholder also shows the line its ``{`` is on (a header alone on its line,
    the ``{`` below it: Allman style); Python's docstring line shows the lines from the
    docstring's opening quote to its first line of text; a body's ``...`` shows none.
    Without ``file_lines`` (the file's text) no row shows a line. A header or docstring
    line the file does not read there (changed since it was indexed) shows
    ``_NOT_FOUND``. (Trial 20: a signature block's JSON ``lines`` were null for a class
    header alone, and left out header lines; review 35: re-found by matching text, they
    missed one-line bodies and took time quadratic in a class's size.)"""
    raw = definition.signature.split("\n")
    rows = _compacted(raw)
    if file_lines is None:
        return [(text, ()) for text, _ in rows]
    top, last = header_lines(definition, file_lines)
    header = last - top + 1
    shown: list[Row] = []
    for text, n in rows:
        if n is None or (n == len(raw) - 1 and n >= header and text.strip() == "..."):
            shown.append((text, ()))  # a marker, a body's `...`
        elif n >= header:  # a Python docstring's line
            shown.append((text, _docstring_lines(text, file_lines, last, definition.end_line)))
        else:
            shown.append((text, _header_row_lines(text, top + n, file_lines,
                                                  definition.end_line)))
    return shown


def _header_row_lines(text: str, number: int, file_lines: list[str], end: int
                      ) -> tuple[int, ...]:
    """The file lines a header's line ``text`` at file line ``number`` shows (``Row``):
    that line, and the line below holding the ``{`` its ``{ ... }`` stands for when the
    header fills its own line (at most ``end``); ``_NOT_FOUND`` when the file's line does
    not hold the text before the placeholder."""
    stem = text.strip().partition("{ ... }")[0].partition(" ...")[0].rstrip()
    if number > len(file_lines) or stem.removesuffix(",") not in file_lines[number - 1]:
        return (_NOT_FOUND,)
    if "{ ... }" not in text or not stem or file_lines[number - 1].strip() != stem:
        return (number,)
    brace = number + 1
    while brace <= min(end, len(file_lines)) and not file_lines[brace - 1].strip():
        brace += 1
    if brace <= min(end, len(file_lines)) and file_lines[brace - 1].lstrip().startswith("{"):
        return (number, brace)
    return (number,)


def _docstring_lines(text: str, file_lines: list[str], last: int, end: int) -> tuple[int, ...]:
    """The file lines a Python docstring's line of a signature (``\"\"\"First line
    ...\"\"\"``) shows: from the line its opening quote is on, the first line below the
    header's ``last`` that is not blank, to the line holding its first line of text;
    ``_NOT_FOUND`` when no line at most ``end`` holds it."""
    first = text.strip().lstrip("rRbBuUfF")
    quote = first[:3] if first[:3] in ('"""', "\'\'\'") else first[:1]
    first = first[len(quote):].removesuffix(quote).removesuffix(" ...")
    opening = last + 1
    while opening <= min(end, len(file_lines)) and not file_lines[opening - 1].strip():
        opening += 1
    if last <= len(file_lines) and quote + first in file_lines[last - 1]:
        opening = last  # (on the header's line: `def f(): \"\"\"Doc.\"\"\"`)
    for number in range(opening, min(end, len(file_lines)) + 1):
        if first in file_lines[number - 1]:
            return tuple(range(opening, number + 1))
    return (_NOT_FOUND,)


def outline(definitions: tuple) -> str:
    """A file's signature reduction: the signatures of its top-level definitions, each
    class-like one with its members' signatures as its body (``_skeleton``), one after
    the other. ``definitions`` is ``FileTags.definitions``; '' when there are none."""
    return "\n".join(text for i in _one_per_node(
        definitions, [i for i, d in enumerate(definitions) if d.parent is None])
        for text, _ in _skeleton(definitions, i))


def _one_per_node(definitions: tuple, indexes: list[int]) -> list[int]:
    """``indexes`` (of ``definitions``, in order) keeping one of the definitions that share
    lines and signature, being one declaration (C's ``typedef struct s {...} s_t;`` is
    ``s`` and ``s_t``, Swift's ``case read, write``): not a ``type`` when another is (the
    struct lists the fields), else the first. (Trial 12: hiredis's typedef showed twice.)"""
    kept: dict[tuple[int, int, str], int] = {}
    for i in indexes:
        d = definitions[i]
        key = (d.start_line, d.end_line, d.signature)
        if key not in kept or (definitions[kept[key]].kind == "type" and d.kind != "type"):
            kept[key] = i
    return sorted(kept.values())


class _Signature(NamedTuple):
    """A block's signature (``_signature``) and what the renderer needs of it."""

    # signatures of the outermost definitions whose header lies in the block's lines
    # (``header_lines``; classes with their members' signatures), '' when there are none:
    # so a window inside a long definition has no signature (it had printed the
    # definition's header, outside its lines and shown again by the window that holds it;
    # trial 7), nor has a block of a definition's doc comment or of half its header
    text: str
    # the headers of containers above the block it lists members inside
    # (``Block.wrappers``): (the first and last lines of the container's header, and the
    # text from that header to its first member, "⋮" included)
    wrappers: tuple[tuple[int, int, str], ...]
    # the last line of its last definition when that is shown ``{ ... }`` and goes on
    # below the block (``Block.opens``; 0: none)
    opens: int
    # the file line ranges its lines show, touching ones as one (``signature_rows``;
    # ``Block.signature_ranges``): () when a line is not where the index said
    ranges: tuple[tuple[int, int], ...]


_NO_SIGNATURE = _Signature("", (), 0, ())


def _signature(index: IndexView, path: str, lines: list[str], start: int, end: int
               ) -> _Signature:
    """The signature of file lines ``start..end`` of ``path`` (``_Signature``); ``lines``
    is the file's text."""
    definitions = index.file_definitions(path)
    if definitions is None:
        return _NO_SIGNATURE
    inside = []
    for i, d in enumerate(definitions):
        if d.start_line <= end and d.end_line >= start:
            first, last = header_lines(d, lines)
            if start <= first and last <= end:
                inside.append(i)
    chosen = set(inside)
    outermost = _one_per_node(definitions, [i for i in inside if definitions[i].parent not in chosen])
    # members whose braced container's header is not in the block are listed inside it:
    # `max_open: usize` alone is no Rust, nor says whose field it is (trial 10: walkdir),
    # nor six bare `fn matches_all` whose each is (trial 39: ripgrep; a Rust method under
    # its `impl` line, ``_impl_scope``).
    # (Not a Python class's: a class attribute reads as one, and wrapped, a 6-token
    # signature pointing at a file took 34; on the Live benchmark one pylint task lost a
    # file at 8,000 tokens.)
    # (each run of one owner's members: trial 12's hiredis block began with the last
    # fields of one struct, then the typedefs below it)
    # (the renderer leaves a container's header out when a block above shows it: trial
    # 16 showed `public class DefaultParser ... {` three times, twice under ranges of
    # fields far below it; ``render._unwrapped``)
    parts: list[tuple[int, list[Row]]] = []  # (file line, rows), in line order
    wrappers: list[tuple[int, int, str]] = []
    # (containers above the block whose closing line is in it, innermost last: a member's
    # signature, then the next type's, read as nested in it; trial 13)
    closing: list[int] = []
    above: set[int] = set()  # the indents of the scopes opened above the block
    for owner, run in groupby(outermost, key=lambda i: definitions[i].parent):
        members = list(run)
        if owner is not None and definitions[owner].kind in CONTAINER_KINDS \
                and _braced(compact_signature(definitions[owner].signature)) \
                and definitions[owner].end_line >= definitions[members[0]].start_line:
            wrapped = _skeleton_parts(definitions, owner, end, lines, only=set(members))
            if wrapped is not None:
                head, body, tail = wrapped
                top, last = header_lines(definitions[owner], lines)
                wrappers.append((top, max([last, *(n for _, shows in head for n in shows)]),
                                 "\n".join(text for text, _ in head) + "\n"))
                parts.append((definitions[members[0]].start_line, head + body + tail))
                continue
        scope = _impl_scope(definitions, owner, members[0], lines, start)
        if scope:  # (the leading members in that scope: a later one may be in another)
            close = _scope_end(lines, scope)
            inner = members[:next((n for n, i in enumerate(members)
                                   if definitions[i].start_line >= close
                                   or not _out_of_line(definitions, owner, i)), len(members))]
            body = [row for i in inner for row in _skeleton(definitions, i, end, lines)]
            head = [(lines[scope - 1], (scope,))]
            if next((shows[0] for _, shows in body if shows), None) != scope + 1:
                head.append(_gap_row(head, body))  # (none for no line between them)
            wrappers.append((scope, scope, "\n".join(text for text, _ in head) + "\n"))
            above.add(indent_width(lines[scope - 1]))
            parts.append((definitions[members[0]].start_line, head + body))
            members = members[len(inner):]
        parts += [(definitions[i].start_line, _skeleton(definitions, i, end, lines))
                  for i in members]
        closing += [a for a in _closed_here(definitions, owner, lines, end) if a not in closing]
    parts += [(definitions[a].end_line, [(lines[definitions[a].end_line - 1],
                                          (definitions[a].end_line,))]) for a in closing]
    parts += [(n, [(lines[n - 1], (n,))])
              for n in _scope_lines(definitions, lines, outermost, start, end, above)]
    rows = [row for _, part in sorted(parts, key=lambda part: part[0]) for row in part]
    text = "\n".join(text for text, _ in rows)
    shows = [line for _, numbers in rows for line in numbers]
    ranges = () if _NOT_FOUND in shows else tuple(merge_ranges((n, n) for n in shows))
    last = definitions[outermost[-1]].end_line if outermost else 0
    return _Signature(text, tuple(wrappers), last if last > end and text.endswith("{ ... }") else 0,
                      ranges)


def _impl_scope(definitions: tuple, owner: int | None, first: int, lines: list[str],
                start: int) -> int:
    """The line above line ``start`` that opens the braced scope holding method ``first``
    when that scope is no definition (``owner``, its parent, does not hold it): Rust's
    ``impl PrefixStrategy {``, whose methods the index gives no parent; 0: none. It is the
    first line that is not blank above ``first``'s header and indented less than it.
    (Trial 39: ripgrep's signatures of six ``fn matches_all`` said not whose each was.)"""
    if not _out_of_line(definitions, owner, first):
        return 0
    top = header_lines(definitions[first], lines)[0]
    if top > len(lines):
        return 0
    indent = indent_width(lines[top - 1])
    for number in range(top - 1, 0, -1):
        line = lines[number - 1]
        if line.strip() and indent_width(line) < indent:
            opens = line.rstrip().endswith("{") and line.strip() != "{"
            return number if opens and number < start else 0
    return 0


def _out_of_line(definitions: tuple, owner: int | None, i: int) -> bool:
    """True for a method that its parent ``owner`` (None: none) does not hold."""
    return definitions[i].kind == "method" and (owner is None or not (
        definitions[owner].start_line <= definitions[i].start_line <= definitions[owner].end_line))


def _scope_end(lines: list[str], opener: int) -> int:
    """The first line below line ``opener`` that is not blank and is indented no more than
    it (the scope's closing line, in code indented by its braces); past the last line:
    none. (One scan for the members of a scope: a scan up from each of the 3,000 methods
    of one ``impl`` took 1.6 s.)"""
    indent = indent_width(lines[opener - 1])
    for number in range(opener + 1, len(lines) + 1):
        line = lines[number - 1]
        if line.strip() and indent_width(line) <= indent:
            return number
    return len(lines) + 1


# Lines that close a braced scope that is no definition (``_scope_lines``).
_SCOPE_CLOSERS = frozenset({"}", "};", "})", "});"})


def _scope_lines(definitions: tuple, lines: list[str], shown: list[int], start: int,
                 end: int, opened_above: set[int]) -> list[int]:
    """The lines of ``start..end`` that open a braced scope just above one of the ``shown``
    definitions (``}``: close one just below it) and are no definition's own: Rust's
    ``impl Gitignore {`` and its ``}``, a namespace's braces, a JavaScript call's
    ``describe("x", () => {`` and its ``});`` (not a bare ``{``, whose header is the line
    above it, nor a closer under no opener of its indent). A line is one when it is the first line that is not blank above (below)
    the definition, indented less than it, and
    inside no definition that does not hold it below its header and the definition
    both. (Trial 16: ripgrep's signature of lines 84-118 showed the fields of
    ``Gitignore`` and then ``Gitignore::new`` with no ``}`` and no ``impl Gitignore {``
    between them.) ``opened_above``: the indents of the scopes whose opening lines above
    ``start`` the block shows (``_impl_scope``), whose closers it shows too."""
    found = []
    bounds = [(definitions[i].start_line, definitions[i].end_line) for i in shown]
    for n, i in enumerate(shown):
        d = definitions[i]
        line = lines[header_lines(d, lines)[0] - 1]
        indent = len(line) - len(line.lstrip())
        above = max(start, bounds[n - 1][1] + 1 if n else start)
        below = min(end, len(lines), bounds[n + 1][0] - 1 if n + 1 < len(bounds) else end)
        for number, step, opens in ((d.start_line - 1, -1, True), (d.end_line + 1, 1, False)):
            while above <= number <= below and not lines[number - 1].strip():
                number += step
            if not above <= number <= below:
                continue
            text = lines[number - 1]
            if len(text) - len(text.lstrip()) >= indent or not (
                    text.rstrip().endswith("{") and text.strip() != "{" if opens
                    else text.strip() in _SCOPE_CLOSERS):
                continue
            if all(header_lines(e, lines)[1] < number < e.end_line
                   and e.start_line <= d.start_line and d.end_line <= e.end_line
                   for e in definitions if e.start_line <= number <= e.end_line):
                found.append((number, opens, len(text) - len(text.lstrip())))
    # a closer only under an opener of its indent (review 33: a C# namespace's "}" was
    # shown without its bare "{" and header)
    opened = {indent for _, opens, indent in found if opens} | opened_above
    return sorted({number for number, opens, indent in found if opens or indent in opened})


def _closed_here(definitions: tuple, owner: int | None, lines: list[str], end: int) -> list[int]:
    """``owner`` and its containers, innermost first, while each one's last line is at or
    above line ``end`` and only closes it: ``}`` under a braced signature, ``end`` under
    Ruby's ``class A ... end`` (not a Python class's last line that ends a dict)."""
    closed = []
    while owner is not None and definitions[owner].end_line <= min(end, len(lines)):
        last = lines[definitions[owner].end_line - 1].strip()
        signature = compact_signature(definitions[owner].signature)
        if not (last in _CLOSING_LINE and last != "end" and _braced(signature)
                or last == "end" and signature.endswith(" end")):
            break
        closed.append(owner)
        owner = definitions[owner].parent
    return closed


def header_lines(definition: Definition, lines: list[str]) -> tuple[int, int]:
    """The file lines (1-based, inclusive) of ``definition``'s header, its signature
    without the body: from the signature's first line, found in the file at or below the
    definition's first line (the comments the parser counts in a definition are no part of
    its signature), over the signature's header lines (``treesitter.signature_of``: a
    Python docstring's first line and the ``...`` placeholder are not the header's).
    ``lines`` is the file's text; from the definition's first line when the signature is
    not found there (a file changed since it was indexed)."""
    head = definition.signature.split("\n")
    first = head[0].strip()
    if head[-1].strip().startswith("..."):  # Python's `...`, Ruby's `... end`
        head.pop()
        if len(head) > 1 and head[-1].lstrip().lstrip("rRuUbB")[:1] in ("'", '"'):  # a docstring
            head.pop()
    # (a one-line signature holds its body's placeholder: `pub struct Walker { ... }`; its
    # `{` may be on the line below: Allman style, trial 20's `private class Destroyer`
    # was looked for with its brace, not found, and placed at the comment above it)
    stem = first.partition("...")[0].rstrip().removesuffix("{").rstrip() if "..." in first else ""
    top = definition.start_line
    for number in range(top, min(definition.end_line, len(lines)) + 1):
        # (a field's signature has no separator: Rust's `data: Bytes,` is `data: Bytes`)
        # (a Python header whose body follows it on its line: `def f(self): return 1`)
        line = lines[number - 1].strip()
        if line == first or (first and line.startswith(first) and line[len(first):] in (",", ";")) \
                or (stem and line.startswith(stem)) \
                or (first.endswith(":") and line.startswith(first + " ")):
            top = number
            break
    return top, min(top + len(head) - 1, definition.end_line)


def salient_lines(lines: list[str], start: int, pointed: tuple[int, ...],
                  terms: Mapping[str, float], definitions: tuple = (),
                  comment: str | None = "#") -> tuple[int, ...]:
    """The file lines of ``lines`` (file line ``start`` first) that a cut keeps first,
    best first: the lines the task points at, ``pointed`` (its items' ``pointed_lines``),
    the first with the rest of the ``POINTED_LINES`` from ``FOCUS_ABOVE`` lines above it on
    (those above the line first), then lines holding the task's
    terms (``lexical.text_terms``; weight: the sum of ``terms``' weights of the distinct
    terms a line holds, times ``PROSE_WEIGHT`` in comments and docstrings; ties in line
    order), then the first lines of ``definitions``
    starting inside, so that a cut class shows its members' first lines (each below the
    comments the parser counts in its definition: a doc comment is no header; a cut
    TypeScript class showed its constructor's doc comment). At most ``_SALIENT_MAX`` lines. ``comment``
    opens a line comment in the block's language (``elide.prose_lines``)."""
    scored: list[tuple[float, int]] = []
    prose = prose_lines(lines, comment)
    if terms:
        for offset, line in enumerate(lines):
            if not line.strip():
                continue
            weight = terms_weight(line, terms)
            if weight > 0:
                scored.append((-weight * (PROSE_WEIGHT if offset in prose else 1.0),
                               start + offset))
    scored.sort()
    found = [line for _, line in scored]
    for first in sorted(d.start_line - start for d in definitions
                        if start < d.start_line < start + len(lines)):
        # a definition's own first line, below the comments the parser counts in it
        while first in prose or (first < len(lines) - 1 and not lines[first].strip()):
            first += 1
        if first < len(lines):
            found.append(start + first)
    if pointed:
        # the lines themselves first, then those leading to the first, then those below it
        # (trial 8: a cut of one line showed a comment above a Java frame's line, not the
        # line)
        first = pointed[0]
        above = first - FOCUS_ABOVE
        window = [*pointed, *range(above, first), *range(first + 1, above + POINTED_LINES)]
        found[:0] = [line for line in window if start <= line < start + len(lines)]
    return tuple(dict.fromkeys(found))[:_SALIENT_MAX]


def task_terms(terms: Mapping[str, float], items: list[Item]) -> dict[str, float]:
    """The terms whose lines a cut keeps: the task's (``lexical.query_terms``) and the
    words of the names of the ring-0 items (the seeds: a caller's call of one), weight 1."""
    found = dict(terms)
    for item in items:
        if item.ring == 0 and item.symbol:
            for word in name_words(item.symbol.rsplit(".", 1)[-1]):
                found.setdefault(word, 1.0)
    return found


def read_blocks(root: Path, items: list[Item], index: IndexView, counter: TokenCounter, *,
                context_lines: int = CONTEXT_LINES, merge_gap: int = MERGE_GAP,
                terms: Mapping[str, float] | None = None,
                hidden: Callable[[str], list[tuple[int, int]]] | None = None,
                whole_files: bool = True, fill: bool = False) -> list[Block]:
    """Read the lines of every item and return merged, token-counted blocks.

    With ``whole_files``, a file worth showing whole is one block (``_whole_file``). With
    ``fill``, the rest of each file whose best block is of ring 0-2 is blocks too, of
    ``Tier.FILL`` (``_rest_of_file``): the fitter shows them only when every other block
    is shown and budget is left.

    ``terms`` (term -> weight, ``lexical.query_terms`` of the task) marks each block's
    salient lines (``salient_lines``), which a cut of it keeps first; without it a cut
    keeps lines from the block's focus line on. ``hidden``: path -> line ranges no block
    may show (the tests marked in the code, for a gather without tests): neither the
    context lines above an item nor a merge of two items reaches into them.

    Returns blocks sorted by score (descending), then path, then start line. Files that
    cannot be read are left out (the index already reported them).
    """
    weights = task_terms(terms, items) if terms else {}
    by_path: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        by_path[item.path].append(item)
    blocks: list[Block] = []
    for path in sorted(by_path):
        try:
            lines = read_lines(root / path)
        except OSError:
            continue
        taken: list[tuple[int, int]] = []  # lines already in a block of a higher tier
        never = hidden(path) if hidden else []
        file_blocks: list[Block] = []
        definitions = index.file_definitions(path) or ()
        moved, headers = _with_headers(by_path[path], definitions, lines,
                                       context_lines + merge_gap + 1)
        comment = comment_opener(fence_tag(path))
        file_items = [_opening_a_statement(item, lines, comment) for item in moved] + headers
        for tier in Tier:
            tier_items = [i for i in file_items if Tier.of(i.score) is tier]
            widened: list[tuple[int, int]] = []
            own: list[tuple[int, int]] = []  # the ranges of header items
            for item in tier_items:
                clamped = clamp_range(_context_start(lines, item.start_line, context_lines),
                                      item.end_line, len(lines))
                if clamped:
                    (own if item in headers else widened).append(clamped)
            # a weak neighbour is not merged into a strong block: it would ride on its
            # score; a merge across a stronger block's lines is split around them (they
            # would show twice), its parts one block each, of the merge's items
            parts: list[tuple[tuple[int, int], tuple[int, int]]] = []  # (part, merged range)
            off = merge_ranges(taken + never)
            groups = merge_ranges(subtract_ranges(widened, off), gap=merge_gap)
            # a header brought for a window far below it is a block of its own: merged into
            # the definition above, it was cut as that one's tail, under its own name
            # (trial 12: hiredis's processBulkItem)
            groups += subtract_ranges(merge_ranges(own), merge_ranges(off + groups))
            for group in sorted(groups):
                parts += [(part, group) for part in subtract_ranges([group], off)]
            for (start, end), group in list(parts):
                if not any(line.strip() for line in lines[start - 1:end]):
                    continue  # blank lines left over between tiers say nothing
                block = _block(index, path, lines, tier_items, (start, end), counter,
                               context_lines, taken, group)
                if block is None:  # (its lines stay free for a weaker item's block)
                    parts.remove(((start, end), group))
                    continue
                # (a short block too when it holds a line the task points at: review 35, a
                # 7-line function's cut showed its `def` line and not the frame's line)
                if (weights and tier in SALIENT_TIERS and block.kind is Fidelity.FULL
                        and (end - start + 1 > _SALIENT_MIN_LINES or block.pointed_lines)):
                    block = _with_salient(block, lines, tier_items, weights, definitions)
                file_blocks.append(block)
            taken = merge_ranges(taken + [part for part, _ in parts])
        first_item = min((i.start_line for i in file_items
                          if Tier.of(i.score) is Tier.TRUNCATE), default=1)
        if whole_files and not never:
            file_blocks = _whole_file(index, path, lines, file_blocks, counter, weights,
                                      first_item)
        if fill:
            file_blocks += _rest_of_file(index, path, lines, file_blocks, never, counter)
        blocks += _closers_joined(file_blocks, lines, counter)
    blocks.sort(key=lambda b: (-b.score, b.path, b.start_line))
    return blocks


def _braced(signature: str) -> bool:
    """Whether a container's signature opens a brace on its first line below its
    attributes or annotations (``struct S { ... }``, C's ``typedef struct s { ... } s_t;``,
    Go's ``type S struct {`` over its fields), not Python's ``class S:``. (Trial 16: under
    ``#[derive(Clone, Debug)]`` ripgrep's ``Gitignore`` was not braced, so its fields were
    listed bare and its ``}`` left out.)"""
    lines = signature.split("\n")
    own = lines[(_decorators(lines) or [0])[-1]:]
    first = own[0].rstrip() if own else ""
    return first.endswith("{") or "{ ... }" in first and "{" not in first.rpartition("{ ... }")[2]


# A line that only closes the construct above it (a brace language's block, Ruby's `end`,
# a block comment: trial 13's Scala blocks began with the ` */` of a doc comment not shown)
_CLOSING_LINE = frozenset({"}", "};", "end", "*/", "**/"})


def _closes(text: str) -> bool:
    """Whether a stripped line ends a construct above it rather than begins a statement:
    it only closes one (``_CLOSING_LINE``) or opens with a closer (``} else {``, ``});``)."""
    return text in _CLOSING_LINE or text.startswith(_CLOSERS)


def _opening_a_statement(item: Item, lines: list[str], comment: str | None) -> Item:
    """``item`` from its first line that begins a statement: from the line that opens a
    short construct its first line closes (``_opener_above``: the ``list(`` of a call
    written over three lines), else from below the lines that end a construct above it
    (``_closes``) and the blank lines after them. (Trial 37: a window of jackson-core's
    ``_parseNumericValue``, 30 lines above the line a frame pointed at, opened on the
    ``}`` of an ``if`` and a cut showed it over ``⋮ 20 lines``.) ``comment``: the
    language's line comment opener (``comment_opener``)."""
    start = item.start_line
    if 0 < start <= len(lines) and _closes(lines[start - 1].strip()):
        opener = _opener_above(lines, start, comment)
        if opener is not None:
            return replace(item, start_line=opener)
    while start < min(item.end_line, len(lines)) and _closes(lines[start - 1].strip()):
        start += 1
        while start < min(item.end_line, len(lines)) and not lines[start - 1].strip():
            start += 1
    if start == item.start_line:
        return item
    focus = item.focus_line if (item.focus_line or 0) >= start else None
    return replace(item, start_line=start, focus_line=focus)


# The most lines above a closing line that the construct it closes may open on to be
# shown from there (a call or literal written over a few lines), not skipped.
_SHORT_CONSTRUCT = 6


def _opener_above(lines: list[str], start: int, comment: str | None = "#") -> int | None:
    """The line (1-based) that opens the parentheses or square brackets that line
    ``start`` closes (an expression written over several lines), when it is at most
    ``_SHORT_CONSTRUCT`` lines above; else None. The statement is read as the cuts read
    it (``elide.statement_spans``: strings and ``comment`` skipped, braces hold bodies)."""
    first = max(0, start - 1 - _SHORT_CONSTRUCT)
    opener = statement_spans(lines[first:start], comment)[-1][0] + first + 1
    return opener if opener < start else None


def _context_start(lines: list[str], start: int, context_lines: int) -> int:
    """The first line of an item at ``start`` with its ``context_lines`` above: none at or
    above a line that only closes the construct above it, or only opens the one around
    the item (a `{` below its declaration), nor the blank lines after such a line.
    (Trial 11: chi's blocks began with the `}` of a function shown above as its signature,
    `{ ... }`, so the brace showed twice, or of one not shown at all; trial 12: a C# block
    began with the `{` of `public class LogEvent`, without the class.)"""
    first = max(1, start - context_lines)
    for number in range(min(start - 1, len(lines)), first - 1, -1):
        text = lines[number - 1].strip()
        # (a line that opens with a closer ends a statement above it: re-check of trial 16,
        # six blocks began with `} from "../internal"`, their `import {` not shown)
        if _closes(text) or text == "{":
            first = number + 1
            while first < min(start, len(lines) + 1) and not lines[first - 1].strip():
                first += 1
            break
    return first


def _with_headers(items: list[Item], definitions: tuple[Definition, ...],
                  lines: list[str], near: int) -> tuple[list[Item], list[Item]]:
    """``items`` (of one file, whose text is ``lines``) made to show their definitions'
    headers (``header_lines``), and the header items they bring:

    - an item of ring 1 or more that holds a definition's first lines and stops above its
      header is moved down to end with the header, as many lines long as it was: the
      walker's header range counts from a definition's first line, its doc comment's in
      Rust, Java or Ruby (trial 10: walkdir's ``WalkDir``, 74 lines of ``///`` above
      ``pub struct WalkDir``, showed 15 lines of prose); one that stops inside the header
      is lengthened to its end (trial 39: click's ``Context.__init__``, a 19-line
      ``def``, got a 15-line range, and its signature showed only the line above it).
      Not a ring-0 item: a seed's window around a line the task points at in a long doc
      comment shows that line;
    - a ring-0 window into a definition below its header (a seed's lines around a line
      the task points at in a long function) brings the header as an item of its own,
      scored as the window (trial 11: chi's ``findRoute`` showed lines 425-487 of
      408-557 and never ``func (n *node) findRoute(...)``), a block of its own
      (``read_blocks``); a window at most ``near`` lines below the header (where their
      blocks would merge) starts at it instead."""
    named: dict[str, list[Definition]] = {}
    for d in definitions:
        named.setdefault(d.qualified_name, []).append(d)
    moved, headers = [], []
    for item in items:
        for d in named.get(item.symbol or "", ()):
            if item.ring > 0 and d.start_line == item.start_line and item.end_line < d.end_line:
                top, last = header_lines(d, lines)
                if item.end_line < last:
                    start = item.start_line if item.end_line >= top else \
                        max(d.start_line, last - (item.end_line - item.start_line))
                    focus = item.focus_line if (item.focus_line or 0) >= start else None
                    item = replace(item, start_line=start, end_line=last, focus_line=focus)
                break
            if item.ring == 0 and d.start_line < item.start_line <= d.end_line:
                top, last = header_lines(d, lines)
                if item.start_line - last > near:
                    headers.append(replace(item, start_line=top, end_line=last, focus_line=None,
                                           pointed_lines=(),
                                           reason=f"header of {d.qualified_name}"))
                elif item.start_line > last:  # a few lines below it: one block with it
                    item = replace(item, start_line=top)
        moved.append(item)
    return moved, headers


def _whole_file(index: IndexView, path: str, lines: list[str], blocks: list[Block],
                counter: TokenCounter, terms: Mapping[str, float],
                first_item: int = 1) -> list[Block]:
    """``blocks`` (the blocks of file ``path``, whose ``lines`` they are) or, when the
    file is worth showing whole, one block of all of it in their place.

    A file of at most ``WHOLE_FILE_TOKENS`` is shown whole when its best block is of ring
    0 (``Tier.TRUNCATE``), one of its blocks shows code (not only a signature), and its
    ring-0 blocks cost at least ``COVER_RATIO`` of the whole file's tokens, or the whole
    file costs at most ``SMALL_FILE_TOKENS``: the rest then costs little beside what is
    shown, and a file shown whole cannot miss the line a fix changes. (Files of ring 1-2
    blocks are left alone: their upgrades to whole go by score, so a whole file went as
    early as a definition of its score and pushed others out, Live pylint file recall
    0.78 -> 0.72 at 4,000 tokens; ring 3-4 blocks are whole or nothing.)

    The block takes the best block's score and reason (`` (whole file)`` added). A cut
    of it shows the file's ring-0 blocks first, best first (each block's focus line, its
    salient lines, then its lines), then its other blocks (a signature block's first
    line), then the lines holding the task's words (``salient_lines``), then the rest; it
    opens at ``first_item``, the first line of the file's first ring-0 item
    (``focus_line``; the context lines above it come last: a cut opening at them began
    with the statement they end, a Go function before the named one). ``cover`` counts
    the salient lines of the ring-0 blocks: the fitter grows them as a ring-0 block;
    ``near_covers`` those through each ring 1-2 block after them, which the fitter shows as
    upgrades at that block's own score, as it would the block on its own, before the rest
    of the file, one more upgrade (``fit._Planner``; without them the file's ring 1-2
    blocks came only with the rest, ranked below every upgrade: a rule file of 457 tokens
    stayed cut at 8,000). Its trailing blank lines are left out; a file without blocks
    gives none. (The caller leaves alone a file with hidden lines.)"""
    if not blocks:
        return blocks
    ranked = sorted(blocks, key=lambda b: (-b.score, b.start_line))
    best = ranked[0]
    tier = Tier.of(best.score)
    if tier is not Tier.TRUNCATE or not any(b.kind is Fidelity.FULL for b in blocks):
        return blocks
    end = _last_text_line(lines)
    content = "\n".join(lines[:end])
    tokens = counter.count(content)
    first = [b for b in ranked if Tier.of(b.score) is tier]
    if tokens > WHOLE_FILE_TOKENS or (tokens > SMALL_FILE_TOKENS and
                                      sum(b.tokens for b in first) < COVER_RATIO * tokens):
        return blocks
    order: list[int] = []
    cover = 0
    near: list[tuple[int, float]] = []  # (salient lines through it, score), ring 1-2 blocks
    for b in [*first, *(b for b in ranked if b not in first)]:
        order.append(b.focus_line)
        if b.kind is Fidelity.FULL:
            order += [*b.salient, *range(b.start_line, b.end_line + 1)]
        if b is first[-1]:
            cover = len({line for line in order if line <= end})
        elif Tier.of(b.score) is Tier.SIGNATURE:
            near.append((len({line for line in order if line <= end}), b.score))
    order += salient_lines(lines, 1, (), terms, index.file_definitions(path) or (),
                           comment_opener(best.language))
    signature = _signature(index, path, lines, 1, end)
    # it opens where its best ring-0 block holding a line the task points at opens (review
    # 35: opened at a window's first line, an 80-line script's cut showed line 15, not the
    # traceback's line 45), else at the file's first ring-0 item
    lead = next((b for b in first if b.pointed_lines), None)
    return [replace(best, start_line=1, end_line=end, content=content, tokens=tokens,
                    ring=min(b.ring for b in blocks), kind=Fidelity.FULL,
                    symbols=tuple(dict.fromkeys(name for b in ranked for name in b.symbols)),
                    reason=best.reason + WHOLE_FILE,
                    members=tuple(dict.fromkeys(m for b in ranked for m in b.members)),
                    signature=signature.text,
                    signature_ranges=signature.ranges,
                    focus_line=max(1, min(lead.focus_line if lead else first_item, end)),
                    pointed_lines=tuple(dict.fromkeys(line for b in first
                                                      for line in b.pointed_lines)),
                    opens_in_body=bool(lead and lead.opens_in_body),
                    salient=tuple(line for line in dict.fromkeys(order) if line <= end),
                    part_of=None, cover=cover, whole="", near_covers=tuple(near), wrappers=(),
                    opens=0,
                    cells=cell_label(lines, 1, end) if is_notebook(path) else "")]


def _closers_joined(blocks: list[Block], lines: list[str], counter: TokenCounter) -> list[Block]:
    """One file's ``blocks`` with each block of lines that only close constructs
    (``_closes``: the part of a merge below a stronger block, a run of the rest of the
    file) made part of the block that ends right above it, when both are shown whole
    (``Fidelity.FULL``): such a block says nothing alone. The joined block keeps both
    blocks' pointed lines and the better score, and a notebook's cells are named again.
    (Trial 37: cobra's JSON had a block of the `)` closing a `const (` group, lines
    29-30, that the text showed inside its section.)"""
    found: list[Block] = []
    for block in sorted(blocks, key=lambda b: (b.start_line, b.end_line)):
        above = [n for n, b in enumerate(found)
                 if b.end_line == block.start_line - 1 and b.kind is Fidelity.FULL]
        text = [line.strip() for line in lines[block.start_line - 1:block.end_line]]
        if not above or block.kind is not Fidelity.FULL \
                or not all(_closes(line) for line in text if line):
            found.append(block)
            continue
        n = above[-1]
        upper = found[n]
        content = f"{upper.content}\n{block.content}"
        found[n] = replace(
            upper, end_line=block.end_line, content=content, tokens=counter.count(content),
            score=max(upper.score, block.score),
            pointed_lines=tuple(dict.fromkeys(upper.pointed_lines + block.pointed_lines)),
            cells=cell_label(lines, upper.start_line, block.end_line) if upper.cells else "")
    return found


def _last_text_line(lines: list[str]) -> int:
    """The 1-based number of the last line of ``lines`` that is not blank: 1 when all are
    blank, 0 when there are none."""
    end = len(lines)
    while end > 1 and not lines[end - 1].strip():
        end -= 1
    return end


def _rest_of_file(index: IndexView, path: str, lines: list[str], blocks: list[Block],
                  hidden: list[tuple[int, int]], counter: TokenCounter) -> list[Block]:
    """The lines of file ``path`` that none of its ``blocks`` holds (nor ``hidden``), one
    ``Tier.FILL`` block a run, when its best block is of ring 0-2 (a file the walk is
    about, not one a word matched) and it is no test file; [] otherwise. Each scores in
    ``FILL_BAND`` by that best block's score (the rest of the best file goes first), and
    the runs of one file go top to bottom, as whole files do: on the Live tasks where a
    gather left budget unused, BM25's whole files showed more of the changed lines (0.56
    against 0.42 at 8,000 tokens), often in a file the gather had found. Blank runs and
    trailing blank lines are left out."""
    best = max((b.score for b in blocks), default=0.0)
    if Tier.of(best) > Tier.SIGNATURE or index.is_test(path):
        return []  # (a test file's rest is more tests)
    end = _last_text_line(lines)
    shown = merge_ranges([(b.start_line, b.end_line) for b in blocks] + hidden)
    definitions = index.file_definitions(path) or ()
    score = FILL_BAND.score(best / (RING_BANDS[0].low + RING_BANDS[0].span))
    rest = []
    for start, stop in subtract_ranges([(1, end)], shown):
        if not any(line.strip() for line in lines[start - 1:stop]):
            continue
        content = "\n".join(lines[start - 1:stop])
        rest.append(Block(
            path=path, language=fence_tag(path), start_line=start, end_line=stop,
            content=content, tokens=counter.count(content), score=score, ring=3,
            reason="the rest of the file",
            symbols=tuple(dict.fromkeys(d.qualified_name for d in definitions
                                        if start <= d.start_line <= stop)),
            focus_line=start,
            cells=cell_label(lines, start, stop) if is_notebook(path) else ""))
    return rest


def _with_salient(block: Block, lines: list[str], items: list[Item],
                  terms: Mapping[str, float], definitions: tuple) -> Block:
    """``block`` with its salient lines; a cut of it then starts at the header of the
    innermost definition of the block around the place the task points at (its items'
    ``pointed_lines``), else at the place itself (with the headers of the scopes around
    it), the line itself salient first."""
    start, end = block.start_line, block.end_line
    # (the best item's first: review 35, a caller's frame above the failing one in one
    # block opened it)
    ranked = sorted(items, key=lambda i: (-i.score, i.ring, i.start_line))
    pointed = list(dict.fromkeys(line for i in ranked for line in i.pointed_lines
                                 if start <= line <= end))
    focus, line = block.focus_line, pointed[0] if pointed else None
    around: list[int] = []
    if line is not None:
        around = [d.start_line for d in definitions
                  if start <= d.start_line <= line <= d.end_line]
        # (a window inside a long definition opens at the line with the headers of the
        # scopes around it, not at the window's first line: trial 19's cut of ky's
        # merge.ts at 300 tokens showed line 280 of a window around line 311, not 311)
        focus = max(around) if around else line
    salient = salient_lines(lines[start - 1:end], start, tuple(pointed), terms, definitions,
                            comment_opener(block.language))
    # (no line that matters: the cut still keeps whole statements from the focus on)
    # (``pointed_lines`` are ``_block``'s: the same lines, of the best item holding one first)
    return replace(block, focus_line=focus, salient=salient or (focus,),
                   opens_in_body=line is not None and not around)


def _held(inside: list[Item], definitions: tuple, lines: list[str], start: int, end: int
          ) -> tuple[Member, ...]:
    """The members a block of file lines ``start..end`` holding ``inside`` names: each
    item's, but not one whose header starts below the block, which shows only the
    comments above it (trial 39: rg_pre's block 1470-1653 was keyed `Worker`, whose doc
    comment ended it, not its `fn threads`), unless all are such."""
    found = {(d.qualified_name, d.start_line): d for d in definitions}
    held = [Member(i.symbol, i.start_line, i.end_line, i.reason) for i in inside]
    shown = [m for m, i in zip(held, inside)
             if (definition := found.get((i.symbol, i.start_line))) is None
             or i.start_line < start or header_lines(definition, lines)[0] <= end]
    return tuple(shown or held)


def _block(index: IndexView, path: str, lines: list[str], items: list[Item],
           span: tuple[int, int], counter: TokenCounter, context_lines: int,
           taken: list[tuple[int, int]], group: tuple[int, int] | None = None) -> Block | None:
    """The block of lines ``span`` of ``path`` holding ``items``; ``taken``: the lines of
    the file's blocks of higher tiers; ``group``: the merged range ``span`` is a part of
    (split around ``taken``), whose items make the block's score and ring (its symbols and
    reason: those whose lines ``span`` holds); None: ``span`` itself. Ranges are 1-based
    and inclusive. None when no item has a line in ``span``."""
    start, end = span
    low, high = group or span
    members = [i for i in items if i.start_line - context_lines <= high and i.end_line >= low]
    members.sort(key=lambda i: (-i.score, i.ring, i.start_line))
    best = members[0]
    # a part of a split merge names only the items whose lines it holds (trial 9: a
    # struct's part below a field shown by a stronger block was labelled with it)
    inside = [i for i in members if i.start_line <= end and i.end_line >= start]
    if not inside:
        return None  # context lines above an item a stronger block shows
    held = _held(inside, index.file_definitions(path) or (), lines, start, end)
    symbols, reason = label_members(held)
    # a part below its items' first lines (a struct's fields under one a stronger block
    # shows) is no signature of its own: trial 9 showed a field as parse_buffer's
    signature, wrappers, opens, ranges = _signature(index, path, lines, start, end) \
        if any(i.start_line >= start for i in inside) else _NO_SIGNATURE
    content, kind, whole = "\n".join(lines[start - 1:end]), Fidelity.FULL, ""
    if signature and all(i.fidelity is Fidelity.SIGNATURE for i in members):
        # (its lines whole come last, when budget is left; a test's after all else)
        whole, content, kind = content, signature, Fidelity.SIGNATURE
    # a cut block starts at its best definition's first line (its decorators and comments)
    lead = inside[0]
    focus = min(max(start, lead.start_line), end)
    if lead.focus_line is not None:  # a line the task points at, further down
        focus = min(max(start, lead.focus_line), end)
    # (review 35: set here, whatever the block's size, so that a short frame's block
    # goes before a named class's of its score)
    pointed = dict.fromkeys(line for i in inside for line in i.pointed_lines if start <= line <= end)
    return Block(
        pointed_lines=tuple(pointed),
        path=path, language=fence_tag(path), start_line=start, end_line=end, content=content,
        tokens=counter.count(content), score=best.score, ring=min(i.ring for i in members),
        reason=reason, symbols=symbols, kind=kind, signature=signature, focus_line=focus,
        whole=whole, whole_last=bool(whole) and index.is_test(path), members=held,
        wrappers=wrappers, opens=opens,
        signature_ranges=ranges,
        cells=cell_label(lines, start, end) if is_notebook(path) else "",
        part_of=None if kind is Fidelity.SIGNATURE else _part_of(index, path, inside,
                                                                span, taken))


def _part_of(index: IndexView, path: str, members: list[Item], span: tuple[int, int],
             taken: list[tuple[int, int]]) -> tuple[str, int, int] | None:
    """(name, first line, last line) of the first definition, best member first, that a
    member names, that starts no lower than the first named member's first line (or than
    ``span``'s first line, when that is lower) and reaches ``span``'s last line, and that
    ``span`` holds only part of (lines of it that neither they nor the blocks of higher
    tiers, ``taken``, hold); None when each is whole. A block whose first lines are other
    definitions is no part of one further down (trial 13: `type Thenable` and
    `toThenable` were labelled "part of persistImpl.hydrate", 100 lines above it), nor
    is one that runs past the definition's end (trial 16: ripgrep's lines 84-118 were
    "part of Gitignore, lines 78-88")."""
    named = [(i.symbol, i.start_line) for i in members if i.symbol]
    if not named:
        return None
    start = span[0]
    first = min(line for _, line in named)
    shown = merge_ranges([*taken, span])
    definitions = index.file_definitions(path) or ()
    for symbol in dict.fromkeys(symbol for symbol, _ in named):
        around = [d for d in definitions if d.qualified_name == symbol
                  and d.start_line <= max(first, start) and d.end_line >= span[1]]
        if around and not any(subtract_ranges([(d.start_line, d.end_line)], shown) == []
                              for d in around):
            d = min(around, key=lambda d: (d.start_line, d.end_line))
            return symbol, d.start_line, d.end_line
    return None
