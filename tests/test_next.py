"""``next`` in ``gather --format json``: the blocks a larger budget adds, in order, each
with the budget that shows it (issue 17)."""
import json

import pytest

from ctxopt.cli import main
from ctxopt.model import Block, Fidelity, Result
from ctxopt.pipeline import GatherConfig, gather

TASK = "fix Storage bug"


def _find(result: Result, entry: dict) -> Block | None:
    """How ``result`` shows the entry's block: the block of its file within its lines (a
    cut names only the definitions it shows)."""
    return next((b for b in result.selection.blocks if b.path == entry["file"]
                 and entry["start_line"] <= b.start_line <= b.end_line <= entry["end_line"]),
                None)


def _as_much_as(block: Block | None, entry: dict) -> bool:
    """Whether ``block`` (how a budget shows the entry's block) is at least ``adds``."""
    if block is None:
        return False
    whole = (block.start_line, block.end_line) == (entry["start_line"], entry["end_line"])
    if block.kind is Fidelity.FULL:
        return whole
    return block.kind.value == entry["adds"]


@pytest.mark.parametrize("fixture", ["py_storage", "go_storage"])
@pytest.mark.parametrize("share", [0.25, 0.5, 0.8])
def test_asking_for_budget_plus_tokens_shows_the_next_blocks(
        runner, fixture_repo, tmp_path, monkeypatch, fixture, share) -> None:
    monkeypatch.setenv("CTXOPT_INDEX", str(tmp_path / "index.db"))
    root = fixture_repo(fixture)
    whole = gather(root, TASK, GatherConfig(budget=100_000)).used
    assert whole is not None
    budget = int(whole * share)
    result = runner.invoke(main, ["gather", TASK, "--root", str(root), "--budget", str(budget),
                                  "--format", "json"], catch_exceptions=False)
    entries = json.loads(result.stdout)["next"]
    assert entries, "a small budget leaves blocks for a larger one"
    assert [e["budget"] for e in entries] == sorted(e["budget"] for e in entries)
    for n, entry in enumerate(entries[:4]):
        assert entry["tokens"] == entry["budget"] - budget > 0
        assert entry["full_budget"] >= entry["budget"]
        larger = gather(root, TASK, GatherConfig(budget=budget + entry["tokens"]))
        assert all(_find(larger, before) is not None for before in entries[:n])
        assert _as_much_as(_find(larger, entry), entry), entry
        short = gather(root, TASK, GatherConfig(budget=budget + entry["tokens"] - 1))
        assert not _as_much_as(_find(short, entry), entry) or entry["adds"] == "truncated"


def test_no_next_when_everything_is_shown_whole(fixture_repo, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CTXOPT_INDEX", str(tmp_path / "index.db"))
    result = gather(fixture_repo("py_storage"), TASK, GatherConfig(budget=100_000))
    assert result.upcoming == () and not result.selection.excluded
    assert not result.selection.truncated


def test_next_is_required_by_the_schema() -> None:
    from ctxopt.contract import load_schema

    schema = load_schema("gather")
    assert "next" in schema["required"] and schema["properties"]["next"]["maxItems"] == 10


def _lines_shown(result: Result, block: Block) -> tuple:
    """How a result shows ``block`` (a candidate, whole): its kind and file lines ((): not
    shown)."""
    form = next((b for b in result.selection.blocks if b.path == block.path
                 and block.start_line <= b.start_line <= b.end_line <= block.end_line), None)
    if form is None:
        return ()
    return (form.kind, form.shown or ((form.start_line, form.end_line),))


@pytest.mark.parametrize("fixture", ["py_storage", "go_storage"])
@pytest.mark.parametrize("share", [0.2, 0.35, 0.5, 0.65, 0.8])
def test_a_budget_one_token_short_of_an_entry_shows_no_more_of_it(
        fixture_repo, tmp_path, monkeypatch, fixture, share) -> None:
    # trial 21: "shown from a budget of 413" (and next's budget) for a frame's block that
    # a budget of 391 showed cut to its first lines: the step's budget, not the smallest
    monkeypatch.setenv("CTXOPT_INDEX", str(tmp_path / "index.db"))
    root = fixture_repo(fixture)
    whole = gather(root, TASK, GatherConfig(budget=100_000)).used
    budget = int(whole * share)
    now = gather(root, TASK, GatherConfig(budget=budget))
    for upcoming in [u for u in now.upcoming if u.adds is Fidelity.TRUNCATED][:3]:
        short = gather(root, TASK, GatherConfig(budget=upcoming.budget - 1))
        assert _lines_shown(short, upcoming.block) == _lines_shown(now, upcoming.block)
        asked = gather(root, TASK, GatherConfig(budget=upcoming.budget))
        assert _lines_shown(asked, upcoming.block) != _lines_shown(now, upcoming.block)
