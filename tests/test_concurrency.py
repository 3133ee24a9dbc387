"""Concurrent gathers on one repository (issue 13, case 1): they wait for each other's
indexing and reuse it, never fail on contention, and agree on the output."""
from __future__ import annotations

import difflib
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROUNDS = 3
RUNS = 8
TASK = "fix parse_record_7 when load_batch_3 fails"


def _write_tree(root: Path, files: int, version: int) -> None:
    """A generated repository: ``files`` modules calling each other; ``version`` changes
    the bodies of every tenth module (a real edit between rounds)."""
    for i in range(files):
        package = root / f"pkg{i % 8}"
        package.mkdir(parents=True, exist_ok=True)
        extra = f"    return x + {version}\n" if i % 10 == 0 else "    return x\n"
        (package / f"mod{i}.py").write_text(
            f"from pkg{(i + 1) % 8} import mod{(i + 1) % files}\n\n\n"
            f"def parse_record_{i}(x):\n    return mod{(i + 1) % files}.load_batch_{(i + 1) % files}(x)\n\n\n"
            f"def load_batch_{i}(x):\n{extra}\n\n"
            f"class Store{i}:\n    def save(self, x):\n        return parse_record_{i}(x)\n")


def _touch_while(root: Path, files: int, stop: threading.Event) -> None:
    """Rewrite files with the same bytes until ``stop``: their mtimes move, so every run
    re-hashes and writes them back while the others index and read."""
    i = 0
    while not stop.is_set():
        module = i % files
        path = root / f"pkg{module % 8}" / f"mod{module}.py"
        if path.exists():
            copy = root.parent / "saved.tmp"  # outside the tree: never listed
            copy.write_bytes(path.read_bytes())
            os.replace(copy, path)  # as editors save: never a half-written file
        i += 7
        stop.wait(0.01)


def _gathers(root: Path, env: dict[str, str]) -> list[subprocess.CompletedProcess]:
    command = [sys.executable, "-m", "ctxopt", "gather", TASK, "--root", str(root),
               "--jobs", "1", "--budget", "3000"]
    processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=env) for _ in range(RUNS)]
    runs = []
    for process in processes:
        out, err = process.communicate(timeout=300)
        runs.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return runs


@pytest.mark.skipif(sys.platform == "win32", reason="process start-up too slow to be useful")
def test_concurrent_gathers_all_succeed_and_agree(tmp_path) -> None:
    root = tmp_path / "repo"
    files = 240
    env = {**os.environ}
    env.pop("CTXOPT_INDEX", None)
    for round_ in range(ROUNDS):
        _write_tree(root, files, round_)
        if round_ != 1:  # rounds 0 and 2 start cold; round 1 updates an index 8 times at once
            for leftover in (root / ".ctxopt").glob("index.db*"):
                leftover.unlink()
        stop = threading.Event()
        toucher = threading.Thread(target=_touch_while, args=(root, files, stop))
        toucher.start()
        try:
            runs = _gathers(root, env)
        finally:
            stop.set()
            toucher.join()
        failures = [(r.returncode, r.stderr.decode()) for r in runs if r.returncode != 0]
        assert failures == [], f"round {round_}"
        outputs = sorted({r.stdout.decode() for r in runs})
        assert len(outputs) == 1, f"round {round_}:\n" + "".join(difflib.unified_diff(
            outputs[0].splitlines(True), outputs[1].splitlines(True)))
        assert "parse_record_7" in outputs[0]
