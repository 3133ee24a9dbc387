"""Language registry and tag-query loading (edge: reads ``grammars/*.scm``).

Installed, the queries live in ``ctxopt/grammars`` (the wheel maps the top-level
``grammars/`` there); in a source checkout they are read from ``grammars/`` beside the
package. ``grammars_dir`` is the one lookup both use.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import GrammarError

__all__ = ["Language", "LANGUAGES", "language_for_path", "grammars_dir", "load_query"]


@dataclass(frozen=True, slots=True)
class Language:
    """A supported language: its name (also the tree-sitter grammar's name in
    tree-sitter-language-pack and the fence tag), its file extensions and its query file."""

    name: str
    extensions: tuple[str, ...]
    query_file: str


LANGUAGES: tuple[Language, ...] = (
    Language("python", (".py", ".pyi"), "python.scm"),
    Language("go", (".go",), "go.scm"),
    Language("javascript", (".js", ".jsx", ".mjs", ".cjs"), "javascript.scm"),
    Language("typescript", (".ts", ".mts", ".cts"), "typescript.scm"),
    Language("tsx", (".tsx",), "tsx.scm"),
)
_BY_EXTENSION = {ext: lang for lang in LANGUAGES for ext in lang.extensions}
_BY_NAME = {lang.name: lang for lang in LANGUAGES}

# Fence tags for files we show but do not parse.
_FENCE_TAGS = {".md": "markdown", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml",
               ".json": "json", ".cfg": "ini", ".ini": "ini", ".sh": "bash", ".rst": "rst"}


def language_for_path(path: str) -> Language | None:
    """The language whose extension ``path`` has (case-insensitive), or None."""
    return _BY_EXTENSION.get(os.path.splitext(path)[1].lower())


def fence_tag(path: str) -> str:
    """The Markdown code-fence tag for ``path`` ('' when unknown)."""
    lang = language_for_path(path)
    if lang is not None:
        return lang.name
    return _FENCE_TAGS.get(os.path.splitext(path)[1].lower(), "")


def grammars_dir() -> Path:
    """The directory holding the ``.scm`` tag queries.

    Raises
    ------
    GrammarError
        When neither the installed copy nor the source checkout's copy exists.
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "grammars", here.parent / "grammars"):
        if candidate.is_dir():
            return candidate
    raise GrammarError(f"tag queries not found in {here / 'grammars'} or {here.parent / 'grammars'}")


@lru_cache(maxsize=None)
def load_query(language: str) -> str:
    """The tag query text for ``language``, with ``; inherits: other`` lines expanded.

    Raises
    ------
    GrammarError
        For an unknown language or a missing query file.
    """
    lang = _BY_NAME.get(language)
    if lang is None:
        raise GrammarError(f"no tag query for language {language!r}")
    path = grammars_dir() / lang.query_file
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GrammarError(f"cannot read tag query {path}: {exc.strerror}") from exc
    parts = []
    for line in text.splitlines():
        if line.startswith("; inherits:"):
            for parent in line.split(":", 1)[1].split(","):
                parts.append(load_query(parent.strip()))
    parts.append(text)
    return "\n".join(parts)
