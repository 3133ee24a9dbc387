"""Parsing: the languages table (``languages``), the tree-sitter adapter (``treesitter``,
imported only when a file is parsed) and the one per-file path (``parse_file``).

The names of ``parse`` are imported on first use (PEP 562): a warm gather reads the
languages table and parses nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .languages import LANGUAGES, Language, language_for_file, language_for_path

if TYPE_CHECKING:
    from .parse import SILENT, ParsedFile, parse_file, parse_text

__all__ = ["LANGUAGES", "Language", "language_for_file", "language_for_path", "ParsedFile",
           "parse_file", "parse_text", "SILENT"]
_PARSE_NAMES = ("SILENT", "ParsedFile", "parse_file", "parse_text")


def __getattr__(name: str) -> Any:
    """Import ``parse`` the first time one of its names is used."""
    if name not in _PARSE_NAMES:
        raise AttributeError(f"module 'ctxopt.parsing' has no attribute {name!r}")
    from . import parse

    value = getattr(parse, name)
    globals()[name] = value
    return value
