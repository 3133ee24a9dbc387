"""The examples in docstrings run: every module of ctxopt that has one (found by its text,
so that a module gaining a first example is run without a test naming it)."""
import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "ctxopt"
WITH_EXAMPLES = sorted(
    ".".join(("ctxopt", *path.relative_to(PACKAGE).with_suffix("").parts))
    for path in PACKAGE.rglob("*.py") if ">>> " in path.read_text(encoding="utf-8"))


def test_the_modules_with_examples_are_found() -> None:
    # lexical's example never ran: only task, ranges and budget were named by tests
    assert {"ctxopt.task", "ctxopt.ranges", "ctxopt.budget",
            "ctxopt.lexical"} <= set(WITH_EXAMPLES)


@pytest.mark.parametrize("module", WITH_EXAMPLES)
def test_the_examples_in_the_docstrings_hold(module: str) -> None:
    failed, attempted = doctest.testmod(importlib.import_module(module))
    assert attempted > 0 and failed == 0
