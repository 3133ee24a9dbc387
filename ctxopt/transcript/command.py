"""What ``ctxopt compact`` and ``ctxopt tokens --messages`` do, apart from click.

Edge: reads the transcript file and may run the summarizer command; the CLI writes the
output.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import jsontext
from ..errors import UsageError
from ..files.safety import read_regular_text
from ..tokens import TokenCounter
from ..wording import counted
from .compact import CompactResult, Compaction, Window, compact
from .estimate import Estimator, Usage, family_for_model, split_usage
from .shapes import Transcript, load_transcript
from .summary import SummarizerCommand

__all__ = ["read_transcript", "compact_file", "render_transcript", "report_line",
           "usage_lines", "usage_of"]


def read_transcript(path: str) -> Transcript:
    """The transcript in the JSON file at ``path`` (``-`` is not accepted: a summarizer
    may need standard input).

    Raises
    ------
    UsageError
        The file cannot be read (or is a FIFO, socket or device, or not UTF-8 text: ``read_regular_text``) or
        is not JSON.
    TranscriptError
        The JSON is not a transcript (see ``shapes.load_transcript``).
    """
    try:
        text = read_regular_text(Path(path))
    except OSError as exc:
        raise UsageError(f"cannot read {path!r}: {exc.strerror or exc}") from exc
    try:
        document = jsontext.loads(text)
    except ValueError as exc:
        raise UsageError(f"{path!r} is not JSON: {exc}") from exc
    return load_transcript(document)


def compact_file(path: str, *, window: int, reserve: int, trigger_percent: float,
                 target_percent: float | None, target_tokens: int | None, recent_tail: int,
                 preserve: tuple[str, ...], summarizer_cmd: str | None,
                 summarizer_timeout: float, counter: TokenCounter,
                 model: str | None) -> CompactResult:
    """Compact the transcript at ``path`` with the command's settings, counting with
    ``counter`` and pricing images for ``model``'s family (else the transcript's shape).

    Raises
    ------
    UsageError
        Both ``target_percent`` and ``target_tokens``, an unreadable file, or any
        transcript, window or settings error (all exit 2).
    """
    if target_percent is not None and target_tokens is not None:
        raise UsageError("--target-percent and --target-tokens are alternatives: give one")
    settings = Compaction(trigger_percent=trigger_percent,
                          target_percent=10 if target_percent is None else target_percent,
                          target_tokens=target_tokens, recent_tail=recent_tail,
                          preserve=preserve)
    # (the options first, as every command checks them: a bad --window on an empty
    # transcript was reported as the transcript's fault; trial 14)
    limits = Window(window, reserve, settings)
    transcript = read_transcript(path)
    summarizer = (SummarizerCommand(summarizer_cmd, summarizer_timeout)
                  if summarizer_cmd else None)
    estimator = Estimator(counter, family_for_model(model, transcript.shape))
    return compact(transcript, limits, estimator=estimator,
                   summarizer=summarizer)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "text":
                parts.append(str(block.get("text", "")))
            elif kind == "tool_use":
                parts.append(f"-> {block.get('name')}({json.dumps(block.get('input'))})")
            elif kind == "tool_result":
                parts.append(f"<- {block.get('tool_use_id')}: {_text_of(block.get('content'))}")
            else:
                parts.append(f"[{kind}]")
        return "\n".join(parts)
    return ""


def render_transcript(transcript: Transcript) -> str:
    """A plain-text view of a transcript: one ``## role`` section per message."""
    sections = []
    if transcript.system is not None:
        sections.append(f"## system\n{_text_of(transcript.system).strip()}")
    for message in transcript.messages:
        body = _text_of(message.get("content"))
        for call in message.get("tool_calls") or []:
            function = call.get("function", {})
            body += f"\n-> {function.get('name')}({function.get('arguments')})"
        if message.get("role") == "tool":
            body = f"<- {message.get('tool_call_id')}: {body}"
        sections.append(f"## {message.get('role')}\n{body.strip()}")
    return "\n\n".join(sections) + "\n"


def report_line(result: CompactResult) -> str:
    """The one-line report on standard error."""
    if not result.compacted:
        why = ("below the trigger" if result.tokens_before < result.trigger
               else "nothing left to drop or cut")
        return (f"ctxopt: {result.tokens_before} tokens, {why} of {result.trigger}: "
                "unchanged")
    line = (f"ctxopt: compacted {result.tokens_before} -> {result.tokens_after} tokens "
            f"(trigger {result.trigger}, target {result.target}): kept "
            f"{counted(len(result.kept), 'message')}, dropped {len(result.dropped)}, cut "
            f"{counted(len(result.cuts), 'tool result')}")
    if result.summary_source:
        line += f"; summary: {result.summary_source}"
    for warning in result.warnings:
        line += f"; {warning}"
    return line


def usage_lines(usage: Usage) -> str:
    """``system``, ``tools``, ``conversation`` and ``total`` tokens, tab-separated."""
    return "".join(f"{name}\t{getattr(usage, name)}\n"
                   for name in ("system", "tools", "conversation", "total"))


def usage_of(path: str, counter: TokenCounter, model: str | None) -> Usage:
    """The usage split of the transcript at ``path`` (see ``compact_file`` for the
    counter and the model)."""
    transcript = read_transcript(path)
    return split_usage(transcript, Estimator(counter, family_for_model(model, transcript.shape)))
