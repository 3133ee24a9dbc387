"""An index whose rows were deleted by hand or by a tool, leaving rows that refer to rows
that are gone (``store.consistency``): the gather moves it aside, rebuilds it, and
answers as a fresh index does, with a one-line note; never a traceback."""
from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ctxopt.cli import main

FILES = {
    "storage.py": "class Storage:\n"
                  "    def __init__(self):\n        self.data = {}\n\n"
                  "    def get(self, key):\n        return self.data.get(key)\n\n"
                  "    def put(self, key, value):\n        self.data[key] = value\n\n\n"
                  "def open_storage():\n    return Storage()\n",
    "app.py": "from storage import open_storage\nfrom helpers import clean\n\n\n"
              "def run(key):\n    store = open_storage()\n    return clean(store.get(key))\n",
    "helpers.py": "def clean(value):\n    return value.strip()\n",
    "tests/test_storage.py": "from storage import Storage\n\n\n"
                             "def test_get():\n    assert Storage().get('a') is None\n",
}
TASK = "fix Storage.get returning None in run"
# The tables holding rows of one file, by ``file_id`` (``files`` aside).
FILE_TABLES = ("defs", "uses", "postings", "import_specs", "bindings", "resolved")


def _gather(root: Path, *extra: str) -> Result:
    return CliRunner().invoke(main, ["gather", TASK, "--root", str(root), *extra])


def _file_id(conn: sqlite3.Connection, path: str) -> int:
    return conn.execute("SELECT id FROM files WHERE path = ?", (path.encode(),)).fetchone()[0]


def _middle_definition(conn: sqlite3.Connection, root: Path) -> None:
    conn.execute("DELETE FROM defs WHERE name = 'get'")


def _last_definition(conn: sqlite3.Connection, root: Path) -> None:
    conn.execute("DELETE FROM defs WHERE name = 'open_storage'")


def _file_row(conn: sqlite3.Connection, root: Path) -> None:
    # the file is read again under a new id; its old rows remain
    conn.execute("DELETE FROM files WHERE id = ?", (_file_id(conn, "storage.py"),))


def _file_row_of_the_last_id(conn: sqlite3.Connection, root: Path) -> None:
    # the file read again gets the same id, which its old rows still hold
    conn.execute("DELETE FROM files WHERE id = (SELECT MAX(id) FROM files)")


def _file_row_leaving_only(table: str) -> Callable[[sqlite3.Connection, Path], None]:
    def damage(conn: sqlite3.Connection, root: Path) -> None:
        file_id = _file_id(conn, "storage.py")
        conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
        for other in FILE_TABLES:
            if other != table:
                conn.execute(f"DELETE FROM {other} WHERE file_id = ?", (file_id,))
    return damage


def _uses_rows(conn: sqlite3.Connection, root: Path) -> None:
    # the uses they resolved to are kept (store.resolved)
    conn.execute("DELETE FROM uses WHERE name IN ('get', 'open_storage')")


def _gone_file_leaving_what_points_at_it(conn: sqlite3.Connection, root: Path) -> None:
    # the import edges, bindings and resolved uses of other files still name it
    (root / "helpers.py").unlink()
    file_id = _file_id(conn, "helpers.py")
    conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
    for table in FILE_TABLES:
        conn.execute(f"DELETE FROM {table} WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM imports WHERE src = ?", (file_id,))
    assert conn.execute("SELECT COUNT(*) FROM bindings WHERE dst = ?", (file_id,)).fetchone()[0]


DAMAGE = {
    "a definition in the middle of a file": _middle_definition,
    "the last definition of a file": _last_definition,
    "a file's row": _file_row,
    "the row of the file with the last id": _file_row_of_the_last_id,
    "a file's row and rows but its definitions": _file_row_leaving_only("defs"),
    "a file's row and rows but its uses": _file_row_leaving_only("uses"),
    "a file's row and rows but its postings": _file_row_leaving_only("postings"),
    "uses rows whose resolved uses remain": _uses_rows,
    "a gone file's rows but what points at it": _gone_file_leaving_what_points_at_it,
}


@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_rows_referring_to_deleted_rows_are_damage_rebuilt_in_the_same_run(
        make_repo, tmp_path, monkeypatch, damage) -> None:
    monkeypatch.delenv("CTXOPT_INDEX", raising=False)
    root = make_repo(FILES)
    for path in FILES:  # older than update.RACY_NS: the update reads no file again
        os.utime(root / path, (time.time() - 60, time.time() - 60))
    for _ in range(2):  # the second run stores the uses it resolved (store.resolved)
        assert _gather(root).exit_code == 0
    database = root / ".ctxopt" / "index.db"
    with sqlite3.connect(database) as conn:
        assert conn.execute("SELECT COUNT(*) FROM resolved").fetchone()[0]
        DAMAGE[damage](conn, root)
    fresh = _gather(root, "--index", str(tmp_path / "fresh.db"))
    assert fresh.exit_code == 0, fresh.stderr

    result = _gather(root)

    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    (note,) = [line for line in result.stderr.splitlines() if "moved it to" in line]
    assert "damaged" in note and f"moved it to {database}.corrupt" in note
    assert result.stdout == fresh.stdout
    again = _gather(root)
    assert again.exit_code == 0 and "damaged" not in again.stderr
    assert again.stdout == fresh.stdout


def test_a_replaced_index_is_not_counted_among_the_skipped_files(make_repo, monkeypatch) -> None:
    # trial 37: after a damaged index was replaced the note said "skipped or degraded
    # files: 1 damaged index", as if the index were a source file
    monkeypatch.delenv("CTXOPT_INDEX", raising=False)
    root = make_repo({"s.py": "class Storage:\n    pass\n"})
    assert _gather(root).exit_code == 0
    (root / ".ctxopt" / "index.db").write_text("not a database\n")
    result = _gather(root)
    assert result.exit_code == 0
    assert [line for line in result.stderr.splitlines() if "damaged" in line] == [
        f"ctxopt: the index {root / '.ctxopt' / 'index.db'} was damaged (not a ctxopt index); "
        f"moved it to {root / '.ctxopt' / 'index.db.corrupt'} and rebuilt it"]


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_index_does_not_list_a_replaced_index_as_a_skipped_file(
        make_repo, monkeypatch, output_format) -> None:
    # session 38: `ctxopt index` after a damaged index was replaced printed
    # "skipped: 1 damaged index" and listed the index among the skipped files
    import json

    monkeypatch.delenv("CTXOPT_INDEX", raising=False)
    root = make_repo({"s.py": "class Storage:\n    pass\n"})
    assert _gather(root).exit_code == 0
    database = root / ".ctxopt" / "index.db"
    database.write_text("not a database\n")

    result = CliRunner().invoke(main, ["index", "--root", str(root), "--format", output_format])

    assert result.exit_code == 0, result.output
    if output_format == "text":
        assert "skipped: none\n" in result.stdout
        assert f"\n  {database} (" not in result.stdout  # (a skipped file's line)
    else:
        data = json.loads(result.stdout)
        assert data["skipped"] == {} and data["rebuilt"] is True
        assert [d["reason"] for d in data["diagnostics"]] == ["damaged index"]
