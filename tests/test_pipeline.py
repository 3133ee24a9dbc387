"""Fitting the whole text (``fit.fit_text``): exact header reservation and the too-small
error."""
from pathlib import Path

import pytest

from ctxopt import fit, pipeline
from ctxopt.errors import BudgetTooSmallForContent
from ctxopt.model import Fidelity, Selection
from ctxopt.render import render_text
from ctxopt.tokens import count_tokens

ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "py_storage"


@pytest.fixture(autouse=True)
def _index_outside_the_checkout(tmp_path, monkeypatch) -> None:
    """These tests read the fixture in place: keep its persistent index in tmp_path."""
    monkeypatch.setenv("CTXOPT_INDEX", str(tmp_path / "index.db"))


def test_when_the_fitter_shows_nothing_the_cheapest_block_is_shown_if_it_fits(monkeypatch) -> None:
    # A fitter that excludes everything stands for rounds that miss the one room that
    # holds a block and the header it brings: the run still shows the cheapest block.
    candidates = len(pipeline.gather(ROOT, "fix Storage bug").selection.blocks)
    monkeypatch.setattr(fit, "fit_budget", lambda blocks, room, **kwargs: Selection(()))
    with pytest.raises(BudgetTooSmallForContent) as raised:
        pipeline.gather(ROOT, "fix Storage bug", pipeline.GatherConfig(budget=60))
    needed = raised.value.minimum
    result = pipeline.gather(ROOT, "fix Storage bug", pipeline.GatherConfig(budget=needed))
    (shown,) = result.selection.blocks
    assert shown.kind in (Fidelity.TRUNCATED, Fidelity.SIGNATURE)
    assert count_tokens(render_text(result, count_tokens)) <= needed
    assert len(result.selection.excluded) == candidates - 1 and len(result.selection.truncated) <= 1


@pytest.mark.parametrize("budget", [100, 110, 120, 130])
def test_header_is_reserved_exactly_so_no_more_line_would_fit_issue_5(budget) -> None:
    # The old reservation (a pessimistic header plus 8 tokens of slack) left room unused:
    # at 110 tokens it showed lines 16-18 in 97 tokens where 16-20 fit in 105.
    from dataclasses import replace

    from ctxopt.fit import truncate_block
    whole = pipeline.gather(ROOT, "fix Storage bug").selection.blocks[0]
    result = pipeline.gather(ROOT, "fix Storage bug", pipeline.GatherConfig(budget=budget))
    shown = result.selection.blocks[0]
    assert (shown.path, whole.path) == ("storage/db.py", "storage/db.py")
    assert shown.kind is Fidelity.TRUNCATED
    assert count_tokens(render_text(result, count_tokens)) <= budget
    longer = truncate_block(whole, shown.end_line - shown.start_line + 2, count_tokens)
    grown = replace(result, used=None, selection=replace(  # the renderer measures it again
        result.selection, blocks=(longer, *result.selection.blocks[1:])))
    assert count_tokens(render_text(grown, count_tokens)) > budget
