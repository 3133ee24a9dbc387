"""Compaction: a transcript over its trigger, brought down to a target token count.

``compact(messages, window)`` keeps the retention set (system messages, the first user
message, the units of preserved tools) whatever it costs, then fills from the newest
unit backwards (a unit: an assistant message and the tool results answering it, or one
message) until a unit does not fit, ``recent_tail`` units are kept, or the target is
reached. Tool results in the kept tail share the room left by max-min fair shares
(``budget.distribute_budget``): each is first clipped to a ceiling of a third of the
room (at least ``fit.CAP_FLOOR``, as the fitter caps a block while others wait) and
never cut below ``fit.SHARE_FLOOR``; a result over its share is cut (``reduce``), and
what a result leaves of its share (a signature reduction often leaves much) rolls to the
next, newer one, within its ceiling, as in ``fit``. The
dropped messages become one marker message, placed where the first of them was.
"""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..budget import Calibrated, Window as BudgetWindow, distribute_budget
from ..errors import CompactionSettingsError, RetentionTooLargeError
from ..fit import CAP_FLOOR, SHARE_FLOOR
from ..wording import counted
from .estimate import MESSAGE_OVERHEAD, REPLY_PRIMING, Estimator, family_for_model
from .reduce import cut_result
from .shapes import (Transcript, Unit, build_units, is_marker, is_system, load_transcript,
                     marker_message, objective_index, result_slots, result_text,
                     with_result_text)
from .summary import (SUMMARY_MAX_TOKENS, extractive_summary, fit_summary, shorten_marker,
                      shortest_marker)

__all__ = ["Compaction", "Window", "CompactResult", "Cut", "compact", "ALGORITHM",
           "ALGORITHM_VERSION", "MAX_RECENT_TAIL"]

ALGORITHM = "ctxopt.transcript.compact"
ALGORITHM_VERSION = 1
MAX_RECENT_TAIL = 64
Summarizer = Callable[[list[dict[str, Any]]], str]


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True)
class Compaction:
    """When to compact and down to what.

    Parameters
    ----------
    trigger_percent : float
        Compact when the transcript is at or above this percent of the budget (0-100).
    target_percent : float
        Compact down to this percent of the budget (0-100, below ``trigger_percent``).
    target_tokens : int or None
        A target in tokens instead of ``target_percent`` (positive, below the trigger).
    recent_tail : int
        At most this many units (0-64) are kept besides the retention set.
    preserve : tuple of str
        Tool names whose calls and results are always kept (non-empty, no duplicates).

    Raises
    ------
    CompactionSettingsError
        A percent outside 0-100 or not a number, a target percent not below the trigger
        percent, a target in tokens that is not a positive whole number, a recent tail
        outside 0-64, an empty or duplicate preserved name.
    """

    trigger_percent: float = 100
    target_percent: float = 10
    target_tokens: int | None = None
    recent_tail: int = 8
    preserve: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("trigger_percent", "target_percent"):
            value = getattr(self, name)
            if not _is_number(value) or not 0 <= value <= 100:
                raise CompactionSettingsError(name, f"{name.replace('_', ' ')} must be a "
                                              f"number from 0 to 100, got {value!r}")
        if self.target_tokens is None and self.target_percent >= self.trigger_percent:
            raise CompactionSettingsError("target_percent", (
                f"the target ({self.target_percent}%) must be below the trigger "
                f"({self.trigger_percent}%), or compaction would not bring it below"))
        if self.target_tokens is not None and (
                isinstance(self.target_tokens, bool) or not isinstance(self.target_tokens, int)
                or self.target_tokens <= 0):
            raise CompactionSettingsError("target_tokens", "the target must be a positive "
                                          f"whole number of tokens, got {self.target_tokens!r}")
        if isinstance(self.recent_tail, bool) or not isinstance(self.recent_tail, int) \
                or not 0 <= self.recent_tail <= MAX_RECENT_TAIL:
            raise CompactionSettingsError("recent_tail", f"the recent tail must be 0 to "
                                          f"{MAX_RECENT_TAIL} units, got {self.recent_tail!r}")
        names = tuple(self.preserve)
        object.__setattr__(self, "preserve", names)
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise CompactionSettingsError("preserve", "a preserved tool name is empty")
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise CompactionSettingsError("preserve", f"preserved tool names repeat: "
                                          f"{', '.join(duplicates)}")


@dataclass(frozen=True)
class Window(BudgetWindow):
    """A context window (``budget.Window``: ``max_tokens``, ``reserve``, ``budget``) with
    its compaction settings.

    Raises
    ------
    BudgetError
        ``max_tokens`` not positive, ``reserve`` negative or not below ``max_tokens``.
    CompactionSettingsError
        Bad ``Compaction`` settings, or a target in tokens not below the trigger.
    """

    compaction: Compaction = field(default_factory=Compaction)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.compaction.target_tokens is not None \
                and self.compaction.target_tokens >= self.trigger:
            raise CompactionSettingsError("target_tokens", (
                f"the target ({counted(self.compaction.target_tokens, 'token')}) must be "
                f"below the trigger ({counted(self.trigger, 'token')})"))

    @property
    def trigger(self) -> int:
        """Tokens at which compaction starts: ``budget * trigger_percent / 100``, rounded up."""
        return math.ceil(self.budget * self.compaction.trigger_percent / 100 - 1e-9)

    @property
    def target(self) -> int:
        """Tokens compaction aims at or under: ``target_tokens``, else ``budget *
        target_percent / 100`` rounded down."""
        if self.compaction.target_tokens is not None:
            return self.compaction.target_tokens
        return math.floor(self.budget * self.compaction.target_percent / 100 + 1e-9)


@dataclass(frozen=True, slots=True)
class Cut:
    """One tool result cut to its share: its message's index in the input, the tokens of
    its text before and after, and how (``signatures``, ``signatures+lines``, ``lines``)."""

    message: int
    tokens_before: int
    tokens_after: int
    how: str


@dataclass(frozen=True)
class CompactResult:
    """What ``compact`` did.

    Attributes
    ----------
    transcript : Transcript
        The output, in the input's shape (``transcript.to_document()`` for JSON).
    kept, dropped : tuple of int
        Indexes of the input messages kept (possibly cut) and dropped, ascending.
    tokens_before, tokens_after : int
        Estimated tokens of the whole request (system, tools, messages) before and after.
    trigger, target : int
        The window's trigger and target, in tokens.
    compacted : bool
        False when the output is the input (below the trigger, or nothing to change).
    key : str
        ``ALGORITHM/vVERSION/`` plus a SHA-256 of the input and the settings: the same
        key means the same result, in any process.
    cuts : tuple of Cut
        Tool results cut to their shares.
    summary_source : str or None
        ``"summarizer"``, ``"offline"``, ``"previous marker"``, ``"count only"`` (the
        marker cut to the number of messages dropped, to fit) or None (nothing dropped).
    warnings : tuple of str
        What the caller should know (a summarizer that failed).
    """

    transcript: Transcript
    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    tokens_before: int
    tokens_after: int
    trigger: int
    target: int
    compacted: bool
    key: str
    cuts: tuple[Cut, ...] = ()
    summary_source: str | None = None
    warnings: tuple[str, ...] = ()

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The output messages."""
        return self.transcript.messages


def _describe_counter(counter: Any) -> Any:
    if isinstance(counter, Calibrated):
        return {"calibrated": _describe_counter(counter.counter), "factor": counter.factor}
    return type(counter).__qualname__


def compaction_key(transcript: Transcript, window: Window, estimator: Estimator,
                   summarizer: Summarizer | None) -> str:
    """The cache key of one compaction: algorithm, version and a hash of input + settings."""
    settings = {
        "input": transcript.to_document(), "shape": transcript.shape,
        "window": [window.max_tokens, window.reserve], "compaction": [
            window.compaction.trigger_percent, window.compaction.target_percent,
            window.compaction.target_tokens, window.compaction.recent_tail,
            list(window.compaction.preserve)],
        "counter": _describe_counter(estimator.counter), "family": estimator.family,
        "summarizer": None if summarizer is None else getattr(
            summarizer, "cache_key", getattr(summarizer, "__qualname__", type(summarizer).__name__)),
    }
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True, ensure_ascii=True,
                                       default=repr).encode()).hexdigest()
    return f"{ALGORITHM}/v{ALGORITHM_VERSION}/{digest}"


@dataclass
class _Plan:
    """One attempt: kept units, new contents of cut results, and the dropped units."""

    tail: list[Unit]
    cuts: dict[tuple[int, int | None], tuple[str, Cut]]
    dropped: list[Unit]


class _Compactor:
    """One compaction's inputs and the costs derived from them."""

    def __init__(self, transcript: Transcript, window: Window, estimator: Estimator) -> None:
        self.t, self.window, self.est = transcript, window, estimator
        messages, shape = transcript.messages, transcript.shape
        self.units = build_units(messages, shape)
        self.objective = objective_index(messages, shape)
        self.costs = [estimator.message(m) for m in messages]
        self.fixed = (estimator.system(transcript.system)
                      + estimator.tool_schemas(transcript.tools) + REPLY_PRIMING)
        self.before = self.fixed + sum(self.costs)
        preserve = set(window.compaction.preserve)
        self.retained = [u for u in self.units if self._retained(u, preserve)]
        retained_starts = {u.start for u in self.retained}
        self.others = [u for u in self.units if u.start not in retained_starts]
        self.retained_cost = self.fixed + sum(self._cost(u) for u in self.retained)
        # dropped message indexes -> (marker text, source, warnings)
        self.summaries: dict[tuple[int, ...], tuple[str, str, tuple[str, ...]]] = {}

    def _retained(self, unit: Unit, preserve: set[str]) -> bool:
        messages = self.t.messages
        return (unit.start <= self.objective < unit.end
                or any(is_system(messages[i], self.t.shape) for i in range(unit.start, unit.end))
                or any(call.name in preserve for call in unit.calls))

    def _cost(self, unit: Unit) -> int:
        return sum(self.costs[unit.start:unit.end])

    def _results(self, unit: Unit) -> list[tuple[int, int | None, int]]:
        """(message index, slot, text tokens) of each tool result in the unit."""
        found = []
        for i in range(unit.start, unit.end):
            message = self.t.messages[i]
            for slot, tokens in zip(result_slots(message, self.t.shape),
                                    self.est.result_tokens(message, self.t.shape)):
                found.append((i, slot, tokens))
        return found

    def plan(self, room: int) -> _Plan:
        """Fill ``room`` tokens from the newest unit backwards, then share it."""
        ceiling = max(CAP_FLOOR, room // 3)
        tail: list[Unit] = []
        used = 0
        for unit in reversed(self.others):
            if len(tail) == self.window.compaction.recent_tail:
                break
            results = self._results(unit)
            fixed = self._cost(unit) - sum(tokens for _, _, tokens in results)
            least = fixed + sum(min(tokens, ceiling, SHARE_FLOOR) for _, _, tokens in results)
            if used + least > room:
                break
            tail.append(unit)
            used += least
        tail.reverse()
        results = [r for unit in tail for r in self._results(unit)]
        fixed = sum(self._cost(u) for u in tail) - sum(tokens for _, _, tokens in results)
        demands = [min(tokens, ceiling) for _, _, tokens in results]
        shares = distribute_budget(demands, max(0, room - fixed), SHARE_FLOOR)
        calls = {call.id: call.arguments for unit in tail for call in unit.calls}
        cuts = {}
        carry = 0  # what earlier results left of their shares (a reduction often does)
        for (i, slot, tokens), share, demand in zip(results, shares, demands):
            allowance = min(share + carry, demand)
            carry += share
            if allowance >= tokens:
                carry -= tokens
                continue
            text = result_text(self.t.messages[i], slot)
            cut_text, how = cut_result(text, allowance, self.est.text,
                                       self._arguments(i, slot, calls))
            used = self.est.text(cut_text)
            carry -= used
            cuts[(i, slot)] = (cut_text, Cut(i, tokens, used, how))
        tail_starts = {u.start for u in tail}
        dropped = [u for u in self.others if u.start not in tail_starts]
        return _Plan(tail, cuts, dropped)

    def _arguments(self, i: int, slot: int | None, calls: dict[str, Any]) -> Any:
        message = self.t.messages[i]
        call_id = (message.get("tool_call_id") if slot is None
                   else message["content"][slot].get("tool_use_id"))
        return calls.get(call_id) if isinstance(call_id, str) else None


def _as_transcript(messages: Any) -> Transcript:
    return messages if isinstance(messages, Transcript) else load_transcript(messages)


def compact(messages: Any, window: BudgetWindow, compaction: Compaction | None = None, *,
            estimator: Estimator | None = None,
            summarizer: Summarizer | None = None) -> CompactResult:
    """Bring a transcript at or over ``window.trigger`` tokens to ``window.target`` or under.

    Parameters
    ----------
    messages : list, dict or Transcript
        A message list (either shape), an object with ``messages`` and optional
        ``system``/``tools``, or a loaded ``Transcript``. Never mutated.
    window : Window
        The window, its reserve and the compaction settings (a ``budget.Window`` has
        the default settings).
    compaction : Compaction, optional
        Settings that replace the window's.
    estimator : Estimator, optional
        Token counts (exact cl100k_base and the shape's image formula by default).
    summarizer : callable, optional
        Dropped messages (list of dicts) -> summary text. When it raises, the offline
        extractive summary is used and a warning says so. Either is cut to
        ``SUMMARY_MAX_TOKENS`` tokens.

    Returns
    -------
    CompactResult
        Below the trigger, the input unchanged with ``compacted`` False. Otherwise the
        retention set, the kept tail (results cut to their shares) and a marker for the
        dropped span; its ``tokens_after`` is at most ``target`` whenever the retention
        set plus a full marker (``SUMMARY_MAX_TOKENS`` + overhead) fit the target, and
        never over the budget: a marker that does not fit is shortened, to the target
        when it can be, down to the number of dropped messages.

    Raises
    ------
    EmptyTranscriptError, NoObjectiveError, TranscriptError
        No messages, no user message, or a transcript that cannot be read.
    RetentionTooLargeError
        The retention set alone, or with the shortest marker, is over the budget.
    """
    if compaction is not None or not isinstance(window, Window):
        settings = compaction or getattr(window, "compaction", None) or Compaction()
        window = Window(window.max_tokens, window.reserve, settings)
    transcript = _as_transcript(messages)
    estimator = estimator or Estimator(family=family_for_model(None, transcript.shape))
    work = _Compactor(transcript, window, estimator)
    key = compaction_key(transcript, window, estimator, summarizer)
    unchanged = CompactResult(transcript, tuple(range(len(transcript.messages))), (),
                              work.before, work.before, window.trigger, window.target, False,
                              key)
    if work.before < window.trigger:
        return unchanged
    if work.retained_cost > window.budget:
        raise RetentionTooLargeError(work.retained_cost, window.budget)
    room = window.target - work.retained_cost - MESSAGE_OVERHEAD - SUMMARY_MAX_TOKENS
    while True:
        plan = work.plan(room)
        result = _assemble(work, plan, summarizer, key)
        if result.tokens_after <= window.target or not plan.tail:
            break
        room -= result.tokens_after - window.target  # estimates not quite additive: retry
    if result.tokens_after > window.target and result.dropped:
        result = _fit_marker(work, plan, summarizer, key, result)
    return result if result.compacted else unchanged


def _fit_marker(work: _Compactor, plan: _Plan, summarizer: Summarizer | None, key: str,
                result: CompactResult) -> CompactResult:
    """``result`` (no tail left, over the target) with its marker shortened to the room
    the target leaves, else the room the budget leaves (trial 16: a marker took a
    transcript of 467 tokens over a window of 400).

    Raises
    ------
    RetentionTooLargeError
        Not even the shortest marker fits the budget beside the retention set.
    """
    text = work.summaries[result.dropped][0]

    def cost(marker: str) -> int:
        return work.est.message(marker_message(marker))

    others = result.tokens_after - cost(text)  # a message's cost adds to the others'
    for limit in (work.window.target, work.window.budget):
        marker = shorten_marker(text, len(result.dropped), cost, limit - others)
        if marker is not None:
            return _assemble(work, plan, summarizer, key, marker)
    raise RetentionTooLargeError(others, work.window.budget,
                                 marker=cost(shortest_marker(len(result.dropped))))


def _summary(work: _Compactor, dropped: list[dict[str, Any]],
             summarizer: Summarizer | None) -> tuple[str, str, tuple[str, ...]]:
    """(marker text, its source, warnings)."""
    count = work.est.text
    if len(dropped) == 1 and is_marker(dropped[0]):
        return dropped[0]["content"], "previous marker", ()  # already a summary: keep it
    warnings: tuple[str, ...] = ()
    if summarizer is not None:
        try:
            text = str(summarizer(dropped)).strip()
            if text:
                heading = (f"[ctxopt compact] {counted(len(dropped), 'earlier message')} "
                           f"{'was' if len(dropped) == 1 else 'were'} summarised to fit the "
                           "context window:\n")
                return fit_summary(heading + text, count), "summarizer", ()
            warnings = ("the summarizer returned nothing; used the offline summary",)
        except Exception as exc:  # any failure of the caller's code falls back
            warnings = (f"the summarizer failed ({exc}); used the offline summary",)
    return extractive_summary(dropped, work.t.shape, count), "offline", warnings


def _assemble(work: _Compactor, plan: _Plan, summarizer: Summarizer | None,
              key: str, marker: str | None = None) -> CompactResult:
    """The output of ``plan``: the kept units (results cut) and the marker, whose text is
    the dropped span's summary unless ``marker`` is given."""
    messages = work.t.messages
    kept_units = sorted(work.retained + plan.tail, key=lambda u: u.start)
    dropped_units = sorted(plan.dropped, key=lambda u: u.start)
    dropped = [i for u in dropped_units for i in range(u.start, u.end)]
    output: list[dict[str, Any]] = []
    source: str | None = None
    warnings: tuple[str, ...] = ()
    marker_at = dropped_units[0].start if dropped_units else None
    dropped_starts = {u.start for u in dropped_units}
    for unit in sorted(kept_units + dropped_units, key=lambda u: u.start):
        if unit.start == marker_at:
            if tuple(dropped) not in work.summaries:  # a retry must not run a summarizer again
                work.summaries[tuple(dropped)] = _summary(
                    work, [messages[i] for i in dropped], summarizer)
            text, source, warnings = work.summaries[tuple(dropped)]
            output.append(marker_message(text if marker is None else marker))
            if marker is not None and marker == shortest_marker(len(dropped)):
                source = "count only"  # (no word of the summary is left: review 33)
        if unit.start in dropped_starts:
            continue
        for i in range(unit.start, unit.end):
            message = messages[i]
            for (j, slot), (text, _) in plan.cuts.items():
                if j == i:
                    message = with_result_text(message, slot, text)
            output.append(message)
    after = work.fixed + sum(work.est.message(m) for m in output)
    kept = tuple(i for u in kept_units for i in range(u.start, u.end))
    out = replace(work.t, messages=output)
    return CompactResult(out, kept, tuple(dropped), work.before, after, work.window.trigger,
                         work.window.target, output != list(messages), key,
                         tuple(cut for _, cut in plan.cuts.values()), source, warnings)
