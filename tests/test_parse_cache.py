"""The parse cache shared across checkouts (ctxopt.store.parsecache): a second checkout
parses nothing, a changed file is parsed again, a damaged entry is ignored and rewritten,
concurrent writers lose nothing, and the index is the same with the cache or without."""
from __future__ import annotations

import json
import multiprocessing
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ctxopt.cli import main
from ctxopt.store import IndexOptions, open_index
from ctxopt.store.parsecache import ParseCache, cache_directory

# a checkout with Python and TypeScript, a file skipped for its content and one not parsed
TREE = {
    "app/__init__.py": "from .store import Store as S\n",
    "app/store.py": "class Store:\n    def get(self, key):\n        return key\n",
    "app/cli.py": "from app.store import Store\n\ndef main():\n    return Store().get(1)\n",
    "web/shapes.ts": "export class Circle { area(): number { return 3 } }\n",
    "web/index.ts": "import { Circle } from './shapes'\nexport const c = new Circle()\n",
    "data.bin": b"\x00\x01\x02" * 50,
    "README.md": "Store things.\n",
}


def _index(runner, root: Path, cache: Path | str, database: Path | None = None) -> dict:
    arguments = ["index", "--root", str(root), "--format", "json", "--jobs", "1",
                 "--parse-cache", str(cache)]
    if database is not None:
        arguments += ["--index", str(database)]
    result = runner.invoke(main, arguments, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _gather(runner, root: Path, database: Path | None = None) -> str:
    arguments = ["gather", "fix the Store get bug", "--root", str(root), "--format", "json"]
    if database is not None:
        arguments += ["--index", str(database)]
    result = runner.invoke(main, arguments, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout.replace(str(root), "ROOT")


def _rows(database: Path) -> dict[str, list[tuple]]:
    """Every table's rows, with file ids as paths (workers store files in the order they
    finish), without the files' mtimes and the moments they were checked."""
    conn = sqlite3.connect(database)
    try:
        paths = dict(conn.execute("SELECT id, path FROM files"))
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        rows = {}
        for table in tables:
            if table in ("files", "meta"):
                continue
            cursor = conn.execute(f"SELECT * FROM {table}")
            ids = [i for i, column in enumerate(cursor.description)
                   if column[0] in ("file_id", "src", "dst")]
            rows[table] = sorted((tuple(paths.get(v) if i in ids else v for i, v in enumerate(row))
                                  for row in cursor), key=repr)
        rows["files"] = sorted(conn.execute(
            "SELECT path, size, hash, language, line_count, skip, detail, doc_count,"
            " doc_length, file_length, notes FROM files"))
        return rows
    finally:
        conn.close()


def _files_read(summary: dict) -> int:
    return summary["parse_cache"]["hits"] + summary["parse_cache"]["misses"]


def test_a_second_checkout_parses_nothing(runner, make_repo, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _index(runner, make_repo(TREE, "one"), cache)
    assert first["parse_cache"]["hits"] == 0 and first["parse_cache"]["misses"] >= 6
    assert first["parse_cache"]["directory"] == str(cache)
    second = _index(runner, make_repo(TREE, "two"), cache)
    assert second["parse_cache"] == {**first["parse_cache"], "hits": _files_read(first),
                                     "misses": 0}
    strip = ("index", "seconds", "parse_cache")
    assert {k: v for k, v in first.items() if k not in strip} == \
        {k: v for k, v in second.items() if k not in strip}
    assert _gather(runner, tmp_path / "one") == _gather(runner, tmp_path / "two")


def test_a_changed_file_is_parsed_again(runner, make_repo, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _index(runner, make_repo(TREE, "one"), cache)
    two = make_repo(TREE, "two")
    (two / "app" / "store.py").write_text("class Store:\n    def put(self, key):\n        pass\n")
    second = _index(runner, two, cache)
    assert second["parse_cache"]["misses"] == 1
    assert "put" in _gather(runner, two)  # the new content's tags, not the cached ones


def test_the_same_path_and_content_under_other_options_is_not_a_hit(
        runner, make_repo, tmp_path) -> None:
    cache = tmp_path / "cache"
    _index(runner, make_repo(TREE, "one"), cache)
    result = runner.invoke(main, ["index", "--root", str(make_repo(TREE, "two")),
                                  "--format", "json", "--jobs", "1", "--parse-cache", str(cache),
                                  "--allow-secrets"], catch_exceptions=False)
    assert json.loads(result.stdout)["parse_cache"]["hits"] == 0


def test_a_damaged_entry_is_ignored_and_rewritten(runner, make_repo, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _index(runner, make_repo(TREE, "one"), cache)
    conn = sqlite3.connect(cache / "cache.db")
    with conn:  # one entry's payload flipped, one cut short, the others garbage
        keys = [key for (key,) in conn.execute("SELECT key FROM scans ORDER BY key")]
        value = conn.execute("SELECT value FROM scans WHERE key = ?", (keys[0],)).fetchone()[0]
        conn.execute("UPDATE scans SET value = ? WHERE key = ?",
                     (value[:-1] + bytes([value[-1] ^ 1]), keys[0]))
        conn.execute("UPDATE scans SET value = substr(value, 1, 20) WHERE key = ?", (keys[1],))
        conn.execute("UPDATE scans SET value = randomblob(40) WHERE key NOT IN (?, ?)",
                     (keys[0], keys[1]))
    conn.close()
    second = _index(runner, make_repo(TREE, "two"), cache)
    assert second["parse_cache"]["hits"] == 0
    assert second["parse_cache"]["misses"] == _files_read(first)
    assert _gather(runner, tmp_path / "two") == _gather(runner, tmp_path / "one")
    third = _index(runner, make_repo(TREE, "three"), cache)  # rewritten: all hits
    assert third["parse_cache"]["hits"] == _files_read(first)


def test_a_file_that_is_not_a_database_is_set_aside(runner, make_repo, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "cache.db").write_bytes(b"not a database at all" * 100)
    expected = _index(runner, make_repo(TREE, "zero"), "off")["parsed"]
    summary = _index(runner, make_repo(TREE, "one"), cache)
    assert summary["parsed"] == expected and summary["parse_cache"]["hits"] == 0
    assert (cache / "cache.db.damaged").read_bytes() == b"not a database at all" * 100
    assert _index(runner, make_repo(TREE, "two"), cache)["parse_cache"]["misses"] == 0


def test_a_cache_that_cannot_be_made_leaves_indexing_alone(
        runner, make_repo, tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    expected = _index(runner, make_repo(TREE, "zero"), "off")["parsed"]
    # (the library's option: the command line refuses such a directory)
    index, report = open_index(make_repo(TREE, "one"), IndexOptions(
        jobs=1, parse_cache=blocked / "cache"))
    index.close()
    assert report.parsed == expected and report.cache_hits == 0


@pytest.mark.parametrize("command", [["index"], ["gather", "fix the Store get bug"]])
@pytest.mark.parametrize("where", ["file", "below a file", "env"])
def test_a_parse_cache_that_cannot_be_a_directory_is_bad_input(
        runner, make_repo, tmp_path: Path, monkeypatch, command, where) -> None:
    # trial: --parse-cache naming a regular file was taken, and the cache silently unused
    root = make_repo(TREE)
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    setting = blocked if where != "below a file" else blocked / "cache"
    options = ["--parse-cache", str(setting)]
    if where == "env":
        monkeypatch.setenv("CTXOPT_PARSE_CACHE", str(setting))
        options = []
    result = runner.invoke(main, [*command, "--root", str(root), *options])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"Error: Invalid value for '--parse-cache': {str(blocked)!r} "
                                    "is not a directory (a directory or 'off' expected)")
    assert len(result.stderr.splitlines()) == 1 and blocked.read_text() == "x"
    assert not (root / ".ctxopt").exists()  # refused before any work


def test_off_disables_the_cache(runner, make_repo, tmp_path: Path, monkeypatch) -> None:
    summary = _index(runner, make_repo(TREE, "one"), "off")
    assert summary["parse_cache"] == {"directory": None, "hits": 0, "misses": 0}
    monkeypatch.setenv("CTXOPT_PARSE_CACHE", "OFF")
    assert cache_directory(True) is None
    monkeypatch.delenv("CTXOPT_PARSE_CACHE")
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path / "caches"))
    assert cache_directory(True) == tmp_path / "caches" / "parse"
    monkeypatch.delenv("CTXOPT_CACHE_DIR")
    assert cache_directory(True).parts[-2:] == ("ctxopt", "parse")  # platformdirs'
    assert cache_directory(tmp_path) == tmp_path


def test_the_index_is_the_same_with_the_cache_or_without_it_cold_or_warm(
        runner, make_repo, tmp_path) -> None:
    root = make_repo(TREE, "one")
    cache = tmp_path / "cache"
    databases = [tmp_path / f"{name}.db" for name in ("off", "miss", "hit")]
    for database, setting in zip(databases, ("off", cache, cache)):
        _index(runner, root, setting, database)
    assert _rows(databases[0]) == _rows(databases[1]) == _rows(databases[2])
    gathers = {_gather(runner, root, database) for database in databases}
    assert len(gathers) == 1
    (root / "web" / "shapes.ts").write_text("export class Square { side = 2 }\n")
    for database in databases:  # warm: an update through the cache, and without it
        _index(runner, root, "off" if database is databases[0] else cache, database)
    assert _rows(databases[0]) == _rows(databases[1]) == _rows(databases[2])


def _write_entries(directory: Path, start: int, count: int) -> None:
    cache = ParseCache(directory, b"test")
    for i in range(start, start + count):
        cache.put(cache.key(f"f{i}.py", f"{i:032x}", None), (f"{i:032x}", "python", i) + (None,) * 8)
    cache.close()


def _write_when_set(directory: Path, start: int, go: Any) -> None:
    go.wait()
    _write_entries(directory, start, 20)


def test_writers_starting_together_on_a_new_cache_lose_nothing(tmp_path: Path) -> None:
    """Four processes opening an empty cache at once: switching the new database to WAL
    answered "database is locked" without waiting, and a worker wrote nothing."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    for attempt in range(40):
        directory = tmp_path / str(attempt)
        go = context.Event()
        writers = [context.Process(target=_write_when_set, args=(directory, start, go))
                   for start in (0, 20, 40, 60)]
        for writer in writers:
            writer.start()
        go.set()
        for writer in writers:
            writer.join(120)
            assert writer.exitcode == 0
        cache = ParseCache(directory, b"test")
        missing = [i for i in range(80)
                   if cache.get(cache.key(f"f{i}.py", f"{i:032x}", None)) is None]
        cache.close()
        assert missing == [], f"round {attempt}"


def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_write_entries, args=(tmp_path, start, 700))
               for start in (0, 700)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    cache = ParseCache(tmp_path, b"test")
    for i in range(1400):
        assert cache.get(cache.key(f"f{i}.py", f"{i:032x}", None)) == \
            (f"{i:032x}", "python", i) + (None,) * 8
    cache.close()


@pytest.mark.parametrize("jobs", [2])
def test_worker_processes_read_and_write_the_cache(tmp_path: Path, jobs: int) -> None:
    """Enough files for the worker processes: the second checkout is all hits."""
    files = {f"pkg/m{i}.py": f"def f{i}(x):\n    return g{i % 7}(x)\n" for i in range(80)}
    reports = []
    for name in ("one", "two"):
        root = tmp_path / name
        for relative, text in files.items():
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text(text)
        index, report = open_index(root, IndexOptions(path=tmp_path / f"{name}.db", jobs=jobs,
                                                      parse_cache=tmp_path / "cache"))
        index.close()
        reports.append(report)
    assert (reports[0].cache_hits, reports[0].cache_misses) == (0, 80)
    assert (reports[1].cache_hits, reports[1].cache_misses) == (80, 0)
    assert _rows(tmp_path / "one.db") == _rows(tmp_path / "two.db")
    shutil.rmtree(tmp_path / "cache")


def test_a_write_that_fails_after_the_scan_keeps_the_cache_entries(tmp_path: Path,
                                                                      monkeypatch) -> None:
    # review 34: the parent writes the workers' entries; when the last batch's write
    # failed, the entries it still held were lost and its connection left open
    from ctxopt.errors import IndexStoreError
    from ctxopt.store import update

    files = {f"pkg/m{i}.py": f"def f{i}(x):\n    return g{i % 7}(x)\n" for i in range(80)}
    roots = []
    for name in ("one", "two"):
        roots.append(tmp_path / name)
        for relative, text in files.items():
            (roots[-1] / relative).parent.mkdir(parents=True, exist_ok=True)
            (roots[-1] / relative).write_text(text)
    options = IndexOptions(path=tmp_path / "one.db", jobs=2, parse_cache=tmp_path / "cache")
    write = update._write_batch
    calls = []

    def last_fails(conn: sqlite3.Connection, pending: list) -> set[str]:
        calls.append(len(pending))
        if len(pending) < update.COMMIT_EVERY:  # the last batch, after the scan
            raise sqlite3.OperationalError("database or disk is full")
        return write(conn, pending)

    monkeypatch.setattr(update, "_write_batch", last_fails)
    with pytest.raises((IndexStoreError, sqlite3.OperationalError)):
        open_index(roots[0], options)
    monkeypatch.undo()
    assert calls and calls[-1] < update.COMMIT_EVERY
    index, report = open_index(roots[1], IndexOptions(path=tmp_path / "two.db", jobs=1,
                                                      parse_cache=tmp_path / "cache"))
    index.close()
    assert (report.cache_hits, report.cache_misses) == (80, 0)


def test_library_versions_are_the_installed_ones() -> None:
    """The versions in the code fingerprint, read from the dist-info directories, are
    those importlib.metadata reports."""
    from importlib import metadata

    from ctxopt.store.parsecache import _LIBRARIES, library_version

    for name, module in _LIBRARIES:
        assert library_version(name, module) == metadata.version(name)
    assert library_version("no-such-library", "no_such_library") == "none"


def test_entries_are_appended_and_looked_up_by_their_key_index(tmp_path: Path) -> None:
    """Values go to the end of a rowid table, in the order written, and a lookup searches
    the key's index (a table ordered by key inserted each value at a random page)."""
    _write_entries(tmp_path, 0, 30)
    conn = sqlite3.connect(tmp_path / "cache.db")
    try:
        cache = ParseCache(tmp_path, b"test")
        written = [cache.key(f"f{i}.py", f"{i:032x}", None) for i in range(30)]
        assert [key for (key,) in conn.execute("SELECT key FROM scans ORDER BY rowid")] == written
        plan = " ".join(row[-1] for row in conn.execute(
            "EXPLAIN QUERY PLAN SELECT value FROM scans WHERE key = ?", (written[0],)))
        assert "SEARCH" in plan and "INDEX" in plan, plan
    finally:
        conn.close()


def test_a_cache_of_an_earlier_layout_is_used_and_its_table_dropped(
        runner, make_repo, tmp_path: Path) -> None:
    """A cache.db made by an earlier build (a ``WITHOUT ROWID`` table ``entries``, whose
    keys no current build can match): its table is dropped and the current one filled."""
    cache = tmp_path / "cache"
    cache.mkdir()
    conn = sqlite3.connect(cache / "cache.db")
    conn.execute("CREATE TABLE entries(key BLOB PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID")
    conn.execute("INSERT INTO entries VALUES (x'00', x'01')")
    conn.commit()
    conn.close()
    first = _index(runner, make_repo(TREE, "one"), cache)
    second = _index(runner, make_repo(TREE, "two"), cache)
    assert first["parse_cache"]["misses"] == second["parse_cache"]["hits"] >= 6
    assert second["parse_cache"]["misses"] == 0
    conn = sqlite3.connect(cache / "cache.db")
    try:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    assert tables == {"scans"}


def test_a_full_cache_drops_its_oldest_entries(tmp_path: Path) -> None:
    """Past ``max_bytes`` of pages in use, a write deletes the oldest entries until 90% of
    it is left: the newest stay, and the database stops growing."""
    limit = 256 * 1024
    cache = ParseCache(tmp_path, b"test", max_bytes=limit)
    keys = [cache.key(f"f{i}.py", f"{i:032x}", None) for i in range(400)]
    for i, key in enumerate(keys):
        cache.put(key, (f"{i:032x}", "python", i, None, "x" * 2000) + (None,) * 6)
    cache.close()
    conn = sqlite3.connect(tmp_path / "cache.db")
    try:
        page_size, pages, free = (conn.execute(f"PRAGMA {name}").fetchone()[0]
                                  for name in ("page_size", "page_count", "freelist_count"))
        kept = [key for (key,) in conn.execute("SELECT key FROM scans ORDER BY id")]
    finally:
        conn.close()
    assert (pages - free) * page_size <= limit
    assert 0 < len(kept) < 400 and kept == keys[-len(kept):]  # the newest, in order
    reopened = ParseCache(tmp_path, b"test")
    assert reopened.get(keys[-1]) is not None and reopened.get(keys[0]) is None
    reopened.close()


def test_the_free_pages_of_an_earlier_layout_are_given_back(tmp_path: Path) -> None:
    """trial 4: an earlier build's table, dropped, left a cache file three times the cap
    (2.1 GB of free pages that nothing reused): a write gives them back, and a database
    made now frees pages on request."""
    limit = 256 * 1024
    conn = sqlite3.connect(tmp_path / "cache.db")
    conn.execute("CREATE TABLE entries(key BLOB PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID")
    conn.executemany("INSERT INTO entries VALUES (?, ?)",
                     [(i.to_bytes(4, "big"), b"x" * 4000) for i in range(1000)])
    conn.commit()
    conn.close()
    assert (tmp_path / "cache.db").stat().st_size > 4_000_000
    cache = ParseCache(tmp_path, b"test", max_bytes=limit)
    key = cache.key("f.py", "0" * 32, None)
    cache.put(key, ("0" * 32, "python", 0) + (None,) * 8)
    cache.close()
    assert (tmp_path / "cache.db").stat().st_size <= limit
    conn = sqlite3.connect(tmp_path / "cache.db")
    try:
        assert conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental
    finally:
        conn.close()
    reopened = ParseCache(tmp_path, b"test", max_bytes=limit)
    assert reopened.get(key) is not None
    reopened.close()


def test_a_new_cache_frees_pages_on_request(tmp_path: Path) -> None:
    limit = 2 * 1024 * 1024
    cache = ParseCache(tmp_path, b"test", max_bytes=limit)
    for i in range(400):
        cache.put(cache.key(f"f{i}.py", f"{i:032x}", None),
                  (f"{i:032x}", "python", i, None, "x" * 2000) + (None,) * 6)
    cache.close()
    conn = sqlite3.connect(tmp_path / "cache.db")
    try:
        assert conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental
        conn.execute("DELETE FROM scans WHERE id > 10")  # 800 kB of pages freed
        conn.commit()
    finally:
        conn.close()
    cache = ParseCache(tmp_path, b"test", max_bytes=limit)
    cache.put(cache.key("g.py", "0" * 32, None), ("0" * 32, "python", 0) + (None,) * 8)
    cache.close()
    conn = sqlite3.connect(tmp_path / "cache.db")
    try:
        free, page_size = (conn.execute(f"PRAGMA {name}").fetchone()[0]
                           for name in ("freelist_count", "page_size"))
    finally:
        conn.close()
    assert free * page_size <= limit * 0.25 / 2


def test_the_code_fingerprint_is_kept_by_the_files_sizes_and_times(tmp_path, monkeypatch) -> None:
    # issue 14: reading and hashing ctxopt's files was 0.8% of a warm gather's instructions
    from ctxopt.store import parsecache

    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path))
    digests = []
    digest_files = parsecache._digest_files
    monkeypatch.setattr(parsecache, "_digest_files",
                        lambda *args: digests.append(1) or digest_files(*args))
    first = parsecache.code_fingerprint.__wrapped__()
    assert parsecache.code_fingerprint.__wrapped__() == first == parsecache.code_fingerprint()
    assert digests == [1]
