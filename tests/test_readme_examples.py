"""The README's outputs of the py_storage fixture are what ctxopt prints: the text layout of
5820e05 changed the token counts, and the manifest example went on saying `used 625`
where gather printed 592."""
from __future__ import annotations

import re
from pathlib import Path

from ctxopt.cli import main

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
# The text example leaves the end of one block out by hand, on a line of its own.
_ELISION = re.compile(r"^ *\.\.\.  \(file lines \d+-\d+, left out here\)\n", re.M)


def _gather(runner, root: Path, *args: str) -> str:
    result = runner.invoke(main, ["gather", *args, "--root", str(root)], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_the_manifest_example_is_the_first_rows_gather_prints(runner, fixture_repo) -> None:
    example = re.search(r"^```\n(# ctxopt manifest 2\n.*?)^```", README, re.M | re.S)
    assert example is not None
    printed = _gather(runner, fixture_repo("py_storage"), "fix Storage bug", "--budget", "8000",
                      "--format", "manifest")
    assert printed.startswith(example.group(1))


def test_the_text_layout_example_is_what_gather_prints(runner, fixture_repo) -> None:
    example = re.search(r"^   ````\n(   # ctxopt context for: fix Storage\.get bug\n.*?)^   ````",
                        README, re.M | re.S)
    assert example is not None
    text = re.sub(r"^   ", "", example.group(1), flags=re.M)
    printed = _gather(runner, fixture_repo("py_storage"), "fix Storage.get bug", "--budget", "420")
    before, after = _ELISION.split(text)
    assert printed.startswith(before)
    assert printed.endswith(after)
