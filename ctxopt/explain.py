"""``gather --explain``: what the fitter did with each candidate of the walker (issue 17).

One line per walker item, best first: its score, ring and reason, and what happened to
the block it was read into (whole, truncated, reduced to its signature, excluded, and
the fitter's reason), so a user can see why a definition they expected is missing. The
explanation is never part of the token-counted context: the CLI prints it on standard
error (text and manifest) or under the JSON key ``explain``.
"""
from __future__ import annotations

from dataclasses import replace

from .files.text import display_text
from .model import Block, Dropped, Explained, Fidelity, Item, Member, Result, Tier
from .wording import counted

__all__ = ["explain", "explain_json", "render_explain_text"]


def _holder(item: Item, blocks: tuple[Block, ...]) -> Block | None:
    """The candidate block ``item`` was read into: one that lists it among its members
    (``Block.members``; the source reader may have moved its lines, a class header below
    its doc comment), its lines overlapping the item's if any does, else nearest; else
    one of the same file with lines overlapping (the source reader widens and merges item
    ranges), of the item's tier if one is (a block of a better tier holds lines it shares
    with weaker items); the best-scored. (By lines alone, a header moved below a long
    doc comment was the rest of its file, never shown, and read ``full``.)"""
    same_file = [b for b in blocks if b.path == item.path]
    listing = [(b, m) for b in same_file for m in b.members
               if m.symbol == item.symbol and m.reason == item.reason]
    if listing:
        def distance(pair: tuple[Block, Member]) -> tuple[int, float]:
            block, member = pair
            if member.start_line <= item.end_line and item.start_line <= member.end_line:
                return 0, -block.score
            return abs(member.start_line - item.start_line), -block.score
        return min(listing, key=distance)[0]
    holding = [b for b in same_file if b.start_line <= item.end_line and item.start_line <= b.end_line]
    tier = Tier.of(item.score)
    same = [b for b in holding if Tier.of(b.score) is tier]
    return max(same or holding, key=lambda b: b.score, default=None)


def explain(items: tuple[Item, ...], blocks: tuple[Block, ...],
            result: Result) -> tuple[Explained, ...]:
    """What ``result`` (a fit of ``blocks``, read from the walker's ``items``) did with
    each item, best-scored first (then path and line).

    The items' paths, reasons and symbols get ``display_text``'s escape, as the blocks'
    have (``files.redaction.clean_blocks``): a name that is not UTF-8 or holds a line
    break reads ``\\xHH`` in both, and an item finds the block it was read into."""
    items = tuple(replace(i, path=display_text(i.path), reason=display_text(i.reason),
                          symbol=None if i.symbol is None else display_text(i.symbol))
                  for i in items)
    selection = result.selection
    records: dict[tuple[str, int, int], Dropped] = {
        (d.path, d.start_line, d.end_line): d for d in (*selection.truncated, *selection.excluded)}
    # what a block the fitter left as it was is shown as: whole, or the signature the
    # walker asked for (a test, a distant definition), which no record of the fitter's says
    shown_as = {(b.path, b.start_line, b.end_line): b.kind for b in selection.blocks}
    found = []
    for item in sorted(items, key=lambda i: (-i.score, i.path, i.start_line)):
        block = _holder(item, blocks)
        if block is None:
            found.append(Explained(item, "not read", "no block holds it: its lines are "
                                   "blank, or its file is unreadable or redacted", None))
            continue
        where = (block.path, block.start_line, block.end_line)
        record = records.get(where)
        if record is None:
            kind = shown_as.get(where, block.kind)
            detail = "" if kind is Fidelity.FULL else "the walker asked for its signature"
            found.append(Explained(item, kind.value, detail, where))
        else:
            found.append(Explained(item, record.action, record.reason, where))
    return tuple(found)


def render_explain_text(explained: tuple[Explained, ...]) -> str:
    """The explanation as lines: ``score  ring N  path:a-b symbol (reason) -> action:
    detail``, a block's range added when it is wider than the item's."""
    lines = [(f"# explain: {counted(len(explained), 'candidate')} of the walker, best first: score, "
              "ring, lines, reason -> what the fitter did")]
    for entry in explained:
        item = entry.item
        symbol = f" {item.symbol}" if item.symbol else ""
        inside = ""
        if entry.block is not None and entry.block != (item.path, item.start_line,
                                                       item.end_line):
            inside = f" [block {entry.block[1]}-{entry.block[2]}]"
        detail = f": {entry.detail}" if entry.detail else ""
        lines.append(f"{item.score:7.2f}  ring {item.ring}  {item.path}:{item.start_line}-"
                     f"{item.end_line}{symbol} ({item.reason}){inside} -> "
                     f"{entry.action}{detail}")
    return "\n".join(lines) + "\n"


def explain_json(explained: tuple[Explained, ...]) -> list[dict[str, object]]:
    """The explanation as the JSON contract's ``explain`` entries."""
    return [{
        "file": e.item.path, "start_line": e.item.start_line, "end_line": e.item.end_line,
        "symbol": e.item.symbol, "score": e.item.score, "ring": e.item.ring,
        "reason": e.item.reason, "action": e.action, "detail": e.detail,
        "block": None if e.block is None else {
            "file": e.block[0], "start_line": e.block[1], "end_line": e.block[2]},
    } for e in explained]
