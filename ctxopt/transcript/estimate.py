"""Token estimates of messages, tool schemas and a transcript's usage split.

Text is counted by a ``TokenCounter``: exact cl100k_base (``tokens.Cl100kCounter``), the
fast estimate of about 4 characters a token (``budget.EstimatingCounter``), either scaled
by a model's calibration factor (``budget.Calibrated``). Each message adds
``MESSAGE_OVERHEAD`` tokens for its role and separators and a transcript
``REPLY_PRIMING`` for the reply's header (OpenAI cookbook, "How to count tokens with
tiktoken": 3 and 3). Images cost what ``images.estimate_image`` says for the model
family. A message's estimate is the sum of its parts', so the estimate of a list is the
sum of its messages' estimates.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..budget import Calibrated, EstimatingCounter
from ..calibration import CalibrationStore
from ..tokens import Cl100kCounter, TokenCounter
from . import images
from .shapes import ANTHROPIC, OPENAI, Transcript, result_slots, result_text

__all__ = ["Estimator", "Usage", "estimate_message", "estimate_messages", "estimate_image",
           "estimate_tool_schemas", "split_usage", "family_for_model", "MESSAGE_OVERHEAD",
           "REPLY_PRIMING"]

MESSAGE_OVERHEAD = 3
REPLY_PRIMING = 3


def family_for_model(model: str | None, shape: str = ANTHROPIC) -> str:
    """The image-cost family of a model name: ``"anthropic"`` for Claude models,
    ``"openai"`` for GPT and o-series models, else the transcript's shape."""
    name = (model or "").strip().lower()
    if "claude" in name:
        return images.ANTHROPIC
    if name.startswith(("gpt", "chatgpt", "o1", "o3", "o4")):
        return images.OPENAI
    return images.OPENAI if shape == OPENAI else images.ANTHROPIC


def _json(value: Any) -> str:
    """A value as the APIs send it: compact JSON, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Estimator:
    """Counts messages with ``counter`` and prices images for ``family``.

    Attributes
    ----------
    counter : TokenCounter
        Text -> tokens (exact cl100k_base by default).
    family : str
        ``"anthropic"`` or ``"openai"``: whose image formula applies.
    """

    counter: TokenCounter = field(default_factory=Cl100kCounter)
    family: str = images.ANTHROPIC

    @classmethod
    def for_model(cls, model: str | None = None, *, shape: str = ANTHROPIC, exact: bool = True,
                  factor: float | None = None,
                  store: CalibrationStore | None = None) -> Estimator:
        """An estimator for ``model``: exact or ~4 chars/token counts, scaled by a
        calibration ``factor`` (0.5-2.0): the one given, else ``model``'s in ``store``
        (``calibration.CalibrationStore(calibration.user_config_dir())`` is the user's),
        else none. A store that cannot be read counts as having no factor.

        Raises
        ------
        BudgetError
            ``factor`` outside [0.5, 2.0].
        """
        counter: TokenCounter = Cl100kCounter() if exact else EstimatingCounter()
        if factor is None and store is not None and model and model.strip():
            factor = store.factor(model.strip())[0]
        if factor is not None:
            counter = Calibrated(counter, factor=factor)
        return cls(counter, family_for_model(model, shape))

    def text(self, text: str) -> int:
        """Tokens of ``text`` (0 for the empty string)."""
        return self.counter.count(text) if text else 0

    def _block(self, block: Any) -> int:
        if isinstance(block, str):
            return self.text(block)
        if not isinstance(block, dict):
            return self.text(_json(block))
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            return self.text(block["text"])
        if kind in ("image", "image_url"):
            return images.estimate_image(block, self.family)
        if kind == "tool_use":
            return self.text(str(block.get("name", ""))) + self.text(_json(block.get("input")))
        if kind == "tool_result":
            return self._result(block.get("content"))
        if kind == "thinking" and isinstance(block.get("thinking"), str):
            return self.text(block["thinking"])
        return self.text(_json(block))  # other blocks: as sent

    def _result(self, content: Any) -> int:
        """A tool result: its text parts joined (as ``shapes.result_text``) plus the rest."""
        if isinstance(content, list):
            texts = [p["text"] for p in content if isinstance(p, dict)
                     and p.get("type") == "text" and isinstance(p.get("text"), str)]
            others = [p for p in content if not (isinstance(p, dict) and p.get("type") == "text"
                                                 and isinstance(p.get("text"), str))]
            return self.text("\n".join(texts)) + sum(self._block(p) for p in others)
        return self._block(content) if content is not None else 0

    def message(self, message: dict[str, Any]) -> int:
        """Tokens of one message: overhead, name, content, tool calls and results."""
        total = MESSAGE_OVERHEAD
        if isinstance(message.get("name"), str):
            total += self.text(message["name"])
        content = message.get("content")
        if message.get("role") == "tool":
            total += self._result(content)
        elif isinstance(content, list):
            total += sum(self._block(b) for b in content)
        elif content is not None:
            total += self._block(content)
        for call in message.get("tool_calls") or []:
            function = call.get("function", {}) if isinstance(call, dict) else {}
            arguments = function.get("arguments", "")
            total += self.text(str(function.get("name", ""))) + self.text(
                arguments if isinstance(arguments, str) else _json(arguments))
        return total

    def messages(self, messages: Sequence[dict[str, Any]]) -> int:
        """The sum of the messages' estimates."""
        return sum(self.message(m) for m in messages)

    def result_tokens(self, message: dict[str, Any], shape: str) -> list[int]:
        """Tokens of the text of each tool result the message holds (``shapes.result_slots``
        order): the part of the message's estimate that compaction may cut."""
        return [self.text(result_text(message, slot)) for slot in result_slots(message, shape)]

    def tool_schemas(self, tools: Sequence[dict[str, Any]]) -> int:
        """Tokens of tool schemas as sent: each tool's JSON (name, description, schema)."""
        return sum(self.text(_json(tool)) for tool in tools)

    def system(self, system: str | list[Any] | None) -> int:
        """Tokens of an Anthropic ``system`` (a string or blocks); 0 when None."""
        if system is None:
            return 0
        if isinstance(system, str):
            return self.text(system)
        return sum(self._block(b) for b in system)


@dataclass(frozen=True, slots=True)
class Usage:
    """A transcript's tokens as a status bar shows them.

    ``system``: system prompt (Anthropic ``system`` and OpenAI system/developer
    messages); ``tools``: tool schemas; ``conversation``: every other message;
    ``total``: their sum plus ``REPLY_PRIMING``.
    """

    system: int
    tools: int
    conversation: int
    total: int


def split_usage(transcript: Transcript, estimator: Estimator | None = None) -> Usage:
    """System, tool-schema and conversation tokens of ``transcript``, apart (exact
    cl100k_base and the shape's image formula unless ``estimator`` says otherwise)."""
    estimator = estimator or Estimator(family=family_for_model(None, transcript.shape))
    system = estimator.system(transcript.system)
    conversation = 0
    for message in transcript.messages:
        cost = estimator.message(message)
        if transcript.shape == OPENAI and message.get("role") in ("system", "developer"):
            system += cost
        else:
            conversation += cost
    tools = estimator.tool_schemas(transcript.tools)
    return Usage(system, tools, conversation, system + tools + conversation + REPLY_PRIMING)


def estimate_message(message: dict[str, Any], estimator: Estimator | None = None) -> int:
    """Tokens of one message (see ``Estimator.message``); exact cl100k_base and
    Anthropic image costs unless ``estimator`` says otherwise."""
    return (estimator or Estimator()).message(message)


def estimate_messages(messages: Sequence[dict[str, Any]],
                      estimator: Estimator | None = None) -> int:
    """Tokens of a message list: the sum of ``estimate_message``."""
    return (estimator or Estimator()).messages(messages)


def estimate_image(block: dict[str, Any], family: str = images.ANTHROPIC) -> int:
    """Tokens of one image block or part (see ``images.estimate_image``)."""
    return images.estimate_image(block, family)


def estimate_tool_schemas(tools: Sequence[dict[str, Any]],
                          estimator: Estimator | None = None) -> int:
    """Tokens of tool schemas as sent (see ``Estimator.tool_schemas``)."""
    return (estimator or Estimator()).tool_schemas(tools)
