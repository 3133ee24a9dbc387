"""A FIFO, socket or device a command is given is never opened (``files.safety.special_file``):
reading a FIFO waits for a writer that may never come. The FIFO cases run in a subprocess,
so that a hang fails at the timeout."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import ctxopt
from ctxopt.cli import main

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX pipes")

NOT_REGULAR = "not a regular file"


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``ctxopt ARGS`` in ``cwd``, importing the ctxopt under test (not an installed one)."""
    package_parent = str(Path(ctxopt.__file__).parents[1])
    return subprocess.run([sys.executable, "-m", "ctxopt", *args], check=False, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": package_parent},
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def piped(make_repo) -> Path:
    """A repository holding a FIFO ``pipe`` and a link ``to_pipe.py`` to it."""
    root = make_repo({"ok.py": "def ok():\n    return 1\n", "tasks.txt": "fix ok\n"})
    os.mkfifo(root / "pipe")
    (root / "to_pipe.py").symlink_to("pipe")
    return root


@pytest.mark.parametrize("name", ["pipe", "to_pipe.py"])
def test_tokens_never_opens_a_fifo_issue_trial9_1(piped, name) -> None:
    # trial 9: `ctxopt tokens fifo.go` waited forever; `ctxopt tags` says why it skips one
    result = _run(["tokens", name], piped)
    assert (result.returncode, result.stdout, result.stderr) == (
        1, "", f"ctxopt: no count for {name}: {NOT_REGULAR}\n")


def test_tokens_counts_the_files_beside_a_fifo(piped) -> None:
    result = _run(["tokens", "ok.py", "pipe"], piped)
    assert result.returncode == 0
    assert result.stderr == f"ctxopt: no count for pipe: {NOT_REGULAR}\n"
    assert [line.split("\t")[1] for line in result.stdout.splitlines()] == ["ok.py", "total"]


@pytest.mark.parametrize("args, what", [
    (["compact", "pipe", "--window", "1000"], "'pipe'"),
    (["tokens", "--messages", "pipe"], "'pipe'"),
    (["diff", "pipe", "ok.py"], "'pipe'"),
    (["snapshot", "--tasks", "pipe", "--root", "."], "'pipe'"),
])
def test_a_named_fifo_is_a_usage_error(piped, args, what) -> None:
    result = _run(args, piped)
    assert (result.returncode, result.stderr) == (2, f"Error: cannot read {what}: {NOT_REGULAR}\n")


def test_a_task_file_that_is_a_pipe_is_read_as_one(piped) -> None:
    # trial 13: `--task-file <(echo ...)` (a shell's process substitution, /dev/fd/N) was
    # refused as "not a regular file"; a named FIFO no one writes to reads as empty
    # rather than waiting for a writer
    read, write = os.pipe()
    os.write(write, b"fix ok\n")
    os.close(write)
    try:
        package_parent = str(Path(ctxopt.__file__).parents[1])
        result = subprocess.run(
            [sys.executable, "-m", "ctxopt", "gather", "--task-file", f"/dev/fd/{read}",
             "--root", "."], check=False, cwd=piped, pass_fds=(read,),
            env={**os.environ, "PYTHONPATH": package_parent}, capture_output=True, text=True,
            timeout=60)
    finally:
        os.close(read)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# ctxopt context for: fix ok\n")
    unwritten = _run(["gather", "--task-file", "pipe", "--root", "."], piped)
    assert (unwritten.returncode, unwritten.stderr.count("\n")) == (2, 1)
    assert unwritten.stderr.startswith("Error: the task is empty")


def test_snapshot_leaves_a_fifo_named_like_a_manifest_alone(piped) -> None:
    (piped / "out").mkdir()
    os.mkfifo(piped / "out" / "fix-old-0123abcd.tsv")
    result = _run(["snapshot", "--tasks", "tasks.txt", "-o", "out", "--root", "."], piped)
    assert result.returncode == 0, result.stderr
    assert (piped / "out" / "fix-old-0123abcd.tsv").exists()


@pytest.mark.parametrize("name, code", [(".gitignore", 0), (".ctxoptignore", 0),
                                        (".gitattributes", 0), (".ctxopt.toml", 2)])
def test_a_fifo_among_the_files_ctxopt_reads_for_itself(make_repo, name, code) -> None:
    # outside a git work tree (inside one, git itself waits on a FIFO .gitignore)
    root = make_repo({"ok.py": "def ok():\n    return 1\n"})
    os.mkfifo(root / name)
    result = _run(["gather", "fix ok", "--root", "."], root)
    assert result.returncode == code, result.stderr
    assert NOT_REGULAR in result.stderr


def test_tokens_never_reads_a_device_or_socket(runner) -> None:
    with socket.socket(socket.AF_UNIX) as server:
        short = Path(f"/tmp/ctxopt-test-{os.getpid()}.sock")  # socket paths are short
        server.bind(str(short))
        try:
            result = runner.invoke(main, ["tokens", os.devnull, str(short)])
        finally:
            short.unlink()
    assert result.exit_code == 1
    assert result.stderr == (f"ctxopt: no count for {os.devnull}: {NOT_REGULAR}\n"
                             f"ctxopt: no count for {short}: {NOT_REGULAR}\n")


def test_read_regular_refuses_a_fifo_swapped_in_after_the_check(tmp_path, monkeypatch) -> None:
    # the check and the open are two steps: a FIFO put in between (simulated: the check
    # passes) must not be read, which would wait for a writer that never comes
    from ctxopt.files import safety

    import threading

    fifo = tmp_path / "task.txt"
    os.mkfifo(fifo)
    monkeypatch.setattr(safety, "special_file", lambda path, rel: None)
    raised: list[BaseException] = []

    def read() -> None:
        try:
            safety.read_regular(fifo)
        except OSError as exc:
            raised.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    waited = reader.is_alive()
    if waited:  # waiting for a writer: give it one, so that the thread ends
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(10)
    assert not waited
    assert [exc.strerror for exc in raised] == [NOT_REGULAR]


def test_read_regular_reads_a_file_and_refuses_a_directory(tmp_path) -> None:
    from ctxopt.files import safety

    (tmp_path / "task.txt").write_bytes(b"fix ok\n")
    assert safety.read_regular(tmp_path / "task.txt") == b"fix ok\n"
    assert safety.read_regular(tmp_path / "task.txt", 3) == b"fix"
    with pytest.raises(IsADirectoryError):
        safety.read_regular(tmp_path)
