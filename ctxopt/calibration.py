"""Calibration storage: the correction factor learned per model name, kept in one JSON
file in the user's configuration directory. ``user_cache_dir`` is where the memo goes.

The library never asks click or the OS where that directory is: ``config_dir`` applies
the ``CTXOPT_CONFIG_DIR`` override to a default the caller gives. The arithmetic of a
calibrated count is ``budget.Calibrated``.
"""
from __future__ import annotations

import functools
import json
import os
from pathlib import Path

from . import jsontext
from .budget import MAX_FACTOR, MIN_FACTOR
from .errors import BudgetError, CalibrationError

__all__ = ["CalibrationStore", "config_dir", "user_config_dir", "user_cache_dir", "CONFIG_DIR_ENV",
           "CACHE_DIR_ENV"]

CONFIG_DIR_ENV = "CTXOPT_CONFIG_DIR"
CACHE_DIR_ENV = "CTXOPT_CACHE_DIR"
_CALIBRATION_FILE = "calibration.json"
_CALIBRATION_VERSION = 1


def config_dir(default: Path | str) -> Path:
    """``$CTXOPT_CONFIG_DIR`` when set and not empty, else ``default``."""
    return Path(os.environ.get(CONFIG_DIR_ENV) or default)


def user_config_dir() -> Path:
    """The user's ctxopt configuration directory: ``$CTXOPT_CONFIG_DIR``, else the
    platform's (``platformdirs``: ``~/.config/ctxopt`` on Linux, honouring
    ``$XDG_CONFIG_HOME``; the roaming application-data folder on Windows). Not created."""
    return _user_dir(CONFIG_DIR_ENV, "config", _PLATFORM_ENV)


def user_cache_dir() -> Path:
    """The user's ctxopt cache directory (the memo of texts, ``memo``): ``$CTXOPT_CACHE_DIR``,
    else the platform's (``platformdirs``: ``~/.cache/ctxopt`` on Linux, honouring
    ``$XDG_CACHE_HOME``; the local application-data folder on Windows). Not created."""
    return _user_dir(CACHE_DIR_ENV, "cache", _PLATFORM_CACHE_ENV)


# What platformdirs' answers depend on: the same values give the same directory, so each is
# asked once per process (the memo asks for every text it looks up).
_PLATFORM_ENV = ("XDG_CONFIG_HOME", "HOME", "APPDATA", "USERPROFILE")
_PLATFORM_CACHE_ENV = ("XDG_CACHE_HOME", "HOME", "LOCALAPPDATA", "USERPROFILE")
# Every variable the cache directory depends on (``memo.shared_memo`` keys on their values).
CACHE_DIRECTORY_ENV = (CACHE_DIR_ENV, *_PLATFORM_CACHE_ENV)


def _user_dir(override: str, kind: str, platform_env: tuple[str, ...]) -> Path:
    """``$override`` when set and not empty (platformdirs need not be imported), else the
    platform's user directory of ``kind`` ("config" or "cache")."""
    if os.environ.get(override):
        return Path(os.environ[override])
    return _platform_dir(kind, *(os.environ.get(name) for name in platform_env))


@functools.lru_cache(maxsize=8)
def _platform_dir(kind: str, *environment: str | None) -> Path:
    import platformdirs

    if kind == "config":
        return Path(platformdirs.user_config_dir("ctxopt", appauthor=False, roaming=True))
    return Path(platformdirs.user_cache_dir("ctxopt", appauthor=False))


class CalibrationStore:
    """Calibration factors per model name, in ``<directory>/calibration.json``.

    The file is ``{"version": 1, "models": {name: {"factor": float,
    "observations": int}}}``. Writes are atomic (temporary file, then rename). A file
    that cannot be read as that shape is *corrupt*: ``load`` reports it and returns no
    factors; ``save`` moves it aside to ``calibration.json.corrupt`` (never deleting
    what the user had; ``.corrupt.1``... if that name is taken) and writes a fresh file.
    """

    def __init__(self, directory: Path | str) -> None:
        self.path = Path(directory) / _CALIBRATION_FILE

    def load(self) -> tuple[dict[str, dict[str, float]], str | None]:
        """The stored models and ``None``, or ``({}, problem)`` when the file is corrupt.

        A missing file is no problem: ``({}, None)``.
        """
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}, None
        except (OSError, UnicodeDecodeError) as exc:
            return {}, f"cannot read {self.path}: {exc}"
        try:
            document = jsontext.loads(raw)
            models = document["models"]
            if document.get("version") != _CALIBRATION_VERSION or not isinstance(models, dict):
                raise ValueError("unexpected layout")
            for entry in models.values():
                factor = entry["factor"]
                if (isinstance(factor, bool) or not isinstance(factor, (int, float))
                        or not MIN_FACTOR <= factor <= MAX_FACTOR):
                    raise ValueError(f"factor {factor!r} outside [{MIN_FACTOR}, {MAX_FACTOR}]")
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            return {}, f"{self.path} is corrupt ({exc})"
        return models, None

    def factor(self, model: str) -> tuple[float | None, str | None]:
        """The stored factor of ``model`` (``None`` if none) and any load problem."""
        factor, _, problem = self.entry(model)
        return factor, problem

    def entry(self, model: str) -> tuple[float | None, int, str | None]:
        """The stored factor of ``model`` (``None`` if none), how many measurements it
        was learned from (0 for none; at least 1 for a stored factor, as in a file whose
        entry has no usable count) and any load problem."""
        models, problem = self.load()
        entry = models.get(model)
        if entry is None:
            return None, 0, problem
        return float(entry["factor"]), _observations(entry), problem

    def save(self, model: str, factor: float) -> str | None:
        """Store ``factor`` for ``model``; returns the problem repaired (and where the
        corrupt file was kept), if any.

        Raises
        ------
        BudgetError
            Empty model name or a factor outside [0.5, 2.0].
        CalibrationError
            The directory or file cannot be written (the old file is left unchanged).
        """
        if not model.strip():
            raise BudgetError("the model name is empty")
        if not MIN_FACTOR <= factor <= MAX_FACTOR:
            raise BudgetError(f"the calibration factor must be in [{MIN_FACTOR}, {MAX_FACTOR}], "
                              f"got {factor!r}")
        models, problem = self.load()
        entry = models.get(model)
        observations = 0 if entry is None else _observations(entry)
        models[model] = {"factor": factor, "observations": observations + 1}
        text = json.dumps({"version": _CALIBRATION_VERSION, "models": models},
                          indent=2, sort_keys=True) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if problem is not None and self.path.exists():
                backup = _unused_name(self.path.with_name(self.path.name + ".corrupt"))
                os.replace(self.path, backup)
                problem = f"{problem}; kept it as {backup}"
            _write_atomically(self.path, text)
        except FileExistsError as exc:  # mkdir's word for a file where the directory goes
            raise CalibrationError(f"cannot write {self.path}: {self.path.parent} is not a "
                                   "directory") from exc
        except OSError as exc:
            raise CalibrationError(f"cannot write {self.path}: {exc.strerror or exc}") from exc
        return problem


def _observations(entry: dict[str, float]) -> int:
    """The measurements a stored entry was learned from: its count, at least 1 (an entry
    with no usable count, as an older or hand-written file may have, holds a factor)."""
    count = entry.get("observations")
    if isinstance(count, bool) or not isinstance(count, int):
        return 1
    return max(1, count)


def _unused_name(path: Path) -> Path:
    """``path``, or ``path.1``, ``path.2``... whichever does not exist yet."""
    candidate, number = path, 0
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}.{number}")
    return candidate


def _write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file in the same directory, so a failure leaves the old file."""
    import tempfile  # (here: a warm gather writes no file)

    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
