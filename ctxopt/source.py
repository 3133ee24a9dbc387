"""Stage 4 (edge: reads files): scored items -> ``Block`` list with token counts.

Each item's line range is widened by ``context_lines`` above; ranges in one file are
merged when they overlap or lie within ``merge_gap`` lines of each other. A merged block
takes the best score, the lowest ring and the best item's reason, and lists its symbols
best first. Files are decoded and split into lines as ``hygiene`` says (BOMs, UTF-16,
``\\r\\n``, ``\\r`` and ``\\n``), the same way the indexer numbered them.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from .hygiene import decode_text, split_lines
from .index import Index
from .languages import fence_tag
from .model import Block, Item
from .ranges import clamp_range, merge_ranges
from .tokens import TokenCounter

__all__ = ["read_lines", "read_blocks", "CONTEXT_LINES", "MERGE_GAP"]

CONTEXT_LINES = 2
MERGE_GAP = 3


def read_lines(path: Path) -> list[str]:
    """The file's lines (undecodable bytes replaced), without line terminators.

    Lines end at ``\\r\\n``, ``\\r`` or ``\\n`` (``hygiene.split_lines``). Raises
    ``OSError`` when the file cannot be read.
    """
    return split_lines(decode_text(path.read_bytes()).text)


def _signature(index: Index, path: str, start: int, end: int) -> str:
    tags = index.file_tags(path)
    if tags is None:
        return ""
    inside = [i for i, d in enumerate(tags.definitions) if start <= d.start_line <= end]
    chosen = set(inside)
    outermost = [i for i in inside if tags.definitions[i].parent not in chosen]
    if not outermost:
        around = [d for d in tags.definitions if d.start_line <= start <= d.end_line]
        return around[-1].signature if around else ""
    return "\n".join(tags.definitions[i].signature for i in outermost)


def read_blocks(root: Path, items: list[Item], index: Index, counter: TokenCounter, *,
                context_lines: int = CONTEXT_LINES, merge_gap: int = MERGE_GAP) -> list[Block]:
    """Read the lines of every item and return merged, token-counted blocks.

    Returns blocks sorted by score (descending), then path, then start line. Files that
    cannot be read are left out (the index already reported them).
    """
    by_path: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        by_path[item.path].append(item)
    blocks: list[Block] = []
    for path in sorted(by_path):
        try:
            lines = read_lines(root / path)
        except OSError:
            continue
        path_items = by_path[path]
        widened = []
        for item in path_items:
            clamped = clamp_range(item.start_line - context_lines, item.end_line, len(lines))
            if clamped:
                widened.append(clamped)
        for start, end in merge_ranges(widened, gap=merge_gap):
            members = [i for i in path_items if i.start_line <= end and i.end_line >= start]
            members.sort(key=lambda i: (-i.score, i.ring, i.start_line))
            best = members[0]
            symbols = tuple(dict.fromkeys(i.symbol for i in members if i.symbol))
            reason = best.reason + (f" (+{len(members) - 1} more)" if len(members) > 1 else "")
            content = "\n".join(lines[start - 1:end])
            blocks.append(Block(
                path=path, language=fence_tag(path), start_line=start, end_line=end,
                content=content, tokens=counter.count(content), score=best.score,
                ring=min(i.ring for i in members), reason=reason, symbols=symbols,
                signature=_signature(index, path, start, end),
                focus_line=max(start, best.start_line - context_lines),
            ))
    blocks.sort(key=lambda b: (-b.score, b.path, b.start_line))
    return blocks
