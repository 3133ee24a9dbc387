"""Transcript builders for the transcript tests: one abstract session, rendered in the
OpenAI or the Anthropic shape, and a hypothesis strategy over such sessions."""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

TOOL_NAMES = ("read_file", "grep", "run_tests", "todo_write")
PNG = base64.b64encode((Path(__file__).resolve().parent.parent / "fixtures" / "images"
                        / "screen_300x200.png").read_bytes()).decode()


@dataclass(frozen=True)
class Call:
    name: str
    arguments: dict
    result: str


@dataclass(frozen=True)
class Step:
    """A user text, an assistant text, or an assistant turn with tool calls."""

    role: str
    text: str
    calls: tuple[Call, ...] = ()
    image: bool = False  # a user message with a 300 x 200 PNG after its text


def words(n: int, seed: int = 0) -> str:
    vocabulary = ["def", "window", "token", "budget", "return", "self", "(", ")", "42", "Error"]
    return " ".join(vocabulary[(i * 7 + seed) % len(vocabulary)] for i in range(n)) + (
        "\n" if n % 3 == 0 else "")


def render(steps: list[Step], shape: str, *, system: str | None = "Be brief.") -> dict:
    """The session as a transcript object; each message carries an ``x_id`` (an unknown
    field, which must pass through) numbering it."""
    messages: list[dict] = []
    if system is not None and shape == "openai":
        messages.append({"role": "system", "content": system})
    call_number = 0
    for step in steps:
        if step.image:
            image = ({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}
                     if shape == "openai" else {"type": "image", "source": {
                         "type": "base64", "media_type": "image/png", "data": PNG}})
            messages.append({"role": step.role, "content": [{"type": "text", "text": step.text},
                                                            image]})
            continue
        if not step.calls:
            content = (step.text if shape == "openai" or step.role == "user"
                       else [{"type": "text", "text": step.text}])
            messages.append({"role": step.role, "content": content})
            continue
        ids = []
        for _ in step.calls:
            call_number += 1
            ids.append(f"call_{call_number}")
        if shape == "openai":
            messages.append({"role": "assistant", "content": step.text, "tool_calls": [
                {"id": i, "type": "function",
                 "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
                for i, c in zip(ids, step.calls)]})
            messages.extend({"role": "tool", "tool_call_id": i, "content": c.result}
                            for i, c in zip(ids, step.calls))
        else:
            messages.append({"role": "assistant", "content": [{"type": "text", "text": step.text}] + [
                {"type": "tool_use", "id": i, "name": c.name, "input": c.arguments}
                for i, c in zip(ids, step.calls)]})
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": i, "content": c.result}
                for i, c in zip(ids, step.calls)]})
    for number, message in enumerate(messages):
        message["x_id"] = number
    document: dict = {"messages": messages}
    if system is not None and shape == "anthropic":
        document["system"] = system
    return document


sizes = st.integers(min_value=0, max_value=1500)
calls = st.builds(lambda name, n, seed: Call(name, {"path": f"src/m{seed}.py"}, words(n, seed)),
                  st.sampled_from(TOOL_NAMES), sizes, st.integers(0, 9))
steps = st.one_of(
    st.builds(lambda n, image: Step("user", words(n, 1) or "ok", image=image), st.integers(1, 80),
              st.booleans()),
    st.builds(lambda n: Step("assistant", words(n, 2) or "ok"), st.integers(1, 80)),
    st.builds(lambda n, cs: Step("assistant", words(n, 3), tuple(cs)), st.integers(0, 30),
              st.lists(calls, min_size=1, max_size=3)),
)
sessions = st.builds(
    lambda first, image, rest: [Step("user", words(first, 4) or "do it", image=image), *rest],
    st.integers(1, 60), st.booleans(), st.lists(steps, max_size=14))
