"""Input and output at the edges (trial 6): a task read without bound, a closed standard
input, a full disk on standard output, ``-o`` onto a file the user keeps, a task whose
long run of letters took quadratic time."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ctxopt.lexical import joined_words
from ctxopt.taskinput import TASK_BYTES_READ, read_task

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "py_storage"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/full")


class _Endless(io.RawIOBase):
    """A stream of ``fix Storage bug`` lines that never ends, counting what is read."""

    def __init__(self) -> None:
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        line = b"fix Storage bug\n" * (len(buffer) // 16 or 1)
        size = min(len(buffer), len(line))
        buffer[:size] = line[:size]
        self.served += size
        return size


def test_a_task_from_an_endless_input_is_read_to_a_bound() -> None:
    # `yes "fix Stats.add bug" | ctxopt gather -` read 1.9 GB, then a MemoryError
    stream = _Endless()
    task = read_task("-", None, io.BufferedReader(stream))
    assert task.startswith("fix Storage bug") and stream.served <= 2 * TASK_BYTES_READ


def _environment(tmp_path: Path) -> dict[str, str]:
    """The whole environment of a child ctxopt: its own index, no parse cache, no PATH."""
    return {"CTXOPT_INDEX": str(tmp_path / "i.db"), "PATH": "", "CTXOPT_PARSE_CACHE": "off"}


def _ctxopt(*args: str, **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ctxopt", *args], check=False, capture_output=True,
                          text=True, timeout=120, **options)


@pytest.mark.parametrize("args", [("gather", "-", "--root", str(FIXTURE)), ("tokens", "-"),
                                  ("mcp",)])
def test_a_closed_standard_input_is_one_line(args, tmp_path) -> None:
    done = _ctxopt(*args, stdin=subprocess.DEVNULL, cwd=tmp_path, env=_environment(tmp_path),
                   preexec_fn=lambda: os.close(0))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("Error: ") and len(done.stderr.splitlines()) == 1


@linux_only
@pytest.mark.parametrize("args", [("--help",), ("gather", "fix Storage bug", "--root", str(FIXTURE))])
def test_a_full_disk_on_standard_output_is_one_line(args, tmp_path) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "ctxopt", *args], check=False, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120,
                              env=_environment(tmp_path))
    assert done.returncode == 1
    assert done.stderr == "Error: cannot write the output: No space left on device\n"


def test_o_never_replaces_the_task_file_nor_a_file_of_the_repository(fixture_repo, runner, tmp_path) -> None:
    from ctxopt.cli import main

    root = fixture_repo("py_storage")
    task = tmp_path / "task.txt"
    task.write_text("fix Storage bug\n")
    source = (root / "storage" / "db.py").read_text()
    base = ["gather", "--task-file", str(task), "--root", str(root), "--index", str(tmp_path / "i.db")]
    for target in (str(task), str(root / "storage" / "db.py")):
        result = runner.invoke(main, [*base, "-o", target])
        assert result.exit_code == 2 and "cannot write" in result.stderr
    assert task.read_text() == "fix Storage bug\n"
    assert (root / "storage" / "db.py").read_text() == source
    # an earlier output of ctxopt in the repository is replaced, in every format
    for form in ("text", "json", "manifest"):
        for _ in range(2):
            result = runner.invoke(main, [*base, "-o", str(root / f"context.{form}"),
                                          "--format", form])
            assert result.exit_code == 0, result.stderr


def test_o_never_replaces_an_earlier_output_the_user_changed_or_copied(fixture_repo, runner, tmp_path) -> None:
    # trial 8: notes appended to an earlier output, and a copy of one elsewhere in the
    # repository, were replaced by the next -o (they began as an output does)
    from ctxopt.cli import main

    root = fixture_repo("py_storage")
    base = ["gather", "fix Storage bug", "--root", str(root), "--index", str(tmp_path / "i.db")]
    context = root / "context.md"
    assert runner.invoke(main, [*base, "-o", str(context)]).exit_code == 0
    copy = root / "storage" / "copy_of_context.md"
    copy.write_bytes(context.read_bytes())
    with context.open("a") as handle:
        handle.write("MY NOTES: important\n")
    for target in (context, copy):
        kept = target.read_bytes()
        result = runner.invoke(main, [*base, "--budget", "800", "-o", str(target)])
        assert result.exit_code == 2 and "delete it first" in result.stderr
        assert target.read_bytes() == kept
    context.unlink()  # deleted, it may be written again, and then replaced
    for budget in ("800", "900"):
        assert runner.invoke(main, [*base, "--budget", budget, "-o", str(context)]).exit_code == 0


@pytest.mark.parametrize("command", ["gather", "curve", "compact"])
def test_o_never_replaces_a_file_outside_the_repository_it_did_not_write(
        fixture_repo, runner, tmp_path, command) -> None:
    # trial 38: `ctxopt gather ... --root ../viper -o keep.py`, run in another work tree,
    # replaced its committed keep.py (only files under --root were guarded)
    from ctxopt.cli import main

    root = fixture_repo("py_storage")
    transcript = tmp_path / "session.json"
    transcript.write_text('[{"role": "user", "content": "hello"}]')
    args = {"gather": ["gather", "fix Storage bug", "--root", str(root)],
            "curve": ["curve", "fix Storage bug", "--root", str(root), "--budgets", "500"],
            "compact": ["compact", str(transcript), "--window", "100000"]}[command]
    keep = tmp_path / "other" / "keep.py"
    keep.parent.mkdir()
    keep.write_text("print('mine')\n")
    result = runner.invoke(main, [*args, "-o", str(keep)])
    assert result.exit_code == 2 and "an existing file" in result.stderr, result.output
    assert keep.read_text() == "print('mine')\n"
    # what ctxopt wrote there it may replace, and an empty file
    for target in (tmp_path / "other" / "out.txt", tmp_path / "other" / "empty.txt"):
        if target.name == "empty.txt":
            target.write_text("")
        for _ in range(2):
            assert runner.invoke(main, [*args, "-o", str(target)]).exit_code == 0
        assert target.stat().st_size


def test_a_long_run_of_letters_ends() -> None:
    # 10,000 letters with no blank took 20 s, 20,000 took 79 s: the search for runs of
    # words went back over the rest of the word from each of its letters (200,000 took
    # hours: the run would not end)
    assert joined_words("x" * 200_000) == []
    assert joined_words("foo_bar baz") == ["=bar_baz", "=barbaz"]


def _remember_many(args: tuple[str, int]) -> None:
    from ctxopt.cli_output import remember_output

    directory, worker = args
    for n in range(20):
        path = Path(directory) / f"out-{worker}-{n}.md"
        path.write_text(f"# ctxopt {worker} {n}\n")
        remember_output(path, path.read_bytes())


def test_outputs_recorded_by_processes_at_once_are_all_kept(tmp_path) -> None:
    # review: one shared record rewritten by each run kept 31 of 160 outputs of 8 processes
    import multiprocessing

    from ctxopt.cli_output import _written_by_ctxopt

    with multiprocessing.get_context("spawn").Pool(4) as pool:
        pool.map(_remember_many, [(str(tmp_path), worker) for worker in range(8)])
    outputs = sorted(tmp_path.glob("out-*.md"))
    assert len(outputs) == 160 and all(_written_by_ctxopt(path) for path in outputs)


def test_the_trace_patterns_end_on_a_long_line_of_their_own_openings() -> None:
    # trial 11: a line of 100,000 "at x " took 7.5 s to parse (a frame pattern went to the
    # line's end from each "at" and back); at a million characters that was hours. Each
    # pattern must scan such a line in one pass: the child is stopped after 60 s.
    script = (
        "from ctxopt import task\n"
        "for pattern, opening in ((task._RUNTIME_FRAME, 'at x '), (task._V8_FRAME, 'at x '),\n"
        "        (task._RUNTIME_FRAME, 'at '), (task._RUNTIME_FRAME, 'at async '),\n"
        "        (task._RUNTIME_FRAME, 'at f [as '), (task._RUNTIME_FRAME, ' at (node:'),\n"
        "        (task._TRACEBACK_HEAD, 'goroutine 1 ['), (task._TRACEBACK_HEAD, '[signal '),\n"
        "        (task._TRACEBACK_HEAD, \"thread '\"), (task._GO_FRAME, 'x.(*T).f('),\n"
        "        (task._RUST_FRAME, '0: a::'), (task._DOTNET_FRAME, 'at x() in '),\n"
        "        (task._DOTNET_FRAME, 'at a.b'), (task._DOTNET_PARAMETERS, 'at x(T a, '),\n"
        "        (task._RUNTIME_FRAME, 'at System.x('), (task._RUNTIME_FRAME, 'at java.'),\n"
        "        (task._RUNTIME_FRAME, 'at a/'), (task._RUNTIME_FRAME, '#0 0x1 in f ('),\n"
        "        (task._PHP_FRAME, '#0 a'), (task._NATIVE_FRAME, '#0 0x1 in f '),\n"
        "        (task._NATIVE_FRAME, '#0 f (a) at '), (task._PHP_ERROR, 'a.php on line '),\n"
        "        (task._ABSOLUTE_PATH, 'C:\\\\a\\\\'), (task._TRACEBACK_HEAD, '--- End of ('),\n"
        "        (task._NATIVE_FRAME, '#0 0x1 in a<'), (task._NATIVE_FRAME, '#0 0x1 in a<b> at '),\n"
        "        (task._SWIFT_FRAME, '0 0x1 f + 1 in m at '), (task._SWIFT_FRAME, '0 0x1 f + 1 ('),\n"
        "        (task._SWIFT_FRAME, '0 [ra] 0x1 '), (task._RUNTIME_FRAME, '0 0x1 f + 1 in '),\n"
        "        (task._RUNTIME_FRAME, '0 [ra] [ra] '), (task._RUNTIME_FRAME, '#0 [internal function] '),\n"
        "        (task._TRACEBACK_HEAD, 'thrown in '), (task._TRACEBACK_HEAD, 'Program crashed: '),\n"
        "        (task._TRACEBACK_HEAD, 'Thread 0 \"'), (task._TRACEBACK_HEAD, '0 a 0xg'),\n"
        "        (task._DOTNET_FRAME, 'at <a>d__'), (task._DOTNET_FRAME, 'at a.<b>g__c|'),\n"
        "        (task._DOTNET_PARAMETERS, 'at a|b(T a, ')):\n"
        "    assert pattern.search(opening * (1_000_000 // len(opening))) is None, opening\n"
        "from ctxopt.seeds import _without_paths\n"
        "for opening in ('a/b.c', '/a/b.c', 'x../', 'C:\\\\a'):\n"
        "    _without_paths(opening * (1_000_000 // len(opening)), {'a/b.c', 'b.c'})\n")
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60, env={**os.environ, "PYTHONPATH": str(root)}, check=False)
    assert result.returncode == 0, result.stderr


def test_o_never_replaces_an_empty_file_of_a_repository(make_repo, runner, tmp_path) -> None:
    # review 38: an empty committed file, `pkg/__init__.py`, was replaced by the context
    # (an empty file counted as ctxopt's own, for mktemp's sake)
    from ctxopt.cli import main

    root = make_repo({"storage.py": "class Storage:\n    pass\n", "pkg/__init__.py": ""})
    (root / ".git").mkdir()
    result = runner.invoke(main, ["gather", "fix Storage", "--root", str(root), "-o",
                                  str(root / "pkg" / "__init__.py")])
    assert result.exit_code == 2 and "delete it first" in result.stderr
    assert (root / "pkg" / "__init__.py").read_text() == ""
    empty = tmp_path / "mktemp.txt"  # outside every repository
    empty.write_text("")
    result = runner.invoke(main, ["gather", "fix Storage", "--root", str(root), "-o", str(empty)])
    assert result.exit_code == 0 and empty.read_text().startswith("# ctxopt context for")
