"""Configuration: .ctxopt.toml or [tool.ctxopt] in pyproject.toml, found upwards from the
working directory; command line > environment > file > defaults, for every setting."""
import json
import re
from pathlib import Path

import click
import pytest
from click.core import ParameterSource

from ctxopt.cli import main
from ctxopt.commands import apply_config
from ctxopt.config import SETTINGS, find_config

# key: (TOML value in the file, value it gives, environment value, value it gives,
#       command-line arguments, value they give)
CASES = {
    "budget": ("3000", 3000, "4000", 4000, ["--budget", "5000"], 5000),
    "max_ring": ("1", 1, "2", 2, ["--max-ring", "4"], 4),
    "tests": ("false", False, "true", True, ["--no-tests"], False),
    "scope": ('"a"', "a", "b", "b", ["--scope", "c"], "c"),
    "model": ('"m1"', "m1", "m2", "m2", ["--model", "m3"], "m3"),
    "exclude": ('["*.gen.py"]', ("*.gen.py",), "x/** y/", ("x/**", "y/"),
                ["--exclude", "z"], ("z",)),
    "max_file_size": ("10", 10, "20", 20, ["--max-file-size", "30"], 30),
    "parse_timeout": ("1.5", 1.5, "2.5", 2.5, ["--parse-timeout", "3.5"], 3.5),
    "index": ('"idx/a.db"', "CONFIG_DIR/idx/a.db", "/tmp/b.db", Path("/tmp/b.db"),
              ["--index", "/tmp/c.db"], Path("/tmp/c.db")),
    "jobs": ("1", 1, "2", 2, ["--jobs", "3"], 3),
    "parse_cache": ('"pc"', "CONFIG_DIR/pc", "/tmp/pc2", "/tmp/pc2",
                    ["--parse-cache", "off"], "off"),
}
FORMATS = {".ctxopt.toml": "{body}", "pyproject.toml": "[project]\nname = 'x'\n\n[tool.ctxopt]\n{body}"}


def test_every_setting_has_a_case() -> None:
    assert set(CASES) == {s.key for s in SETTINGS}


def _effective(setting, args: list[str]) -> tuple[object, ParameterSource]:
    """The value and source click settles on for ``setting`` in its first command."""
    # with the group's settings, as click makes it: a context without its -h would have
    # the subcommand's help option made, and kept, without -h for every later test
    ctx = click.Context(main, info_name="ctxopt", **main.context_settings)
    apply_config(ctx)
    command = setting.commands[0]
    sub = main.commands[command].make_context(command, ["task", *args] if command == "gather"
                                              else list(args), parent=ctx)
    return sub.params[setting.param], sub.get_parameter_source(setting.param)


@pytest.mark.parametrize("name", sorted(FORMATS))
@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.key)
def test_precedence_for_every_setting(setting, name: str, tmp_path: Path, monkeypatch) -> None:
    file_literal, from_file, env_value, from_env, cli_args, from_cli = CASES[setting.key]
    if from_file == "CONFIG_DIR/idx/a.db":
        from_file = tmp_path / "idx" / "a.db"
        from_file.parent.mkdir()  # (an index is never put in a missing directory)
    if from_file == "CONFIG_DIR/pc":
        from_file = str(tmp_path / "pc")
    if setting.key == "scope":  # (a scope is checked against the root: the cwd here)
        for directory in (from_file, from_env, from_cli):
            (tmp_path / directory).mkdir()
    monkeypatch.chdir(tmp_path)
    for other in SETTINGS:
        monkeypatch.delenv(other.envvar, raising=False)
    default, source = _effective(setting, [])
    assert source is ParameterSource.DEFAULT
    (tmp_path / name).write_text(FORMATS[name].format(body=f"{setting.key} = {file_literal}\n"))
    assert _effective(setting, []) == (from_file, ParameterSource.DEFAULT_MAP)
    monkeypatch.setenv(setting.envvar, env_value)
    assert _effective(setting, []) == (from_env, ParameterSource.ENVIRONMENT)
    assert _effective(setting, cli_args) == (from_cli, ParameterSource.COMMANDLINE)
    assert default != from_file


def test_a_file_budget_reaches_gather_and_the_command_line_wins(runner, fixture_repo, tmp_path,
                                                                 monkeypatch) -> None:
    root = fixture_repo("py_storage")
    (tmp_path / ".ctxopt.toml").write_text("budget = 900\nmax_ring = 0\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CTXOPT_BUDGET", raising=False)

    def budget(*args: str) -> int:
        result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root),
                                      "--format", "json", *args], catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)["budget"]

    assert budget() == 900
    assert budget("--budget", "1200") == 1200
    assert budget("--window", "2000") == 2000  # a configured budget gives way to --window
    monkeypatch.setenv("CTXOPT_BUDGET", "1100")
    assert budget() == 1100


def test_the_configuration_is_found_from_root_when_root_is_given(runner, fixture_repo, tmp_path,
                                                                  monkeypatch) -> None:
    root = fixture_repo("py_storage")
    (root / ".git").mkdir()  # its own work tree: the search stops there
    (root / ".ctxopt.toml").write_text("budget = 700\n")
    here = tmp_path / "elsewhere"
    here.mkdir()
    (here / ".ctxopt.toml").write_text("budget = 900\n")
    monkeypatch.chdir(here)
    monkeypatch.delenv("CTXOPT_BUDGET", raising=False)

    def budget(*args: str) -> int:
        result = runner.invoke(main, [*args, "--format", "json"], catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)["budget"]

    assert budget("gather", "fix Storage bug", "--root", str(root)) == 700
    assert budget("gather", "--root", str(root), "fix Storage bug", "--budget", "800") == 800
    (root / ".ctxopt.toml").unlink()  # none in the root's tree: the defaults, not the cwd's file
    default = main.commands["gather"].params[[p.name for p in main.commands["gather"].params
                                             ].index("budget")].default
    assert budget("gather", "fix Storage bug", "--root", str(root)) == default
    monkeypatch.chdir(root)  # without --root the working directory's file is used, as before
    (root / ".ctxopt.toml").write_text("budget = 600\n")
    assert budget("gather", "fix Storage bug") == 600


def test_curve_walks_with_the_configuration_gather_uses(runner, fixture_repo, tmp_path,
                                                        monkeypatch) -> None:
    """curve had a --root of its own, without the configuration, and no setting named it:
    a scope (or ring, tests, exclude...) set in the file was gather's only."""
    root = fixture_repo("py_storage")
    (root / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    arguments = ["curve", "fix Storage bug", "--budgets", "2000", "--format", "json"]
    assert runner.invoke(main, [*arguments, "--root", str(root)]).exit_code == 0
    (root / ".ctxopt.toml").write_text('scope = "nowhere"\n')
    for where in ([*arguments, "--root", str(root)], arguments):
        if where is arguments:
            monkeypatch.chdir(root)  # found from the working directory as well
        result = runner.invoke(main, where)
        assert result.exit_code == 2 and "scope: 'nowhere' does not exist" in result.stderr


def test_a_malformed_configuration_in_root_is_one_error_line(runner, fixture_repo, tmp_path,
                                                             monkeypatch) -> None:
    root = fixture_repo("py_storage")
    (root / ".git").mkdir()
    (root / ".ctxopt.toml").write_text("budget = 'many'\n")
    monkeypatch.chdir(tmp_path)
    for command in (["gather", "x"], ["index"], ["curve", "x"]):
        result = runner.invoke(main, [*command, "--root", str(root)])
        assert result.exit_code == 2
        assert result.stderr.count("\n") == 1 and ".ctxopt.toml:1" in result.stderr


@pytest.mark.parametrize("config_name", sorted(FORMATS))
@pytest.mark.parametrize(("line", "message"), [
    ('index = "/nonexistent/x.db"', "index: directory '/nonexistent' does not exist"),
    ('scope = "nowhere"', "scope: 'nowhere' does not exist under "),
    ('parse_cache = "a.py/cache"', "parse_cache: "),
    ('index = "a.py"', "index: "),  # review 38: a file that is not an index
])
def test_a_value_the_command_rejects_names_the_configuration_file(
        runner, make_repo, monkeypatch, config_name, line, message) -> None:
    # trial 38: the file's index was "Invalid value for '--index'", an option never given
    monkeypatch.delenv("CTXOPT_PARSE_CACHE")  # (the tests' own: it would win over the file)
    root = make_repo({"a.py": "def f():\n    pass\n"})
    (root / config_name).write_text(FORMATS[config_name].format(body=f"budget = 900\n{line}\n"))
    result = runner.invoke(main, ["gather", "fix f", "--root", str(root)])
    assert result.exit_code == 2
    number = FORMATS[config_name].format(body="budget = 900\n").count("\n") + 1
    assert result.stderr.startswith(f"Error: {root / config_name}:{number}: {message}")
    assert result.stderr.count("\n") == 1 and "Invalid value" not in result.stderr


def test_config_command_prints_values_and_sources(runner, tmp_path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.ctxopt]\nbudget = 3000\nexclude = ["gen/"]\n')
    monkeypatch.chdir(tmp_path)
    for setting in SETTINGS:
        monkeypatch.delenv(setting.envvar, raising=False)
    monkeypatch.setenv("CTXOPT_MAX_RING", "2")
    result = runner.invoke(main, ["config"], catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"# configuration file: {tmp_path / 'pyproject.toml'}"
    assert f"budget = 3000\t# file {tmp_path / 'pyproject.toml'}" in lines
    assert f'exclude = ["gen/"]\t# file {tmp_path / "pyproject.toml"}' in lines
    assert "max_ring = 2\t# environment CTXOPT_MAX_RING" in lines
    assert "tests = true\t# default" in lines
    assert len(lines) == 1 + len(SETTINGS)


def test_found_upwards_but_not_above_the_work_tree(tmp_path: Path) -> None:
    (tmp_path / ".ctxopt.toml").write_text("budget = 1\n")
    repo = tmp_path / "repo"
    (repo / "src" / "deep").mkdir(parents=True)
    assert find_config(repo / "src" / "deep") == tmp_path / ".ctxopt.toml"
    (repo / ".git").mkdir()
    assert find_config(repo / "src" / "deep") is None
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no [tool.ctxopt]
    assert find_config(repo / "src") is None
    (repo / "pyproject.toml").write_text("[tool.ctxopt]\nbudget = 2\n")
    assert find_config(repo / "src") == repo / "pyproject.toml"
    (repo / ".ctxopt.toml").write_text("budget = 3\n")
    assert find_config(repo / "src") == repo / ".ctxopt.toml"  # it wins beside pyproject.toml


@pytest.mark.parametrize("name", sorted(FORMATS))
@pytest.mark.parametrize(("body", "line", "message"), [
    ("budget = 100\nmax_ring = [\n", 2, "invalid TOML"),
    ("budget = 100\nbudget = 200\n", 2, "invalid TOML"),
    ('budget = "lots"\n', 1, "budget must be an integer of at least 1, got 'lots'"),
    ("max_ring = 9\n", 1, "max_ring must be an integer from 0 to 4, got 9"),
    ("tests = 1\n", 1, "tests must be true or false, got 1"),
    ('exclude = "gen/"\n', 1, "exclude must be a list of gitignore-style patterns"),
    ('exclude = ["gen/", "[z-a]"]\n', 1, "exclude must be a list of patterns that can match a "
     "path, got ['gen/', '[z-a]']: '[z-a]' can never match a path"),
    ("\nbudgte = 100\n", 2, "unknown setting 'budgte' (did you mean 'budget'?)"),
])
def test_a_malformed_file_is_one_error_line_with_file_and_line(runner, tmp_path, monkeypatch,
                                                               name, body, line, message) -> None:
    path = tmp_path / name
    path.write_text(FORMATS[name].format(body=body))
    offset = FORMATS[name].split("{body}")[0].count("\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["gather", "fix Storage", "--root", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"Error: {path}:{line + offset}:")
    assert message in result.stderr


def test_each_setting_reaches_every_command_with_its_option_and_the_readme_says_so() -> None:
    """snapshot (and curve) took --budget, --max-ring... but no setting named them, so the
    configuration file never reached them, while the README's table said it did."""
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    rows = {m.group(1): set(m.group(2).split(", "))
            for m in re.finditer(r"^\| `(\w+)` \|[^\n]*\| ([a-z, ]+) \|$", readme, re.M)}
    # calibrate --model names the model it calibrates; compact --model is the transcript's
    not_a_default = {"model": {"calibrate", "compact"}}
    for setting in SETTINGS:
        having = {name for name, command in main.commands.items()
                  if setting.param in {p.name for p in command.params}}
        having -= not_a_default.get(setting.key, set())
        assert set(setting.commands) == having, setting.key
        assert rows[setting.key] == having, setting.key


@pytest.mark.parametrize("kind", ["directory", "broken link"])
def test_a_configuration_that_is_not_a_file_is_one_error_line(runner, tmp_path, monkeypatch,
                                                              kind: str) -> None:
    """It was silently ignored: the user's settings did not apply and nothing said so."""
    path = tmp_path / ".ctxopt.toml"
    if kind == "directory":
        path.mkdir()
    else:
        path.symlink_to(tmp_path / "missing.toml")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["gather", "fix Storage", "--root", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"Error: {path}: ")
    assert ("is a directory" if kind == "directory" else "cannot read") in result.stderr
