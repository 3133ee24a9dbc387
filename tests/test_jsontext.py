"""JSON nested too deeply for Python's recursive decoder, in every file ctxopt reads as JSON:
one line and the usual handling of a malformed file, never a RecursionError."""
from __future__ import annotations

import json

import pytest

from ctxopt import jsontext
from ctxopt.cli import main

DEEP = "[" * 100_000 + "]" * 100_000  # past any recursion limit
JUST_UNDER = "[" * 900 + "]" * 900  # loads in Python, too deep to walk safely


@pytest.mark.parametrize("text", [DEEP, JUST_UNDER, DEEP.encode()])
def test_loads_refuses_deep_nesting(text) -> None:
    with pytest.raises(ValueError, match="nested more than 200 levels deep"):
        jsontext.loads(text)


def test_loads_keeps_ordinary_json() -> None:
    nested = "[" * jsontext.MAX_DEPTH + "]" * jsontext.MAX_DEPTH
    assert jsontext.loads(nested) == json.loads(nested)
    assert jsontext.loads('{"a": [1, {"b": null}]}') == {"a": [1, {"b": None}]}


@pytest.mark.parametrize("command", [["tokens", "--messages"], ["compact", "--window", "1000"]])
def test_a_deep_transcript_is_bad_input(runner, tmp_path, command) -> None:
    transcript = tmp_path / "deep.json"
    transcript.write_text(DEEP)
    result = runner.invoke(main, [command[0], str(transcript), *command[1:]])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and "nested more than" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_deep_notebook_is_unparsable_and_the_gather_goes_on(runner, tmp_path) -> None:
    (tmp_path / "deep.ipynb").write_text(DEEP)
    (tmp_path / "tsconfig.json").write_text(DEEP)
    (tmp_path / "a.py").write_text("def spaced_func():\n    return 1\n")
    result = runner.invoke(main, ["gather", "fix spaced_func", "--root", str(tmp_path),
                                  "--format", "json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert [b["file"] for b in document["blocks"]] == ["a.py"]
    assert {"file": "deep.ipynb", "reason": "unparsable"}.items() <= next(
        d for d in document["diagnostics"] if d["file"] == "deep.ipynb").items()


def test_a_deep_calibration_file_is_reported_as_corrupt(runner, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path))
    (tmp_path / "calibration.json").write_text(DEEP)
    result = runner.invoke(main, ["tokens", "--model", "claude", "-"], input="hello\n")
    assert result.exit_code == 0
    assert "calibration.json is corrupt (nested more than" in result.stderr


def test_a_deep_snapshot_task_list_is_bad_input(tmp_path) -> None:
    from ctxopt.errors import UsageError
    from ctxopt.snapshot import read_tasks

    tasks = tmp_path / "tasks.json"
    tasks.write_text(DEEP)
    with pytest.raises(UsageError, match="invalid JSON: nested more than 200 levels deep"):
        read_tasks(tasks)


@pytest.mark.parametrize("name, text", [
    ("pyproject.toml", "[tool.ctxopt]\nbudget = " + "[" * 5000 + "]" * 5000 + "\n"),
    (".ctxopt.toml", "budget = " + "[" * 5000 + "]" * 5000 + "\n"),
])
def test_a_deep_toml_config_is_one_error_line(runner, tmp_path, monkeypatch, name, text) -> None:
    (tmp_path / name).write_text(text)
    (tmp_path / "a.py").write_text("def spaced_func():\n    return 1\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["gather", "fix spaced_func", "--root", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and "nested too deeply" in result.stderr
    assert len(result.stderr.splitlines()) == 1
