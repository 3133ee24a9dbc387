"""The one CLI error boundary: every error of every command is one line on stderr, with
exit 2 for bad input (click's usage errors included), never a traceback."""
from __future__ import annotations

import pytest

from ctxopt.cli import main
from ctxopt.errors import CtxoptError, UsageError


@pytest.mark.parametrize("args", [
    ["--bogus"],
    ["no-such-command"],
    ["gather"],
    ["gather", "x", "--budget", "0"],
    ["gather", "x", "--budget", "800k"],
    ["gather", "x", "--budget", "12000.5"],
    ["gather", "x", "--window", "100", "--budget", "50"],
    ["gather", "x", "--reserve", "10"],
    ["gather", "x", "--model", " "],
    ["tags"],
    ["tags", "{missing}"],
    ["tags", ".", "--format", "xml"],
    ["tokens", "{missing}"],
    ["tokens", "--model", ""],
    ["calibrate", "--model", "m", "--estimated", "0", "--actual", "5"],
    ["calibrate", "--model", " ", "--estimated", "10", "--actual", "5"],
    ["gather", "x", "--exclude", "["],  # trial: accepted, and excluded nothing
    ["gather", "x", "--exclude", "[z-a]"],  # trial: a traceback (re.error)
    ["index", "--exclude", "\\"],  # trial: a traceback (GitIgnorePatternError)
    ["tags", ".", "--exclude", ""],
    ["index", "--jobs", "0"],
    ["index", "--root", "{missing}"],
    ["curve"],
    ["curve", "x", "--budgets", "0"],
    ["curve", "x", "--format", "gif"],
    ["snapshot"],
    ["snapshot", "--tasks", "{missing}"],
    ["compact"],
    ["diff", "{missing}", "{missing}"],
    ["schema", "nope"],
    ["mcp", "--budget", "0"],
    ["config", "extra"],
])
def test_bad_input_is_one_line_and_exit_2(runner, tmp_path, monkeypatch, args) -> None:
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    args = [a.replace("{missing}", str(tmp_path / "missing")) for a in args]
    result = runner.invoke(main, args)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize(("args", "value"), [
    (["gather", "x", "--budget", "abc"], "abc"), (["index", "--jobs", "2x"], "2x"),
    (["calibrate", "--model", "m", "--estimated", "1e3", "--actual", "5"], "1e3"),
])
def test_a_bad_whole_number_is_not_called_a_range(runner, args, value) -> None:
    # trial: click's IntRange said "'abc' is not a valid integer range" of --budget abc
    result = runner.invoke(main, args)
    assert result.exit_code == 2
    assert f"'{value}' is not a valid integer. " in result.stderr


def test_a_usage_error_says_where_the_help_is(runner) -> None:
    result = runner.invoke(main, ["gather", "x", "--budget", "0"], prog_name="ctxopt")
    assert result.stderr.endswith("(see 'ctxopt gather --help')\n"), result.stderr


@pytest.mark.parametrize(("error", "code"), [(UsageError("bad"), 2), (CtxoptError("failed"), 1)])
def test_a_library_error_is_one_line_with_its_exit_code(runner, monkeypatch, error, code) -> None:
    def fail(*_args, **_kwargs):
        raise error

    monkeypatch.setattr("ctxopt.tags.collect_tags", fail)
    result = runner.invoke(main, ["tags", "."])
    assert (result.exit_code, result.stderr) == (code, f"Error: {error}\n")


def test_ctrl_c_is_one_line_and_exit_130(runner, monkeypatch) -> None:
    def interrupt(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("ctxopt.tags.collect_tags", interrupt)
    result = runner.invoke(main, ["tags", "."])
    assert (result.exit_code, result.stderr) == (130, "ctxopt: interrupted\n")


def test_help_and_version_exit_0(runner) -> None:
    assert runner.invoke(main, ["--help"]).exit_code == 0
    version = runner.invoke(main, ["--version"])
    assert version.exit_code == 0 and "ctxopt" in version.stdout


def test_no_command_prints_the_help_as_click_does(runner) -> None:
    # trial: bare `ctxopt` printed its help squeezed into one 'Error:' line; click prints
    # the help itself on stderr and exits 2 (a missing command is a usage error)
    result = runner.invoke(main, [], prog_name="ctxopt")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == runner.invoke(main, ["--help"], prog_name="ctxopt").stdout
    assert result.stderr.startswith("Usage: ctxopt [OPTIONS] COMMAND [ARGS]...\n")


def test_no_command_copies_the_error_handling() -> None:
    """The boundary is the only place that catches ``CtxoptError`` (issue 10)."""
    from pathlib import Path

    import ctxopt.cli

    source = Path(ctxopt.cli.__file__).read_text(encoding="utf-8")
    assert source.count("except CtxoptError") == 1


@pytest.mark.parametrize(("variable", "value", "option"), [
    ("CTXOPT_BUDGET", "abc", "--budget"), ("CTXOPT_MAX_RING", "7", "--max-ring"),
    ("CTXOPT_TESTS", "maybe", "--tests"), ("CTXOPT_JOBS", "0", "--jobs"),
])
def test_a_bad_value_from_the_environment_names_its_variable(runner, tmp_path, monkeypatch,
                                                              variable, value, option) -> None:
    # trial: CTXOPT_BUDGET=abc said "Invalid value for '--budget'" to a user who gave none
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(variable, value)
    result = runner.invoke(main, ["gather", "x", "--root", str(tmp_path)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert f"'{option}'" in result.stderr and f"(from {variable})" in result.stderr
    monkeypatch.delenv(variable)
    result = runner.invoke(main, ["gather", "x", "--root", str(tmp_path), option, value]
                           if option != "--tests" else ["gather", "x", "--tests=maybe"])
    assert result.exit_code == 2 and "(from " not in result.stderr


def test_every_exception_is_defined_in_errors() -> None:
    """All exceptions in errors.py (issue 10): NotebookError and SummarizerFailed were
    defined beside their raisers."""
    import ast
    from pathlib import Path

    import ctxopt
    import ctxopt.errors

    package = Path(ctxopt.__file__).parent
    known = {name for name, value in vars(ctxopt.errors).items()
             if isinstance(value, type) and issubclass(value, BaseException)}
    elsewhere = []
    for path in package.rglob("*.py"):
        if path.name == "errors.py" and path.parent == package:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(base, ast.Name) and (base.id in known or base.id.endswith(
                        ("Error", "Exception"))) for base in node.bases):
                elsewhere.append(f"{path.relative_to(package)}:{node.name}")
    assert elsewhere == []


@pytest.mark.parametrize("args", [["gather", "fix x", "--root", "{repo}"], ["schema"],
                                  ["index", "--root", "{repo}"], ["config"]])
def test_a_removed_working_directory_is_one_line_and_exit_2(runner, tmp_path, monkeypatch,
                                                            args) -> None:
    # trial: a shell left in a removed directory made every command print a traceback
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "m.py").write_text("def x():\n    pass\n")
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    result = runner.invoke(main, [a.replace("{repo}", str(tmp_path / "repo")) for a in args])
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr.startswith("Error: the current directory no longer exists"), result.stderr
    assert result.stderr.count("\n") == 1


def test_ctrl_c_while_the_command_line_loads_is_one_line_and_exit_130(monkeypatch, capsys) -> None:
    # trial 4: Ctrl-C in the first half second (imports) printed a KeyboardInterrupt
    # traceback, before cli.main's error boundary existed
    import gc
    import sys

    from ctxopt import entry
    from ctxopt.cli_output import ExitStatus

    class Interrupting:
        def find_spec(self, name, *_args):
            if name == "ctxopt.cli":
                raise KeyboardInterrupt
            return None

    monkeypatch.delitem(sys.modules, "ctxopt.cli")
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    before = gc.get_threshold()  # (slowed before loading)
    try:
        with pytest.raises(SystemExit) as stopped:
            entry.run()
    finally:
        gc.set_threshold(*before)
    assert stopped.value.code == entry.INTERRUPTED == ExitStatus.INTERRUPTED
    assert capsys.readouterr().err == "ctxopt: interrupted\n"


def test_the_collector_is_slowed_before_the_command_line_loads(monkeypatch) -> None:
    # issue 14: collecting while loading took 1.5% of a warm gather's instructions
    import gc
    import sys

    from ctxopt import entry

    seen = []

    class Loading:
        def find_spec(self, name, *_args):
            if name == "ctxopt.cli":
                seen.append(gc.get_threshold())
                raise KeyboardInterrupt  # (the command line need not load again)
            return None

    monkeypatch.setattr(sys, "argv", ["ctxopt", "tokens", "-"])
    monkeypatch.delitem(sys.modules, "ctxopt.cli")
    monkeypatch.setattr(sys, "meta_path", [Loading(), *sys.meta_path])
    before = gc.get_threshold()
    try:
        with pytest.raises(SystemExit):
            entry.run()
    finally:
        gc.set_threshold(*before)
    assert seen == [entry.COLLECTOR_THRESHOLDS]


@pytest.mark.parametrize(("args", "slowed"), [(["tokens", "-"], True),
                                              (["--quiet", "mcp", "--help"], False)])
def test_the_collector_is_slowed_for_a_command_not_for_a_server(
        monkeypatch, args, slowed) -> None:
    # review: the MCP server's event loop makes cycles for as long as it runs
    import gc
    import io
    import sys

    from ctxopt import entry

    monkeypatch.setattr(sys, "argv", ["ctxopt", *args])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x")))
    monkeypatch.setattr(entry, "_end_now", lambda code: None)
    before = gc.get_threshold()
    monkeypatch.setattr(gc, "freeze", lambda: None)
    try:
        with pytest.raises(SystemExit):
            entry.run()
        assert (gc.get_threshold() == entry.COLLECTOR_THRESHOLDS) is slowed
    finally:
        gc.set_threshold(*before)


@pytest.mark.parametrize(("variable", "value"), [("CTXOPT_MAX_RING", "7"), ("CTXOPT_BUDGET", "abc")])
def test_config_fails_on_a_bad_environment_value_as_every_command_does(
        runner, monkeypatch, variable, value) -> None:
    # trial 4: `ctxopt config` showed it as "(unset)" and exited 0
    monkeypatch.setenv(variable, value)
    result = runner.invoke(main, ["config"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("Error: ") and f"(from {variable})" in result.stderr


def test_a_group_option_after_the_command_says_where_it_goes(runner) -> None:
    # trial 4: `ctxopt gather TASK -q` said only "No such option '-q'"
    result = runner.invoke(main, ["gather", "fix x", "-q"], prog_name="ctxopt")
    assert result.exit_code == 2
    assert "No such option '-q'. (it goes before the command: ctxopt -q gather ...)" in result.stderr
    other = runner.invoke(main, ["gather", "fix x", "--bogus"], prog_name="ctxopt")
    assert "goes before" not in other.stderr


def test_a_bad_boolean_from_the_environment_lists_no_blank_value_issue_b7(
        runner, tmp_path, monkeypatch) -> None:
    # trial 16: CTXOPT_TESTS=maybe listed "Recognized values: , 0, 1, ..." (click's "" state)
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CTXOPT_TESTS", "maybe")
    result = runner.invoke(main, ["gather", "x", "--root", str(tmp_path)])
    assert result.exit_code == 2
    assert "Recognized values: 0, 1, f, false, n, no, off, on, t, true, y, yes (from" in result.stderr
    for value, included in (("no", False), ("1", True)):
        monkeypatch.setenv("CTXOPT_TESTS", value)
        assert commands_tests_setting(runner, tmp_path) is included


def commands_tests_setting(runner, root) -> bool:
    """Whether ``gather`` includes tests (``tests/test_a.py`` shown for its task)."""
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests" / "test_a.py").write_text("def test_frobnicate():\n    assert True\n")
    result = runner.invoke(main, ["gather", "test_frobnicate", "--root", str(root)])
    return "test_a.py" in result.stdout


@pytest.mark.parametrize("command", [["gather", "x"], ["index"], ["curve", "x"]])
def test_a_root_that_is_a_symbolic_link_loop_is_said_to_be_one(runner, tmp_path, command) -> None:
    # trial 39: `--root weird/loop1` was "Directory ... does not exist"
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    result = runner.invoke(main, [*command, "--root", str(tmp_path / "loop1")])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"Error: Invalid value for '--root': Directory '{tmp_path / 'loop1'}' is a symbolic "
        f"link loop. (see 'main {command[0]} --help')\n")
