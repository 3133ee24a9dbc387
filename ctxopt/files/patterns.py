"""Gitignore-style patterns, read as git reads them.

``pathspec`` compiles git's syntax but fails on a few lines that git merely never matches:
a trailing ``\\``, a bare ``!`` (``GitIgnorePatternError``) and a reversed range such as
``[z-a]`` (``re.error`` from the regex it builds). One such line in a ``.ctxoptignore``,
a ``.gitignore`` read outside git or a ``.gitattributes`` made every run fail with a
traceback. Here an ignore file's unusable line never matches, as in git, and a pattern
the user gives (``--exclude``, ``exclude`` in the configuration) that can never match a
path is an error, since it can only be a mistake.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where a pattern is compiled: a tree without ignore files
    import pathspec  # never needs it, and it costs a warm gather about 8 ms to load

__all__ = ["ignore_spec", "pattern_problem"]


def _compiles(line: str) -> pathspec.GitIgnoreSpec | None:
    """The spec of one gitignore line, or None when pathspec cannot compile it."""
    import pathspec

    try:
        return pathspec.GitIgnoreSpec.from_lines([line])
    except (ValueError, re.error):  # GitIgnorePatternError is a ValueError
        return None


def ignore_spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec:
    """The spec of an ignore file's lines, the lines git can never match left out.

    Order is kept (a later ``!pattern`` still re-includes), so the spec matches what the
    whole file would if pathspec accepted every line. Never raises for a bad line.
    """
    import pathspec

    lines = list(lines)
    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except (ValueError, re.error):
        return pathspec.GitIgnoreSpec.from_lines(
            [line for line in lines if _compiles(line) is not None])


def pattern_problem(pattern: str) -> str | None:
    """Why the user's ``pattern`` can exclude nothing, or None when it can match a path.

    The reason reads after the pattern: ``'[' can never match a path (...)``.
    """
    if not pattern.strip():
        return "is empty"
    if pattern.startswith("#"):
        return "is a comment in gitignore syntax; write '\\#' for a literal '#'"
    spec = _compiles(pattern)
    if spec is not None and any(p.include is not None for p in spec.patterns):
        return None
    if pattern.rstrip().endswith("\\"):
        return "ends in a '\\' that escapes nothing, so it can never match a path"
    if "[" in pattern:
        return ("can never match a path: it has an unclosed '[' or a reversed range such "
                "as [z-a]; write '\\[' for a literal '['")
    return "can never match a path in gitignore syntax"
