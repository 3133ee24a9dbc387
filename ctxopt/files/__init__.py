"""Files as the indexer reads them: text decoding (``text``), input safety (``safety``:
links, nested repositories, binary and secret files, over-long lines), secret detection
(``secrets``), redaction of what leaves the machine (``redaction``) and the one table of
skip reasons (``reasons``)."""
from __future__ import annotations

from .safety import DEFAULT_PARSE_TIMEOUT, MAX_LINE_LENGTH, HygieneConfig, inspect_file
from .text import (Decoded, decode_written, decode_text, display_text, looks_binary,
                   normalize_newlines, split_lines)

__all__ = ["HygieneConfig", "DEFAULT_PARSE_TIMEOUT", "MAX_LINE_LENGTH", "inspect_file",
           "Decoded", "decode_text", "decode_written", "display_text", "looks_binary",
           "normalize_newlines", "split_lines"]
