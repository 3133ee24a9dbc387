"""A budget policy for long-running agents that restart their window instead of summarising.

``BudgetPolicy`` is a pure decision object. Its fixed base overhead is the system
prompt's tokens. Above it lies the work room, and above that the buffer band; the
reminder band is the top of the work room:

    base ........ base + work_room - reminder_band ... base + work_room ... hard_limit
         (quiet)            (reminder)                     (fallback)         (reset)

where ``hard_limit = base + work_room + buffer_band``. ``evaluate(total_tokens)`` says
which band a window has reached, each decision at most once per window. A window that
jumps past every band in one step still gets one fallback turn ("save your state now")
before the reset. ``max_result_tokens = max(512, work_room / 3)``: one tool result may use
at most a third of the room, so a fresh window holds two or three results and the
model's own turn (the same cap as ``fit``'s third of the budget, with its floor of 512).

A futility brake stops the resets when they do not help: after ``futility_windows``
consecutive windows that reset before their first quiet evaluation (the restart alone
already fills the window), ``evaluate`` returns ``NONE`` with a warning.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import CompactionSettingsError
from ..fit import CAP_FLOOR
from ..wording import counted
from .estimate import MESSAGE_OVERHEAD, Estimator
from .shapes import OPENAI, detect_shape, objective_index

__all__ = ["Decision", "PolicyConfig", "BudgetPolicy", "result_budget"]


def result_budget(work_room: int) -> int:
    """The most tokens one tool result may use in a window whose work room is
    ``work_room`` tokens: ``max(512, work_room // 3)`` (``fit.CAP_FLOOR`` and the
    fitter's third of the budget), never more than the work room itself. Also the budget
    ``ctxopt gather --budget-from-policy`` gives itself when it is an agent's tool."""
    return min(work_room, max(CAP_FLOOR, work_room // 3))


class Decision(str, enum.Enum):
    """What the agent loop should do after a turn."""

    NONE = "none"
    REMINDER = "reminder"  # tell the model its window is getting full
    FALLBACK = "fallback"  # ask the model to save its state now
    RESET = "reset"  # start the next window (``reset_messages``, then ``commit_reset``)


def _whole(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise CompactionSettingsError(name, f"{name.replace('_', ' ')} must be a whole number "
                                      f"of at least {minimum}, got {value!r}")
    return value


@dataclass(frozen=True)
class PolicyConfig:
    """Band sizes, in tokens, and the viability floor and futility brake.

    Raises
    ------
    CompactionSettingsError
        A work room below 1, a negative band, a reminder band not below the work room, a
        ``min_work_multiple`` that is not a positive number, a negative
        ``min_absolute_work_room`` or fewer than 1 ``futility_windows``.
    """

    work_room: int = 64000
    reminder_band: int = 8000
    buffer_band: int = 8000
    min_work_multiple: float = 4.0
    min_absolute_work_room: int = 16000
    futility_windows: int = 3

    def __post_init__(self) -> None:
        _whole("work_room", self.work_room, 1)
        _whole("reminder_band", self.reminder_band, 0)
        _whole("buffer_band", self.buffer_band, 0)
        _whole("min_absolute_work_room", self.min_absolute_work_room, 0)
        _whole("futility_windows", self.futility_windows, 1)
        if self.reminder_band >= self.work_room:
            raise CompactionSettingsError("reminder_band", (
                f"the reminder band ({self.reminder_band}) must be below the work room "
                f"({self.work_room})"))
        multiple = self.min_work_multiple
        if isinstance(multiple, bool) or not isinstance(multiple, (int, float)) \
                or not math.isfinite(multiple) or multiple <= 0:
            raise CompactionSettingsError("min_work_multiple", "the minimum work multiple must "
                                          f"be a positive number, got {multiple!r}")


class BudgetPolicy:
    """Decisions for one agent across its windows.

    Parameters
    ----------
    system_prompt : str
        Its tokens (plus one message's overhead) are the base overhead of every window.
    config : PolicyConfig
        Band sizes. A work room below the viability floor, ``max(min_work_multiple *
        base, min_absolute_work_room)``, is raised to it and both bands are scaled by the
        same factor; ``notes`` says so.
    estimator : Estimator, optional
        Token counts (exact cl100k_base by default).

    Attributes
    ----------
    base, work_room, reminder_band, buffer_band, hard_limit, max_result_tokens : int
        Tokens.
    window : int
        The window number, from 1.
    notes, warnings : list of str
        What was adjusted at construction; what went wrong since (dropped hints, the
        futility brake).
    """

    def __init__(self, system_prompt: str, config: PolicyConfig | None = None, *,
                 estimator: Estimator | None = None) -> None:
        self.config = config or PolicyConfig()
        self.system_prompt = system_prompt
        self.estimator = estimator or Estimator()
        self.base = self.estimator.text(system_prompt) + MESSAGE_OVERHEAD
        self.notes: list[str] = []
        self.warnings: list[str] = []
        floor = max(math.ceil(self.config.min_work_multiple * self.base),
                    self.config.min_absolute_work_room)
        self.work_room = self.config.work_room
        self.reminder_band, self.buffer_band = self.config.reminder_band, self.config.buffer_band
        if self.work_room < floor:
            scale = floor / self.work_room
            self.work_room = floor
            self.reminder_band = round(self.reminder_band * scale)
            self.buffer_band = round(self.buffer_band * scale)
            self.notes.append(
                f"work room raised from {self.config.work_room} to the viability floor of "
                f"{floor} tokens (max of {self.config.min_work_multiple:g} x the base "
                f"{self.base} and {self.config.min_absolute_work_room}); bands scaled by "
                f"{scale:.2f}")
        self.hard_limit = self.base + self.work_room + self.buffer_band
        self.max_result_tokens = result_budget(self.work_room)
        self.window = 1
        self._given: set[Decision] = set()
        self._quiet = False
        self._futile = 0
        self.braked = False

    @property
    def reminder_at(self) -> int:
        """Total tokens from which a reminder is due."""
        return self.base + self.work_room - self.reminder_band

    @property
    def fallback_at(self) -> int:
        """Total tokens from which the fallback turn is due (the work room is full)."""
        return self.base + self.work_room

    def _band(self, total_tokens: int) -> Decision:
        if total_tokens >= self.hard_limit:
            return Decision.RESET
        if total_tokens >= self.fallback_at:
            return Decision.FALLBACK
        if total_tokens >= self.reminder_at:
            return Decision.REMINDER
        return Decision.NONE

    def evaluate(self, total_tokens: int) -> Decision:
        """The decision for a window now holding ``total_tokens`` tokens.

        Each of reminder, fallback and reset is returned at most once per window; a
        reset is always preceded by a fallback in the same window; a reminder is not
        given after the fallback. After the futility brake, always ``NONE``.
        """
        band = self._band(total_tokens)
        if band is Decision.NONE:
            self._quiet = True
        if self.braked or band is Decision.NONE:
            return Decision.NONE
        if band is not Decision.REMINDER and Decision.FALLBACK not in self._given:
            decision = Decision.FALLBACK
        elif band is Decision.REMINDER and not self._given & {Decision.REMINDER,
                                                              Decision.FALLBACK}:
            decision = Decision.REMINDER
        elif band is Decision.RESET and Decision.RESET not in self._given:
            decision = Decision.RESET
        else:
            return Decision.NONE
        self._given.add(decision)
        return decision

    def reset_messages(self, old: Sequence[dict[str, Any]], thread_hint: str | None = None, *,
                       shape: str | None = None) -> list[dict[str, Any]]:
        """The next window's messages, in ``old``'s shape (``shape``, else detected from
        ``old``; plain text reads as OpenAI): the system prompt (OpenAI only;
        an Anthropic caller sends it as ``system``), a short window notice with the
        ``thread_hint`` (what the model saved), and the objective (``old``'s first user
        message). A hint that would take the window past the hard limit is dropped, with
        a warning.

        Raises
        ------
        NoObjectiveError
            ``old`` has no user message.
        """
        shape = shape or detect_shape(old)
        objective = old[objective_index(old, shape)]
        head = ([{"role": "system", "content": self.system_prompt}] if shape == OPENAI else [])
        notice = (f"[ctxopt window {self.window + 1}] The previous context window was full and "
                  "has been reset. Continue the objective below.")
        with_hint = notice + (f"\nSaved state:\n{thread_hint}" if thread_hint else "")
        messages = [*head, {"role": "user", "content": with_hint}, objective]
        if thread_hint and self.base + self.estimator.messages(messages[len(head):]) \
                > self.hard_limit:
            self.warnings.append(f"the thread hint ({counted(self.estimator.text(thread_hint), 'token')}) "
                                 f"would pass the hard limit of {self.hard_limit}; dropped")
            messages[len(head)] = {"role": "user", "content": notice}
        return messages

    def commit_reset(self) -> None:
        """Start the next window: decisions may be given again; a window that reset before
        any quiet evaluation counts toward the futility brake."""
        self._futile = 0 if self._quiet else self._futile + 1
        if self._futile >= self.config.futility_windows and not self.braked:
            self.braked = True
            self.warnings.append(
                f"{self._futile} windows in a row reset before a quiet turn: resets stopped "
                "(the restarted window alone fills the work room)")
        self.window += 1
        self._given.clear()
        self._quiet = False
