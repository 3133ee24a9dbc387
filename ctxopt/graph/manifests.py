"""Edge: project files that steer import resolution, read into ``imports`` values.

``go_modules`` reads the module path of every ``go.mod``. ``read_ts_paths`` reads every
``tsconfig.json`` and ``jsconfig.json`` among the discovered files (JSON with comments and
trailing commas, as TypeScript accepts) into ``TsPaths``.
Unreadable or malformed configs are skipped: they only make fewer imports resolve.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from pathlib import Path

from .. import jsontext
from .imports import TsPaths

__all__ = ["read_ts_paths", "parse_jsonc", "go_modules"]

_CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
# A string, a comment, or a trailing comma before a closing bracket.
_JSONC_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/|,(?=\s*[}\]])', re.DOTALL)


def parse_jsonc(text: str) -> object:
    """Parse JSON that may hold ``//`` and ``/* */`` comments and trailing commas.

    Raises
    ------
    ValueError
        When the text is not JSON once comments and trailing commas are removed.
    """
    def keep_strings(match: re.Match[str]) -> str:
        token = match.group(0)
        return token if token.startswith('"') else ""
    return jsontext.loads(_JSONC_TOKEN.sub(keep_strings, text))


def _ts_paths(directory: str, document: object) -> TsPaths | None:
    if not isinstance(document, dict):
        return None
    options = document.get("compilerOptions")
    if not isinstance(options, dict):
        return None
    base_url = options.get("baseUrl")
    paths = options.get("paths")
    if not isinstance(base_url, str) and not isinstance(paths, dict):
        return None
    # `paths` targets are relative to baseUrl when set, else to the config's directory
    base = posixpath.normpath(posixpath.join(directory, base_url)) if isinstance(base_url, str) \
        else (directory or ".")
    base = "" if base == "." else base
    aliases = []
    for pattern, targets in sorted((paths or {}).items()):
        if isinstance(pattern, str) and isinstance(targets, list):
            resolved = tuple(posixpath.join(base, t) if base else t
                             for t in targets if isinstance(t, str))
            aliases.append((pattern, resolved))
    return TsPaths(directory=directory,
                   base_url=(base if isinstance(base_url, str) else None), paths=tuple(aliases))


def read_ts_paths(root: Path, files: list[str]) -> list[TsPaths]:
    """The aliases of every ``tsconfig.json``/``jsconfig.json`` in ``files`` (paths relative
    to ``root``), sorted by path; configs without ``baseUrl`` or ``paths`` are left out."""
    found = []
    for path in files:
        if posixpath.basename(path) not in _CONFIG_NAMES:
            continue
        try:
            document = parse_jsonc((root / path).read_text(encoding="utf-8", errors="replace"))
        except (OSError, ValueError):
            continue
        config = _ts_paths(posixpath.dirname(path), document)
        if config is not None:
            found.append(config)
    return found


_GO_MODULE = re.compile(r"^\s*module\s+(\S+)", re.MULTILINE)


def go_modules(root: Path, files: Iterable[str]) -> dict[str, str]:
    """Go module path -> the directory ('' for the root) of every ``go.mod`` in ``files``
    (paths relative to ``root``); unreadable ones and those without a ``module`` line are
    left out."""
    modules = {}
    for path in files:
        if posixpath.basename(path) != "go.mod":
            continue
        try:
            text = (root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        match = _GO_MODULE.search(text)
        if match:
            modules[match.group(1).strip('"')] = posixpath.dirname(path)
    return modules
