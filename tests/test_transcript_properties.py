"""Properties of compaction over generated transcripts in both shapes."""
from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from ctxopt.budget import EstimatingCounter
from ctxopt.transcript import Compaction, Estimator, Window, compact, load_transcript
from ctxopt.transcript.estimate import MESSAGE_OVERHEAD, REPLY_PRIMING
from ctxopt.transcript.shapes import build_units, is_system, objective_index, result_ids, tool_calls
from ctxopt.transcript.summary import SUMMARY_MAX_TOKENS
from transcripts import TOOL_NAMES, render, sessions

ESTIMATOR = Estimator(EstimatingCounter())
shapes = st.sampled_from(["openai", "anthropic"])
windows = st.builds(
    lambda max_tokens, target, tail, preserve: Window(max_tokens, 0, Compaction(
        trigger_percent=50, target_percent=target, recent_tail=tail, preserve=preserve)),
    st.integers(600, 6000), st.integers(5, 45), st.integers(0, 10),
    st.sampled_from([(), ("todo_write",), ("grep", "run_tests")]))


def retained_ids(document: dict, window: Window) -> tuple[set[int], int]:
    """x_ids of the messages that must be kept, and their tokens (with system, tools and
    reply priming), derived from the definition rather than from the implementation."""
    transcript = load_transcript(document)
    messages, shape = transcript.messages, transcript.shape
    objective = objective_index(messages, shape)
    keep: set[int] = set()
    for unit in build_units(messages, shape):
        span = range(unit.start, unit.end)
        if objective in span or any(is_system(messages[i], shape) for i in span) or any(
                c.name in window.compaction.preserve for c in unit.calls):
            keep.update(span)
    cost = ESTIMATOR.messages([messages[i] for i in keep]) + ESTIMATOR.system(
        transcript.system) + REPLY_PRIMING
    return {messages[i]["x_id"] for i in keep}, cost


@settings(max_examples=80)
@given(sessions, shapes, windows)
def test_compaction_properties(session, shape, window):
    document = render(session, shape)
    original = copy.deepcopy(document)
    try:
        result = compact(document, window, estimator=ESTIMATOR)
    except Exception as exc:  # only the retention set (and the marker) over the budget may refuse
        assert type(exc).__name__ == "RetentionTooLargeError"
        assert retained_ids(document, window)[1] + exc.marker > window.budget
        return
    assert document == original  # the input is never mutated
    output = result.messages
    # no tool result loses its call: the output reads back, every result after its call
    units = build_units(output, shape)
    for unit in units:
        answered = {i for m in output[unit.start:unit.end] for i in result_ids(m, shape)}
        assert answered <= {c.id for c in unit.calls}
    # order is preserved, and kept/dropped partition the input
    ids = [m["x_id"] for m in output if "x_id" in m]
    assert ids == sorted(ids)
    assert sorted(result.kept + result.dropped) == list(range(len(document["messages"])))
    assert ids == [document["messages"][i]["x_id"] for i in result.kept]
    # the retention set is always kept
    keep, retained_cost = retained_ids(document, window)
    assert keep <= set(ids)
    if not result.compacted:
        assert output == document["messages"]
        return
    assert result.tokens_before >= window.trigger
    assert result.tokens_after <= window.budget  # trial 16: the marker took it over
    if retained_cost + MESSAGE_OVERHEAD + SUMMARY_MAX_TOKENS <= window.target:
        assert result.tokens_after <= window.target
    # idempotent: compacting the output again changes nothing
    again = compact(result.transcript.to_document(), window, estimator=ESTIMATOR)
    assert again.messages == output


@settings(max_examples=40)
@given(sessions, shapes, windows)
def test_key_is_stable_and_depends_on_input_and_settings(session, shape, window):
    document = render(session, shape)
    window = Window(window.max_tokens * 100, 0, window.compaction)  # room for any retention
    first = compact(copy.deepcopy(document), window, estimator=ESTIMATOR)
    assert compact(copy.deepcopy(document), window, estimator=ESTIMATOR).key == first.key
    other = Window(window.max_tokens + 1, 0, window.compaction)
    assert compact(document, other, estimator=ESTIMATOR).key != first.key


@settings(max_examples=40)
@given(sessions, shapes)
def test_below_the_trigger_nothing_changes(session, shape):
    document = render(session, shape)
    total = compact(document, Window(10**9), estimator=ESTIMATOR)
    assert not total.compacted and total.messages == document["messages"]
    assert total.tokens_after == total.tokens_before
    window = Window(total.tokens_before + 1, 0, Compaction(trigger_percent=100))
    assert not compact(document, window, estimator=ESTIMATOR).compacted


def test_generated_sessions_use_every_tool_name():
    # the strategies above preserve tools by these names; keep them in step
    assert {"todo_write", "grep", "run_tests"} <= set(TOOL_NAMES)
    assert tool_calls({"role": "user", "content": "x"}, "openai") == []
