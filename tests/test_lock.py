"""The update lock (ctxopt.store.lock): one update of an index at a time across
processes, a note when a run has to wait, and no lock rather than a failure when its file
cannot be made."""
from __future__ import annotations

import multiprocessing
import sys
from pathlib import Path

import pytest

from ctxopt.store.lock import update_lock


def _hold(location: str, held, release) -> None:  # type: ignore[no-untyped-def]
    with update_lock(location):
        held.set()
        release.wait(60)


def test_a_second_run_waits_for_the_holder_and_is_told(tmp_path: Path) -> None:
    location = str(tmp_path / "index.db")
    context = multiprocessing.get_context("spawn")
    held, release = context.Event(), context.Event()
    holder = context.Process(target=_hold, args=(location, held, release))
    holder.start()
    try:
        assert held.wait(60)
        notes: list[str] = []

        def note(text: str) -> None:
            notes.append(text)
            release.set()  # the holder lets go once this run waits

        with update_lock(location, note):
            assert not holder.is_alive() or release.is_set()
        assert notes == ["another ctxopt run is updating the index; waiting for it"]
    finally:
        release.set()
        holder.join(60)
    with update_lock(location, notes.append):  # free again: no wait, no note
        pass
    assert len(notes) == 1


def test_a_lock_file_that_cannot_be_made_does_not_stop_the_update(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    with update_lock(str(blocker / "index.db")):
        pass


def test_an_index_in_memory_takes_no_lock(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with update_lock(":memory:"):
        pass
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(sys.platform == "win32", reason="Windows takes the lock with filelock")
def test_the_lock_does_not_import_filelock_on_posix() -> None:
    import subprocess

    code = ("import sys, tempfile, os\nfrom ctxopt.store.lock import update_lock\n"
            "with update_lock(os.path.join(tempfile.mkdtemp(), 'i.db')): pass\n"
            "print('filelock' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
