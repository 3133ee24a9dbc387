"""`ctxopt compact` and `ctxopt tokens --messages`."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from ctxopt.cli import main

SESSIONS = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"
# the fixture session is 3053 tokens (3272 in the OpenAI shape): over the trigger of 3000
WINDOW = ["--window", "3200", "--reserve", "200", "--target-percent", "50"]


@pytest.fixture
def session(tmp_path: Path) -> Path:
    path = tmp_path / "session.json"
    shutil.copy(SESSIONS / "agent_session.anthropic.json", path)
    return path


def _report(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("ctxopt: ")]
    assert len(lines) == 1, stderr
    return lines[0]


def test_compact_writes_the_same_shape_and_reports_one_line(runner, session, tmp_path):
    out = tmp_path / "out.json"
    result = runner.invoke(main, ["compact", str(session), "-o", str(out), *WINDOW])
    assert result.exit_code == 0, result.output
    report = _report(result.stderr)
    assert report.startswith("ctxopt: compacted 3053 -> ") and "dropped 4" in report
    document = json.loads(out.read_text())
    original = json.loads(session.read_text())
    assert document["system"] == original["system"] and document["tools"] == original["tools"]
    assert document["messages"][0] == original["messages"][0]
    usage = runner.invoke(main, ["tokens", "--messages", str(out)])
    total = int(usage.stdout.splitlines()[-1].split("\t")[1])
    assert f"-> {total} tokens" in report and total <= 1500  # the target: 50% of 3000


def test_below_the_trigger_the_transcript_is_written_unchanged(runner, session):
    result = runner.invoke(main, ["compact", str(session), "--window", "200000"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(session.read_text())
    assert "below the trigger of 200000: unchanged" in _report(result.stderr)


def test_text_format(runner, session):
    result = runner.invoke(main, ["compact", str(session), *WINDOW, "--format", "text"])
    assert result.exit_code == 0
    assert result.stdout.startswith("## system\n") and "## user\n[ctxopt compact]" in result.stdout


@pytest.mark.parametrize("arguments, message", [
    ([*WINDOW, "--target-tokens", "100"], "alternatives"),
    ([*WINDOW, "--recent-tail", "65"], "recent tail must be 0 to 64"),
    ([*WINDOW, "--trigger-percent", "101"], "trigger percent must be a number from 0 to 100"),
    ([*WINDOW, "--preserve", "grep", "--preserve", "grep"], "repeat: grep"),
    (["--window", "16000", "--reserve", "16000"], "must be less than the window"),
    (["--window", "1000", "--preserve", "read_file"], "more than the budget of 1000"),
])
def test_bad_settings_exit_2_with_one_line(runner, session, arguments, message):
    result = runner.invoke(main, ["compact", str(session), *arguments])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("content, message", [
    ("{not json", "is not JSON"),
    ('{"messages": []}', "has no messages"),
    ('[{"role": "assistant", "content": "hi"}, {"role": "assistant", "content": "x"}]',
     "no user message"),
    ('[{"role": "tool", "tool_call_id": "x", "content": "orphan"}]', "answers tool call"),
])
def test_bad_transcripts_exit_2_with_one_line(runner, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = runner.invoke(main, ["compact", str(path), "--window", "1000",
                                  "--trigger-percent", "1", "--target-percent", "0.5"])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_bad_settings_are_reported_before_the_transcript_is_read(runner, tmp_path):
    # trial 14: `compact empty.json --window 0` said "has no messages", not the window
    path = tmp_path / "empty.json"
    path.write_text('{"messages": []}')
    result = runner.invoke(main, ["compact", str(path), "--window", "0"])
    assert result.exit_code == 2 and "window" in result.stderr
    assert "no messages" not in result.stderr


def test_the_report_counts_one_message_in_the_singular():
    # trial 14: "kept 1 messages"
    from ctxopt.wording import counted
    assert (counted(1, "message"), counted(2, "message"), counted(0, "tool result")) == (
        "1 message", "2 messages", "0 tool results")


def test_a_missing_file_and_writing_over_the_input_are_refused(runner, session, tmp_path):
    missing = runner.invoke(main, ["compact", str(tmp_path / "none.json"), *WINDOW])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
    before = session.read_bytes()
    result = runner.invoke(main, ["compact", str(session), "-o", str(session), *WINDOW])
    assert result.exit_code == 2 and "it is the input this command reads" in result.stderr
    assert session.read_bytes() == before


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "summarize.py"
    path.write_text(body)
    return f"{sys.executable} {path}"


def test_the_summarizer_command_gets_the_dropped_messages_on_stdin(runner, session, tmp_path):
    command = _script(tmp_path, "import json, sys\nmessages = json.load(sys.stdin)\n"
                                "print(f'{len(messages)} messages about the budget')\n")
    result = runner.invoke(main, ["compact", str(session), *WINDOW, "--summarizer-cmd", command])
    assert result.exit_code == 0, result.output
    assert "4 messages about the budget" in result.stdout
    assert "summary: summarizer" in _report(result.stderr)


@pytest.mark.parametrize("body, timeout, reason", [
    ("import sys\nsys.stderr.write('no model\\n')\nsys.exit(3)\n", "60", "exit status 3: no model"),
    ("import time\ntime.sleep(30)\n", "0.5", "timed out after 0.5 s"),
    ("", "60", "printed nothing"),
])
def test_a_failing_summarizer_falls_back_to_the_offline_summary(runner, session, tmp_path,
                                                                 body, timeout, reason):
    command = _script(tmp_path, body)
    result = runner.invoke(main, ["compact", str(session), *WINDOW, "--summarizer-cmd", command,
                                  "--summarizer-timeout", timeout])
    assert result.exit_code == 0, result.output
    report = _report(result.stderr)
    assert "summary: offline" in report and reason in report
    assert "Tool calls: todo_write, read_file" in result.stdout


def test_a_summarizer_that_cannot_start_falls_back(runner, session, tmp_path):
    result = runner.invoke(main, ["compact", str(session), *WINDOW, "--summarizer-cmd",
                                  str(tmp_path / "no-such-program")])
    assert result.exit_code == 0 and "cannot run it" in _report(result.stderr)


@pytest.mark.parametrize("timeout", ["nan", "inf", "0"])
def test_a_summarizer_timeout_that_is_not_positive_and_finite_is_a_usage_error(
        runner, session, tmp_path, timeout):
    output = tmp_path / "out.json"
    result = runner.invoke(main, ["compact", str(session), *WINDOW, "--summarizer-cmd", "cat",
                                  "--summarizer-timeout", timeout, "-o", str(output)])
    assert result.exit_code == 2 and not output.exists()
    assert "Invalid value for '--summarizer-timeout'" in result.stderr


def test_summarizer_command_rejects_a_timeout_it_cannot_wait_for():
    from ctxopt.transcript.summary import SummarizerCommand
    for timeout in (float("nan"), float("inf"), 0.0):
        with pytest.raises(ValueError, match="timeout must be positive and finite"):
            SummarizerCommand("cat", timeout)


def test_tokens_messages_prints_the_usage_split(runner, session):
    result = runner.invoke(main, ["tokens", "--messages", str(session)])
    assert result.exit_code == 0
    assert result.stdout == "system\t34\ntools\t209\nconversation\t2807\ntotal\t3053\n"
    fast = runner.invoke(main, ["tokens", "--messages", "--estimate", str(session)])
    assert fast.exit_code == 0 and fast.stdout != result.stdout
    both = runner.invoke(main, ["tokens", "--messages", str(session), str(session)])
    assert both.exit_code == 2 and "exactly one transcript" in both.stderr


def test_gather_takes_a_third_of_the_window_from_the_policy(runner, fixture_repo):
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--window",
                                  "3000", "--reserve", "300", "--budget-from-policy"])
    assert result.exit_code == 0 and "# budget 900 tokens" in result.stdout
    floor = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--window",
                                 "1200", "--budget-from-policy"])
    assert floor.exit_code == 0 and "# budget 512 tokens" in floor.stdout
    alone = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root),
                                 "--budget-from-policy"])
    assert alone.exit_code == 2 and "--budget-from-policy needs --window" in alone.stderr


def test_text_format_shows_a_system_given_as_blocks(runner, tmp_path):
    path = tmp_path / "blocks.json"
    path.write_text(json.dumps({"system": [{"type": "text", "text": "Be brief."}],
                                "messages": [{"role": "user", "content": "hi"}]}))
    result = runner.invoke(main, ["compact", str(path), "--window", "100000", "--format", "text"])
    assert result.exit_code == 0 and result.stdout.startswith("## system\nBe brief.\n\n## user\nhi")


@pytest.mark.parametrize("output_format", ["json", "text"])
def test_compact_never_writes_over_the_window_issue_a4(runner, session, tmp_path, output_format):
    # trial 16: --window 400 wrote 467 tokens (the retention set is 360, the marker 107)
    out = tmp_path / "out.json"
    result = runner.invoke(main, ["compact", str(session), "--window", "400", "-o", str(out),
                                  "--format", output_format])
    assert result.exit_code == 0, result.output
    after = int(_report(result.stderr).split(" -> ")[1].split()[0])
    assert after <= 400
    if output_format == "json":
        usage = runner.invoke(main, ["tokens", "--messages", str(out)])
        assert usage.stdout.splitlines()[-1] == f"total\t{after}"
    refused = runner.invoke(main, ["compact", str(session), "--window", "370"])
    assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1
    assert "shortest marker" in refused.stderr
