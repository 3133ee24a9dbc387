"""The command line: formats, exit codes, the budget guarantee, determinism."""
import json
import re
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ctxopt.cli import main
from ctxopt.files.text import display_text
from ctxopt.render import TASK_CHARS, task_line
from ctxopt.tokens import count_tokens


def gather(runner, *args):
    return runner.invoke(main, ["gather", *args])


def test_text_output(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root)],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "# ctxopt context for: fix Storage bug"
    assert lines[1].startswith("# budget 12000 tokens, used ")
    used = int(lines[1].split("used ")[1].split(";")[0])
    assert used == count_tokens(result.stdout)
    assert lines[2].startswith("# top symbols: Storage, ")
    # one fence per file, each block opened by the lines it shows
    assert "\n## storage/db.py\n```python\n# lines " in result.stdout
    assert result.stdout.count("## storage/db.py") == 1


def test_json_output_schema(runner, fixture_repo) -> None:
    root = fixture_repo("go_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root),
                                  "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["schema_version"] == 3
    assert (document["task"], document["intent"], document["budget"]) == ("fix Storage bug", "fix", 12000)
    assert set(document["summary"]) == {"file_count", "symbol_count", "symbols", "truncated", "signatures", "excluded"}
    first = document["blocks"][0]
    assert set(first) == {"file", "start_line", "end_line", "language", "content", "tokens",
                          "score", "ring", "reason", "symbols", "kind", "part_of", "lines"}
    assert (first["file"], first["language"], first["ring"], first["kind"]) == ("storage/db.go", "go", 0, "full")
    lines = (root / first["file"]).read_text().splitlines()
    assert first["content"] == "\n".join(lines[first["start_line"] - 1:first["end_line"]])
    text = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root)]).stdout
    assert document["used"] == count_tokens(text)
    # the text a model is handed, exactly (benchmarks count their tokens on it)
    assert document["text"] == text


def test_manifest_has_no_source(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root),
                                  "--format", "manifest"], catch_exceptions=False)
    assert result.exit_code == 0
    rows = [line.split("\t") for line in result.stdout.splitlines() if not line.startswith("#")]
    assert rows[0] == ["file", "symbol", "hash", "lines", "kind", "tokens", "reason"]
    assert rows[1][:2] == ["storage/db.py", "Storage"] and rows[1][4] == "full"
    assert rows[1][6].startswith("definition of Storage")
    assert "def " not in result.stdout
    assert "def get" not in result.stdout


@pytest.mark.parametrize("budget", [90, 100, 150, 250, 400, 800, 2000, 12000])
@pytest.mark.parametrize("fixture", ["py_storage", "go_storage"])
def test_text_never_exceeds_the_budget(runner, fixture_repo, fixture: str, budget: int) -> None:
    root = fixture_repo(fixture)
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root),
                                  "--budget", str(budget), "--max-ring", "4"], catch_exceptions=False)
    assert result.exit_code == 0
    assert count_tokens(result.stdout) <= budget


def test_budget_that_holds_the_header_but_no_block_exits_2_issue_5(runner, fixture_repo) -> None:
    # Budgets from the header check (37) to about 95 used to print the header alone, exit 0.
    result = gather(runner, "fix Storage bug", "--root", str(fixture_repo("py_storage")),
                    "--budget", "60")
    assert result.exit_code == 2 and result.stdout == ""
    match = re.fullmatch(r"Error: budget of 60 tokens is too small: the header takes (\d+) "
                         r"tokens and the smallest block needs (\d+) \(at least (\d+) tokens "
                         r"needed\)\n", result.stderr)
    assert match and int(match.group(1)) <= 60 < int(match.group(1)) + int(match.group(2))
    assert int(match.group(3)) == int(match.group(1)) + int(match.group(2))


@pytest.mark.parametrize("fixture", ["py_storage", "go_storage"])
def test_small_budgets_show_a_block_or_exit_2_never_the_header_alone_issue_5(fixture, build_index) -> None:
    from ctxopt.errors import BudgetTooSmall, BudgetTooSmallForContent
    from ctxopt.pipeline import GatherConfig, gather as gather_library
    from ctxopt.render import render_text
    root = Path(__file__).resolve().parent.parent / "fixtures" / fixture
    index = build_index(root)
    shown = []
    for budget in range(30, 111):
        try:
            result = gather_library(root, "fix Storage bug", GatherConfig(budget=budget),
                                    index=index)
        except BudgetTooSmallForContent as exc:
            assert exc.header + exc.smallest_block > budget
            continue
        except BudgetTooSmall:
            continue
        assert result.selection.blocks, f"budget {budget}: header alone"
        assert count_tokens(render_text(result, count_tokens)) <= budget
        shown.append(budget)
    # from the first budget that shows a block on, every larger one does too
    assert shown and shown == list(range(shown[0], 111)) and shown[0] < 90


def test_small_budget_truncates_the_definition(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--budget", "200",
                                  "--format", "json"], catch_exceptions=False)
    document = json.loads(result.stdout)
    assert document["blocks"][0]["kind"] == "truncated"
    assert "lines below omitted" in document["blocks"][0]["content"]
    assert document["summary"]["truncated"] >= 1 and document["summary"]["excluded"] >= 1


def test_output_file(runner, fixture_repo, tmp_path: Path) -> None:
    root = fixture_repo("py_storage")
    target = tmp_path / "context.md"
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "-o", str(target)],
                           catch_exceptions=False)
    assert result.exit_code == 0 and result.stdout == ""
    assert target.read_text(encoding="utf-8").startswith("# ctxopt context for: fix Storage bug")


def test_failed_run_leaves_an_existing_output_file_alone(runner, fixture_repo, tmp_path: Path) -> None:
    target = tmp_path / "context.md"
    target.write_text("precious")
    result = runner.invoke(main, ["gather", "", "--root", str(fixture_repo("py_storage")), "-o", str(target)])
    assert result.exit_code == 2 and target.read_text() == "precious"


def test_nothing_found_exits_1(runner, fixture_repo) -> None:
    result = gather(runner, "zzz qqq", "--root", str(fixture_repo("py_storage")))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("ctxopt: nothing relevant found for 'zzz qqq'")


def test_nothing_found_in_a_cut_task_says_what_was_searched(runner, fixture_repo) -> None:
    # trial 7: the task's names lay past the characters read, and the line did not say so
    from ctxopt.task import MAX_TASK_CHARS
    task = "x" * (MAX_TASK_CHARS + 10) + " fix Storage.get"
    result = gather(runner, task, "--root", str(fixture_repo("py_storage")))
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
    assert result.stderr.rstrip().endswith(
        f"task cut: searched the first {MAX_TASK_CHARS:,} of {len(task):,} characters)")


def test_a_task_of_binary_junk_gives_one_short_line(runner, fixture_repo, tmp_path) -> None:
    # trial: 20 KB of random bytes as the task printed a 640-character line (the task was
    # cut to 200 characters before each control character and byte became a 4-character \xHH)
    # A file of such bytes is binary, not a task (exit 2); on the command line, where no
    # NUL can be, they are a task that matches nothing
    data = bytes((i * 131 + 7) % 256 for i in range(20000))
    junk = tmp_path / "junk.bin"
    junk.write_bytes(data)
    root = fixture_repo("py_storage")
    result = gather(runner, "--task-file", str(junk), "--root", str(root))
    assert result.exit_code == 2 and result.stdout == ""
    line, = result.stderr.splitlines()
    assert len(line) < 200 and "is binary" in line
    argument = data.replace(b"\0", b"").decode("utf-8", "surrogateescape")
    result = gather(runner, argument, "--root", str(root))
    assert result.exit_code == 1 and result.stdout == ""
    line, = result.stderr.splitlines()
    task = line.split("'", 1)[1].rsplit("' under ", 1)[0]
    assert len(task) <= TASK_CHARS and task.endswith("…") and "\\x" in task


@pytest.mark.parametrize("text", ["\x01" * 300, "a" * 198 + "\x01" * 5, "é\udcff" * 150])
def test_the_task_line_is_cut_after_escaping_and_never_inside_an_escape(text: str) -> None:
    line = task_line(text)
    assert len(line) <= TASK_CHARS and line.endswith("…")
    assert display_text(line) == line  # nothing left to escape
    assert re.fullmatch(r"(?:[^\\]|\\x[0-9a-f]{2}|\\u[0-9a-f]{4})*…", line), line


def test_nothing_indexed_says_why(runner, make_repo) -> None:
    # trial: a root of binary files only gave "nothing relevant found" and no hint
    root = make_repo({"a.png": PNG, "b.png": PNG})
    result = gather(runner, "fix Storage bug", "--root", str(root))
    assert result.exit_code == 1
    assert result.stderr == (f"ctxopt: nothing relevant found for 'fix Storage bug' under {root} "
                             "(no source files indexed: 2 binary)\n")


@pytest.mark.parametrize("had_it", [False, True])
def test_a_run_that_indexes_nothing_leaves_no_index_directory_it_made(
        runner, tmp_path, had_it) -> None:
    # trial 37: a gather in an empty directory exited 1 and left a `.ctxopt/` behind
    if had_it:
        (tmp_path / ".ctxopt").mkdir()
    result = gather(runner, "fix Storage bug", "--root", str(tmp_path))
    assert result.exit_code == 1 and "no source files indexed" in result.stderr
    assert (tmp_path / ".ctxopt").exists() == had_it


def test_long_task_is_cut_in_the_header_and_whole_in_json(runner, fixture_repo) -> None:
    # trial: a 5000-word task needed a 20034-token header and exited 2
    task = "fix Storage bug " + "please " * 5000
    root = str(fixture_repo("py_storage"))
    result = gather(runner, task, "--root", root, "--budget", "300")
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("# ctxopt context for: fix Storage bug please")
    assert first.endswith("…") and len(first) <= len("# ctxopt context for: ") + 200
    document = json.loads(gather(runner, task, "--root", root, "--format", "json").stdout)
    assert document["task"] == task


@pytest.mark.parametrize(("args", "message"), [
    (["fix Storage", "--root", "{missing}"], "does not exist"),
    (["fix Storage", "--budget", "0"], "0 is not in the range x>=1"),
    (["fix Storage", "--budget", "ten"], "'ten' is not a valid integer"),
    (["fix Storage", "--budget", "800k"], "'800k' is not a valid integer"),
    (["fix Storage", "--budget", "12000.5"], "'12000.5' is not a valid integer"),
    (["fix Storage", "--budget", "5"], "is too small: the header takes"),
    (["   ", ], "the task is empty"),
    (["fix Storage", "--max-ring", "5"], "5 is not in the range 0<=x<=4"),
    (["fix Storage", "--format", "xml"], "'xml' is not one of"),
    (["fix Storage", "--scope", "../outside"], "is outside the root"),
    (["fix Storage", "--scope", "nope"], "does not exist"),
])
def test_bad_input_exits_2_with_one_line(runner, fixture_repo, tmp_path, args, message) -> None:
    root = fixture_repo("py_storage")
    args = [a.replace("{missing}", str(tmp_path / "missing")) for a in args]
    if "--root" not in args:
        args += ["--root", str(root)]
    result = gather(runner, *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_scope_keeps_only_items_under_it(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--scope", "app",
                                  "--format", "json"], catch_exceptions=False)
    files = {b["file"] for b in json.loads(result.stdout)["blocks"]}
    assert files == {"app/service.py"}


def test_no_tests(runner, fixture_repo) -> None:
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--no-tests",
                                  "--format", "manifest"], catch_exceptions=False)
    assert "tests/" not in result.stdout and "storage/db.py" in result.stdout


def test_output_is_identical_across_hash_seeds(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-m", "ctxopt", "gather", "fix Storage bug", "--root",
                               str(root), "--format", "json", "--max-ring", "4"],
                              capture_output=True, env=env, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_library_use_without_click(fixture_repo) -> None:
    code = ("import sys, ctxopt; r = ctxopt.gather(sys.argv[1], 'fix Storage bug');"
            "print(ctxopt.render_text(r, ctxopt.count_tokens)[:9]); print('click' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(fixture_repo("py_storage"))],
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["#", "ctxopt", "False"]


# -- -o: the output file ------------------------------------------------------------

def test_output_into_a_missing_directory_exits_2_before_any_work(runner, fixture_repo, tmp_path,
                                                                  monkeypatch) -> None:
    def no_work(*args, **kwargs):
        raise AssertionError("gather ran although the output cannot be written")

    monkeypatch.setattr("ctxopt.cli.prepare", no_work)
    target = tmp_path / "missing" / "context.md"
    result = gather(runner, "fix Storage bug", "--root", str(fixture_repo("py_storage")),
                    "-o", str(target))
    assert result.exit_code == 2
    assert result.stderr == (f"Error: cannot write {str(target)!r}: directory "
                             f"{str(target.parent)!r} does not exist\n")
    assert not target.parent.exists()


def test_a_file_no_one_may_write_is_read_only_to_root_too(runner, fixture_repo, tmp_path,
                                                          monkeypatch) -> None:
    # trial 10: as root, -o replaced a 0444 file (os.access lets root write anything)
    target = tmp_path / "context.md"
    target.write_text("mine")
    target.chmod(0o444)
    monkeypatch.setattr("ctxopt.cli.prepare", lambda *a, **k: pytest.fail("gather ran"))
    result = gather(runner, "fix Storage bug", "--root", str(fixture_repo("py_storage")),
                    "-o", str(target))
    assert (result.exit_code, result.stderr) == (
        2, f"Error: cannot write {str(target)!r}: Permission denied\n")
    assert target.read_text() == "mine"


@pytest.mark.parametrize("blocked, why", [
    ("directory", "directory {parent!r} is not writable"),
    # trial: a read-only file was replaced (the write goes through a new file beside it)
    ("file", "Permission denied"),
])
def test_an_unwritable_output_exits_2_before_any_work_and_keeps_the_file(
        runner, fixture_repo, tmp_path, monkeypatch, blocked, why) -> None:
    # README: -o that cannot be written is bad input, found before any work, as a missing
    # directory is; only a write that fails once the output is made exits 1
    target = tmp_path / "context.md"
    target.write_text("mine")
    denied = target.parent if blocked == "directory" else target
    real_access = os.access
    # (the suite may run as root, whom modes do not stop)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if Path(path) == denied
                        and mode & os.W_OK else real_access(path, mode, **kw))
    monkeypatch.setattr("ctxopt.cli.prepare", lambda *a, **k: pytest.fail("gather ran"))
    result = gather(runner, "fix Storage bug", "--root", str(fixture_repo("py_storage")),
                    "-o", str(target))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"Error: cannot write {str(target)!r}: "
                             f"{why.format(parent=str(target.parent))}\n")
    assert target.read_text() == "mine"


def test_output_keeps_the_mode_of_an_existing_file(runner, fixture_repo, tmp_path) -> None:
    target = tmp_path / "context.md"
    target.write_text("")  # (empty: a file not ctxopt's that holds text is refused)
    target.chmod(0o640)
    result = gather(runner, "fix Storage bug", "--root", str(fixture_repo("py_storage")),
                    "-o", str(target))
    assert result.exit_code == 0
    assert target.read_text().startswith("# ctxopt context for")
    assert target.stat().st_mode & 0o777 == 0o640


def test_a_new_output_file_follows_the_umask(runner, fixture_repo, tmp_path) -> None:
    target = tmp_path / "context.md"
    previous = os.umask(0o027)
    try:
        result = gather(runner, "fix Storage bug", "--root", str(fixture_repo("py_storage")),
                        "-o", str(target))
    finally:
        os.umask(previous)
    assert result.exit_code == 0
    assert target.stat().st_mode & 0o777 == 0o640  # 0666 & ~027, not mkstemp's 0600


def test_output_through_a_link_writes_its_target_and_keeps_the_link(runner, fixture_repo,
                                                                     tmp_path) -> None:
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "context.md"
    real.write_text("")
    link = tmp_path / "context.md"
    link.symlink_to(Path("real") / "context.md")
    result = gather(runner, "fix Storage bug", "--root", str(fixture_repo("py_storage")),
                    "-o", str(link))
    assert result.exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / "context.md")
    assert real.read_text().startswith("# ctxopt context for")
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["context.md"]  # no temp left


def test_output_dash_is_standard_output(runner, fixture_repo) -> None:
    assert not (Path.cwd() / "-").exists()
    result = gather(runner, "fix Storage bug", "--root", str(fixture_repo("py_storage")),
                    "-o", "-")
    assert result.exit_code == 0
    assert result.stdout.startswith("# ctxopt context for: fix Storage bug")
    assert not (Path.cwd() / "-").exists()  # not a file named "-"


def test_truncated_content_is_file_lines_between_markers_that_count_right_issue_6(
        runner, fixture_repo) -> None:
    import re
    root = fixture_repo("py_storage")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--budget",
                                  "120", "--format", "json"], catch_exceptions=False)
    document = json.loads(result.stdout)
    shown = document["blocks"][0]
    (original,) = [d for d in document["truncated"] if d["file"] == shown["file"]]
    assert shown["kind"] == "truncated" and original["start_line"] < shown["start_line"]
    lines = shown["content"].split("\n")
    above = shown["start_line"] - original["start_line"]
    below = original["end_line"] - shown["end_line"]
    # the cut starts at the definition (the file is small: its block is the whole file)
    assert original["start_line"] == 1 and lines[:2] == [f"⋮ {above} lines above omitted",
                                                         "class Storage:"]
    assert lines[-1] == f"⋮ {below} lines below omitted"
    source = (root / shown["file"]).read_text().splitlines()
    # every other line is the file's next line, or a "⋮ N lines" marker for N of them
    at = shown["start_line"] - 1
    for line in lines[1:-1]:
        gap = re.fullmatch(r"\s*⋮ (\d+) lines?", line)
        if gap:
            at += int(gap.group(1))
        else:
            assert line == source[at]
            at += 1
    assert at == shown["end_line"]


def _refuse_reading(monkeypatch, name: str) -> None:
    """Make every open of a file whose path ends with ``name`` fail as mode 000 would:
    tests run as root, where mode 000 does not stop reads."""
    import builtins
    import errno
    import io
    real_open = io.open

    def refusing_open(file, *args, **kwargs):
        if str(file).endswith(name):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", refusing_open)
    monkeypatch.setattr(builtins, "open", refusing_open)


def test_unreadable_file_is_reported_as_unreadable_not_binary_issue_7(runner, make_repo,
                                                                      monkeypatch) -> None:
    root = make_repo({"db.py": "class Storage:\n    pass\n", "locked.py": "x = 1\n"})
    _refuse_reading(monkeypatch, "locked.py")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), "--format",
                                  "json"], catch_exceptions=False)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["diagnostics"] == [
        {"file": "locked.py", "reason": "unreadable", "detail": "Permission denied"}]


def test_a_file_made_unreadable_after_it_was_indexed_is_said_as_on_a_fresh_index(
        runner, make_repo, monkeypatch) -> None:
    # trial 39: chmod 000 chain.go after indexing kept its size and mtime, so the warm
    # gather read the index's copy as current, could not read the file, showed other
    # code and said nothing. (As root, mode 000 does not stop reads: refuse them here.)
    root = make_repo({"chain.go": "package chi\n\nfunc Chain() int {\n\treturn 1\n}\n",
                      "mux.go": "package chi\n\nfunc Mux() int {\n\treturn Chain()\n}\n"})
    os.utime(root / "chain.go", (1_700_000_000, 1_700_000_000))  # (unchanged, not racy)
    assert runner.invoke(main, ["index", "--root", str(root)]).exit_code == 0
    real_access = os.access
    _refuse_reading(monkeypatch, "chain.go")
    monkeypatch.setattr(os, "access", lambda path, mode, **kwargs: not str(path).endswith(
        "chain.go") and real_access(path, mode, **kwargs))
    result = runner.invoke(main, ["gather", "fix Chain in chain.go", "--root", str(root)])
    assert result.stderr.splitlines()[-1] == ("ctxopt: the task names a file that is not shown: "
                                              "chain.go is unreadable (Permission denied)")
    index = runner.invoke(main, ["index", "--root", str(root)])
    assert "  chain.go (unreadable: Permission denied)\n" in index.stdout


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"


def test_binary_files_alone_leave_stderr_quiet_but_stay_in_json_issue_8(runner, make_repo) -> None:
    root = make_repo({"db.py": "class Storage:\n    pass\n", "docs/a.png": PNG,
                      "docs/b.png": PNG})
    text = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root)],
                         catch_exceptions=False)
    assert text.exit_code == 0 and text.stderr == ""
    document = json.loads(runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root),
                                               "--format", "json"]).stdout)
    assert [(d["file"], d["reason"]) for d in document["diagnostics"]] == [
        ("docs/a.png", "binary"), ("docs/b.png", "binary")]


def test_binary_files_are_a_short_clause_next_to_other_reasons_issue_8(runner, make_repo) -> None:
    root = make_repo({"db.py": "class Storage:\n    pass\n", "docs/a.png": PNG,
                      "latin.py": b"# caf\xe9\n"})
    text = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root)],
                         catch_exceptions=False)
    assert text.stderr == ("ctxopt: skipped or degraded files: 1 decoded with replacement "
                           "(and 1 binary)\n")


def test_a_lock_file_alone_is_no_line_and_a_short_clause_next_to_other_reasons(runner,
                                                                              make_repo) -> None:
    # trial: every gather in a Rust repository said "skipped or degraded files: 1 generated"
    root = make_repo({"db.py": "class Storage:\n    pass\n", "Cargo.lock": "# lock\n"})
    text = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root)])
    assert text.exit_code == 0 and text.stderr == ""
    (root / "latin.py").write_bytes(b"# caf\xe9\n")
    text = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root)])
    # named by the reason, as `ctxopt index` and the README name it (trial F13: "lock file")
    assert text.stderr == ("ctxopt: skipped or degraded files: 1 decoded with replacement "
                           "(and 1 generated)\n")
    (root / "api.pb.go").write_text("// Code generated by protoc. DO NOT EDIT.\npackage api\n")
    text = runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root)])
    assert text.stderr == ("ctxopt: skipped or degraded files: 1 decoded with replacement, "
                           "2 generated\n")
    index = runner.invoke(main, ["index", "--root", str(root)])
    assert "skipped: 1 decoded with replacement, 2 generated\n" in index.stdout


def test_a_file_the_task_names_that_was_skipped_is_said_beside_the_context(runner,
                                                                           make_repo) -> None:
    # trial: "fix src/db.rs" with src/db.rs unreadable showed 11k tokens of word matches
    # and no word about the file the task names
    root = make_repo({"src/db.py": "class Storage:\n    pass\n" + "# pad\n" * 200,
                      "src/cache.py": "def db_cache():\n    return 1\n"})
    result = runner.invoke(main, ["gather", "fix src/db.py cache", "--root", str(root),
                                  "--max-file-size", "1000"])
    assert result.exit_code == 0 and "def db_cache" in result.stdout
    assert result.stderr.splitlines()[-1] == ("ctxopt: the task names a file that is not shown: "
                                              "src/db.py is too large (1224 bytes)")


UTIL_GO = "package pkg\n\nfunc Util() int {\n\treturn 1\n}\n"


@pytest.mark.parametrize("rule", ["--exclude", ".ctxoptignore"])
def test_a_file_the_task_names_that_is_excluded_is_said(runner, make_repo, rule) -> None:
    # trial 38: "bug in util.go" with util.go excluded showed other code and said nothing
    source = rule  # (what the note says excluded it)
    root = make_repo({"pkg/util.go": UTIL_GO, "main.go": "package main\n\nfunc Bug() {}\n"})
    args = ["--exclude", "util.go"] if rule == "--exclude" else []
    if rule == ".ctxoptignore":
        (root / ".ctxoptignore").write_text("util.go\n")
    result = runner.invoke(main, ["gather", "fix Bug in util.go", "--root", str(root), *args])
    assert result.exit_code == 0 and "func Bug" in result.stdout
    assert result.stderr.splitlines()[-1] == ("ctxopt: the task names a file that is not shown: "
                                              f"pkg/util.go is excluded ({source})")
    # with nothing else to show, it is why nothing was found: exit 1, as a skipped file
    result = runner.invoke(main, ["gather", "fix pkg/util.go", "--root", str(root), *args])
    assert result.exit_code == 1 and "pkg/util.go is excluded" in result.stderr


def test_no_note_for_an_excluded_file_when_a_file_of_that_name_is_shown(runner, make_repo) -> None:
    # review 38: "util.go" with pkg/util.go excluded and other/util.go shown was told that
    # the file the task names is not shown
    root = make_repo({"pkg/util.go": UTIL_GO,
                      "other/util.go": "package other\n\nfunc Bug() int {\n\treturn 2\n}\n"})
    result = runner.invoke(main, ["gather", "fix Bug in util.go", "--root", str(root),
                                  "--exclude", "pkg/util.go"])
    assert result.exit_code == 0 and "func Bug" in result.stdout
    assert "not shown" not in result.stderr, result.stderr


def test_a_definition_the_task_names_outside_the_scope_is_said_beside_the_context(
        runner, make_repo) -> None:
    # trial 37: "fix Command.Find" with --scope doc showed doc's callers of it and no word
    # that Command.Find itself is outside the scope
    root = make_repo({"command.go": "package c\n\ntype Command struct{}\n\n"
                                    "func (c *Command) Find() int {\n\treturn 1\n}\n",
                      "doc/gen.go": "package doc\n\nfunc Gen(c *Command) int {\n\treturn c.Find()\n}\n"})
    result = runner.invoke(main, ["gather", "fix Command.Find", "--root", str(root),
                                  "--scope", "doc"])
    assert result.exit_code == 0 and "func Gen" in result.stdout
    assert result.stderr.splitlines()[-1] == ("ctxopt: the task names a file that is not shown: "
                                              "Command.Find is in command.go, outside --scope doc")


def _git_init(root: Path) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True, capture_output=True)


def test_run_from_a_subdirectory_uses_the_whole_repository(runner, fixture_repo, monkeypatch) -> None:
    root = fixture_repo("py_storage")
    _git_init(root)
    monkeypatch.chdir(root / "tests")
    result = runner.invoke(main, ["gather", "fix Storage bug", "--format", "json"],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    files = {block["file"] for block in json.loads(result.stdout)["blocks"]}
    assert "storage/db.py" in files  # outside the current directory
    assert (root / ".ctxopt").is_dir() and not (root / "tests" / ".ctxopt").exists()


def test_outside_any_repository_a_note_says_the_current_directory_is_the_root(
        runner, make_repo, monkeypatch, tmp_path) -> None:
    # trial F12: run in /usr/share, ctxopt indexed 46,236 files without a word
    root = make_repo({"storage.py": "class Storage:\n    pass\n"})
    monkeypatch.chdir(root)
    args = ["gather", "fix Storage", "--index", str(tmp_path / "index.db")]
    result = runner.invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0 and "class Storage" in result.stdout
    # and says how many files it is about to read (review: a run in $HOME said no count)
    assert result.stderr == (f"ctxopt: no git work tree or ctxopt index in {root.resolve()} "
                             f"or above it; indexing {root.resolve()} itself, 1 file (pass "
                             "--root to choose)\n")
    (root / "db.py").write_text("def connect():\n    pass\n")
    assert ", 2 files (pass" in runner.invoke(main, args).stderr
    assert runner.invoke(main, ["--quiet", *args]).stderr == ""
    assert runner.invoke(main, [*args, "--root", str(root)]).stderr == ""
    _git_init(root)
    assert runner.invoke(main, args).stderr == ""


def test_without_git_the_nearest_git_entry_or_index_above_is_the_root(tmp_path, monkeypatch) -> None:
    from ctxopt.gitrepo import repository_root

    top = tmp_path / "top"
    (top / "a" / "b").mkdir(parents=True)
    monkeypatch.setenv("PATH", "")  # no git: the layout alone decides
    assert repository_root(top / "a" / "b") == (top / "a" / "b").resolve()
    (top / ".ctxopt").mkdir()
    (top / ".ctxopt" / "index.db").write_bytes(b"")
    assert repository_root(top / "a" / "b") == top.resolve()
    (top / "a" / ".git").write_text("gitdir: elsewhere\n")
    assert repository_root(top / "a" / "b") == (top / "a").resolve()


def test_nothing_found_first_says_which_files_were_skipped(runner, make_repo) -> None:
    # trial 4: the skipped files that explained it (too large, minified) went unsaid
    root = make_repo({"m.py": "def other():\n    pass\n",
                      "big.py": "def frobnicate():\n    pass\n" + "# filler\n" * 500})
    result = gather(runner, "fix frobnicate", "--root", str(root), "--max-file-size", "1000")
    assert result.exit_code == 1 and result.stdout == ""
    skipped, nothing = result.stderr.splitlines()
    assert "skipped or degraded files: 1 too large" in skipped
    assert nothing.startswith("ctxopt: nothing relevant found for 'fix frobnicate'")


def test_output_onto_a_database_exits_2_and_keeps_it(runner, fixture_repo, tmp_path) -> None:
    # trial 4: `-o .ctxopt/index.db` replaced the index in use with the context
    root = fixture_repo("py_storage")
    index = tmp_path / "index.db"
    assert gather(runner, "fix Storage bug", "--root", str(root), "--index", str(index)).exit_code == 0
    before = index.read_bytes()
    result = gather(runner, "fix Storage bug", "--root", str(root), "--index", str(index),
                    "-o", str(index))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"Error: cannot write {str(index)!r}: it is a SQLite database")
    assert index.read_bytes() == before
