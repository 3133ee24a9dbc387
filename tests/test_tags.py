"""`ctxopt tags`: records of what the indexer saw, their order, formats and errors."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ctxopt.cli import main
from ctxopt.tags import collect_tags, render_tags_text

FIELDS = {"file", "language", "role", "kind", "name", "qualified_name", "start_line", "end_line"}


def test_json_records_of_a_directory(runner, make_repo) -> None:
    root = make_repo({"src/db.py": "class Storage:\n    def get(self):\n        return load()\n",
                      "README.md": "# not parsed\n"})
    result = runner.invoke(main, ["tags", str(root), "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    records = json.loads(result.stdout)
    assert all(set(r) == FIELDS for r in records)
    assert all(r["file"].endswith("src/db.py") and r["language"] == "python" for r in records)
    assert [(r["role"], r["kind"], r["qualified_name"], r["start_line"], r["end_line"])
            for r in records] == [
        ("definition", "class", "Storage", 1, 3),
        ("definition", "method", "Storage.get", 2, 3),
        ("reference", "call", "load", 3, 3),
    ]


def test_paths_are_relative_to_the_current_directory(make_repo) -> None:
    root = make_repo({"pkg/a.go": "package pkg\n\nfunc A() {}\n", "b.rs": "fn b() {}\n"})
    out = subprocess.run([sys.executable, "-m", "ctxopt", "tags", "pkg", "b.rs", "--format", "json"],
                         cwd=root, check=True, capture_output=True, text=True).stdout
    assert [(r["file"], r["language"], r["name"]) for r in json.loads(out)] == [
        ("b.rs", "rust", "b"), ("pkg/a.go", "go", "A")]


def test_records_are_sorted_by_file_then_line(make_repo) -> None:
    root = make_repo({"z.py": "def z():\n    pass\n", "a/y.py": "x = 1\n\ndef y():\n    z()\n"})
    records = collect_tags([root / "z.py", root], cwd=root)
    assert [(r.file, r.start_line) for r in records] == [
        ("a/y.py", 1), ("a/y.py", 3), ("a/y.py", 4), ("z.py", 1)]


def test_gitignored_and_unsupported_files_are_skipped(make_repo) -> None:
    root = make_repo({".gitignore": "gen/\n", "gen/x.py": "def x(): pass\n",
                      "notes.txt": "def y(): pass\n", "ok.py": "def ok(): pass\n"})
    assert {r.file for r in collect_tags([root], cwd=root)} == {"ok.py"}


def test_an_extensionless_script_is_parsed_by_its_shebang(make_repo) -> None:
    root = make_repo({"bin/tool": "#!/usr/bin/env python3\ndef main():\n    pass\n"})
    records = collect_tags([root], cwd=root)
    assert [(r.file, r.language, r.name) for r in records] == [("bin/tool", "python", "main")]


def test_missing_path_is_a_usage_error(runner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["tags", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: no such file or directory:")
    assert "Traceback" not in result.stderr


def test_missing_paths_are_each_quoted(runner, tmp_path: Path) -> None:
    # trial 19: "no such file or directory: demo/My, Project/x.vb" read as three names
    result = runner.invoke(main, ["tags", str(tmp_path / "My Project, x.vb"),
                                  str(tmp_path / "b.py")])
    assert result.exit_code == 2
    assert result.stderr == (f"Error: no such file or directory: "
                             f"{str(tmp_path / 'My Project, x.vb')!r}, {str(tmp_path / 'b.py')!r}\n")


def test_text_format_has_one_aligned_line_per_record(runner, make_repo) -> None:
    root = make_repo({"m.py": "def f():\n    g()\n"})
    result = runner.invoke(main, ["tags", str(root / "m.py")], catch_exceptions=False)
    lines = result.stdout.splitlines()
    assert [line.split() for line in lines] == [
        ["f", "definition", "function", "1-2", lines[0].split()[-1]],
        ["g", "reference", "call", "2-2", lines[0].split()[-1]],
    ]
    assert lines[0].split()[-1].endswith("m.py")
    assert render_tags_text([]) == ""


def test_odd_file_names_are_escaped_like_gather(make_repo) -> None:
    # trial: raw undecodable bytes and newlines in text, lone surrogates in JSON
    import os
    root = make_repo({"ok.py": "def ok():\n    pass\n"})
    (root / os.fsdecode(b"bad\xff.py")).write_text("def bad():\n    pass\n")
    (root / "new\nline.py").write_text("def nl():\n    pass\n")
    run = [sys.executable, "-m", "ctxopt", "tags", "."]
    text = subprocess.run(run, cwd=root, check=True, capture_output=True).stdout.decode("utf-8")
    assert [line.split()[-1] for line in text.splitlines()] == [
        "bad\\xff.py", "new\\x0aline.py", "ok.py"]
    out = subprocess.run([*run, "--format", "json"], cwd=root, check=True, capture_output=True)
    assert "\\ud" not in out.stdout.decode("utf-8")
    assert [r["file"] for r in json.loads(out.stdout)] == [
        "bad\\xff.py", "new\\x0aline.py", "ok.py"]


@pytest.mark.parametrize(("name", "content", "why"), [
    ("logo.py", b"\x89PNG\r\n\x1a\n\x00\x00", "binary"),
    (".env", b"TOKEN=abc\n", "secret (environment file)"),
    ("big.py", b"x = 1\n" * 200_000, "too large (1200000 bytes)"),
    ("notes.txt", b"def f(): pass\n", "not in a supported language"),
    # trial: `ctxopt tags empty.py` exited 0 and said nothing
    ("empty.py", b"", "empty"),
    ("blank.go", b"\n  \n", "empty"),
    ("comment.py", b"# nothing here\n", "no definitions or references"),
])
def test_a_named_file_without_tags_says_why_in_one_line(runner, make_repo, monkeypatch, name,
                                                        content, why) -> None:
    monkeypatch.chdir(make_repo({name: content, "ok.py": "def ok(): pass\n"}))
    line = f"ctxopt: no tags for {name}: {why}\n"
    alone = runner.invoke(main, ["tags", name])
    assert (alone.exit_code, alone.stdout, alone.stderr) == (1, "", line)
    with_another = runner.invoke(main, ["tags", name, "ok.py"])
    assert (with_another.exit_code, with_another.stderr) == (0, line)
    assert "ok.py" in with_another.stdout
    walked = runner.invoke(main, ["tags", "."])  # found in a directory: left out silently
    assert (walked.exit_code, walked.stderr) == (0, "")
    assert runner.invoke(main, ["-q", "tags", name]).stderr == ""  # --quiet silences it


def test_tags_reads_files_by_the_settings_the_index_uses(runner, make_repo, monkeypatch) -> None:
    """tags used the default size limit, time limit and no exclusions whatever the
    configuration said, so it showed files the index skips (and skipped files it holds)."""
    root = make_repo({".git/HEAD": "", "ok.py": "def ok(): pass\n",
                      "big.py": "def big(): pass\n" + "x = 1\n" * 40,
                      "gen/made.py": "def made(): pass\n",
                      ".ctxopt.toml": 'max_file_size = 100\nexclude = ["gen/"]\n'})
    monkeypatch.chdir(root)
    named = runner.invoke(main, ["tags", "big.py", "ok.py"])
    assert named.exit_code == 0 and named.stderr.startswith("ctxopt: no tags for big.py: too large")
    walked = runner.invoke(main, ["tags", "."])
    assert [line.split()[-1] for line in walked.stdout.splitlines()] == ["ok.py"]
    wider = runner.invoke(main, ["tags", ".", "--max-file-size", "1000", "--exclude", "nothing"])
    assert sorted({line.split()[-1] for line in wider.stdout.splitlines()}) == [
        "big.py", "gen/made.py", "ok.py"]


@pytest.mark.parametrize("name", ["pipe", "to_pipe.py"])
def test_a_named_fifo_is_never_opened(make_repo, name) -> None:
    # trial: `ctxopt tags pipe` waited forever for a writer; the index never opens one
    # (run apart, so that a hang fails at the timeout)
    root = make_repo({"ok.py": "def ok(): pass\n"})
    os.mkfifo(root / "pipe")
    (root / "to_pipe.py").symlink_to("pipe")
    result = subprocess.run([sys.executable, "-m", "ctxopt", "tags", name], cwd=root,
                            capture_output=True, text=True, timeout=30)
    assert (result.returncode, result.stdout, result.stderr) == (
        1, "", f"ctxopt: no tags for {name}: not a regular file\n")


@pytest.mark.parametrize("name, make, why", [
    # trial: a link to a directory named on the command line was walked, though the index
    # never follows one (its files are read at their real paths)
    ("linked", lambda path: path.symlink_to("src", target_is_directory=True),
     "directory link (not followed; src is indexed at its own path)"),
    ("dangling.py", lambda path: path.symlink_to("nowhere.py"), "broken link"),
    ("loop.py", lambda path: path.symlink_to("loop.py"), "link loop"),
    # trial 4: a link out of the repository was read, though its index skips it
    ("passwd.py", lambda path: path.symlink_to(path.parent.parent / "outside.py"),
     "outside root (the link points outside the root)"),
])
def test_a_named_link_follows_the_index_rules_for_links(runner, make_repo, monkeypatch, name,
                                                        make, why) -> None:
    root = make_repo({"src/ok.py": "def ok(): pass\n"})
    (root.parent / "outside.py").write_text("def secret(): pass\n")
    make(root / name)
    monkeypatch.chdir(root)
    result = runner.invoke(main, ["tags", name])
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", f"ctxopt: no tags for {name}: {why}\n")
    walked = runner.invoke(main, ["tags", "."])  # found in a directory: left out silently
    assert (walked.exit_code, walked.stderr) == (0, "")
    assert [line.split()[-1] for line in walked.stdout.splitlines()] == ["src/ok.py"]
