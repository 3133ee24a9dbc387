"""The memo of values computed from a text: kept across processes, keyed by version, and
never in the way when its file is unusable."""
import sqlite3

import tiktoken

from ctxopt import memo, tokens
from ctxopt.files import secrets

AWS_LINE = 'key = "AKIAIOSFODNN7EXAMPLE"\n'


def test_a_kept_value_is_read_by_a_new_process(tmp_path) -> None:
    first = memo.Memo(tmp_path / "memo.sqlite")
    first.put("n-1", "some text", [("kind", 1, 2)])
    first.flush()
    second = memo.Memo(tmp_path / "memo.sqlite")
    assert second.get("n-1", "some text") == [("kind", 1, 2)]
    assert second.get("n-2", "some text") is None  # another version never reads it
    assert second.get("n-1", "other text") is None


def test_a_corrupt_file_computes_the_value(tmp_path) -> None:
    path = tmp_path / "memo.sqlite"
    path.write_bytes(b"not a database" * 100)
    broken = memo.Memo(path)
    assert broken.get("n", "text") is None
    broken.put("n", "text", 3)
    broken.flush()  # no error
    assert path.read_bytes() == b"not a database" * 100


def test_an_unwritable_directory_computes_the_value(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(blocker))
    assert memo.memoized("n", "text", len) == 4
    memo.shared_memo().flush()
    assert blocker.read_text() == "not a directory\n"


def test_the_table_is_pruned_past_its_limit(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(memo, "MAX_ENTRIES", 4)
    kept = memo.Memo(tmp_path / "memo.sqlite")
    for number in range(10):
        kept.put("n", str(number), number)
        kept.flush()
    rows = sqlite3.connect(tmp_path / "memo.sqlite").execute("SELECT count(*) FROM memo").fetchone()
    assert rows[0] <= 5
    assert kept.get("n", "9") == 9  # the newest stay


def test_a_counted_text_does_not_load_the_tokenizer(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path))
    text = "def f(x):\n    return x  # <|endoftext|> ünïcode 12345\n"
    expected = len(tiktoken.get_encoding(tokens.ENCODING_NAME).encode(text, disallowed_special=()))
    assert tokens.count_tokens(text) == expected
    memo.shared_memo().flush()
    memo._shared.clear()  # as a new process would

    def no_tokenizer():  # type: ignore[no-untyped-def]
        raise AssertionError("the tokenizer was loaded")

    monkeypatch.setattr(tokens, "_encoding", no_tokenizer)
    assert tokens.count_tokens(text) == expected


def test_a_scanned_text_is_not_scanned_again(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path))
    text = "x = 1\n" + AWS_LINE
    found = secrets.find_secrets(text)
    assert found and found[0].start > len("x = 1\n")
    memo.shared_memo().flush()
    memo._shared.clear()

    def no_scan(_text):  # type: ignore[no-untyped-def]
        raise AssertionError("scanned again")

    monkeypatch.setattr(secrets, "_scan", no_scan)
    assert secrets.find_secrets(text) == found
    assert secrets.redact_secrets(text)[0].startswith("x = 1\nkey = \"[REDACTED ")


def test_a_reader_does_not_hold_up_a_writer(tmp_path) -> None:
    """Another process reading the memo (a read transaction open) does not make this
    one's writes wait and fail: the memo is in WAL mode."""
    path = tmp_path / "memo.sqlite"
    memo.Memo(path).get("n", "text")  # made
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memo").fetchone()
    writer = memo.Memo(path)
    writer.put("n", "text", 7)
    writer.flush()
    reader.execute("COMMIT")
    reader.close()
    assert memo.Memo(path).get("n", "text") == 7


def test_a_new_text_without_secrets_needs_no_detector(tmp_path, monkeypatch) -> None:
    """After one scan, the detectors' patterns are in the memo: a new text none of them
    matches (a file just edited) is scanned without loading detect-secrets."""
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path))
    secrets._denylist.cache_clear()
    assert secrets.find_secrets("x = 1\n" + AWS_LINE)
    memo.shared_memo().flush()
    memo._shared.clear()  # as a new process would
    secrets._denylist.cache_clear()
    monkeypatch.setattr(secrets, "_detectors", lambda: (_ for _ in ()).throw(
        AssertionError("detect-secrets was loaded")))
    assert secrets.find_secrets("def edited(x):\n    return x + 41  # a new line\n") == []
    secrets._denylist.cache_clear()


def test_a_row_holds_a_digest_and_a_value_only(tmp_path) -> None:
    # trial: a 67-character namespace in every row, 112 MB of memo
    kept = memo.Memo(tmp_path / "memo.sqlite")
    kept.put("tokens-" + "v" * 60, "some text", 3)
    kept.flush()
    (row,) = sqlite3.connect(tmp_path / "memo.sqlite").execute("SELECT * FROM memo").fetchall()
    assert len(row) == 2 and len(row[0]) == 16


def test_the_memo_is_in_the_cache_directory_not_the_configuration_directory(
        tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path / "cache"))
    assert memo.memoized("n", "text", len) == 4
    memo.shared_memo().flush()
    assert (tmp_path / "cache" / "memo.sqlite").is_file()
    assert not (tmp_path / "config").exists()


def _old_memo(path) -> None:
    """A memo as ctxopt kept it before the namespace went into the digest."""
    path.parent.mkdir(parents=True, exist_ok=True)
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE memo (namespace TEXT NOT NULL, digest BLOB NOT NULL, "
                "value BLOB NOT NULL, PRIMARY KEY (namespace, digest))")
    old.execute("INSERT INTO memo VALUES ('n', x'00', x'e903000000')")
    old.commit()
    old.close()


def test_an_old_memo_in_the_configuration_directory_is_left_alone(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path / "cache"))
    _old_memo(tmp_path / "config" / "memo.sqlite")
    before = (tmp_path / "config" / "memo.sqlite").read_bytes()
    assert memo.memoized("n", "text", len) == 4
    memo.shared_memo().flush()
    memo._shared.clear()
    assert memo.shared_memo().get("n", "text") == 4
    assert (tmp_path / "config" / "memo.sqlite").read_bytes() == before


def test_a_memo_of_the_old_layout_is_laid_out_anew(tmp_path) -> None:
    path = tmp_path / "memo.sqlite"
    _old_memo(path)
    kept = memo.Memo(path)
    assert kept.get("n", "text") is None
    kept.put("n", "text", 4)
    kept.flush()
    assert memo.Memo(path).get("n", "text") == 4


def test_a_counter_finds_the_shared_memo_once(tmp_path, monkeypatch) -> None:
    # Finding the memo reads the cache directory's environment: once a counter, not
    # once a text (a warm gather counts about 1,600 texts).
    monkeypatch.setenv("CTXOPT_CACHE_DIR", str(tmp_path))
    found: list[memo.Memo] = []
    shared_memo = memo.shared_memo

    def finding() -> memo.Memo:
        found.append(shared_memo())
        return found[-1]

    monkeypatch.setattr(memo, "shared_memo", finding)
    monkeypatch.setattr(tokens, "shared_memo", finding, raising=False)
    counter = tokens.Cl100kCounter()
    assert [counter.count(text) for text in ("a", "b c", "a")] == [1, 2, 1]
    assert len(found) == 1
    assert found[0].get(tokens._memo_namespace(), "b c") == 2


def test_the_write_ahead_log_is_cut_back_after_a_large_write(tmp_path) -> None:
    # a 258 MB log was left beside a 24 MB memo: SQLite keeps the log at the size of the
    # largest write it held unless a journal_size_limit is set
    kept = memo.Memo(tmp_path / "memo.sqlite")
    for i in range(300_000):  # one write of about 17 MB of log
        kept.put("ns", f"text {i}", i)
    kept.flush()
    kept.put("ns", "one more", 1)
    kept.flush()
    assert (tmp_path / "memo.sqlite-wal").stat().st_size <= memo.WAL_LIMIT
    assert kept.get("ns", "text 299999") == 299_999
