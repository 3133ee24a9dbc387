"""The persistent index: it answers like a fresh cold build, after any sequence of edits."""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from ctxopt import store
from ctxopt.store import scan, schema, update
from ctxopt.files.text import decode_text, normalize_newlines
from ctxopt.lexical import LexicalIndex, file_documents
from ctxopt.errors import UsageError
from ctxopt.store import IndexOptions, IndexStoreError, open_index

KINDS = ("contains", "references", "inherits", "imports", "tests")


def _snapshot(index) -> dict:
    """Every answer of the query surface, in a canonical form."""
    names = index.name_counts()
    nodes = list(index.files) + sorted({n for name in names for n in index.definitions_named(name)})
    answer: dict = {"files": list(index.files), "names": dict(sorted(names.items()))}
    for name in names:
        answer[f"named {name}"] = index.definitions_named(name)
    for node in nodes:
        answer[node] = {
            "path": index.path_of(node), "file": index.is_file(node), "test": index.is_test(node),
            "definition": None if index.is_file(node) else index.definition(node),
            "in": sorted((s, k, tuple(sorted(d.items()))) for s, k, d in index.edges_in(node, KINDS)),
            "out": sorted((t, k, tuple(sorted(d.items()))) for t, k, d in index.edges_out(node, KINDS)),
        }
    for path in index.files:
        answer[f"tags {path}"] = index.file_tags(path)
        answer[f"lines {path}"] = index.line_count(path)
        answer[f"definitions {path}"] = index.file_definitions(path)
    answer["diagnostics"] = sorted((d.path, d.reason) for d in index.diagnostics)
    return answer


def _stored(root: Path, **options) -> tuple[dict, store.UpdateReport]:
    index, report = open_index(root, IndexOptions(**options))
    with index:
        return _snapshot(index), report


def _documents(root: Path, index) -> list:
    """The lexical documents of every parsed file of an index, read again from disk."""
    found = []
    for path in index.files:
        tags = index.file_tags(path)
        if tags is not None:
            text = normalize_newlines(decode_text((root / path).read_bytes()).text)
            found.append(file_documents(path, text, tags))
    return found


def _vocabulary(documents: list) -> list[str]:
    """Every term of the lexical documents, and one unknown."""
    terms: set[str] = {"zzz-no-such-term", "=\udcff"}
    for document in documents:
        terms.update(document.file)
        for definition in document.definitions:
            terms.update(definition)
    return sorted(terms)


def _lexical_scores(index, terms: list[str]) -> list[tuple[str, dict, dict]]:
    """BM25 answers for each term alone, for all terms at once (weights 1-3) and for none."""
    queries = [Counter({term: 1}) for term in terms]
    queries.append(Counter({term: 1 + i % 3 for i, term in enumerate(terms)}))
    queries.append(Counter())
    return [(repr(query)[:80], index.lexical.score_definitions(query),
             index.lexical.score_files(query)) for query in queries]


def _assert_same_scores(got: dict[str, float], expected: dict[str, float], query: str) -> None:
    assert list(got) == list(expected), query  # same documents, in the same order
    for key, value in expected.items():
        assert abs(got[key] - value) <= 1e-9, (query, key, got[key], value)


def _assert_matches_oracle(root: Path, **options) -> store.UpdateReport:
    """The index of ``root`` as updated (with ``options``) answers exactly like a cold index
    built in one process elsewhere, and its BM25 scores are those of ``lexical.LexicalIndex``
    over the files' documents."""
    index, report = open_index(root, IndexOptions(**options))
    with tempfile.TemporaryDirectory() as directory:
        oracle, _ = open_index(root, IndexOptions(path=Path(directory) / "oracle.db", jobs=1))
        with oracle:
            expected = _snapshot(oracle)
            documents = _documents(root, oracle)
    terms = _vocabulary(documents)
    with index:
        snapshot = _snapshot(index)
        scores = _lexical_scores(index, terms)
    assert snapshot.keys() == expected.keys()
    for key in expected:
        assert snapshot[key] == expected[key], key
    in_memory = SimpleNamespace(lexical=LexicalIndex(documents))
    for (query, definitions, files), (_, want_definitions, want_files) in zip(
            scores, _lexical_scores(in_memory, terms), strict=True):
        _assert_same_scores(definitions, want_definitions, query)
        _assert_same_scores(files, want_files, query)
    # the terms a definition's document holds are the terms alone that score it
    holders: dict[str, list[str]] = {}
    for term, (_, definitions, _) in zip(terms, scores, strict=False):
        for node in definitions:
            holders.setdefault(node, []).append(term)
    with index:
        for node, held in holders.items():
            assert index.lexical.terms_held(node, terms) == held, node
            assert in_memory.lexical.terms_held(node, terms) == held, node
    return report


def _age(root: Path, seconds: float = 3600) -> None:
    """Make every file look old, so the stat check (not the hash) decides."""
    past = time.time() - seconds
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (past, past))


@pytest.mark.parametrize("name", ["py_storage", "go_storage", "web_ts"])
def test_cold_index_answers_like_a_serial_build_and_the_lexical_index(fixture_repo, name: str) -> None:
    report = _assert_matches_oracle(fixture_repo(name))
    assert report.rebuilt and report.parsed > 0


def test_parallel_workers_answer_like_a_serial_build(make_repo) -> None:
    files = {f"pkg/mod{i}.py": f"from pkg.mod{i - 1} import f{i - 1}\n\n"
             f"def f{i}(x):\n    return f{i - 1}(x) + {i}\n" for i in range(1, 80)}
    files["pkg/mod0.py"] = "def f0(x):\n    return x\n"
    report = _assert_matches_oracle(make_repo(files), jobs=2)
    assert report.parsed == 80


def test_unchanged_tree_reads_no_file(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    _age(root)
    open_index(root)[0].close()
    index, report = open_index(root)
    index.close()
    assert (report.scanned, report.parsed, report.removed, report.rebuilt) == (0, 0, 0, False)


def test_touched_but_unchanged_file_is_hashed_not_parsed(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    _age(root)
    open_index(root)[0].close()
    os.utime(root / "storage/db.py")  # mtime now, same content
    index, report = open_index(root)
    index.close()
    assert (report.scanned, report.parsed) == (1, 0)


def test_a_file_read_again_and_found_the_same_leaves_the_import_edges_current(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    _age(root)
    open_index(root)[0].close()
    os.utime(root / "storage/db.py")  # mtime now, same content: read again on each run
    for _ in range(2):
        index, report = open_index(root)
        index.close()
        assert report.scanned == 1
        conn = sqlite3.connect(root / ".ctxopt" / "index.db")
        try:
            assert schema.read_meta(conn)["imports_dirty"] == "0"
        finally:
            conn.close()


def test_same_size_edit_within_the_racy_window_is_seen(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    target = root / "storage/db.py"
    os.utime(target)  # written just now: its mtime cannot prove it unchanged
    open_index(root)[0].close()
    stat = target.stat()
    text = target.read_text()
    target.write_text(text.replace("def delete(", "def remove("))
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime
    snapshot, _ = _stored(root)
    assert "storage/db.py#" in "".join(snapshot["named remove"])


def _edit(root: Path, path: str, old: str, new: str) -> None:
    target = root / path
    text = target.read_text()
    assert old in text
    target.write_text(text.replace(old, new))


EDITS = {
    "file added": lambda root: (root / "storage/extra.py").write_text(
        "from storage.db import Storage\n\n\nclass ExtraStorage(Storage):\n"
        "    def get(self, key):\n        return Storage.get(self, key)\n"),
    "file changed": lambda root: _edit(root, "app/service.py", "Storage(", "StorageFactory("),
    "file renamed": lambda root: (root / "storage/db.py").rename(root / "storage/database.py"),
    "file deleted": lambda root: (root / "storage/cache.py").unlink(),
    "symbol moved": lambda root: (
        _edit(root, "storage/db.py", "class StorageError(Exception):", "class _Unused:"),
        (root / "app/errors.py").write_text("class StorageError(Exception):\n    pass\n")),
    "file stops parsing": lambda root: _edit(root, "storage/db.py", "def get(", "def get(((:"),
    "file becomes binary": lambda root: (root / "storage/cache.py").write_bytes(b"\x00\x01" * 50),
    "import added": lambda root: _edit(root, "app/cli.py", "\n", "\nimport storage.cache\n"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_incremental_update_answers_like_a_fresh_build(fixture_repo, edit: str) -> None:
    root = fixture_repo("py_storage")
    open_index(root)[0].close()
    EDITS[edit](root)
    report = _assert_matches_oracle(root)
    assert not report.rebuilt


def test_a_sequence_of_edits_stays_equal_to_a_fresh_build(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    order = ["file added", "file changed", "symbol moved", "import added", "file stops parsing",
             "file deleted", "file becomes binary", "file renamed"]
    assert sorted(order) == sorted(EDITS)
    for edit in order:
        EDITS[edit](root)
        _assert_matches_oracle(root)


def test_only_changed_files_are_parsed_again(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    _age(root)
    open_index(root)[0].close()
    _edit(root, "app/service.py", "Storage(", "StorageFactory(")
    index, report = open_index(root)
    index.close()
    assert (report.scanned, report.parsed) == (1, 1)


def test_go_method_moved_to_another_file_of_the_package(fixture_repo) -> None:
    root = fixture_repo("go_storage")
    open_index(root)[0].close()
    source = (root / "storage/db.go").read_text()
    start = source.index("func (s *Storage) Get(")
    end = source.index("\n}\n", start) + 3
    (root / "storage/db.go").write_text(source[:start] + source[end:])
    (root / "storage/get.go").write_text("package storage\n\n" + source[start:end])
    _assert_matches_oracle(root)


def test_a_file_whose_parser_fails_is_skipped_then_recovered(fixture_repo, monkeypatch) -> None:
    root = fixture_repo("py_storage")
    open_index(root)[0].close()
    from ctxopt.parsing import parse

    real = parse.extract_tags

    def failing(path, language, source, **options):
        if path == "storage/db.py":
            raise RecursionError("maximum recursion depth exceeded")
        return real(path, language, source, **options)

    monkeypatch.setattr(parse, "extract_tags", failing)
    _edit(root, "storage/db.py", "def get(", "def get_item(")
    index, _ = open_index(root, IndexOptions(jobs=1))
    with index:
        assert ("storage/db.py", "unparsable") in {(d.path, d.reason) for d in index.diagnostics}
        assert index.definitions_named("Storage") == []
        assert "storage/db.py" not in index.files
    monkeypatch.setattr(parse, "extract_tags", real)
    _edit(root, "storage/db.py", "def get_item(", "def get_value(")
    _assert_matches_oracle(root)


def test_schema_version_mismatch_rebuilds(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    open_index(root)[0].close()
    database = root / ".ctxopt" / "index.db"
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
        conn.execute("DELETE FROM defs")  # what an old reader would misread
    report = _assert_matches_oracle(root)
    assert report.rebuilt


def test_parser_fingerprint_mismatch_rebuilds(fixture_repo, monkeypatch) -> None:
    root = fixture_repo("py_storage")
    open_index(root)[0].close()
    monkeypatch.setattr(schema, "fingerprint", lambda config: "another grammar")
    index, report = open_index(root)
    index.close()
    assert report.rebuilt and report.parsed == 7


def test_an_index_written_by_another_ctxopt_is_rebuilt(fixture_repo, monkeypatch) -> None:
    # the same schema and grammars, other code: its tags or cached resolutions may differ
    root = fixture_repo("py_storage")
    open_index(root)[0].close()
    monkeypatch.setattr(schema, "code_fingerprint", lambda: b"another ctxopt")
    index, report = open_index(root)
    index.close()
    assert report.rebuilt and report.parsed == 7
    index, report = open_index(root)
    index.close()
    assert not report.rebuilt and report.parsed == 0


def test_a_file_that_is_not_an_index_is_never_overwritten(fixture_repo, tmp_path) -> None:
    root = fixture_repo("py_storage")
    precious = tmp_path / "notes.db"
    precious.write_text("my notes\n")
    with pytest.raises(IndexStoreError, match="not a ctxopt index"):
        open_index(root, IndexOptions(path=precious))
    assert precious.read_text() == "my notes\n"


def test_another_sqlite_database_is_never_overwritten(fixture_repo, tmp_path) -> None:
    root = fixture_repo("py_storage")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("PRAGMA application_id = 42")
        conn.execute("CREATE TABLE t(x)")
    with pytest.raises(IndexStoreError, match="not a ctxopt index"):
        open_index(root, IndexOptions(path=other))
    with sqlite3.connect(other) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]


def test_a_sqlite_database_without_application_id_is_never_overwritten(fixture_repo, tmp_path
                                                                       ) -> None:
    # another program's database has application_id 0, as every SQLite file does by default
    root = fixture_repo("py_storage")
    mine = tmp_path / "mine"
    mine.mkdir()
    other = mine / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t(x)")
    with pytest.raises(IndexStoreError, match="not a ctxopt index"):
        open_index(root, IndexOptions(path=other))
    with sqlite3.connect(other) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]
    assert [p.name for p in mine.iterdir()] == ["other.db"]  # no lock file beside it


def test_an_empty_sqlite_database_becomes_the_index(fixture_repo, tmp_path) -> None:
    root = fixture_repo("py_storage")
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    index, report = open_index(root, IndexOptions(path=empty))
    index.close()
    assert report.parsed == 7


def test_a_new_index_has_large_pages_and_an_old_one_keeps_its_own(fixture_repo, tmp_path) -> None:
    # pages of schema.PAGE_SIZE: fewer WAL frames and write calls for a cold index; an
    # index made with SQLite's default pages is used as it is, not rebuilt
    root = fixture_repo("py_storage")
    new, old = tmp_path / "new.db", tmp_path / "old.db"
    with sqlite3.connect(old) as conn:
        conn.execute("PRAGMA page_size = 4096")
        conn.execute("PRAGMA journal_mode = WAL")
    for path in (new, old):
        open_index(root, IndexOptions(path=path))[0].close()
    again, report = open_index(root, IndexOptions(path=old))
    again.close()
    assert report.parsed == 0 and not report.rebuilt
    sizes = {}
    for path in (new, old):
        with contextlib.closing(sqlite3.connect(path)) as conn:
            sizes[path.name] = conn.execute("PRAGMA page_size").fetchone()[0]
    assert sizes == {"new.db": schema.PAGE_SIZE, "old.db": 4096} and schema.PAGE_SIZE == 16384


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX pipes")
def test_an_index_path_that_is_not_a_regular_file_is_refused_before_any_write(fixture_repo,
                                                                              tmp_path) -> None:
    root = fixture_repo("py_storage")
    mine = tmp_path / "mine"
    mine.mkdir()
    pipe, folder = mine / "pipe", mine / "folder"
    os.mkfifo(pipe)
    folder.mkdir()
    for path in (pipe, folder):
        with pytest.raises(IndexStoreError, match="not a regular file"):
            open_index(root, IndexOptions(path=path))
    assert sorted(p.name for p in mine.iterdir()) == ["folder", "pipe"]
    assert list(folder.iterdir()) == []


def test_index_path_from_the_environment(fixture_repo, tmp_path, monkeypatch) -> None:
    root = fixture_repo("py_storage")
    monkeypatch.setenv("CTXOPT_INDEX", str(tmp_path / "elsewhere" / "i.db"))
    index, report = open_index(root)
    index.close()
    assert report.path == str(tmp_path / "elsewhere" / "i.db")
    assert not (root / ".ctxopt").exists()


def test_default_index_has_its_own_gitignore(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    before = (root / ".gitignore").read_bytes()
    open_index(root)[0].close()
    assert (root / ".ctxopt" / "index.db").is_file()
    assert (root / ".ctxopt" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (root / ".gitignore").read_bytes() == before


def test_a_file_in_the_way_of_the_index_falls_back_to_the_cache_dir(fixture_repo, tmp_path, monkeypatch) -> None:
    # the user cache directory of the memo and the parse cache (calibration.user_cache_dir):
    # location.py built its own from $XDG_CACHE_HOME and missed $CTXOPT_CACHE_DIR (review)
    root = fixture_repo("py_storage")
    (root / ".ctxopt").write_text("a file of the user's, in the way\n")
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    notes: list[str] = []
    index, report = open_index(root, IndexOptions(notify=notes.append))
    with index:
        assert index.definitions_named("Storage")
    assert Path(report.path).parent == tmp_path / "mine"
    assert len(notes) == 1 and f"{root / '.ctxopt'} is not a directory" in notes[0]
    assert (root / ".ctxopt").read_text() == "a file of the user's, in the way\n"


@pytest.mark.skipif(sys.platform != "linux", reason="the platform's cache directory")
@pytest.mark.parametrize("xdg", [True, False])
def test_without_ctxopt_cache_dir_a_fallback_index_stays_where_it_was(
        fixture_repo, tmp_path, monkeypatch, xdg) -> None:
    # where fallback indexes went before they used user_cache_dir: $XDG_CACHE_HOME/ctxopt,
    # else ~/.cache/ctxopt, as NAME-KEY.db with KEY from the root's path
    root = fixture_repo("py_storage")
    (root / ".ctxopt").write_text("in the way\n")
    monkeypatch.delenv("CTXOPT_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if xdg:
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    else:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    base = tmp_path / "cache" if xdg else tmp_path / "home" / ".cache"
    key = hashlib.blake2b(os.fsencode(root.resolve()), digest_size=8).hexdigest()
    index, report = open_index(root)
    index.close()
    assert report.path == str(base / "ctxopt" / f"py_storage-{key}.db")


def test_bad_options_are_usage_errors() -> None:
    with pytest.raises(UsageError):
        IndexOptions(jobs=0)
    with pytest.raises(UsageError):
        IndexOptions(max_file_bytes=0)


def test_progress_reports_every_file_read(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    calls: list[tuple[int, int]] = []
    open_index(root, IndexOptions(progress=lambda done, total: calls.append((done, total))))[0].close()
    assert calls[-1] == (9, 9) and len(calls) == 9


def test_interrupted_index_keeps_committed_batches(fixture_repo, monkeypatch) -> None:
    root = fixture_repo("py_storage")
    monkeypatch.setattr(update, "COMMIT_EVERY", 2)

    def interrupt(done: int, total: int) -> None:
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        open_index(root, IndexOptions(jobs=1, progress=interrupt))
    with sqlite3.connect(root / ".ctxopt" / "index.db") as conn:
        assert 0 < conn.execute("SELECT COUNT(*) FROM files").fetchone()[0] < 9
    report = _assert_matches_oracle(root)
    assert not report.rebuilt and report.scanned < 9


_KILL_SCRIPT = textwrap.dedent("""
    import os, signal, sys
    from ctxopt import store
    from ctxopt.store import update
    update.COMMIT_EVERY = 2
    update.BULK_LOAD = 1  # load without secondary indexes, as a cold index of a big tree does
    def die(done, total):
        if done == 5:
            os.kill(os.getpid(), signal.SIGKILL)
    store.open_index(sys.argv[1], store.IndexOptions(jobs=1, progress=die))
""")


def test_index_killed_halfway_is_repaired_by_the_next_run(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    killed = subprocess.run([sys.executable, "-c", _KILL_SCRIPT, str(root)])
    assert killed.returncode == -9
    with sqlite3.connect(root / ".ctxopt" / "index.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT value FROM meta WHERE key='imports_dirty'").fetchone() == ("1",)
    _assert_matches_oracle(root)
    with sqlite3.connect(root / ".ctxopt" / "index.db") as conn:
        indexes = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert set(schema.INDEXES) <= indexes


def test_bulk_load_builds_every_index_beside_the_import_edges(fixture_repo, monkeypatch) -> None:
    root = fixture_repo("py_storage")
    monkeypatch.setattr(update, "BULK_LOAD", 1)  # as a cold index of a big tree loads
    report = _assert_matches_oracle(root, jobs=1)
    assert report.rebuilt
    with sqlite3.connect(root / ".ctxopt" / "index.db") as conn:
        indexes = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert conn.execute("SELECT value FROM meta WHERE key='imports_dirty'").fetchone() == ("0",)
    assert set(schema.INDEXES) <= indexes


def test_bulk_load_in_memory_builds_its_indexes(fixture_repo, monkeypatch) -> None:
    root = fixture_repo("py_storage")
    monkeypatch.setattr(update, "BULK_LOAD", 1)
    conn = schema.connect(":memory:")
    schema.prepare_schema(conn, str(root), schema.fingerprint(IndexOptions().hygiene))
    update.update_tables(conn, root, IndexOptions(jobs=1), store.UpdateReport(path=":memory:"))
    indexes = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert set(schema.INDEXES) <= indexes
    assert conn.execute("SELECT COUNT(*) FROM imports").fetchone()[0] > 0


def test_bulk_load_raises_the_index_builders_failure(fixture_repo, monkeypatch) -> None:
    root = fixture_repo("py_storage")
    monkeypatch.setattr(update, "BULK_LOAD", 1)

    def fail(conn: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(update, "ensure_indexes", fail)
    with pytest.raises(IndexStoreError, match="disk I/O error"):
        open_index(root, IndexOptions(jobs=1))


class _Recording(sqlite3.Connection):
    """Records the sort settings each index is built with; fails a build that sorts
    with temporary files with ``failure`` (an exception), when one is set."""

    failure: sqlite3.OperationalError | None = None

    def execute(self, sql, *args):  # type: ignore[override]
        if sql.startswith("CREATE INDEX"):
            store, cache = (super(_Recording, self).execute(f"PRAGMA {p}").fetchone()[0]
                            for p in ("temp_store", "cache_size"))
            self.built = [*getattr(self, "built", []), (store, cache)]
            if store == 1 and self.failure is not None:
                raise self.failure
        return super().execute(sql, *args)


def _bare_index(path: Path, failure: sqlite3.OperationalError | None = None) -> _Recording:
    conn = sqlite3.connect(str(path), isolation_level=None, factory=_Recording)
    assert isinstance(conn, _Recording)
    conn.failure = failure
    schema.prepare_schema(conn, str(path.parent), "fp")
    schema.drop_indexes(conn)
    return conn


def test_indexes_are_built_in_small_sorted_runs_and_the_settings_restored(tmp_path) -> None:
    """The secondary indexes are sorted in runs of ``_SORT_CACHE_KIB`` kept in temporary
    files; the connection's own settings, whatever they were, are back after."""
    conn = _bare_index(tmp_path / "index.db")
    conn.executemany("INSERT INTO postings(term, file_id, data) VALUES (?, ?, ?)",
                     [(f"term{i % 5000}", i, b"x") for i in range(40_000)])
    conn.execute("PRAGMA temp_store = DEFAULT")
    conn.execute("PRAGMA cache_size = -1234")
    schema.ensure_indexes(conn)
    indexes = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert set(schema.INDEXES) <= indexes
    assert set(conn.built) == {(1, -schema._SORT_CACHE_KIB)}  # FILE, 1 MB
    assert conn.execute("PRAGMA temp_store").fetchone()[0] == 0  # DEFAULT, as before
    assert conn.execute("PRAGMA cache_size").fetchone()[0] == -1234
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_an_index_build_that_fails_not_for_temporary_files_is_not_tried_again(tmp_path) -> None:
    # review 34: any OperationalError (a damaged database) built every index a second time
    # in memory and lost the first error
    damaged = sqlite3.OperationalError("database disk image is malformed")
    damaged.sqlite_errorcode = 11  # type: ignore[attr-defined]  # SQLITE_CORRUPT
    conn = _bare_index(tmp_path / "index.db", damaged)
    with pytest.raises(sqlite3.OperationalError, match="malformed"):
        schema.ensure_indexes(conn)
    assert len(conn.built) == 1
    assert conn.execute("PRAGMA temp_store").fetchone()[0] == 0  # as before: DEFAULT
    conn.close()


def test_indexes_are_sorted_in_memory_when_no_temporary_file_can_be_made(tmp_path) -> None:
    cannot_open = sqlite3.OperationalError("unable to open database file")
    cannot_open.sqlite_errorcode = 14  # type: ignore[attr-defined]  # SQLITE_CANTOPEN
    conn = _bare_index(tmp_path / "index.db", cannot_open)
    schema.ensure_indexes(conn)
    indexes = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert set(schema.INDEXES) <= indexes
    assert conn.built[0][0] == 1 and {store for store, _ in conn.built[1:]} == {2}  # MEMORY
    assert conn.execute("PRAGMA temp_store").fetchone()[0] == 0  # as before: DEFAULT
    conn.close()


def test_two_concurrent_gathers_both_succeed(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    command = [sys.executable, "-m", "ctxopt", "gather", "fix Storage bug", "--root", str(root),
               "--budget", "2000", "--format", "manifest"]
    processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(2)]
    outputs = [p.communicate(timeout=120) for p in processes]
    assert [p.returncode for p in processes] == [0, 0], [err for _, err in outputs]
    assert outputs[0][0] == outputs[1][0] and b"storage/db.py" in outputs[0][0]
    _assert_matches_oracle(root)


def test_concurrent_update_does_not_disturb_an_open_snapshot(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    index, _ = open_index(root)
    with index:
        before = index.definitions_named("Storage")
        (root / "storage/db.py").unlink()
        open_index(root)[0].close()  # another process updates meanwhile
        assert index.definitions_named("Storage") == before
        assert index.definition(before[0]).name == "Storage"


def test_git_checkout_index_uses_ls_files(make_repo) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = make_repo({".gitignore": "ignored.py\n", "tracked.py": "def tracked(): pass\n",
                      "untracked.py": "def untracked(): pass\n", "ignored.py": "def ignored(): pass\n"})
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    subprocess.run(["git", "add", "tracked.py", ".gitignore"], cwd=root, check=True, env=env)
    index, _ = open_index(root)
    with index:
        assert index.files == [".gitignore", "tracked.py", "untracked.py"]
    subprocess.run(["git", "status", "--porcelain"], cwd=root, check=True, env=env,
                   capture_output=True)
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=root,
                            env=env, capture_output=True, text=True).stdout
    assert ".ctxopt" not in status  # the index's own .gitignore hides it


def test_rewriting_content_another_process_stored_keeps_its_edges(fixture_repo) -> None:
    root = fixture_repo("py_storage")
    open_index(root)[0].close()
    database = root / ".ctxopt" / "index.db"
    with sqlite3.connect(database) as conn:
        query = ("SELECT COUNT(*) FROM imports i JOIN files f ON f.id = i.src"
                 " WHERE f.path = CAST('app/service.py' AS BLOB)")
        before = conn.execute(query).fetchone()[0]
    # a second updater that read the table before the first one committed re-scans the file
    stale = scan.scan_one(str(root), "app/service.py", None)
    conn = schema.connect(str(database))
    with schema.Transaction(conn):
        update.write_file(conn, stale)
    assert conn.execute(query).fetchone()[0] == before > 0
    conn.close()


# Edits that keep the set of files: the resolved-use cache forgets only what they touch.
CACHE_EDITS = {
    "definition renamed": lambda root: _edit(root, "storage/db.py", "class StorageError(Exception):",
                                             "class StorageFailure(Exception):"),
    "re-export renamed": lambda root: _edit(root, "storage/__init__.py",
                                            "from .db import Storage, StorageError",
                                            "from .db import Storage as Store, StorageError"),
    "star re-export": lambda root: _edit(root, "storage/__init__.py",
                                         "from .db import Storage, StorageError", "from .db import *"),
    "class becomes a function": lambda root: _edit(root, "storage/db.py", "class Storage:",
                                                   "def Storage():\n    pass\n\n\nclass _Old:"),
    "definition added in the package": lambda root: _edit(
        root, "app/cli.py", "\n", "\n\ndef make_service(path):\n    return None\n"),
}


@pytest.mark.parametrize("edit", sorted(EDITS) + sorted(CACHE_EDITS))
def test_an_update_forgets_the_resolved_uses_it_changes(fixture_repo, edit: str) -> None:
    """With every use resolved and kept (``store.resolved``) before the edit, the updated
    index still answers like a fresh build."""
    root = fixture_repo("py_storage")
    _stored(root)  # every edge asked: every use resolved and kept
    database = root / ".ctxopt" / "index.db"
    with sqlite3.connect(database) as conn:
        assert conn.execute("SELECT COUNT(*) FROM resolved").fetchone()[0] > 0
    {**EDITS, **CACHE_EDITS}[edit](root)
    report = _assert_matches_oracle(root)
    assert not report.rebuilt


@pytest.mark.parametrize("new", ["from .b import other as thing\n", "from .b import *\n"])
def test_a_re_export_pointed_elsewhere_is_resolved_again(make_repo, new: str) -> None:
    """``user.py`` does not change, but the re-export its import goes through does."""
    root = make_repo({"pkg/__init__.py": "from .a import thing\n",
                      "pkg/a.py": "def thing():\n    pass\n",
                      "pkg/b.py": "def other():\n    pass\n\n\ndef thing():\n    pass\n",
                      "user.py": "from pkg import thing\n\n\ndef use():\n    return thing()\n"})
    before, _ = _stored(root)
    assert ("pkg/a.py#0", "references") in {(t, k) for t, k, _ in before["user.py#0"]["out"]}
    (root / "pkg/__init__.py").write_text(new)
    _assert_matches_oracle(root)
    after, _ = _stored(root)
    assert not {t for t, _, _ in after["user.py#0"]["out"]} & {"pkg/a.py#0"}


@pytest.mark.parametrize("enabled", [True, False])
def test_an_update_leaves_the_garbage_collector_as_it_found_it(fixture_repo, monkeypatch,
                                                               enabled: bool) -> None:
    import gc

    root = fixture_repo("py_storage")
    seen: list[bool] = []
    original = update.write_file

    def spy(conn, result):
        seen.append(gc.isenabled())
        return original(conn, result)

    monkeypatch.setattr(update, "write_file", spy)
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        open_index(root, IndexOptions(jobs=1))[0].close()
        assert gc.isenabled() is enabled
        assert seen and not any(seen)  # paused while the rows were made and written
        (root / "app" / "service.py").write_text("def broken(:\n", encoding="utf-8")
        monkeypatch.setattr(update, "write_file", lambda conn, result: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            open_index(root, IndexOptions(jobs=1))
        assert gc.isenabled() is enabled  # restored on failure too
    finally:
        gc.enable() if was else gc.disable()


def _import_rows(database: Path) -> tuple[list, list]:
    conn = sqlite3.connect(database)
    try:
        paths = dict(conn.execute("SELECT id, path FROM files"))
        edges = sorted((paths[s], paths[d]) for s, d in conn.execute("SELECT src, dst FROM imports"))
        bindings = sorted((paths[f], seq, module, name, local, paths.get(dst)) for f, seq, module, name, local, dst
                          in conn.execute("SELECT file_id, seq, module, name, local, dst FROM bindings"))
        return edges, bindings
    finally:
        conn.close()


@pytest.mark.parametrize("edit", ["a body", "an import"])
def test_an_edit_that_keeps_its_imports_keeps_its_import_edges(fixture_repo, tmp_path, monkeypatch,
                                                                edit: str) -> None:
    """A changed file that imports what it did keeps its import edges and its bindings'
    files (no file's imports are resolved again: that walks every path); one whose
    imports changed has them resolved again. Either way the rows are a fresh build's."""
    root = fixture_repo("py_storage")
    database = tmp_path / "index.db"
    open_index(root, IndexOptions(path=database))[0].close()
    assert _import_rows(database)[0]  # the fixture has import edges to keep
    calls = []
    real = update.plan_imports
    monkeypatch.setattr(update, "plan_imports", lambda *a: (calls.append(a[2]), real(*a))[1])
    if edit == "a body":
        _edit(root, "app/cli.py", "\n", "\n# a comment\n")
    else:
        EDITS["import added"](root)
    open_index(root, IndexOptions(path=database))[0].close()
    assert calls == ([] if edit == "a body" else [{"app/cli.py"}])
    open_index(root, IndexOptions(path=tmp_path / "fresh.db"))[0].close()
    assert _import_rows(database) == _import_rows(tmp_path / "fresh.db")
    meta = dict(sqlite3.connect(database).execute("SELECT key, value FROM meta"))
    assert meta["imports_dirty"] == "0"


def test_files_called_are_the_files_of_that_name_in_path_order(make_repo, build_index) -> None:
    # what seeds.files_named looks a task's paths up in (it kept a module-level table of
    # the last file list seen before; now each index keeps its own)
    index = build_index(make_repo({"b/db.py": "x = 1\n", "a/db.py": "y = 2\n", "db.py": "z = 3\n",
                                   "a/db.pyi": "w: int\n"}))
    other = build_index(make_repo({"c/db.py": "v = 4\n"}, "other"))
    assert index.files_called("db.py") == ["a/db.py", "b/db.py", "db.py"]
    assert other.files_called("db.py") == ["c/db.py"]
    assert index.files_called("db") == []  # a file name, not a stem
    assert index.files_called("db.py") == ["a/db.py", "b/db.py", "db.py"]  # asked again


def test_a_bulk_load_plans_its_imports_beside_the_index_build(fixture_repo, tmp_path,
                                                             monkeypatch) -> None:
    """A cold index reads and resolves the imports in another thread, on a connection of
    its own, while the main one builds the indexes; the rows are a serial build's."""
    root = fixture_repo("py_storage")
    in_main_thread = []
    real = update.plan_imports

    def spy(conn, *args):
        in_main_thread.append(threading.current_thread() is threading.main_thread())
        return real(conn, *args)

    monkeypatch.setattr(update, "plan_imports", spy)
    monkeypatch.setattr(update, "BULK_LOAD", 0)
    open_index(root, IndexOptions(path=tmp_path / "bulk.db"))[0].close()
    assert in_main_thread == [False]
    monkeypatch.setattr(update, "BULK_LOAD", 10**9)
    open_index(root, IndexOptions(path=tmp_path / "serial.db"))[0].close()
    assert in_main_thread == [False, True]
    assert _import_rows(tmp_path / "bulk.db") == _import_rows(tmp_path / "serial.db")
    assert _import_rows(tmp_path / "bulk.db")[0]


def test_uses_rows_come_in_the_order_of_their_key() -> None:
    """A file's ``uses`` rows are made in name order, the table's key order (stored so,
    their pages fill), each name's uses in the order given."""
    uses, imports = scan.reference_rows([("zeta", "call", 1, None), ("alpha", "call", 2, 0),
                                         ("zeta", "reference", 3, 0), ("Beta", "type", 4, None),
                                         ("os", "import", 1, None)])
    assert uses == (("Beta", 1, "4,type,"), ("alpha", 1, "2,call,0"),
                    ("zeta", 2, "1,call,;3,reference,0"))
    assert imports == ((0, "os", "import", 1, None),)


def test_a_files_postings_are_one_range_of_rowids_that_an_update_replaces(fixture_repo) -> None:
    """Postings are kept by their file's range of rowids (``schema.posting_rowids``), which
    an update deletes, so that no index of the postings by file is built."""
    root = fixture_repo("py_storage")
    open_index(root)[0].close()
    database = root / ".ctxopt" / "index.db"

    def postings() -> dict[str, list[tuple[int, str]]]:
        with sqlite3.connect(database) as conn:
            paths = {i: p.decode() for i, p in conn.execute("SELECT id, path FROM files")}
            found: dict[str, list[tuple[int, str]]] = {}
            for rowid, file_id, term in conn.execute(
                    "SELECT rowid, file_id, term FROM postings ORDER BY rowid"):
                assert rowid in schema.posting_rowids(file_id)
                found.setdefault(paths[file_id], []).append((rowid, term))
            assert not conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' "
                                    "AND tbl_name = 'postings' AND name != 'postings_term'"
                                    ).fetchall()
        return found

    before = postings()
    assert "storage/cache.py" in before and "app/service.py" in before
    _edit(root, "app/service.py", "Storage(", "StorageFactory(")
    (root / "storage/cache.py").unlink()
    _assert_matches_oracle(root)
    after = postings()
    assert "storage/cache.py" not in after
    assert {t for _, t in after["app/service.py"]} != {t for _, t in before["app/service.py"]}
    assert "=storagefactory" in {t for _, t in after["app/service.py"]}
    assert after["app/cli.py"] == before["app/cli.py"]
