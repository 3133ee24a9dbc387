"""Parsing: the languages table (``languages``), the tree-sitter adapter (``treesitter``,
imported only when a file is parsed) and the one per-file path (``parse_file``)."""
from __future__ import annotations

from .languages import LANGUAGES, Language, language_for_file, language_for_path
from .parse import SILENT, ParsedFile, parse_file, parse_text

__all__ = ["LANGUAGES", "Language", "language_for_file", "language_for_path", "ParsedFile",
           "parse_file", "parse_text", "SILENT"]
