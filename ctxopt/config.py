"""Settings from a configuration file: ``.ctxopt.toml`` or ``[tool.ctxopt]`` in
``pyproject.toml``, found from ``--root`` when it is given, else from the current
directory, upwards as git finds its root (``commands.apply_config``, ``config_from_root``).

Precedence (click's own: command line, then ``envvar``, then ``default_map``, then the
option's default): options given on the command line win, then the environment
(``CTXOPT_BUDGET`` ...), then the file, then the defaults. ``load_config`` turns the file
into the ``default_map`` of each command; values are checked here, so a bad one is
reported with its file and line.
"""
from __future__ import annotations

import errno

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

from .errors import ConfigError
from .files.patterns import pattern_problem
from .files.safety import read_regular_text

__all__ = ["SETTINGS", "Setting", "ConfigFile", "ConfigError", "find_config", "load_config",
           "CONFIG_NAME"]

CONFIG_NAME = ".ctxopt.toml"


@dataclass(frozen=True)
class Setting:
    """One configurable setting: its key in the file (``max_ring``), the option parameter
    it sets, the commands that take it, its environment variable, a checker that returns
    the value as click wants it (or raises ``ValueError`` saying what is expected)."""

    key: str
    param: str
    commands: tuple[str, ...]
    envvar: str
    check: Callable[[Any], Any]
    meaning: str


def _integer(low: int, high: int | None = None) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (
                high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise ValueError(f"an integer {span}")
        return value
    return check


def _positive_number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError("a positive number of seconds")
    return float(value)


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("true or false")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("a non-empty string")
    return value


def _patterns(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError("a list of gitignore-style patterns (strings)")
    for pattern in value:
        problem = pattern_problem(pattern)
        if problem is not None:
            raise ValueError("a list of patterns that can match a path", f"{pattern!r} {problem}")
    return tuple(value)


# The commands each setting reaches (snapshot gathers, curve walks and fits as gather does).
_GATHER = ("gather", "snapshot", "mcp")
_WALK = ("gather", "snapshot", "mcp", "curve")
_INDEXING = ("gather", "index", "snapshot", "mcp", "curve")
_FILE_RULES = (*_INDEXING, "tags")  # tags reads files as the index does
SETTINGS: tuple[Setting, ...] = (
    Setting("budget", "budget", _GATHER, "CTXOPT_BUDGET", _integer(1),
            "token budget of the output"),
    Setting("max_ring", "max_ring", _WALK, "CTXOPT_MAX_RING", _integer(0, 4),
            "how far the walk goes (0-4)"),
    Setting("tests", "tests", _WALK, "CTXOPT_TESTS", _boolean, "include test files"),
    Setting("scope", "scope", ("gather", "curve"), "CTXOPT_SCOPE", _text,
            "keep only code under this path"),
    Setting("model", "model", ("gather", "tokens"), "CTXOPT_MODEL", _text,
            "calibrated model for token counts"),
    Setting("exclude", "exclude", _FILE_RULES, "CTXOPT_EXCLUDE", _patterns,
            "gitignore-style patterns of files never indexed"),
    Setting("max_file_size", "max_file_size", _FILE_RULES, "CTXOPT_MAX_FILE_SIZE", _integer(1),
            "skip files larger than this many bytes"),
    Setting("parse_timeout", "parse_timeout", _FILE_RULES, "CTXOPT_PARSE_TIMEOUT",
            _positive_number, "seconds one file may take to parse"),
    Setting("index", "index_path", _INDEXING, "CTXOPT_INDEX", _text,
            "the index database (relative paths: to the config file's directory)"),
    Setting("jobs", "jobs", _INDEXING, "CTXOPT_JOBS", _integer(1),
            "worker processes for parsing"),
    Setting("parse_cache", "parse_cache", ("gather", "index"), "CTXOPT_PARSE_CACHE", _text,
            "directory of the parse cache shared by checkouts (\"off\": none)"),
)
_BY_KEY = {s.key: s for s in SETTINGS}


@dataclass(frozen=True)
class ConfigFile:
    """A configuration file that was found: its path, its checked values by key, and the
    1-indexed line of each key (for a value that a command rejects later: ``where``)."""

    path: Path
    values: dict[str, Any] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)

    def where(self, key: str) -> str:
        """``FILE:LINE`` of ``key``, as a message about its value starts."""
        return f"{self.path}:{self.lines.get(key, 1)}"

    def default_map(self) -> dict[str, dict[str, Any]]:
        """``{command: {parameter: value}}`` for click's ``Context.default_map``."""
        commands: dict[str, dict[str, Any]] = {}
        for key, value in self.values.items():
            setting = _BY_KEY[key]
            for command in setting.commands:
                commands.setdefault(command, {})[setting.param] = value
        return commands


def find_config(start: Path) -> Path | None:
    """The configuration file for ``start``: in ``start`` or the nearest parent, the first
    directory holding ``.ctxopt.toml`` or a ``pyproject.toml`` with ``[tool.ctxopt]``
    (``.ctxopt.toml`` wins in one directory). The search stops at the top of the git work
    tree (a directory holding ``.git``) or of the file system. A ``.ctxopt.toml`` that is
    not a file (a directory, a broken link) is found too, so that ``load_config`` reports it
    instead of it being silently ignored.
    """
    directory = start.resolve()
    while True:
        dedicated = directory / CONFIG_NAME
        if dedicated.exists() or dedicated.is_symlink():
            return dedicated
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file() and _has_tool_table(pyproject):
            return pyproject
        if (directory / ".git").exists() or directory.parent == directory:
            return None
        directory = directory.parent


_TOOL_TABLE = re.compile(r"^\s*\[\s*tool\s*\.\s*ctxopt\s*\]", re.MULTILINE)


def _has_tool_table(path: Path) -> bool:
    try:
        return bool(_TOOL_TABLE.search(path.read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return False


def _line_of(text: str, key: str) -> int | None:
    """The 1-indexed line where ``key`` is assigned (after ``[tool.ctxopt]`` when the
    text has that table), for error messages."""
    table = _TOOL_TABLE.search(text)
    pattern = re.compile(rf"^[ \t]*[\"']?{re.escape(key)}[\"']?[ \t]*=", re.MULTILINE)
    found = pattern.search(text, table.end() if table else 0)
    return None if found is None else text.count("\n", 0, found.start()) + 1


def load_config(start: Path) -> ConfigFile | None:
    """The checked settings of the configuration file for ``start`` (``find_config``),
    or None when there is none. A relative ``index`` path is made absolute against the
    file's directory (so is a ``parse_cache`` directory).

    Raises
    ------
    ConfigError
        The file cannot be read (or is a directory, FIFO, socket or device), is not valid
        TOML, has an unknown key or a value of the wrong type; the message is
        ``FILE:LINE: what is wrong``.
    """
    path = find_config(start)
    if path is None:
        return None
    if path.is_dir():
        raise ConfigError(f"{path}: is a directory, not a TOML file")
    # (imported here: most runs have no configuration file, and a warm gather starts faster)
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        text = read_regular_text(path)
        document = tomllib.loads(text)
    except OSError as exc:
        if exc.errno == errno.EILSEQ:  # binary or not UTF-8 (``read_regular_text``)
            raise ConfigError(f"{path}: {exc.strerror}") from exc
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_toml_message(path, text, exc)) from exc
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise ConfigError(f"{path}: not valid TOML: nested too deeply") from None
    table = document if path.name == CONFIG_NAME else document.get("tool", {}).get("ctxopt", {})
    if path.name == CONFIG_NAME and isinstance(table.get("tool"), dict) and "ctxopt" in table["tool"]:
        table = table["tool"]["ctxopt"]  # [tool.ctxopt] copied from a pyproject.toml
    if not isinstance(table, dict):
        raise ConfigError(f"{path}:{_line_of(text, 'ctxopt') or 1}: [tool.ctxopt] must be a table")
    values: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for key, value in table.items():
        lines[key] = _line_of(text, key) or 1
        where = f"{path}:{lines[key]}"
        setting = _BY_KEY.get(key)
        if setting is None:
            import difflib

            close = difflib.get_close_matches(key, _BY_KEY, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{where}: unknown setting {key!r}{hint}; known: "
                              f"{', '.join(_BY_KEY)}")
        try:
            values[key] = setting.check(value)
        except ValueError as exc:  # args: what is expected[, what is wrong with the value]
            detail = f": {exc.args[1]}" if len(exc.args) > 1 else ""
            raise ConfigError(f"{where}: {key} must be {exc.args[0]}, got {value!r}{detail}"
                              ) from None
    for key in ("index", "parse_cache"):  # paths relative to the file's directory
        if key in values and (key != "parse_cache" or values[key].strip().lower() != "off"):
            values[key] = str(path.parent / os.path.expanduser(values[key]))
    return ConfigFile(path, values, lines)


def _toml_message(path: Path, text: str, exc: Exception) -> str:
    """``FILE:LINE:COLUMN: message`` from a ``TOMLDecodeError``, whose text ends with
    ``(at line L, column C)`` or ``(at end of document)`` (then: the last line)."""
    message = str(exc)
    found = re.search(r"\(at line (\d+), column (\d+)\)$", message)
    if found is not None:
        reason = message[:found.start()].strip()
        return f"{path}:{found.group(1)}:{found.group(2)}: invalid TOML: {reason}"
    last = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    reason = message.replace("(at end of document)", "").strip()
    return f"{path}:{max(last, 1)}: invalid TOML: {reason} at the end of the file"
