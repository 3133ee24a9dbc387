"""Robustness of the persistent index: interrupted and killed runs, damaged databases."""
from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import sigint_caught

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


def _ignores_sigint(pid: int) -> bool:
    """True when the process ``pid`` ignores SIGINT (bit 2 of SigIgn in /proc/PID/status)."""
    with open(f"/proc/{pid}/status") as status:
        mask = next(line.split()[1] for line in status if line.startswith("SigIgn:"))
    return bool(int(mask, 16) & (1 << (signal.SIGINT - 1)))


def _start_index(root: Path, stderr: int = subprocess.PIPE,
                 stdout: int = subprocess.DEVNULL) -> tuple[subprocess.Popen, set[int]]:
    with sigint_caught():
        process = subprocess.Popen([sys.executable, "-m", "ctxopt", "index", "--root",
                                    str(root), "--jobs", "2"], stdout=stdout, stderr=stderr,
                                   text=True)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while len(workers) < 2 and process.poll() is None and time.monotonic() < deadline:
        workers = _children(process.pid)
        time.sleep(0.02)
    assert len(workers) == 2, "the workers did not start"
    return process, workers


def _files_committed(database: Path, process: subprocess.Popen, timeout: float = 60) -> bool:
    """Wait until the index being built at ``database`` holds a committed file row."""
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(sqlite3.Error):
            conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=0.1)
            try:
                if conn.execute("SELECT count(*) FROM files").fetchone()[0]:
                    return True
            finally:
                conn.close()
        time.sleep(0.02)
    return False


# Files of the tree a signal interrupts: enough that its scan goes on well after its first
# batch is committed (at 3,000, session 35's faster index finished in 1.9 s under load,
# before the signal landed, and printed its summary).
_BIG = 6000


@pytest.fixture
def big_tree(tmp_path: Path) -> Path:
    """A fresh, never-indexed tree per test: each test needs a cold index whose workers start."""
    return _tree(tmp_path / "big", _BIG, functions=20)


@linux_only
def test_sigint_to_a_cold_index_exits_130_and_ends_its_workers(big_tree) -> None:
    process, workers = _start_index(big_tree, stdout=subprocess.PIPE)
    assert not _ignores_sigint(process.pid)
    # (under load the signal could land before the first batch was committed: then there
    # is nothing to keep, and the next run rightly starts anew)
    assert _files_committed(big_tree / ".ctxopt" / "index.db", process)
    process.send_signal(signal.SIGINT)
    try:
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert stdout == ""  # interrupted while scanning: the summary of a finished run is not printed
    assert process.returncode == 130
    assert stderr.strip().splitlines()[-1] == "ctxopt: interrupted"
    assert "Traceback" not in stderr
    assert not any(_alive(pid) for pid in workers)
    # committed batches are kept: the next run completes the index
    index, report = open_index(big_tree, IndexOptions(jobs=2))
    with index:
        # (what moved the index aside or emptied it, should a loaded machine show it again)
        assert len(index.files) == _BIG and not report.rebuilt, (report.note, index.diagnostics)


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


def test_a_damaged_index_at_a_path_the_user_gave_is_left_alone_and_says_what_to_do(
        tmp_path, monkeypatch) -> None:
    # trial: "Error: the index /tmp/trunc.db failed: database disk image is malformed"
    monkeypatch.delenv("CTXOPT_INDEX", raising=False)
    root = _tree(tmp_path / "repo", 60)
    database = tmp_path / "given.db"
    open_index(root, IndexOptions(path=database))[0].close()
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = database.read_bytes()
    database.write_bytes(data[:len(data) // 2])
    result = CliRunner().invoke(main, ["index", "--root", str(root), "--index", str(database)])
    assert result.exit_code == 3 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: the index {database} is damaged (")
    assert "delete the file, or choose another --index" in result.stderr
    assert database.read_bytes() == data[:len(data) // 2]


def test_a_damaged_database_found_by_a_query_is_rebuilt_in_the_same_run(tmp_path, monkeypatch) -> None:
    # trial 7: damage a query met said "run again to rebuild it" and exited 3, where damage
    # found on opening was rebuilt at once
    monkeypatch.delenv("CTXOPT_INDEX", raising=False)
    root = _tree(tmp_path / "repo", 60)
    open_index(root)[0].close()
    database = root / ".ctxopt" / "index.db"
    with sqlite3.connect(database) as conn:  # the term index points at a table's pages
        files_root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'files'").fetchone()[0]
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute("UPDATE sqlite_master SET rootpage = ? WHERE name = 'postings_term'", (files_root,))
    result = _gather(root)
    assert result.exit_code == 0, result.stderr
    (note,) = [line for line in result.stderr.splitlines() if "damaged" in line]
    assert note.endswith("rebuilding it") and "Traceback" not in result.stderr
    assert "helper_1" in result.stdout and (root / ".ctxopt" / "index.db.corrupt").is_file()
    again = _gather(root)
    assert again.exit_code == 0 and "damaged" not in again.stderr


@linux_only
def test_ctrl_c_while_a_worker_starts_leaves_no_worker_behind(tmp_path, monkeypatch) -> None:
    """A SIGINT that lands between the fork of a worker and the end of its start (the
    parent has not yet recorded it) still ends every worker."""
    from ctxopt.files.safety import HygieneConfig
    from ctxopt.store.workers import scan_files

    root = _tree(tmp_path / "tree", 100)
    work = [(str(path.relative_to(root)), None, None) for path in sorted(root.rglob("*.py"))]
    fork, forked = os.fork, []

    def fork_then_interrupt() -> int:
        pid = fork()
        if pid:
            forked.append(pid)
            if len(forked) == 1:
                os.kill(os.getpid(), signal.SIGINT)
        return pid

    monkeypatch.setattr(os, "fork", fork_then_interrupt)
    try:
        with sigint_caught(), pytest.raises(KeyboardInterrupt):
            for _ in scan_files(root, work, 2, None, HygieneConfig()):
                pass
        assert forked
        assert not any(_alive(pid) for pid in forked)
    finally:
        for pid in forked:  # do not leak them when the test fails
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


@linux_only
def test_a_worker_holds_its_next_chunk_while_busy(tmp_path, monkeypatch) -> None:
    """Each worker is sent the chunk after its current one before it answers, so it goes
    on while the parent stores results: the worker held up in the first chunk still does
    the third (the first two go one to each worker, the third and fourth after them)."""
    from ctxopt.files.safety import HygieneConfig
    from ctxopt.store import workers

    root = _tree(tmp_path / "tree", 96)
    for i, path in enumerate(sorted(root.rglob("*.py"))):  # sizes set the chunks' order
        path.write_text(path.read_text() + "#" * (2000 - 10 * i) + "\n")
    work = [(str(path.relative_to(root)), None, None) for path in sorted(root.rglob("*.py"))]
    order = sorted(work, key=lambda w: -(root / w[0]).stat().st_size)
    firsts = [order[i][0] for i in range(0, len(order), workers._CHUNK)]
    log = tmp_path / "chunks.log"
    scan_chunk = workers.scan_chunk

    def logged(root_text, chunk, config, cache=None):  # runs in the (forked) workers
        index = firsts.index(chunk[0][0])
        with open(log, "a") as handle:
            handle.write(f"{index} {os.getpid()}\n")
        if index == 0:  # held until the other worker has started every chunk but #2
            deadline = time.monotonic() + 60  # (a safety net, not a measurement)
            while time.monotonic() < deadline:
                started = {int(line.split()[0]) for line in log.read_text().splitlines()}
                if started >= set(range(len(firsts))) - {2}:
                    break
                time.sleep(0.01)
        return scan_chunk(root_text, chunk, config, cache)

    monkeypatch.setattr(workers, "scan_chunk", logged)
    results = list(workers.scan_files(root, work, 2, None, HygieneConfig()))
    assert len(results) == len(work)
    by_chunk = dict(line.split() for line in log.read_text().splitlines())
    assert by_chunk["2"] == by_chunk["0"]


def test_results_from_workers_equal_those_scanned_here(tmp_path) -> None:
    """What the workers send back (marshalled fields) is what ``scan_one`` gives in this
    process, field for field, for parsed, skipped and undecodable files alike."""
    from ctxopt.files.safety import HygieneConfig
    from ctxopt.store.scan import scan_one
    from ctxopt.store.workers import scan_files

    root = _tree(tmp_path / "tree", 60)
    (root / "pkg0" / "blob.py").write_bytes(b"\x00\x01binary")
    (root / "pkg1" / "latin.py").write_bytes(b"def caf\xe9():\n    return 1\n")
    (root / "pkg2" / "notes.txt").write_text("not code\n")
    work = [(str(path.relative_to(root)), None, None)
            for path in sorted(root.rglob("*")) if path.is_file()]
    config = HygieneConfig()
    here = {r.path: r for r in (scan_one(str(root), path, None, config) for path, _, _ in work)}
    there = {r.path: r for r in scan_files(root, work, 2, None, config)}
    assert sorted(there) == sorted(here)
    for path, result in there.items():
        assert result.fields()[:4] == here[path].fields()[:4]  # all but checked_ns
        assert result.fields()[5:] == here[path].fields()[5:]


def test_a_directory_at_the_default_index_location_is_named_as_one_and_left(tmp_path,
                                                                            monkeypatch) -> None:
    # trial 7: "is damaged (not a ctxopt index) and cannot be moved aside: Not a directory"
    monkeypatch.delenv("CTXOPT_INDEX", raising=False)
    root = _tree(tmp_path / "repo", 3)
    (root / ".ctxopt" / "index.db").mkdir(parents=True)
    (root / ".ctxopt" / "index.db" / "mine.txt").write_text("kept")
    result = _gather(root)
    assert result.exit_code == 3 and len(result.stderr.splitlines()) == 1
    assert "index.db is a directory: remove it, or choose another --index" in result.stderr
    assert (root / ".ctxopt" / "index.db" / "mine.txt").read_text() == "kept"


@pytest.mark.parametrize("command", ["gather", "index"])
def test_an_index_missing_a_table_is_moved_aside_and_rebuilt(tmp_path, monkeypatch, command) -> None:
    # trial 8: a dropped table failed every later run with exit 3 ("no such table")
    monkeypatch.delenv("CTXOPT_INDEX", raising=False)
    root = _tree(tmp_path / "repo", 60)
    open_index(root)[0].close()
    database = root / ".ctxopt" / "index.db"
    with sqlite3.connect(database) as conn:
        table = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                             "AND name != 'meta' ORDER BY name").fetchone()[0]
        conn.execute(f"DROP TABLE {table}")
    stale = root / ".ctxopt" / "index.db.corrupt-wal"
    stale.write_bytes(b"the log of an older damaged copy")
    args = ["index", "--root", str(root)] if command == "index" else None
    result = CliRunner().invoke(main, args) if args else _gather(root)
    assert result.exit_code == 0, result.stderr
    assert "damaged" in result.stderr and "Traceback" not in result.stderr
    # (the older copy's log is kept, and pairs with no other copy: trial 39)
    assert (root / ".ctxopt" / "index.db.corrupt.1").is_file()
    assert stale.read_bytes() == b"the log of an older damaged copy"
    again = _gather(root)
    assert again.exit_code == 0 and "damaged" not in again.stderr and "helper_1" in again.stdout


_FAILING_SENDS = """
import errno, os, sys
from multiprocessing.connection import Connection
from pathlib import Path
from ctxopt.errors import IndexStoreError
from ctxopt.files.safety import HygieneConfig
from ctxopt.store.workers import scan_files

root = Path(sys.argv[1])
parent, send = os.getpid(), Connection.send_bytes
def failing(self, buf, *args):
    if os.getpid() != parent:  # a worker's answer cannot be written
        raise OSError(errno.ENOBUFS, "No buffer space available")
    return send(self, buf, *args)
Connection.send_bytes = failing
work = [(p.name, None, None) for p in sorted(root.glob("*.py"))]
try:
    sum(1 for _ in scan_files(root, work, 2, None, HygieneConfig()))
except IndexStoreError as exc:
    print("stopped:", exc)
"""


def test_a_worker_whose_answer_cannot_be_written_stops_the_index(tmp_path) -> None:
    # review 34: the answers are written by a thread of the worker; when a write failed,
    # the thread ended, the worker waited for its next chunk and the parent for the
    # answer, for ever (before, the worker died and the parent stopped with an error)
    for i in range(100):
        (tmp_path / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    done = subprocess.run([sys.executable, "-c", _FAILING_SENDS, str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert "stopped: a worker process died while indexing" in done.stdout, done.stderr


@linux_only
def test_the_parent_compiles_the_query_every_worker_needs_before_it_forks(tmp_path,
                                                                          monkeypatch) -> None:
    """A language with a chunk of work for every worker has its tag query compiled once,
    in the parent, and inherited by the forked workers (``workers.shared_languages``);
    one of a few files is compiled by the worker that meets it."""
    from ctxopt.files.safety import HygieneConfig
    from ctxopt.parsing import treesitter
    from ctxopt.store import workers

    root = _tree(tmp_path / "tree", 60)
    (root / "pkg0" / "one.go").write_text("package pkg\n\nfunc F() int { return 1 }\n")
    work = [(str(path.relative_to(root)), None, None)
            for path in sorted(root.rglob("*")) if path.is_file()]
    assert workers.shared_languages(work, 2) == ["python"]
    assert workers.shared_languages(work, 4) == []  # 60 Python files: under 4 chunks of 16
    loaded: list[str] = []
    load = treesitter.load_language
    monkeypatch.setattr(treesitter, "load_language",
                        lambda language: loaded.append(language) or load(language))
    results = list(workers.scan_files(root, work, 2, None, HygieneConfig()))
    assert len(results) == len(work) and {r.language for r in results} == {"python", "go"}
    assert loaded == ["python"]  # here, in the parent (the workers' calls are their own)


def test_a_second_damaged_index_is_moved_beside_the_first_with_its_log(tmp_path) -> None:
    # trial 39: the second damage replaced index.db.corrupt and left the first one's
    # index.db.corrupt-wal beside it, paired with the wrong copy
    from ctxopt.store.location import move_aside
    location = tmp_path / "index.db"
    for copy, suffixes in (("first", ("", "-wal")), ("second", ("", "-wal", "-shm"))):
        for suffix in suffixes:
            (tmp_path / f"index.db{suffix}").write_text(copy + suffix)
        move_aside(str(location))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "index.db.corrupt", "index.db.corrupt-wal", "index.db.corrupt.1",
        "index.db.corrupt.1-shm", "index.db.corrupt.1-wal"]
    assert (tmp_path / "index.db.corrupt-wal").read_text() == "first-wal"
    assert (tmp_path / "index.db.corrupt.1-wal").read_text() == "second-wal"
