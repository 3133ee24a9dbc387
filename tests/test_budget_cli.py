"""The command line for issue 5: --window/--reserve, --model, `tokens` and `calibrate`."""
import json
import os
from pathlib import Path

import pytest

from ctxopt.tokens import count_tokens

from ctxopt.budget import Calibrated
from ctxopt.cli import main
from ctxopt.tokens import Cl100kCounter, count_tokens


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch) -> Path:
    """Every test gets its own calibration directory; the user's is never touched."""
    directory = tmp_path / "config"
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(directory))
    return directory


def used_of(text: str) -> int:
    return int(text.splitlines()[1].split("used ")[1].split(";")[0].split(" (")[0])


# -- gather --window / --reserve ------------------------------------------------------

def test_window_minus_reserve_is_the_budget(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--window",
                                  "1000", "--reserve", "600"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1].startswith("# budget 400 tokens, used ")
    assert count_tokens(result.stdout) <= 400


def test_window_alone_is_the_budget(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--window",
                                  "700"], catch_exceptions=False)
    assert result.stdout.splitlines()[1].startswith("# budget 700 tokens, used ")


@pytest.mark.parametrize(("args", "message"), [
    (["--budget", "500", "--window", "1000"], "--budget and --window are alternatives"),
    (["--budget", "12000", "--window", "1000"], "--budget and --window are alternatives"),
    (["--reserve", "100"], "--reserve needs --window"),
    (["--window", "1000", "--reserve", "1000"], "the reserve (1000) must be less than the window"),
    (["--window", "1000", "--reserve", "-1"], "the reserve cannot be negative"),
    (["--window", "0"], "the window must be a positive number of tokens"),
    (["--window", "many"], "'many' is not a valid integer"),
    (["--model", "  "], "the model name is empty"),
])
def test_bad_budget_options_exit_2(runner, fixture_repo, tmp_path, args, message) -> None:
    target = tmp_path / "context.md"
    command = ["gather", "fix Storage bug", "--root", str(fixture_repo("py_storage")),
               "-o", str(target)]
    assert runner.invoke(main, command).exit_code == 0  # an output -o may replace
    before = target.read_text()
    result = runner.invoke(main, [*command, *args])
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == "" and target.read_text() == before


# -- calibrate and --model ------------------------------------------------------------

def test_calibrate_stores_the_factor(runner, config_dir: Path) -> None:
    # trial 38: the first measurement stored 1.054 for a model counting 1.18 times as
    # many tokens, and output fitted to its budget went over it
    result = runner.invoke(main, ["calibrate", "--model", "claude", "--estimated", "1000",
                                  "--actual", "1180"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.startswith("claude: factor 1.1800 (was 1.0000)")
    stored = json.loads((config_dir / "calibration.json").read_text())
    assert stored["models"]["claude"] == {"factor": pytest.approx(1.18), "observations": 1}
    # the second measurement moves the stored factor 30% of the way
    runner.invoke(main, ["calibrate", "--model", "claude", "--estimated", "1180", "--actual", "1500"])
    stored = json.loads((config_dir / "calibration.json").read_text())
    assert stored["models"]["claude"] == {"factor": pytest.approx(0.7 * 1.18 + 0.3 * 1.5),
                                          "observations": 2}


def test_calibrate_moves_a_factor_of_an_entry_without_a_count(runner, config_dir: Path) -> None:
    # an entry with no "observations" (written by hand, or by an older ctxopt) was measured
    config_dir.mkdir()
    (config_dir / "calibration.json").write_text(
        '{"version": 1, "models": {"m": {"factor": 1.2}}}')
    result = runner.invoke(main, ["calibrate", "--model", "m", "--estimated", "120",
                                  "--actual", "150"], catch_exceptions=False)
    assert result.stdout.startswith("m: factor 1.2900 (was 1.2000)")
    stored = json.loads((config_dir / "calibration.json").read_text())
    assert stored["models"]["m"] == {"factor": pytest.approx(1.29), "observations": 2}


def test_calibrate_outlier_does_not_dominate(runner, config_dir: Path) -> None:
    runner.invoke(main, ["calibrate", "--model", "m", "--estimated", "100", "--actual", "100"])
    result = runner.invoke(main, ["calibrate", "--model", "m", "--estimated", "100",
                                  "--actual", "100000"], catch_exceptions=False)
    assert result.stdout.startswith("m: factor 1.3000 (was 1.0000)")


def test_calibrate_clamps_a_first_outlier(runner, config_dir: Path) -> None:
    result = runner.invoke(main, ["calibrate", "--model", "m", "--estimated", "100",
                                  "--actual", "100000"], catch_exceptions=False)
    assert result.stdout.startswith("m: factor 2.0000 (was 1.0000)")


def test_calibrate_replaces_a_corrupt_file_and_keeps_it(runner, config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "calibration.json").write_text("{not json")
    result = runner.invoke(main, ["calibrate", "--model", "m", "--estimated", "100",
                                  "--actual", "80"], catch_exceptions=False)
    assert result.exit_code == 0
    assert "calibration.json is corrupt" in result.stderr and "Traceback" not in result.stderr
    assert (config_dir / "calibration.json.corrupt").read_text() == "{not json"
    assert json.loads((config_dir / "calibration.json").read_text())["models"]["m"]["factor"] == \
        pytest.approx(0.8)


@pytest.mark.parametrize(("args", "message"), [
    (["--model", "m", "--estimated", "0", "--actual", "5"], "0 is not in the range x>=1"),
    (["--model", "m", "--estimated", "5", "--actual", "-5"], "-5 is not in the range x>=1"),
    (["--model", "m", "--estimated", "5"], "Missing option '--actual'"),
    (["--model", " ", "--estimated", "5", "--actual", "5"], "the model name is empty"),
])
def test_calibrate_bad_input_exits_2(runner, config_dir: Path, args, message) -> None:
    result = runner.invoke(main, ["calibrate", *args])
    assert result.exit_code == 2 and message in result.stderr
    assert not (config_dir / "calibration.json").exists()


def test_calibrate_unwritable_directory_exits_1(runner, tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(blocker / "config"))
    result = runner.invoke(main, ["calibrate", "--model", "m", "--estimated", "5", "--actual", "5"])
    assert result.exit_code == 1 and result.stderr.startswith("Error: cannot write ")


def calibrate(runner, model: str, estimated: int, actual: int) -> None:
    result = runner.invoke(main, ["calibrate", "--model", model, "--estimated", str(estimated),
                                  "--actual", str(actual)], catch_exceptions=False)
    assert result.exit_code == 0


@pytest.mark.parametrize("budget", [150, 300, 500, 800])
def test_gather_with_model_keeps_the_calibrated_count_within_budget(runner, fixture_repo,
                                                                      budget) -> None:
    calibrate(runner, "big", 100, 115)  # factor 1.15
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--budget",
                                  str(budget), "--max-ring", "4", "--model", "big"],
                           catch_exceptions=False)
    assert result.exit_code == 0 and result.stderr == ""
    calibrated = Calibrated(Cl100kCounter(), factor=_stored_factor())
    assert calibrated.count(result.stdout) <= budget
    assert used_of(result.stdout) == calibrated.count(result.stdout)
    assert count_tokens(result.stdout) < calibrated.count(result.stdout)
    assert f"# budget {budget} tokens, used {used_of(result.stdout)} (calibrated for big); " in (
        result.stdout)


def _stored_factor() -> float:
    path = Path(os.environ["CTXOPT_CONFIG_DIR"]) / "calibration.json"
    return json.loads(path.read_text())["models"]["big"]["factor"]


def test_gather_with_a_larger_factor_keeps_less(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    args = ["gather", "fix Storage bug", "--root", str(root), "--budget", "400"]
    plain = runner.invoke(main, args, catch_exceptions=False).stdout
    calibrate(runner, "big", 100, 200)
    scaled = runner.invoke(main, [*args, "--model", "big"], catch_exceptions=False).stdout
    # counted with a factor above 1, the same budget holds fewer real tokens
    assert count_tokens(plain) > 350 and count_tokens(scaled) < 0.9 * count_tokens(plain)


def test_gather_with_an_unknown_model_says_so_and_counts_plainly(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    args = ["gather", "fix Storage bug", "--root", str(root), "--budget", "400"]
    plain = runner.invoke(main, args, catch_exceptions=False)
    result = runner.invoke(main, [*args, "--model", "nobody"], catch_exceptions=False)
    assert result.exit_code == 0 and result.stdout == plain.stdout
    assert "no calibration stored for model 'nobody'" in result.stderr


def test_gather_with_a_corrupt_calibration_file_reports_and_goes_on(runner, fixture_repo,
                                                                     config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "calibration.json").write_text('{"version": 1, "models": {"m": {"factor": 7}}}')
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root",
                                  str(fixture_repo("py_storage")), "--model", "m"],
                           catch_exceptions=False)
    assert result.exit_code == 0 and "is corrupt" in result.stderr
    assert "counting without calibration" in result.stderr
    assert (config_dir / "calibration.json").read_text().endswith('{"factor": 7}}}')


# -- tokens ---------------------------------------------------------------------------

def test_tokens_of_one_file(runner, tmp_path: Path) -> None:
    text = "def hello(name):\n    return f'hello {name}'\n"
    (tmp_path / "a.py").write_text(text)
    result = runner.invoke(main, ["tokens", str(tmp_path / "a.py")], catch_exceptions=False)
    assert result.exit_code == 0 and result.stdout == f"{count_tokens(text)}\n"


def test_tokens_of_standard_input(runner) -> None:
    text = "hello world, hello tokens\n"
    for args in ([], ["-"]):
        result = runner.invoke(main, ["tokens", *args], input=text, catch_exceptions=False)
        assert result.stdout == f"{count_tokens(text)}\n"


def test_tokens_of_several_files_with_a_total(runner, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one two three")
    (tmp_path / "b.txt").write_text("four five six seven")
    a, b = count_tokens("one two three"), count_tokens("four five six seven")
    result = runner.invoke(main, ["tokens", str(tmp_path / "a.txt"), str(tmp_path / "b.txt")],
                           catch_exceptions=False)
    assert result.stdout == (f"{a}\t{tmp_path / 'a.txt'}\n{b}\t{tmp_path / 'b.txt'}\n"
                             f"{a + b}\ttotal\n")


def test_tokens_estimate(runner) -> None:
    result = runner.invoke(main, ["tokens", "--estimate"], input="x" * 41, catch_exceptions=False)
    assert result.stdout == "11\n"


def test_tokens_with_model(runner) -> None:
    calibrate(runner, "half", 100, 85)  # factor 0.85
    result = runner.invoke(main, ["tokens", "--model", "half"], input="word " * 100,
                           catch_exceptions=False)
    assert result.stdout == f"{-(-count_tokens('word ' * 100) * 85 // 100)}\n"


@pytest.mark.parametrize("name", ["missing.txt", "a-directory"])
def test_tokens_unreadable_path_exits_2(runner, tmp_path: Path, name: str) -> None:
    (tmp_path / "a-directory").mkdir()
    (tmp_path / "ok.txt").write_text("fine")
    result = runner.invoke(main, ["tokens", str(tmp_path / "ok.txt"), str(tmp_path / name)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"Error: cannot read '{tmp_path / name}'")
    assert len(result.stderr.splitlines()) == 1


def test_a_binary_file_is_not_counted_and_says_why(runner, tmp_path: Path) -> None:
    # trial: `ctxopt tokens logo.png` printed a count of its bytes decoded as U+FFFD, no note
    (tmp_path / "ok.txt").write_text("fine")
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\x00")
    line = f"ctxopt: no count for {tmp_path / 'logo.png'}: binary\n"
    alone = runner.invoke(main, ["tokens", str(tmp_path / "logo.png")])
    assert (alone.exit_code, alone.stdout, alone.stderr) == (1, "", line)  # nothing counted
    piped = runner.invoke(main, ["tokens", "-"], input=b"\x00")
    assert (piped.exit_code, piped.stdout, piped.stderr) == (1, "", "ctxopt: no count for -: binary\n")
    both = runner.invoke(main, ["tokens", str(tmp_path / "ok.txt"), str(tmp_path / "logo.png")])
    fine = count_tokens("fine")
    assert (both.exit_code, both.stderr) == (0, line)
    assert both.stdout == f"{fine}\t{tmp_path / 'ok.txt'}\n{fine}\ttotal\n"


def test_a_utf16_file_is_counted_as_its_text(runner, tmp_path: Path) -> None:
    # the index's decoding: a BOM is text, not NUL bytes decoded as UTF-8
    (tmp_path / "notes.txt").write_bytes("hello world\n".encode("utf-16"))
    result = runner.invoke(main, ["tokens", str(tmp_path / "notes.txt")])
    assert (result.exit_code, result.stdout) == (0, f"{count_tokens('hello world' + chr(10))}\n")


def test_tokens_escapes_odd_paths(make_repo) -> None:
    # trial: `ctxopt tokens` printed raw undecodable bytes and newlines in paths
    import os
    import subprocess
    import sys
    root = make_repo({"ok.txt": "hello"})
    (root / os.fsdecode(b"bad\xff.txt")).write_text("hello")
    (root / "new\nline.txt").write_text("hello")
    out = subprocess.run([sys.executable, "-m", "ctxopt", "tokens", os.fsdecode(b"bad\xff.txt"),
                          "new\nline.txt"], cwd=root, check=True, capture_output=True).stdout
    assert out.decode("utf-8").splitlines() == ["1\tbad\\xff.txt", "1\tnew\\x0aline.txt", "2\ttotal"]


@pytest.mark.parametrize(("data", "reason"), [(b"\x00\xff\xfe" * 50, "binary"),
                                              (b"caf\xe9 = 1\n", "not UTF-8 text")])
@pytest.mark.parametrize("command", [["compact", "--window", "1000"], ["tokens", "--messages"],
                                     ["diff", "OTHER"]])
def test_a_file_that_is_not_utf8_text_gives_one_plain_line(runner, tmp_path: Path, data, reason,
                                                            command) -> None:
    # trial 12: `ctxopt compact rnd.bin` said "'utf-8' codec can't decode byte 0xb8 in
    # position 2: invalid start byte"
    bad = tmp_path / "bad.bin"
    bad.write_bytes(data)
    args = [arg if arg != "OTHER" else str(bad) for arg in command]
    result = runner.invoke(main, [args[0], str(bad), *args[1:]])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"Error: cannot read '{bad}': {reason}")
    assert len(result.stderr.splitlines()) == 1
