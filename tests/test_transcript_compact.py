"""Compaction: settings, the retention set, the tail, fair shares and cuts, the marker."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ctxopt.budget import EstimatingCounter
from ctxopt.errors import BudgetError
from ctxopt.errors import (CompactionSettingsError, EmptyTranscriptError, NoObjectiveError,
                           RetentionTooLargeError)
from ctxopt.transcript import Compaction, Estimator, Window, compact, load_transcript
from ctxopt.transcript.compact import MAX_RECENT_TAIL
from ctxopt.transcript.reduce import CUT_MARK, cut_result, detect_language
from ctxopt.transcript.shapes import MARKER_PREFIX
from ctxopt.tokens import count_tokens
from transcripts import Call, Step, render, words

ROOT = Path(__file__).resolve().parent.parent
SESSIONS = ROOT / "fixtures" / "transcripts"
FAST = Estimator(EstimatingCounter())


@pytest.mark.parametrize("settings, setting, message", [
    ({"trigger_percent": 101}, "trigger_percent", "trigger percent must be a number from 0 to 100"),
    ({"trigger_percent": -1}, "trigger_percent", "from 0 to 100"),
    ({"trigger_percent": True}, "trigger_percent", "from 0 to 100"),
    ({"target_percent": 120}, "target_percent", "target percent must be a number"),
    ({"target_percent": float("nan")}, "target_percent", "from 0 to 100"),
    ({"trigger_percent": 50, "target_percent": 50}, "target_percent", "must be below the trigger"),
    ({"target_tokens": 0}, "target_tokens", "positive whole number"),
    ({"target_tokens": 1.5}, "target_tokens", "positive whole number"),
    ({"recent_tail": MAX_RECENT_TAIL + 1}, "recent_tail", "0 to 64 units"),
    ({"recent_tail": -1}, "recent_tail", "0 to 64 units"),
    ({"preserve": ("grep", "")}, "preserve", "name is empty"),
    ({"preserve": ("grep", " ")}, "preserve", "name is empty"),
    ({"preserve": ("grep", "edit", "grep")}, "preserve", "repeat: grep"),
])
def test_every_bad_setting_has_a_specific_error(settings, setting, message):
    with pytest.raises(CompactionSettingsError, match=message) as caught:
        Compaction(**settings)
    assert caught.value.setting == setting and caught.value.exit_code == 2


@pytest.mark.parametrize("max_tokens, reserve, message", [
    (0, 0, "must be a positive number"), (-5, 0, "must be a positive number"),
    (100, -1, "cannot be negative"), (100, 100, "must be less than the window"),
])
def test_window_errors_are_the_budget_errors(max_tokens, reserve, message):
    with pytest.raises(BudgetError, match=message):
        Window(max_tokens, reserve)


def test_a_target_in_tokens_must_be_below_the_trigger():
    with pytest.raises(CompactionSettingsError, match="must be below the trigger") as caught:
        Window(1000, 0, Compaction(trigger_percent=50, target_tokens=500))
    assert caught.value.setting == "target_tokens"
    window = Window(1000, 100, Compaction(trigger_percent=50, target_tokens=449))
    assert (window.trigger, window.target) == (450, 449)
    assert Window(1000, 100, Compaction(trigger_percent=80, target_percent=25)).target == 225


def _session(results: int, size: int, *, names=("read_file",)) -> list[Step]:
    steps = [Step("user", "Fix the bug in the budget module.")]
    for n in range(results):
        name = names[n % len(names)]
        steps.append(Step("assistant", f"step {n}", (Call(name, {"path": f"src/m{n}.txt"},
                                                          words(size, n)),)))
    steps.append(Step("assistant", "done"))
    return steps


def test_empty_no_objective_and_oversized_retention_have_their_own_errors():
    window = Window(1000, 0, Compaction(trigger_percent=50))
    with pytest.raises(EmptyTranscriptError):
        compact([], window)
    with pytest.raises(NoObjectiveError):
        compact([{"role": "assistant", "content": "hi"}], window)
    document = render(_session(6, 400, names=("todo_write",)), "openai")
    with pytest.raises(RetentionTooLargeError) as caught:
        compact(document, Window(1000, 0, Compaction(trigger_percent=50, preserve=("todo_write",))),
                estimator=FAST)
    assert caught.value.retained > caught.value.budget == 1000


def test_the_retention_set_is_kept_and_the_span_becomes_one_marker():
    document = render(_session(12, 300, names=("read_file", "todo_write")), "anthropic")
    window = Window(6000, 0, Compaction(trigger_percent=70, target_percent=55, recent_tail=2,
                                        preserve=("todo_write",)))
    result = compact(document, window, estimator=FAST)
    assert result.compacted and result.tokens_after <= result.target < result.tokens_before
    output = result.messages
    assert output[0] == document["messages"][0]  # the objective
    markers = [m for m in output if str(m.get("content")).startswith(MARKER_PREFIX)]
    assert len(markers) == 1 and output[1] is markers[0]  # where the first dropped one was
    calls = [b["name"] for m in output if isinstance(m["content"], list)
             for b in m["content"] if b.get("type") == "tool_use"]
    assert calls.count("todo_write") == 6  # every preserved call, whatever it costs
    assert "read_file x" in markers[0]["content"] and "src/m0.txt" in markers[0]["content"]
    assert result.summary_source == "offline"


def test_the_tail_stops_at_the_recent_tail_bound():
    document = render(_session(10, 200), "openai")
    window = Window(100000, 0, Compaction(trigger_percent=1, target_tokens=999, recent_tail=3))
    result = compact(document, window, estimator=FAST)
    # system, objective, marker, then 3 units: two tool steps (call + result) and the last answer
    assert [m["x_id"] for m in result.messages if "x_id" in m] == [0, 1, 18, 19, 20, 21, 22]


def test_tool_results_share_the_room_fairly_with_every_cut_marked():
    steps = [Step("user", "go"), Step("assistant", "a", (
        Call("run_tests", {}, words(40, 1)), Call("run_tests", {}, words(4000, 2)),
        Call("run_tests", {}, words(4000, 3))))]
    document = render(steps, "openai")
    window = Window(20000, 0, Compaction(trigger_percent=10, target_tokens=1800))
    result = compact(document, window, estimator=FAST)
    small, first, second = (m["content"] for m in result.messages[-3:])
    assert small == document["messages"][-3]["content"]  # under its share: untouched
    assert CUT_MARK in first and CUT_MARK in second
    assert len(result.cuts) == 2 and {c.how for c in result.cuts} == {"lines"}
    assert abs(result.cuts[0].tokens_after - result.cuts[1].tokens_after) <= 30
    assert result.tokens_after <= 1800


def test_code_in_a_result_is_reduced_to_signatures_before_lines_are_cut():
    # the fixture session's budget.py: 786 tokens, 259 as signatures; the session of one
    # read is 815 tokens, over the trigger (40% of 2000); a result's ceiling is 512 tokens
    # (CAP_FLOOR, above a third of the 600 of the target)
    source = (SESSIONS / "sources" / "ctxopt__budget.py").read_text()
    steps = [Step("user", "explain Window"),
             Step("assistant", "reading", (Call("read_file", {"path": "ctxopt/budget.py"}, source),))]
    window = Window(2000, 0, Compaction(trigger_percent=40, target_tokens=600))
    result = compact(render(steps, "anthropic"), window)
    text = result.messages[-1]["content"][0]["content"]
    assert "python code reduced to signatures" in text
    assert "class Window:" in text and "def distribute_budget(" in text
    assert "progressive filling" not in text  # bodies are gone
    assert result.cuts[0].how == "signatures" and result.cuts[0].tokens_after <= 512
    # with less room than the signatures take, lines of the signatures are cut too
    cut, how = cut_result(source, 200, count_tokens, {"path": "ctxopt/budget.py"})
    assert how == "signatures+lines" and count_tokens(cut) <= 200


@pytest.mark.parametrize("text, arguments, language", [
    ("```go\npackage m\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n```\n" * 20, None, "go"),
    ("```src/m.rs\npub fn add(a: i32) -> i32 {\n    a + 1\n}\n```\n" * 20, None, "rust"),
    ("def f(x):\n    return x\n\n\nclass C:\n    def g(self):\n        return 1\n" * 30,
     None, "python"),
    ("     1\tfunction f(a) {\n     2\t  return a;\n     3\t}\n" * 40, {"path": "a/b.js"},
     "javascript"),
])
def test_the_language_comes_from_a_fence_a_file_name_or_detection(text, arguments, language):
    cut, how = cut_result(text, 60, lambda s: -(-len(s) // 4), arguments)
    assert how.startswith("signatures") and f"{language} code reduced to signatures" in cut


def test_detection_needs_two_telling_lines():
    assert detect_language("def f():\n    pass\nclass C:\n    pass\n") == "python"
    assert detect_language("just some words\nwith no code") is None


def test_a_summarizer_replaces_the_offline_summary_and_a_failing_one_falls_back():
    document = render(_session(10, 200), "openai")
    window = Window(3000, 0, Compaction(trigger_percent=50, target_percent=40, recent_tail=2))
    seen = []

    def summarizer(messages):
        seen.append(messages)
        return "The agent read ten files."

    result = compact(document, window, estimator=FAST, summarizer=summarizer)
    marker = result.messages[2]["content"]  # after the system message and the objective
    assert result.summary_source == "summarizer" and "The agent read ten files." in marker
    assert seen == [[document["messages"][i] for i in result.dropped]]  # called once

    def failing(messages):
        raise RuntimeError("model unavailable")

    fallback = compact(document, window, estimator=FAST, summarizer=failing)
    assert fallback.summary_source == "offline" and "model unavailable" in fallback.warnings[0]
    empty = compact(document, window, estimator=FAST, summarizer=lambda ms: "  ")
    assert empty.summary_source == "offline" and "returned nothing" in empty.warnings[0]


def test_the_offline_summary_names_the_last_error():
    steps = [Step("user", "go"), Step("assistant", "t", (Call("run_tests", {}, (
        "collected 3 items\nFAILED tests/test_a.py::test_x - AssertionError: 1 != 2\n"
        "1 failed")),)), Step("assistant", "look", (Call("read_file", {"path": "a.py"},
                                                         "raise KeyError(name)\n" * 5),))]
    steps += [Step("assistant", "x" * 400)] * 4
    window = Window(2000, 0, Compaction(trigger_percent=10, target_percent=5, recent_tail=1))
    result = compact(render(steps, "anthropic"), window, estimator=FAST)
    assert "Last error: FAILED tests/test_a.py::test_x - AssertionError" in result.messages[1]["content"]


def test_a_previous_marker_alone_is_not_summarised_again():
    document = render(_session(8, 300), "anthropic")
    window = Window(4000, 0, Compaction(trigger_percent=30, target_percent=20, recent_tail=0))
    first = compact(document, window, estimator=FAST)
    assert first.compacted
    again = compact(first.transcript.to_document(), window, estimator=FAST)
    assert again.messages == first.messages and not again.compacted


def test_the_key_is_the_same_in_another_process():
    path = SESSIONS / "agent_session.openai.json"
    window = Window(3200, 200, Compaction(target_percent=50))
    here = compact(json.loads(path.read_text()), window).key
    script = ("import json, sys; from ctxopt.transcript import *; print(compact(json.load(open("
              "sys.argv[1])), Window(3200, 200, Compaction(target_percent=50))).key)")
    there = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                           text=True, check=True).stdout.strip()
    assert here == there and here.startswith("ctxopt.transcript.compact/v1/")


@pytest.mark.parametrize("shape", ["anthropic", "openai"])
def test_the_fixture_session_compacts_in_its_shape(shape):
    document = json.loads((SESSIONS / f"agent_session.{shape}.json").read_text())
    window = Window(3200, 200, Compaction(target_percent=50))  # the session is about 3100 tokens
    result = compact(document, window)
    assert result.compacted and result.tokens_after <= window.target
    assert load_transcript(result.transcript.to_document()).shape == shape
    assert result.transcript.to_document()["model"] == document["model"]
    assert any(c.how.startswith("signatures") for c in result.cuts)


def test_what_a_reduced_result_leaves_of_its_share_rolls_to_the_next():
    code = "".join(f"def f{i}(x):\n" + "    y = x + 1\n" * 30 for i in range(40))
    calls = [Call("read_file", {"path": "src/m.py"}, code)] + [
        Call("run_tests", {}, words(3000, n)) for n in range(5)]
    document = render([Step("user", "go"), Step("assistant", "a", tuple(calls))], "openai")
    window = Window(100000, 0, Compaction(trigger_percent=10, target_tokens=3000))
    result = compact(document, window, estimator=FAST)
    cuts = sorted(result.cuts, key=lambda c: c.message)
    assert cuts[0].how == "signatures" and {c.how for c in cuts[1:]} == {"lines"}
    # the first log gets what the reduction left over; the others share equally
    assert cuts[1].tokens_after > cuts[2].tokens_after + 100
    assert max(c.tokens_after for c in cuts) <= max(512, 3000 // 3)
    assert result.tokens_after <= 3000


def test_settings_may_come_apart_from_the_window():
    from ctxopt.budget import Window as PlainWindow

    document = render(_session(10, 200), "openai")
    settings = Compaction(trigger_percent=50, target_percent=40, recent_tail=2)
    together = compact(document, Window(3000, 0, settings), estimator=FAST)
    apart = compact(document, Window(3000), settings, estimator=FAST)
    assert apart.messages == together.messages and apart.key == together.key
    plain = compact(document, PlainWindow(3000), estimator=FAST)  # default settings
    assert plain.key == compact(document, Window(3000), estimator=FAST).key


# trial 16 (A4): the marker was not counted against the window: 3053 -> 467 tokens in a
# window of 400, exit 0. Three messages: the objective (kept), a long turn and a short one.
SMALL = [{"role": "user", "content": "fix the bug"}, {"role": "assistant", "content": "a " * 50},
         {"role": "assistant", "content": "done"}]


@pytest.mark.parametrize("max_tokens", [23, 30, 40])
def test_the_marker_counts_against_the_window_issue_a4(max_tokens):
    result = compact(SMALL, Window(max_tokens, 0))
    assert result.compacted and result.tokens_after <= max_tokens
    marker = result.messages[1]["content"]
    assert marker.startswith(f"{MARKER_PREFIX} 2 earlier messages")
    assert result.tokens_after == Estimator().messages(result.messages) + 3  # reply priming


def test_a_marker_that_fits_no_window_is_refused_like_the_retention_set_issue_a4():
    with pytest.raises(RetentionTooLargeError, match="shortest marker") as caught:
        compact(SMALL, Window(22, 0))
    error = caught.value
    assert error.retained <= error.budget < error.retained + error.marker and error.exit_code == 2


@pytest.mark.parametrize("calls, said", [
    ((), "1 earlier message was dropped to fit the context window (0 tool calls)."),
    ((Call("grep", {"q": "x"}, "hit"),), "3 earlier messages were dropped to fit the context "
                                         "window (1 tool call)."),
])
def test_the_marker_counts_one_message_and_one_call_in_the_singular_issue_b7(calls, said):
    # trial 16: "(1 tool calls)"
    steps = [Step("user", "fix it"), *([Step("assistant", "look", calls)] if calls else []),
             Step("assistant", "done " * 200)]
    result = compact(render(steps, "openai"), Window(200, 0, Compaction(target_percent=90,
                                                                        recent_tail=1)))
    assert result.messages[2]["content"].split("\n")[0] == f"{MARKER_PREFIX} {said}"


def test_a_marker_shortened_to_a_heading_alone_says_only_the_count() -> None:
    # review 33: at a small window the marker was its heading alone, "... summarised to
    # fit the context window:", with nothing after the colon
    from ctxopt.tokens import count_tokens
    from ctxopt.transcript.summary import MARKER_PREFIX, shorten_marker, shortest_marker

    text = (f"{MARKER_PREFIX} 2 earlier messages were summarised to fit the context window:\n"
            "- the user asked for a fix of Storage.get\n- the assistant read storage.py")
    heading = text.split("\n", 1)[0]
    room = count_tokens(heading)  # the heading fits, the first point does not
    assert shorten_marker(text, 2, count_tokens, room) == shortest_marker(2)


def test_a_marker_cut_to_the_count_says_so_as_its_source():
    from ctxopt.transcript.summary import shortest_marker

    # review 33: the marker "2 earlier messages dropped." was reported as "summary: summarizer"
    result = compact(SMALL, Window(23, 0))
    assert result.messages[1]["content"] == shortest_marker(2)
    assert result.summary_source == "count only"


def test_the_reduction_counts_the_lines_of_the_code():
    # trial 21: a 950-line file read whole was "951 lines": its final newline counted a line
    from ctxopt.transcript.reduce import reduce_code

    code = "".join(f"def f{n}(x):\n    y = x + {n}\n    return y\n\n" for n in range(10))
    assert len(code.splitlines()) == 40 and code.endswith("\n")
    assert reduce_code(code, "python").startswith(f"{CUT_MARK} python code reduced to "
                                                   "signatures (40 lines, 10 definitions)")
    assert "(39 lines," in reduce_code(code.rstrip("\n"), "python")
