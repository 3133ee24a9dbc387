"""Jupyter notebooks: code cells indexed as Python, outputs never read (files.notebook)."""
import json
import re

import pytest

from ctxopt.cli import main
from ctxopt.files.notebook import NotebookError, cell_label, cell_of_line, code_view
from ctxopt.model import Diagnostic
from ctxopt.parsing.parse import ParsedFile, parse_file

_IMAGE = "iVBORw0KGgo" + "A" * 30_000  # a plot: one line far over the line-length limit


def _notebook(cells: list[tuple[str, str]], language: str = "python", outputs: bool = True) -> bytes:
    """nbformat 4 JSON as Jupyter writes it (indent 1, sources as lists of lines)."""
    made = []
    for kind, source in cells:
        cell = {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True)}
        if kind == "code":
            cell["execution_count"] = 1
            cell["outputs"] = [{"output_type": "display_data", "metadata": {},
                                "data": {"image/png": _IMAGE, "text/plain": ["SECRET_OUTPUT"]}}
                               ] if outputs else []
        made.append(cell)
    document = {"cells": made, "nbformat": 4, "nbformat_minor": 5,
                "metadata": {"kernelspec": {"name": language, "language": language,
                                            "display_name": language}}}
    return json.dumps(document, indent=1).encode()


CLEAN = _notebook([
    ("markdown", "# Cleaning\nLoad the data, then clean it."),
    ("code", "import pandas as pd\n%matplotlib inline\ndf = pd.read_csv('x.csv')"),
    ("code", "def clean(frame):\n    \"\"\"Drop empty rows.\"\"\"\n    return frame.dropna()"),
    ("code", "clean(df).plot()"),
])


def test_the_code_view_holds_the_code_cells_after_their_markers() -> None:
    assert code_view(CLEAN) == (
        "# %% [cell 2]\nimport pandas as pd\n%matplotlib inline\ndf = pd.read_csv('x.csv')\n"
        "# %% [cell 3]\ndef clean(frame):\n    \"\"\"Drop empty rows.\"\"\"\n    return frame.dropna()\n"
        "# %% [cell 4]\nclean(df).plot()\n")


def test_outputs_are_never_read() -> None:
    view = code_view(CLEAN)
    assert "SECRET_OUTPUT" not in view and _IMAGE[:20] not in view


@pytest.mark.parametrize(("data", "expected"), [
    (b'{"nbformat": 3, "worksheets": [{"cells": [{"cell_type": "code", "input": "x = 1\\n"}]}]}',
     "# %% [cell 1]\nx = 1\n"),
    (b'{"cells": [{"cell_type": "code", "source": "a = 1\\r\\nb = 2"}]}', "# %% [cell 1]\na = 1\nb = 2\n"),
    (b'{"cells": [{"cell_type": "code", "source": []}]}', "# %% [cell 1]\n"),
])
def test_other_notebook_shapes(data: bytes, expected: str) -> None:
    assert code_view(data) == expected


def test_a_notebook_in_another_language_has_no_python_view() -> None:
    assert code_view(_notebook([("code", "x <- 1")], language="R")) is None


@pytest.mark.parametrize("data", [b"not json", b"[]", b'{"cells": 3}', b"\xff\xfe"])
def test_bad_notebooks_raise(data: bytes) -> None:
    with pytest.raises(NotebookError):
        code_view(data)


def test_a_line_maps_back_to_its_cell() -> None:
    lines = code_view(CLEAN).split("\n")
    assert [cell_of_line(lines, n) for n in (1, 2, 4, 5, 6, 8, 9, 10, 11)] == [
        None, (2, 1), (2, 3), None, (3, 1), (3, 3), None, (4, 1), (4, 2)]
    assert cell_label(lines, 5, 8) == "cell 3, lines 1-3"
    assert cell_label(lines, 3, 7) == "cells 2-3"


def test_parse_file_indexes_the_code_cells_as_python() -> None:
    parsed = parse_file("clean.ipynb", CLEAN)
    assert isinstance(parsed, ParsedFile) and parsed.language == "python"
    # a cell's marker is a comment line directly above its first definition: in its range
    assert [(d.qualified_name, d.kind, d.start_line, d.end_line) for d in parsed.tags.definitions] == [
        ("df", "variable", 4, 4), ("clean", "function", 5, 8)]
    assert ("clean", "call", 10) in {(r.name, r.kind, r.line) for r in parsed.tags.references}


@pytest.mark.parametrize(("data", "reason"), [
    (_notebook([("code", "x <- 1")], language="R"), "notebook language"),
    (b"{not json", "unparsable"),
])
def test_notebooks_that_are_not_read_say_why(data: bytes, reason: str) -> None:
    parsed = parse_file("a.ipynb", data)
    assert isinstance(parsed, Diagnostic) and parsed.reason == reason


def test_tags_and_gather_show_a_notebooks_function_with_its_cell(runner, make_repo) -> None:
    root = make_repo({"clean.ipynb": CLEAN, "main.py": "def run():\n    return 1\n"})
    listed = runner.invoke(main, ["tags", str(root / "clean.ipynb")], catch_exceptions=False)
    assert listed.exit_code == 0 and "clean" in listed.stdout and "5-8" in listed.stdout
    result = runner.invoke(main, ["gather", "fix clean in clean.ipynb", "--root", str(root)],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    # the block holding clean names its cells on its first line (context lines may add
    # cell 2; a notebook this small is shown whole, cells 2-4)
    assert re.search(r"^## clean\.ipynb\n```python\n(.*\n)*# lines \d+-\d+ \[(cell 3, lines 1-3|cells 2-[34])\]$",
                     result.stdout, re.M)
    assert "def clean(frame):" in result.stdout
    assert "SECRET_OUTPUT" not in result.stdout and _IMAGE[:20] not in result.stdout
    assert "line too long" not in result.stderr


def test_a_task_naming_a_notebook_finds_it(runner, make_repo) -> None:
    root = make_repo({"clean.ipynb": CLEAN})
    result = runner.invoke(main, ["gather", "explain clean.ipynb", "--root", str(root),
                                  "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert {b["file"] for b in json.loads(result.stdout)["blocks"]} == {"clean.ipynb"}


def test_a_notebook_may_be_larger_than_the_size_limit(make_repo) -> None:
    from ctxopt.discover import list_candidates

    root = make_repo({"clean.ipynb": CLEAN, "big.py": "x = 1\n" * 10000})
    candidates, diagnostics = list_candidates(root, max_file_bytes=len(CLEAN) // 2)
    assert [c.path for c in candidates] == ["clean.ipynb"]
    assert [(d.path, d.reason) for d in diagnostics] == [("big.py", "too large")]
