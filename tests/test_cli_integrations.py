"""Small things users expect: --version, --quiet, --exclude, colour and NO_COLOR, shell
completion."""
import json
import os
import subprocess
import sys
from importlib import metadata

import pytest

from ctxopt.cli import main


def test_version_names_tree_sitter_and_the_grammar_pack(runner) -> None:
    result = runner.invoke(main, ["--version"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.startswith("ctxopt 0.1.0 (")
    assert f"tree-sitter {metadata.version('tree-sitter')}," in result.stdout
    assert f"tree-sitter-language-pack {metadata.version('tree-sitter-language-pack')}," in result.stdout


def test_quiet_silences_diagnostics_but_not_errors(runner, make_repo) -> None:
    root = make_repo({"app.py": "class Storage:\n    pass\n", "bad.py": "x = 1\n" + "y" * 12000 + "\n"})
    loud = runner.invoke(main, ["gather", "fix Storage", "--root", str(root), "--model", "nope"])
    assert "no calibration stored for model 'nope'" in loud.stderr
    assert "skipped or degraded files" in loud.stderr
    quiet = runner.invoke(main, ["--quiet", "gather", "fix Storage", "--root", str(root),
                                 "--model", "nope"])
    assert quiet.exit_code == 0 and quiet.stderr == "" and quiet.stdout == loud.stdout
    error = runner.invoke(main, ["-q", "gather", "fix Storage", "--root", str(root), "--budget", "1"])
    assert error.exit_code == 2 and error.stderr.startswith("Error: budget of 1 token is too small")


def test_exclude_keeps_files_out_of_the_index(runner, make_repo, tmp_path) -> None:
    root = make_repo({"app.py": "class Storage:\n    pass\n",
                      "gen/storage_pb2.py": "class StorageStub:\n    pass\n"})

    def files(*args: str) -> set[str]:
        result = runner.invoke(main, ["gather", "fix Storage StorageStub", "--root", str(root),
                                      "--format", "json", "--index", str(tmp_path / "i.db"), *args],
                               catch_exceptions=False)
        return {b["file"] for b in json.loads(result.stdout)["blocks"]}

    assert files() == {"app.py", "gen/storage_pb2.py"}
    assert files("--exclude", "gen/") == {"app.py"}
    assert files("--exclude", "*_pb2.py", "--exclude", "nothing") == {"app.py"}


def _diff_with_changes(runner, tmp_path) -> list[str]:
    header = "# ctxopt manifest 2\nfile\tsymbol\thash\tlines\tkind\ttokens\treason\n"
    (tmp_path / "old.tsv").write_text(header + "a.py\tf\t000000000000\t1-2\tfull\t5\tr\n")
    (tmp_path / "new.tsv").write_text(header + "a.py\tf\t111111111111\t1-2\tfull\t6\tr\n")
    return ["diff", str(tmp_path / "old.tsv"), str(tmp_path / "new.tsv")]


def test_colour_only_when_asked_for_a_terminal_and_never_with_no_color(runner, tmp_path,
                                                                        monkeypatch) -> None:
    args = _diff_with_changes(runner, tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[" not in runner.invoke(main, args).stdout  # not a terminal
    assert "\x1b[33mchanged\x1b[0m" in runner.invoke(main, args, color=True).stdout
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in runner.invoke(main, args, color=True).stdout


@pytest.mark.parametrize(("shell", "marker"), [
    ("bash", "complete -o nosort -F _ctxopt_completion ctxopt"),
    ("zsh", "compdef _ctxopt_completion ctxopt"),
    ("fish", "complete --no-files --command ctxopt"),
])
def test_shell_completion_scripts(shell: str, marker: str) -> None:
    script = subprocess.run([sys.executable, "-c", "from ctxopt.cli import main; main(prog_name=\"ctxopt\")"],
                            env={**os.environ, "_CTXOPT_COMPLETE": f"{shell}_source"},
                            capture_output=True, text=True, check=True).stdout
    assert marker in script
