"""The command line of the persistent index: `ctxopt index` and the index options of gather."""
import errno
import json
import os
from pathlib import Path

import pytest

from ctxopt.cli import main


@pytest.fixture
def root(fixture_repo) -> Path:
    """A copy of the py_storage fixture, the repository most tests here index."""
    return fixture_repo("py_storage")


@pytest.fixture
def cache_home(tmp_path, monkeypatch) -> Path:
    """A user cache directory of the test's own (``$CTXOPT_CACHE_DIR``), where an index
    that cannot be kept in the root goes."""
    home = tmp_path / "cache"
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(home))
    return home


def _gather(runner, root: Path, *args: str, **kwargs):
    """``ctxopt gather "fix Storage bug" --root ROOT ARGS...``."""
    return runner.invoke(main, ["gather", "fix Storage bug", "--root", str(root), *args],
                         **kwargs)


@pytest.mark.parametrize("loop", [False, True])
def test_an_index_of_no_file_says_none_is_kept(runner, tmp_path, contract, loop) -> None:
    # trial 39: a directory of two links to each other printed `index: ROOT/.ctxopt/index.db`,
    # as an empty one did, and no index was there: one of no file is not kept
    root = tmp_path / "lr"
    root.mkdir()
    if loop:
        (root / "b").symlink_to("a")
        (root / "a").symlink_to("b")
    result = runner.invoke(main, ["index", "--root", str(root)], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    where = root / ".ctxopt" / "index.db"
    assert result.stdout.splitlines()[0] == f"index: none (no file to index; {where} not kept)"
    assert not where.exists()
    document = runner.invoke(main, ["index", "--root", str(root), "--format", "json"]).stdout
    assert contract("index", json.loads(document))["kept"] is False


def test_index_command_prints_what_it_holds(runner, root) -> None:
    (root / "logo.png").write_bytes(b"\x89PNG\x00\x00")
    result = runner.invoke(main, ["index", "--root", str(root)], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"index: {root / '.ctxopt' / 'index.db'}"
    assert lines[1] == "files: 9 (7 python, 2 in no supported language)"  # README.md, .gitignore
    assert lines[2] == "definitions: 20"
    assert lines[3].startswith("references: ")
    assert lines[4] == "edges: 20 contains, 5 imports"
    assert lines[5] == "skipped: 1 binary"
    assert lines[6] == "  logo.png (binary)"
    assert lines[7].startswith("updated: 10 read, 7 parsed, 0 removed (rebuilt) in ")
    assert result.stderr == ""  # no progress bar when stderr is not a terminal


def test_index_command_json(runner, fixture_repo) -> None:
    root = fixture_repo("go_storage")
    runner.invoke(main, ["index", "--root", str(root)], catch_exceptions=False)
    result = runner.invoke(main, ["index", "--root", str(root), "--format", "json"],
                           catch_exceptions=False)
    document = json.loads(result.stdout)
    assert document["languages"] == {"go": 4}
    assert document["rebuilt"] is False and document["parsed"] == 0
    assert set(document) == {"index", "kept", "files", "languages", "definitions", "references",
                             "edges", "skipped", "scanned", "parsed", "removed", "rebuilt", "seconds",
                             "parse_cache", "diagnostics"}
    assert document["parse_cache"] == {"directory": None, "hits": 0, "misses": 0}  # nothing read
    assert document["diagnostics"] == []


def test_index_names_the_files_it_skipped(runner, root) -> None:
    # trial 19: `index` counted skipped files by reason, and only `tags` on every file
    # found which they were
    (root / "zz.png").write_bytes(b"\x89PNG\x00\x00")
    for n in range(11):
        (root / f"min{n:02}.js").write_text("x" * 30_000 + "\n")
    result = runner.invoke(main, ["index", "--root", str(root)], catch_exceptions=False)
    lines = result.stdout.splitlines()
    at = lines.index("skipped: 1 binary, 11 minified")
    assert lines[at + 1:at + 12] == [
        *(f"  min{n:02}.js (minified: lines average 30000 characters)" for n in range(10)),
        "  ... 2 more (--format json lists them all)"]  # the binary file last
    result = runner.invoke(main, ["index", "--root", str(root), "--format", "json"],
                           catch_exceptions=False)
    listed = json.loads(result.stdout)["diagnostics"]
    assert [(d["file"], d["reason"]) for d in listed] == [
        *((f"min{n:02}.js", "minified") for n in range(11)), ("zz.png", "binary")]


def test_gather_uses_the_index_option_and_environment(runner, root, tmp_path, monkeypatch) -> None:
    database = tmp_path / "a" / "index.db"
    database.parent.mkdir()
    result = _gather(runner, root, "--index", str(database), catch_exceptions=False)
    assert result.exit_code == 0 and database.is_file()
    monkeypatch.setenv("CTXOPT_INDEX", str(tmp_path / "b.db"))
    result = runner.invoke(main, ["index", "--root", str(root)], catch_exceptions=False)
    assert result.stdout.splitlines()[0] == f"index: {tmp_path / 'b.db'}"
    assert not (root / ".ctxopt").exists()


def test_a_file_where_the_index_directory_goes_is_named_and_left_alone(
        runner, root, cache_home) -> None:
    # trial: a user's file ROOT/.ctxopt gave "ROOT is not writable"
    (root / ".ctxopt").write_text("in the way\n")
    result = _gather(runner, root, catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stderr.startswith(f"ctxopt: {root / '.ctxopt'} is not a directory (left as it "
                                    "is); the index is kept in ")
    assert len(result.stderr.splitlines()) == 1
    assert (root / ".ctxopt").read_text() == "in the way\n"


def test_a_read_only_index_file_is_named_not_the_root(runner, root, cache_home,
                                                      monkeypatch) -> None:
    # trial F10: ROOT/.ctxopt/index.db read-only in a writable root said "ROOT is not writable"
    assert runner.invoke(main, ["index", "--root", str(root)]).exit_code == 0
    database = root / ".ctxopt" / "index.db"
    real_access = os.access
    # (the suite may run as root, whom modes do not stop)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if Path(path) == database
                        and mode == os.W_OK else real_access(path, mode, **kw))
    result = _gather(runner, root, catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stderr.startswith(f"ctxopt: {database} is not writable; the index is kept "
                                    "in ")
    assert len(result.stderr.splitlines()) == 1


def test_unwritable_root_gets_a_one_line_note(runner, root, cache_home, monkeypatch) -> None:
    real_mkdir = Path.mkdir

    def mkdir(self: Path, *args: object, **kwargs: object) -> None:
        if self == root / ".ctxopt":  # (the suite may run as root, whom modes do not stop)
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", mkdir)
    result = _gather(runner, root, catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stderr.startswith(f"ctxopt: {root} is not writable; the index is kept in ")
    assert len(result.stderr.splitlines()) == 1


def test_an_index_path_that_is_not_an_index_is_an_error(runner, root, tmp_path) -> None:
    precious = tmp_path / "thesis.txt"
    precious.write_text("years of work\n")
    result = _gather(runner, root, "--index", str(precious))
    assert result.exit_code == 2  # bad input: the user's file is refused, never overwritten
    assert result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1
    assert precious.read_text() == "years of work\n"


def test_an_index_path_in_a_missing_directory_is_an_error(runner, root, tmp_path,
                                                          monkeypatch) -> None:
    # trial 13: `CTXOPT_INDEX=/nonexistent/dir/x.db` made the whole tree without a word
    monkeypatch.setenv("CTXOPT_INDEX", str(tmp_path / "typo" / "dir" / "x.db"))
    result = _gather(runner, root)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: Invalid value for '--index': directory "
                                    f"'{tmp_path}/typo/dir' does not exist (from CTXOPT_INDEX)")
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize("below", ["", "/sub"])
def test_a_cache_dir_that_is_a_file_is_an_error(runner, root, tmp_path, monkeypatch,
                                                below: str) -> None:
    # trial 12, 13: the parse cache, the memo and the outputs record did nothing, silently
    (tmp_path / "cache").write_text("mine\n")
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path / "cache") + below)
    result = _gather(runner, root)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: CTXOPT_CACHE_DIR: '{tmp_path}/cache' is not a "
                                    "directory (a directory expected)")
    assert (tmp_path / "cache").read_text() == "mine\n"


def test_a_bad_cache_dir_leaves_help_config_and_schema_alone(runner, tmp_path, monkeypatch) -> None:
    # review 32: the check ran before any command, so `gather --help` and `config` (where
    # a user looks at the setting) failed on it too
    (tmp_path / "cache").write_text("mine\n")
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path / "cache"))
    for args in (["gather", "--help"], ["-q", "index", "-h"], ["schema", "gather"], ["config"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, (args, result.stderr)
    assert runner.invoke(main, ["gather", "--", "--help"]).exit_code == 2  # a task, not help


@pytest.mark.parametrize("args", [["--jobs", "0"], ["--max-file-size", "0"], ["--jobs", "x"]])
def test_bad_index_options_exit_2(runner, root, args) -> None:
    result = runner.invoke(main, ["index", "--root", str(root), *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_max_file_size_skips_larger_files(runner, root) -> None:
    result = runner.invoke(main, ["index", "--root", str(root), "--max-file-size", "300",
                                  "--format", "json"], catch_exceptions=False)
    assert json.loads(result.stdout)["skipped"]["too large"] >= 1


@pytest.mark.parametrize("under", ["blocker", "blocker/sub"])
def test_an_index_path_under_a_file_names_the_file(runner, root, tmp_path, under) -> None:
    # it said "cannot create blocker: File exists" (or "Not a directory")
    (tmp_path / "blocker").write_text("mine\n")
    database = tmp_path / under / "index.db"
    result = _gather(runner, root, "--index", str(database))
    assert result.exit_code == 3
    assert result.stderr == (f"Error: cannot write the index at {database}: {tmp_path / 'blocker'} "
                             "is not a directory\n")
    assert (tmp_path / "blocker").read_text() == "mine\n"


def test_an_index_another_root_held_is_rebuilt_with_a_note(runner, fixture_repo, tmp_path) -> None:
    # trial 10: two repositories sharing one --index rebuilt it in turn, and said nothing
    database = tmp_path / "shared.db"
    first, second = fixture_repo("py_storage"), fixture_repo("go_storage")
    assert _gather(runner, first, "--index", str(database)).exit_code == 0
    result = _gather(runner, second, "--index", str(database))
    assert result.exit_code == 0
    assert (f"ctxopt: the index {database} held another root, {first.resolve()}; rebuilt it "
            f"for {second.resolve()}\n") in result.stderr
    again = _gather(runner, second, "--index", str(database))
    assert "another root" not in again.stderr
