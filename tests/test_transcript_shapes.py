"""Reading transcripts: shape detection, validation, units, pass-through."""
from __future__ import annotations

import pytest

from ctxopt.errors import EmptyTranscriptError, NoObjectiveError, TranscriptError, UsageError
from ctxopt.transcript import build_units, detect_shape, load_transcript
from ctxopt.transcript.shapes import (objective_index, result_slots, result_text,
                                      with_result_text)

OPENAI_CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "grep", "arguments": '{"q": 1}'}}]}
OPENAI_RESULT = {"role": "tool", "tool_call_id": "c1", "content": "found"}
ANTHROPIC_CALL = {"role": "assistant", "content": [
    {"type": "tool_use", "id": "t1", "name": "grep", "input": {"q": 1}}]}
ANTHROPIC_RESULT = {"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": "t1", "content": "found"}]}


def test_shapes_are_detected_from_roles_fields_and_blocks():
    assert detect_shape([{"role": "user", "content": "hi"}, OPENAI_CALL, OPENAI_RESULT]) == "openai"
    assert detect_shape([{"role": "user", "content": "hi"}, ANTHROPIC_CALL, ANTHROPIC_RESULT]) \
        == "anthropic"
    assert detect_shape([{"role": "user", "content": "hi"}], system_given=True) == "anthropic"
    assert detect_shape([{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]}]) == "openai"


def test_mixed_shapes_are_refused():
    with pytest.raises(TranscriptError, match="mixes OpenAI"):
        load_transcript([{"role": "system", "content": "s"}, ANTHROPIC_CALL, ANTHROPIC_RESULT])


@pytest.mark.parametrize("document, message", [
    ("text", "JSON list of messages"),
    ({"messages": "no"}, "needs a `messages` list"),
    ({"messages": [{"role": "user", "content": "x"}], "system": 3}, "`system` must be"),
    ({"messages": [{"role": "user", "content": "x"}], "tools": [1]}, "`tools` must be"),
    ([["user", "x"]], "not an object with a string `role`"),
    ([{"content": "x"}], "not an object with a string `role`"),
    ([{"role": "user", "content": 5}], "`content` must be"),
    ([{"role": "narrator", "content": "x"}], "role 'narrator' is not a role of openai"),
    ([{"role": "user", "content": "x"}, {"role": "tool", "content": "y"}],
     "needs a string `tool_call_id`"),
    ([{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [{"id": "c"}]}],
     "needs a string `id` and `function.name`"),
    ([{"role": "user", "content": "x", "tool_calls": []}, {"role": "tool", "tool_call_id": "c",
                                                           "content": ""}], "answers tool call"),
    ({"system": "s", "messages": [{"role": "system", "content": "x"}]}, "mixes"),
    ({"system": "s", "messages": [{"role": "narrator", "content": "x"}]},
     "is not a role of anthropic"),
    ([{"role": "user", "content": [{"type": "tool_use", "id": "t", "name": "n", "input": {}}]}],
     "tool_use block needs"),
    ([{"role": "assistant", "content": [{"type": "tool_result", "tool_use_id": "t"}]}],
     "tool_result block needs"),
    ([{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}],
     "answers tool call 't'"),
])
def test_every_malformed_transcript_gets_its_own_error(document, message):
    with pytest.raises(TranscriptError, match=message) as caught:
        transcript = load_transcript(document)
        build_units(transcript.messages, transcript.shape)
    assert isinstance(caught.value, UsageError) and caught.value.exit_code == 2


def test_an_empty_transcript_and_one_without_a_user_message_have_their_own_errors():
    with pytest.raises(EmptyTranscriptError):
        load_transcript([])
    with pytest.raises(EmptyTranscriptError):
        load_transcript({"messages": []})
    transcript = load_transcript([{"role": "assistant", "content": "hello"}])
    with pytest.raises(NoObjectiveError):
        objective_index(transcript.messages, transcript.shape)
    only_results = load_transcript([ANTHROPIC_CALL, ANTHROPIC_RESULT])
    with pytest.raises(NoObjectiveError):  # a tool-result carrier is not an objective
        objective_index(only_results.messages, only_results.shape)


def test_units_join_a_call_and_its_results():
    messages = [{"role": "user", "content": "go"}, OPENAI_CALL, OPENAI_RESULT,
                {"role": "assistant", "content": "done"}]
    units = build_units(messages, "openai")
    assert [(u.start, u.end) for u in units] == [(0, 1), (1, 3), (3, 4)]
    assert units[1].calls[0].name == "grep" and units[1].calls[0].arguments == {"q": 1}
    anthropic = [{"role": "user", "content": "go"}, ANTHROPIC_CALL, ANTHROPIC_RESULT]
    assert [(u.start, u.end) for u in build_units(anthropic, "anthropic")] == [(0, 1), (1, 3)]


def test_a_pending_call_is_a_unit_of_its_own():
    units = build_units([{"role": "user", "content": "go"}, OPENAI_CALL], "openai")
    assert [(u.start, u.end) for u in units] == [(0, 1), (1, 2)]


def test_unknown_fields_and_top_level_keys_pass_through():
    document = {"model": "m", "metadata": {"a": 1}, "system": [{"type": "text", "text": "s"}],
                "tools": [{"name": "grep"}], "messages": [
                    {"role": "user", "content": "go", "x_trace": [1, 2]}, ANTHROPIC_CALL,
                    ANTHROPIC_RESULT]}
    transcript = load_transcript(document)
    assert transcript.to_document() == document
    assert load_transcript([{"role": "user", "content": "x"}]).to_document() == [
        {"role": "user", "content": "x"}]


def test_replacing_a_result_keeps_its_shape_and_copies():
    parts = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [
        {"type": "text", "text": "a"}, {"type": "image", "source": {"type": "url", "url": "u"}},
        {"type": "text", "text": "b"}]}]}
    (slot,) = result_slots(parts, "anthropic")
    assert result_text(parts, slot) == "a\nb"
    changed = with_result_text(parts, slot, "cut")
    assert changed["content"][0]["content"] == [
        {"type": "text", "text": "cut"}, {"type": "image", "source": {"type": "url", "url": "u"}}]
    assert result_text(parts, slot) == "a\nb"  # the original is untouched
    plain = with_result_text(OPENAI_RESULT, None, "cut")
    assert plain == {"role": "tool", "tool_call_id": "c1", "content": "cut"}
