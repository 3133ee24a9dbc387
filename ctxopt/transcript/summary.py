"""The offline, extractive summary of dropped messages, and running a summarizer command.

The summary names what the dropped turns touched, in the order first seen: the tool
calls (by name, with counts), the files (paths with an extension in call arguments and
in user and assistant text, not in results, whose code names files it did not touch),
the symbols (string arguments named like ``symbol``, ``name``, ``function``
or ``class``, and identifiers in backticks in assistant text) and the last error (the
last line that looks like one in a failed or erroring tool result). It is cut to
``SUMMARY_MAX_TOKENS``.
"""
from __future__ import annotations

import json
import math
import re
import shlex
import subprocess
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import SummarizerFailed
from ..wording import counted
from .shapes import MARKER_PREFIX, nested_strings, result_slots, result_text, tool_calls

__all__ = ["extractive_summary", "SummarizerCommand", "SummarizerFailed", "fit_summary",
           "shorten_marker", "shortest_marker", "SUMMARY_MAX_TOKENS", "LIST_ITEMS"]

# A marker holds at most this many tokens: a few lines of names, not a retelling.
SUMMARY_MAX_TOKENS = 256
LIST_ITEMS = 12
_PATH = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w-][\w.-]*\.(?:py|pyi|go|js|jsx|mjs|ts|tsx|rs|java|c|h|cc|"
    r"cpp|hpp|cs|rb|php|kt|swift|scala|md|rst|json|toml|yaml|yml|cfg|ini|sh|txt|html|css|sql|"
    r"lock|xml))(?![\w/])")
_BACKTICKED = re.compile(r"`([^\W\d][\w.:]*[\w])(?:\(\))?`")
_SYMBOL_KEYS = frozenset({"symbol", "name", "function", "class", "method", "identifier"})
# Lines that report an error, at their start (code that merely names an error class,
# `raise KeyError(...)`, does not match).
_ERROR_LINE = re.compile(r"^(?:Traceback \(most recent call last\)|[\w.]*(?:Error|Exception)"
                         r"(?::|$)|FAILED\b|ERROR\b|error(?:\[\w+\])?:|panic:|fatal:)")
_LINE_CHARS = 240


def _texts(message: dict[str, Any]) -> list[str]:
    """Every string of a message's content (text, tool results, nested blocks)."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key in ("text", "content", "thinking"):
                walk(value.get(key))

    walk(message.get("content"))
    return found


def _listed(items: Sequence[str]) -> str:
    shown = ", ".join(items[:LIST_ITEMS])
    return shown + (f" (+{len(items) - LIST_ITEMS} more)" if len(items) > LIST_ITEMS else "")


def _last_error(messages: Sequence[dict[str, Any]], shape: str) -> str | None:
    for message in reversed(messages):
        slots = result_slots(message, shape)
        flagged = any(slot is not None and message["content"][slot].get("is_error") is True
                      for slot in slots)
        for slot in slots:
            lines = [line.strip() for line in result_text(message, slot).split("\n")]
            errors = [line for line in lines if _ERROR_LINE.search(line)]
            if errors or (flagged and any(lines)):
                return (errors or [line for line in lines if line])[-1][:_LINE_CHARS]
    return None


def extractive_summary(messages: Sequence[dict[str, Any]], shape: str,
                       count: Callable[[str], int],
                       max_tokens: int = SUMMARY_MAX_TOKENS) -> str:
    """A marker text naming what ``messages`` (the dropped ones) touched, within
    ``max_tokens`` as ``count`` counts. Starts with ``MARKER_PREFIX``."""
    calls = [call for m in messages for call in tool_calls(m, shape)]
    files: dict[str, None] = {}
    symbols: dict[str, None] = {}
    for call in calls:
        for string in nested_strings(call.arguments):
            files.update((p, None) for p in _PATH.findall(string))
        symbols.update((s, None) for s in nested_strings(call.arguments, _SYMBOL_KEYS)
                       if 0 < len(s) <= 80 and "\n" not in s and not _PATH.fullmatch(s))
    for message in messages:
        if result_slots(message, shape):
            continue  # a result's text (code, listings) names files it did not touch
        for text in _texts(message):
            files.update((p, None) for p in _PATH.findall(text))
            if message.get("role") == "assistant":
                symbols.update((s, None) for s in _BACKTICKED.findall(text)
                               if not _PATH.fullmatch(s))
    names = Counter(call.name for call in calls)
    lines = [(f"{MARKER_PREFIX} {counted(len(messages), 'earlier message')} "
              f"{'was' if len(messages) == 1 else 'were'} dropped to fit the context window "
              f"({counted(len(calls), 'tool call')}).")]
    if names:
        lines.append("Tool calls: " + _listed(
            [f"{name} x{n}" if n > 1 else name for name, n in names.items()]))
    if files:
        lines.append("Files: " + _listed(list(files)))
    if symbols:
        lines.append("Symbols: " + _listed(list(symbols)))
    error = _last_error(messages, shape)
    if error:
        lines.append("Last error: " + error)
    return fit_summary("\n".join(line[:4 * _LINE_CHARS] for line in lines), count, max_tokens)


def fit_summary(text: str, count: Callable[[str], int],
                max_tokens: int = SUMMARY_MAX_TOKENS) -> str:
    """``text`` cut at a character boundary (with ``…``) to at most ``max_tokens``."""
    if count(text) <= max_tokens:
        return text
    low, high, best = 0, len(text), 0
    while low <= high:
        middle = (low + high) // 2
        if count(text[:middle] + "…") <= max_tokens:
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return text[:best] + "…"


def shortest_marker(dropped: int) -> str:
    """The shortest marker: only the number of ``dropped`` messages."""
    return f"{MARKER_PREFIX} {counted(dropped, 'earlier message')} dropped."


def shorten_marker(text: str, dropped: int, count: Callable[[str], int],
                   max_tokens: int) -> str | None:
    """A marker ``text`` within ``max_tokens``: whole, cut at its end while its first line
    stays whole, its first line alone (unless it ends with a colon: a heading), or only
    the number of ``dropped`` messages; None when not even that fits. Each starts with
    ``MARKER_PREFIX``."""
    if count(text) <= max_tokens:
        return text
    first = text.split("\n", 1)[0]
    cut = fit_summary(text, count, max_tokens)
    if len(cut) > len(first) + 2 and cut.startswith(first):  # more than the first line and "…"
        return cut
    # (a first line that introduces what follows, "...to fit the context window:", says
    # nothing alone: review 33)
    for line in (first, shortest_marker(dropped)):
        if line.startswith(MARKER_PREFIX) and not line.endswith(":") and count(line) <= max_tokens:
            return line
    return None


class SummarizerCommand:
    """A summarizer that runs a command: the dropped messages as a JSON list on its
    standard input, the summary on its standard output.

    Parameters
    ----------
    command : str
        The command line, split as a POSIX shell would (``shlex.split``), run without a
        shell.
    timeout : float
        Seconds to wait before the command is killed: positive and finite, else
        ``ValueError``.

    Calling it raises ``SummarizerFailed`` on a non-zero exit, a timeout, a command
    that cannot be started, or empty output.
    """

    def __init__(self, command: str, timeout: float = 60.0) -> None:
        if not (math.isfinite(timeout) and timeout > 0):
            raise ValueError(f"timeout must be positive and finite, got {timeout!r}")
        self.command = command
        self.timeout = timeout
        self.cache_key = f"command:{command}"

    def __call__(self, messages: Sequence[dict[str, Any]]) -> str:
        try:
            arguments = shlex.split(self.command)
            completed = subprocess.run(arguments, input=json.dumps(list(messages)),
                                       capture_output=True, text=True, timeout=self.timeout,
                                       check=False)
        except subprocess.TimeoutExpired as exc:
            raise SummarizerFailed(f"timed out after {self.timeout:g} s") from exc
        except (OSError, ValueError) as exc:
            raise SummarizerFailed(f"cannot run it: {exc}") from exc
        if completed.returncode != 0:
            last = (completed.stderr.strip().splitlines() or [""])[-1][:200]
            raise SummarizerFailed(f"exit status {completed.returncode}"
                                   + (f": {last}" if last else ""))
        if not completed.stdout.strip():
            raise SummarizerFailed("it printed nothing")
        return completed.stdout.strip()
