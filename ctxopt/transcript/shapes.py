"""Transcript shapes: OpenAI chat and Anthropic messages, read and written as given.

OpenAI chat: messages with ``role`` system/developer/user/assistant/tool; ``content`` a
string, a list of parts (``{"type": "text", "text"}``, ``{"type": "image_url",
"image_url": {"url", "detail"}}``) or null; ``tool_calls`` ``[{"id", "type": "function",
"function": {"name", "arguments": JSON string}}]`` on assistant messages; and
``tool_call_id`` on ``tool`` messages.

Anthropic messages: roles user/assistant only, the system prompt beside the list
(``system``: a string or text blocks); ``content`` a string or blocks ``text``,
``image`` (``source`` base64 or url), ``tool_use`` (``id``, ``name``, ``input``),
``tool_result`` (``tool_use_id``, ``content`` string or blocks, ``is_error``) and others
(``thinking``, ``document``...), which pass through.

The shape is detected per transcript. Messages are kept as the caller's dicts: fields this
module does not know pass through untouched, and output keeps the input's shape. Changed
messages are copies; the input is never mutated.
"""
from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import EmptyTranscriptError, NoObjectiveError, TranscriptError

__all__ = ["OPENAI", "ANTHROPIC", "Transcript", "ToolCall", "Unit", "load_transcript",
           "detect_shape", "tool_calls", "result_ids", "is_system", "is_objective",
           "objective_index", "build_units", "result_slots", "result_text",
           "with_result_text", "marker_message", "is_marker", "nested_strings", "MARKER_PREFIX"]

OPENAI = "openai"
ANTHROPIC = "anthropic"
_OPENAI_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
_ANTHROPIC_ROLES = frozenset({"user", "assistant"})
# A compaction marker's text starts with this, so a later pass can recognise it.
MARKER_PREFIX = "[ctxopt compact]"

Message = dict[str, Any]


@dataclass
class Transcript:
    """A message list in one shape, with what travels beside it.

    Attributes
    ----------
    shape : str
        ``"openai"`` or ``"anthropic"``.
    messages : list of dict
        The messages, as given.
    system : str or list or None
        Anthropic's ``system`` (a string or text blocks); None when absent (OpenAI keeps
        system messages in the list).
    tools : list of dict
        Tool schemas sent with the request (``tools``), as given; empty when absent.
    extra : dict
        Other top-level fields of an object transcript, passed through.
    wrapped : bool
        True when the input was an object with ``messages``, False for a bare list.
    """

    shape: str
    messages: list[Message]
    system: str | list[Any] | None = None
    tools: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    wrapped: bool = False

    def to_document(self, messages: Sequence[Message] | None = None) -> Any:
        """The JSON document in the input's form (a list, or an object with
        ``messages``), with ``messages`` in place of the transcript's own when given."""
        listed = list(self.messages if messages is None else messages)
        if not self.wrapped:
            return listed
        document = dict(self.extra)
        if self.system is not None:
            document["system"] = self.system
        if self.tools:
            document["tools"] = self.tools
        document["messages"] = listed
        return document


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call: its ``id``, tool ``name`` and ``arguments`` (the decoded JSON when
    it decodes, else the string as sent)."""

    id: str
    name: str
    arguments: Any


@dataclass(frozen=True, slots=True)
class Unit:
    """Messages ``start``..``end - 1`` that compaction keeps or drops together: an
    assistant message with tool calls and the results answering them, or one message."""

    start: int
    end: int
    calls: tuple[ToolCall, ...] = ()


def load_transcript(document: Any) -> Transcript:
    """Read a parsed JSON transcript: a list of messages, or an object with ``messages``
    and optional ``system`` and ``tools`` (other keys pass through).

    Raises
    ------
    EmptyTranscriptError
        No messages.
    TranscriptError
        Not a list or such an object, a message that is not an object with a string
        ``role``, a role or block the shape does not have, a tool call without ``id`` or
        name, a tool result without its call id, or signals of both shapes at once.
    """
    system: Any = None
    tools: Any = []
    extra: dict[str, Any] = {}
    wrapped = isinstance(document, dict)
    if wrapped:
        if not isinstance(document.get("messages"), list):
            raise TranscriptError("a transcript object needs a `messages` list")
        extra = {k: v for k, v in document.items() if k not in ("messages", "system", "tools")}
        system, tools = document.get("system"), document.get("tools") or []
        messages = document["messages"]
        if system is not None and not isinstance(system, (str, list)):
            raise TranscriptError("`system` must be a string or a list of blocks")
        if not isinstance(tools, list) or not all(isinstance(t, dict) for t in tools):
            raise TranscriptError("`tools` must be a list of objects")
    elif isinstance(document, list):
        messages = document
    else:
        raise TranscriptError("a transcript is a JSON list of messages or an object with "
                              f"`messages`, not {type(document).__name__}")
    if not messages:
        raise EmptyTranscriptError("the transcript has no messages")
    for number, message in enumerate(messages, 1):
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise TranscriptError(f"message {number} is not an object with a string `role`")
        content = message.get("content")
        if content is not None and not isinstance(content, (str, list)):
            raise TranscriptError(f"message {number}: `content` must be a string, a list or null")
    shape = detect_shape(messages, system_given=system is not None)
    transcript = Transcript(shape, list(messages), system, list(tools), extra, wrapped)
    _check_messages(transcript)
    return transcript


def _blocks(message: Message) -> list[Any]:
    content = message.get("content")
    return content if isinstance(content, list) else []


def _block_type(block: Any) -> str | None:
    return block.get("type") if isinstance(block, dict) else None


def detect_shape(messages: Sequence[Message], *, system_given: bool = False) -> str:
    """``"openai"`` or ``"anthropic"`` from the roles, fields and block types used.

    OpenAI signals: a system, developer or tool role, ``tool_calls``, ``tool_call_id``
    or an ``image_url`` part. Anthropic signals: a ``system`` beside the list, or a
    ``tool_use``, ``tool_result`` or ``image`` block. A transcript with neither (plain
    user and assistant text) reads the same either way and is called OpenAI.

    Raises
    ------
    TranscriptError
        Signals of both shapes.
    """
    openai = anthropic = None
    if system_given:
        anthropic = "a `system` beside the messages"
    for number, message in enumerate(messages, 1):
        if message.get("role") in ("system", "developer", "tool") or "tool_calls" in message \
                or "tool_call_id" in message:
            openai = openai or f"message {number} ({message.get('role')})"
        for block in _blocks(message):
            kind = _block_type(block)
            if kind in ("tool_use", "tool_result", "image"):
                anthropic = anthropic or f"a {kind} block in message {number}"
            elif kind == "image_url":
                openai = openai or f"an image_url part in message {number}"
    if openai and anthropic:
        raise TranscriptError(f"the transcript mixes OpenAI ({openai}) and Anthropic "
                              f"({anthropic}) messages")
    return ANTHROPIC if anthropic else OPENAI


def _decode_arguments(arguments: Any) -> Any:
    from .. import jsontext

    if isinstance(arguments, str):
        try:
            return jsontext.loads(arguments)
        except ValueError:
            return arguments
    return arguments


def tool_calls(message: Message, shape: str) -> list[ToolCall]:
    """The tool calls an assistant message makes, in order (none for other messages)."""
    if message.get("role") != "assistant":
        return []
    if shape == OPENAI:
        calls = message.get("tool_calls") or []
        return [ToolCall(c["id"], c["function"]["name"], _decode_arguments(
            c["function"].get("arguments"))) for c in calls]
    return [ToolCall(b["id"], b["name"], b.get("input")) for b in _blocks(message)
            if _block_type(b) == "tool_use"]


def result_ids(message: Message, shape: str) -> list[str]:
    """The ids of the tool calls this message answers (none for other messages)."""
    if shape == OPENAI:
        return [message["tool_call_id"]] if message.get("role") == "tool" else []
    return [b["tool_use_id"] for b in _blocks(message) if _block_type(b) == "tool_result"]


def is_system(message: Message, shape: str) -> bool:
    """An OpenAI system or developer message (Anthropic keeps its system beside the list)."""
    return shape == OPENAI and message.get("role") in ("system", "developer")


def is_objective(message: Message, shape: str) -> bool:
    """A user message that is not only tool results: a candidate objective."""
    if message.get("role") != "user":
        return False
    blocks = message.get("content")
    if not isinstance(blocks, list):
        return True
    return not blocks or any(_block_type(b) != "tool_result" for b in blocks)


def objective_index(messages: Sequence[Message], shape: str) -> int:
    """The index of the first user message (the objective).

    Raises
    ------
    NoObjectiveError
        No user message in the transcript.
    """
    for i, message in enumerate(messages):
        if is_objective(message, shape):
            return i
    raise NoObjectiveError("the transcript has no user message (the objective that "
                           "compaction always keeps)")


def _check_messages(transcript: Transcript) -> None:
    """Roles, ids and block placement the shape requires."""
    shape = transcript.shape
    roles = _OPENAI_ROLES if shape == OPENAI else _ANTHROPIC_ROLES
    for number, message in enumerate(transcript.messages, 1):
        role = message["role"]
        if role not in roles:
            raise TranscriptError(f"message {number}: role {role!r} is not a role of {shape} "
                                  f"transcripts ({', '.join(sorted(roles))})")
        where = f"message {number}"
        if shape == OPENAI:
            calls = message.get("tool_calls") or []
            if not isinstance(calls, list) or (calls and role != "assistant"):
                raise TranscriptError(f"{where}: `tool_calls` must be a list on an assistant "
                                      "message")
            for call in calls:
                function = call.get("function") if isinstance(call, dict) else None
                if not isinstance(call.get("id") if isinstance(call, dict) else None, str) \
                        or not isinstance(function, dict) \
                        or not isinstance(function.get("name"), str):
                    raise TranscriptError(f"{where}: a tool call needs a string `id` and "
                                          "`function.name`")
            if role == "tool" and not isinstance(message.get("tool_call_id"), str):
                raise TranscriptError(f"{where}: a tool message needs a string `tool_call_id`")
            continue
        for block in _blocks(message):
            kind = _block_type(block)
            if kind == "tool_use" and (role != "assistant" or not isinstance(block.get("id"), str)
                                       or not isinstance(block.get("name"), str)):
                raise TranscriptError(f"{where}: a tool_use block needs a string `id` and "
                                      "`name`, in an assistant message")
            if kind == "tool_result" and (role != "user"
                                          or not isinstance(block.get("tool_use_id"), str)):
                raise TranscriptError(f"{where}: a tool_result block needs a string "
                                      "`tool_use_id`, in a user message")


def build_units(messages: Sequence[Message], shape: str) -> list[Unit]:
    """Split messages into units: an assistant message with tool calls plus the messages
    right after it that hold their results, or a single message.

    Raises
    ------
    TranscriptError
        A tool result whose call is not in the assistant message just before its run of
        results (both APIs reject such a transcript).
    """
    units: list[Unit] = []
    i = 0
    while i < len(messages):
        calls = tuple(tool_calls(messages[i], shape))
        ids = {c.id for c in calls}
        j = i + 1
        while ids and j < len(messages) and result_ids(messages[j], shape) and set(
                result_ids(messages[j], shape)) <= ids:
            j += 1
        orphan = result_ids(messages[i], shape) if not calls else []
        if orphan:
            raise TranscriptError(f"message {i + 1} answers tool call {orphan[0]!r}, which no "
                                  "assistant message just before it makes")
        units.append(Unit(i, j, calls))
        i = j
    return units


def result_slots(message: Message, shape: str) -> list[int | None]:
    """Where a message holds tool-result content: ``[None]`` for an OpenAI tool message
    (its ``content``), the indexes of ``tool_result`` blocks for Anthropic."""
    if shape == OPENAI:
        return [None] if message.get("role") == "tool" else []
    return [k for k, b in enumerate(_blocks(message)) if _block_type(b) == "tool_result"]


def _slot_content(message: Message, slot: int | None) -> Any:
    return message.get("content") if slot is None else message["content"][slot].get("content")


def result_text(message: Message, slot: int | None) -> str:
    """The text of one tool result (its text parts joined by newlines)."""
    content = _slot_content(message, slot)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content
                         if _block_type(p) == "text" and isinstance(p.get("text"), str))
    return ""


def with_result_text(message: Message, slot: int | None, text: str) -> Message:
    """A copy of ``message`` whose tool result at ``slot`` has ``text`` as its only text
    (a string stays a string; in a list, one text part replaces the text parts, before
    the others, which are kept)."""
    message = copy.deepcopy(message)
    content = _slot_content(message, slot)
    if isinstance(content, list):
        others = [p for p in content if _block_type(p) != "text"]
        content = [{"type": "text", "text": text}, *others]
    else:
        content = text
    if slot is None:
        message["content"] = content
    else:
        message["content"][slot]["content"] = content
    return message


def marker_message(text: str) -> Message:
    """A user message holding a compaction marker (the same in both shapes)."""
    return {"role": "user", "content": text}


def is_marker(message: Message) -> bool:
    """A marker an earlier compaction wrote."""
    content = message.get("content")
    return (message.get("role") == "user" and isinstance(content, str)
            and content.startswith(MARKER_PREFIX))


def nested_strings(value: Any, keys: frozenset[str] | None = None,
                   key: str | None = None) -> list[str]:
    """The strings in a nested value (a tool call's arguments: dicts, lists, strings), in
    order; only those under one of ``keys`` when given (``key``: the key ``value`` is under)."""
    if isinstance(value, str):
        return [value] if keys is None or key in keys else []
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in nested_strings(v, keys, k)]
    if isinstance(value, list):
        return [s for item in value for s in nested_strings(item, keys, key)]
    return []
