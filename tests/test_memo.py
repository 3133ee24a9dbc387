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
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(blocker))
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
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path))
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
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path))
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
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path))
    secrets._denylist.cache_clear()
    assert secrets.find_secrets("x = 1\n" + AWS_LINE)
    memo.shared_memo().flush()
    memo._shared.clear()  # as a new process would
    secrets._denylist.cache_clear()
    monkeypatch.setattr(secrets, "_detectors", lambda: (_ for _ in ()).throw(
        AssertionError("detect-secrets was loaded")))
    assert secrets.find_secrets("def edited(x):\n    return x + 41  # a new line\n") == []
    secrets._denylist.cache_clear()
