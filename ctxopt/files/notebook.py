"""Jupyter notebooks (``.ipynb``) as Python source: the code view.

A notebook is JSON; its code cells are what ctxopt indexes and shows. ``code_view`` turns
a notebook into plain Python text in the percent format of Jupytext and VS Code: each code
cell, in notebook order, after a marker line ``# %% [cell N]`` (N counts every cell from 1,
markdown and raw cells included, as the notebook shows them). Outputs are never read, so
images, tracebacks and printed data neither count against the budget nor reach the output.

Line numbers of a notebook, everywhere (tags, index, gather blocks), are lines of this code
view; ``cell_of_line`` maps one back to (cell, line in the cell).
"""
from __future__ import annotations

import re
from pathlib import Path

from .. import jsontext
from ..errors import NotebookError
from ..model import Diagnostic
from .reasons import REASON_NOTEBOOK_LANGUAGE, REASON_UNPARSABLE
from .text import decode_text, split_lines

__all__ = ["NOTEBOOK_SUFFIX", "NotebookError", "code_view", "cell_of_line", "is_notebook",
           "as_source", "cell_label", "NOTEBOOK_SIZE_FACTOR", "read_lines"]

NOTEBOOK_SUFFIX = ".ipynb"
# A notebook may be this many times the size limit (its outputs, never read, are most of it).
NOTEBOOK_SIZE_FACTOR = 20
# Kernel languages whose cells are Python (an R or Julia notebook is not indexed).
_PYTHON_KERNELS = frozenset({"python", "python2", "python3", "ipython", "pyspark", ""})
_MARKER = re.compile(r"^# %% \[cell (\d+)\]$")


def is_notebook(path: str) -> bool:
    """True when ``path`` names a Jupyter notebook (by its extension, case-insensitive)."""
    return path.lower().endswith(NOTEBOOK_SUFFIX)


def _cells(document: object) -> list[dict]:
    if not isinstance(document, dict):
        raise NotebookError("not a JSON object")
    cells = document.get("cells")
    if cells is None and isinstance(document.get("worksheets"), list):  # nbformat 3
        cells = [c for sheet in document["worksheets"] if isinstance(sheet, dict)
                 for c in sheet.get("cells", [])]
    if not isinstance(cells, list):
        raise NotebookError("no cells")
    return [c for c in cells if isinstance(c, dict)]


def _language(document: dict) -> str:
    metadata = document.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {}
    for key, field in (("language_info", "name"), ("kernelspec", "language")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(field), str):
            return section[field].lower()
    return ""


def _source(cell: dict) -> str:
    source = cell.get("source", cell.get("input", ""))  # nbformat 4, 3
    if isinstance(source, list):
        source = "".join(s for s in source if isinstance(s, str))
    return source if isinstance(source, str) else ""


def code_view(data: bytes) -> str | None:
    """The Python code of a notebook's code cells, each after its ``# %% [cell N]`` line,
    with ``\\n`` line endings; None for a notebook in another kernel language (R, Julia...).

    Raises
    ------
    NotebookError
        When ``data`` is not a notebook's JSON.
    """
    try:
        document = jsontext.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise NotebookError(f"not valid JSON: {exc}") from exc
    cells = _cells(document)
    if _language(document) not in _PYTHON_KERNELS:
        return None
    parts = []
    for number, cell in enumerate(cells, 1):
        if cell.get("cell_type") != "code":
            continue
        code = _source(cell).replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")
        parts.append(f"# %% [cell {number}]\n{code}\n" if code else f"# %% [cell {number}]\n")
    return "".join(parts)


def cell_of_line(lines: list[str], line: int) -> tuple[int, int] | None:
    """(cell number, 1-indexed line in the cell) of ``line`` (1-indexed) of a code view
    given as its ``lines``, or None for a marker line or a line out of range."""
    if not 1 <= line <= len(lines):
        return None
    for index in range(line - 1, -1, -1):
        match = _MARKER.match(lines[index])
        if match:
            return (int(match.group(1)), line - 1 - index) if index < line - 1 else None
    return None


def cell_label(lines: list[str], start: int, end: int) -> str:
    """Where lines ``start..end`` of a code view lie in the notebook: ``cell 3, lines 2-5``
    or ``cells 3-4`` ('' when no cell holds them)."""
    first = cell_of_line(lines, start) or cell_of_line(lines, start + 1)
    last = cell_of_line(lines, end) or cell_of_line(lines, end - 1)
    if first is None or last is None:
        return ""
    if first[0] == last[0]:
        return f"cell {first[0]}, lines {first[1]}-{last[1]}"
    return f"cells {first[0]}-{last[0]}"


def as_source(rel: str, data: bytes) -> bytes | Diagnostic:
    """The bytes ctxopt reads as the file at ``rel``: ``data`` itself, or for a notebook
    its code view (UTF-8); a Diagnostic when the notebook cannot be read (``unparsable``)
    or its kernel is not Python (``notebook language``)."""
    if not is_notebook(rel):
        return data
    try:
        view = code_view(data)
    except NotebookError as exc:
        return Diagnostic(rel, REASON_UNPARSABLE, f"not a notebook: {exc}"[:200])
    if view is None:
        return Diagnostic(rel, REASON_NOTEBOOK_LANGUAGE, "the kernel is not Python")
    return view.encode("utf-8")


def read_lines(path: Path) -> list[str]:
    """The file's lines (undecodable bytes replaced), without line terminators; a
    notebook's are those of its code view (``as_source``), as the indexer saw them.

    Lines end at ``\\r\\n``, ``\\r`` or ``\\n`` (``files.text.split_lines``). Raises
    ``OSError`` when the file cannot be read (or is a notebook that cannot be).
    """
    source = as_source(path.name, path.read_bytes())
    if not isinstance(source, bytes):
        raise OSError(source.detail)
    return split_lines(decode_text(source).text)
