"""Stage 6 (pure): ``Result`` -> text, JSON or manifest string.

Output is byte-for-byte deterministic: blocks come in selection order (score, then
path, then line), JSON keys are sorted. The text rendering is what the token budget
bounds; the JSON ``used`` field is that rendering's token count.
"""
from __future__ import annotations

import json
from collections.abc import Callable

from .model import Block, Dropped, Fidelity, Result

__all__ = ["render_text", "render_json", "render_manifest", "render_block", "render_header",
           "RENDERERS", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1
_TOP_SYMBOLS = 5
# The text and manifest headers show at most this many characters of the task (the JSON
# keeps it whole): a long task would otherwise eat the budget.
TASK_CHARS = 200


def _fence(content: str) -> str:
    fence = "```"
    while fence in content:
        fence += "`"
    return fence


def render_block(block: Block) -> str:
    """One block as text: a ``## path:start-end`` line with its reason, then fenced code."""
    fence = _fence(block.content)
    kind = "" if block.kind is Fidelity.FULL else f" [{block.kind.value}]"
    cells = f" [{block.cells}]" if block.cells else ""
    return (f"\n## {block.path}:{block.start_line}-{block.end_line}{cells} ({block.reason}){kind}\n"
            f"{fence}{block.language}\n{block.content}\n{fence}\n")


def top_symbols(result: Result) -> list[str]:
    """The first few symbols of the selected blocks, best block first."""
    symbols: list[str] = []
    for block in result.selection.blocks:
        for symbol in block.symbols:
            if symbol not in symbols:
                symbols.append(symbol)
    return symbols[:_TOP_SYMBOLS]


def task_line(task: str) -> str:
    """The task on one line, cut to about ``TASK_CHARS`` characters with ``…``."""
    line = " ".join(task.split())
    if len(line) <= TASK_CHARS:
        return line
    return line[:TASK_CHARS - 1].rstrip() + "…"


def render_header(result: Result, used: int) -> str:
    """The text header; ``used`` is the token count of the whole text it heads."""
    selection = result.selection
    files = len({b.path for b in selection.blocks})
    symbols = ", ".join(top_symbols(result)) or "-"
    calibrated = ("" if result.calibrated_for is None
                  else f" (calibrated for {result.calibrated_for})")
    note = f"# {result.task_note}\n" if result.task_note else ""
    return (f"# ctxopt context for: {task_line(result.task)}\n{note}"
            f"# budget {result.budget} tokens, used {used}{calibrated}; {files} files; "
            f"{len(selection.truncated)} truncated, {len(selection.excluded)} excluded\n"
            f"# top symbols: {symbols}\n")


def text_and_used(result: Result, count: Callable[[str], int]) -> tuple[str, int]:
    """The text rendering and its token count (the header states the count itself)."""
    body = "".join(render_block(b) for b in result.selection.blocks)
    used = 0
    seen: set[int] = set()
    while True:
        text = render_header(result, used) + body
        measured = count(text)
        if measured == used or used in seen:
            # a fixed point; a (rare) oscillation settles on the larger count
            if measured != used:
                used = max(used, measured)
                text = render_header(result, used) + body
            return text, count(text)
        seen.add(used)
        used = measured


def render_text(result: Result, count: Callable[[str], int]) -> str:
    """The text rendering: header, then each block fenced with its language."""
    return text_and_used(result, count)[0]


def _dropped(d: Dropped) -> dict[str, object]:
    return {"file": d.path, "start_line": d.start_line, "end_line": d.end_line,
            "tokens": d.tokens, "score": d.score, "action": d.action, "reason": d.reason}


def render_json(result: Result, count: Callable[[str], int]) -> str:
    """The JSON document (schema in README.md); ``used`` counts the text rendering."""
    _, used = text_and_used(result, count)
    selection = result.selection
    document = {
        "schema_version": SCHEMA_VERSION,
        "task": result.task,
        "task_note": result.task_note,
        "intent": result.intent.value,
        "budget": result.budget,
        "used": used,
        "summary": {
            "file_count": len({b.path for b in selection.blocks}),
            "symbol_count": len({s for b in selection.blocks for s in b.symbols}),
            "symbols": top_symbols(result),
            "truncated": len(selection.truncated),
            "excluded": len(selection.excluded),
        },
        "blocks": [{
            "file": b.path, "start_line": b.start_line, "end_line": b.end_line,
            "language": b.language, "content": b.content, "tokens": b.tokens,
            "score": b.score, "ring": b.ring, "reason": b.reason, "symbols": list(b.symbols),
            "kind": b.kind.value,
        } for b in selection.blocks],
        "truncated": [_dropped(d) for d in selection.truncated],
        "excluded": [_dropped(d) for d in selection.excluded],
        "diagnostics": [{"file": d.path, "reason": d.reason, "detail": d.detail}
                        for d in result.diagnostics],
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_manifest(result: Result, count: Callable[[str], int]) -> str:
    """One tab-separated line per block: path:start-end, kind, tokens, score, reason."""
    _, used = text_and_used(result, count)
    lines = [f"# ctxopt manifest for: {task_line(result.task)}",
             *([f"# {result.task_note}"] if result.task_note else []),
             f"# budget {result.budget} tokens, used {used} (text rendering)"]
    for b in result.selection.blocks:
        lines.append(f"{b.path}:{b.start_line}-{b.end_line}\t{b.kind.value}\t{b.tokens}\t"
                     f"{b.score:g}\t{b.reason}")
    return "\n".join(lines) + "\n"


RENDERERS: dict[str, Callable[[Result, Callable[[str], int]], str]] = {
    "text": render_text,
    "json": render_json,
    "manifest": render_manifest,
}
