"""The one per-file parse path: bytes -> tags, or the reason the file is skipped.

``parse_file`` is what the index workers, ``ctxopt tags`` and the test oracles call, so
they all see the same decoding (``files.text.decode_text``), the same line endings
(``\\r\\n`` and lone ``\\r`` become ``\\n`` before tree-sitter counts rows), the same
content rules (``discover.inspect_content``: secrets, binary, over-long lines, generated
and minified files) and the same parse time limit.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CtxoptError, ParseCancelled
from ..files.notebook import as_source
from ..files.reasons import REASON_PARSE_TIMEOUT, REASON_UNPARSABLE
from ..files.safety import HygieneConfig
from ..files.text import decode_text, normalize_newlines
from ..model import Diagnostic, FileTags
from .languages import HEAD_BYTES, language_for_file

__all__ = ["ParsedFile", "parse_file", "parse_text", "SILENT"]

# The reason of a skip that gets no diagnostic (a submodule's ``.git`` file).
SILENT = ""


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """A file that passed the content rules.

    ``language`` is None when no supported language claims the file (then ``tags`` is
    None and ``text`` is ''); otherwise ``text`` is the decoded text with ``\\n`` line
    endings that ``tags`` was parsed from. ``notes``: diagnostics of a file kept degraded
    (``decoded with replacement``).
    """

    path: str
    language: str | None
    text: str
    tags: FileTags | None
    notes: tuple[Diagnostic, ...] = ()


def extract_tags(path: str, language: str, source: bytes, **options: Any) -> FileTags:
    """``treesitter.extract_tags``, imported on first use (tree-sitter loads slowly and a
    warm gather never parses)."""
    from .treesitter import extract_tags as extract

    return extract(path, language, source, **options)


def parse_file(path: str, data: bytes, config: HygieneConfig = HygieneConfig(), *,
               clock: Callable[[], float] = time.monotonic, reference_tuples: bool = False,
               generated: bool | None = None) -> ParsedFile | Diagnostic:
    """Decide whether to index one file, and parse it.

    Parameters
    ----------
    path : str
        The file's repository-relative path (``/`` separators), stored in the tags.
    data : bytes
        The file's content.
    config : HygieneConfig
        Secrets, line-length and parse time limits.
    clock : callable
        Seconds, for the parse time limit (``time.monotonic``).
    reference_tuples : bool
        See ``treesitter.extract_tags``.
    generated : bool or None
        The file's ``.gitattributes`` verdict (see ``discover.inspect_content``).

    Returns
    -------
    ParsedFile or Diagnostic
        The Diagnostic says why the file is skipped (reason ``SILENT``: without a
        diagnostic): a content rule, a parse over ``config.parse_timeout`` seconds
        (``parse timeout``), or a parser failure (``unparsable``).

    Raises
    ------
    GrammarError
        When the language's tag query does not compile (every file would fail).
    """
    from ..discover import inspect_content

    source = as_source(path, data)  # a notebook: its code cells (files.notebook)
    if isinstance(source, Diagnostic):
        return source
    data = source
    keep, notes = inspect_content(Path(), path, data, config, generated=generated)
    if not keep:
        return notes[0] if notes else Diagnostic(path, SILENT)
    language = language_for_file(path, data[:HEAD_BYTES])
    if language is None:
        return ParsedFile(path, None, "", None, tuple(notes))
    text = normalize_newlines(decode_text(data).text)
    parsed = parse_text(path, language.name, text, config, clock=clock,
                        reference_tuples=reference_tuples)
    if isinstance(parsed, Diagnostic):
        return parsed
    return ParsedFile(path, language.name, text, parsed, tuple(notes))


def parse_text(path: str, language: str, text: str, config: HygieneConfig = HygieneConfig(), *,
               clock: Callable[[], float] = time.monotonic,
               reference_tuples: bool = False) -> FileTags | Diagnostic:
    """Parse ``text`` (decoded, ``\\n`` line endings) as ``language`` within
    ``config.parse_timeout`` seconds by ``clock``: its tags (lines as ``split_lines``
    counts them), or a ``parse timeout`` or ``unparsable`` diagnostic.

    Raises
    ------
    GrammarError
        When the language's tag query does not compile.
    """
    from .treesitter import load_language

    load_language(language)  # a one-time cost, not the parse's: outside its time limit
    deadline = clock() + config.parse_timeout
    options: dict[str, Any] = {"reference_tuples": True} if reference_tuples else {}
    try:
        return extract_tags(path, language, text.encode("utf-8"),
                            should_stop=lambda: clock() > deadline, **options)
    except ParseCancelled:
        return Diagnostic(path, REASON_PARSE_TIMEOUT,
                          f"parsing took longer than {config.parse_timeout:g} s")
    except CtxoptError:
        raise  # a broken grammar breaks every file: abort, do not record skips
    except Exception as exc:  # one file's parser failure must not abort the run
        first = (str(exc).splitlines() or [""])[0][:200]
        return Diagnostic(path, REASON_UNPARSABLE, f"{type(exc).__name__}: {first}")
