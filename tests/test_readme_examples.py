"""The README's outputs of the py_storage fixture are what ctxopt prints: the text layout of
5820e05 changed the token counts, and the manifest example went on saying `used 625`
where gather printed 592."""
from __future__ import annotations

import re
from pathlib import Path

from ctxopt.cli import main

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


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
    # whole: a hand cut ("...  (file lines 24-46, left out here)") read as ctxopt's output
    # (trial F16)
    assert printed == text


def test_the_usage_block_lists_every_option_of_gather_and_index(runner) -> None:
    # trial F16: gather's usage left out --parse-cache, which its option table documents
    usage = re.search(r"^```\n(ctxopt \[--quiet\].*?)^```", README, re.M | re.S)
    assert usage is not None
    entries = re.split(r"\n(?=ctxopt )", usage.group(1))
    for command in ("gather", "index"):
        entry = next(e for e in entries if e.startswith(f"ctxopt {command} "))
        shown = set(re.findall(r"--?[a-z][a-z-]*", entry))
        helped = runner.invoke(main, [command, "--help"]).stdout
        options = {short or long for short, long in re.findall(
            r"^  (?:(-\w), )?(--[a-z][a-z-]*)", helped, re.M)} - {"-h"}
        assert options <= shown, (command, options - shown)
