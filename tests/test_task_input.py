"""Where the task comes from and what a huge one contributes (issue 13, cases 8 and 9)."""
from __future__ import annotations

from ctxopt.cli import main
from ctxopt.pipeline import GatherConfig, gather
from ctxopt.render import render_text
from ctxopt.task import MAX_TASK_KEYWORDS, MAX_TASK_SYMBOLS, limit_task, parse_task
from ctxopt.tokens import Cl100kCounter

STORAGE = "class Storage:\n    def save(self):\n        return 1\n"


def test_limit_task_keeps_the_first_symbols_and_keywords_and_says_so() -> None:
    task = " ".join(f"call_site_{i} frame{i}word" for i in range(300))
    parsed = parse_task(task)
    assert len(parsed.symbols) > MAX_TASK_SYMBOLS and len(parsed.keywords) > MAX_TASK_KEYWORDS
    limited, note = limit_task(parsed)
    assert limited.symbols == parsed.symbols[:MAX_TASK_SYMBOLS]
    assert limited.keywords == parsed.keywords[:MAX_TASK_KEYWORDS]
    assert note == (f"task cut: searched the first {MAX_TASK_SYMBOLS} of {len(parsed.symbols)} "
                    f"symbols and the first {MAX_TASK_KEYWORDS} of {len(parsed.keywords)} keywords")


def test_a_short_task_is_not_cut() -> None:
    parsed = parse_task("fix Storage.save in storage.py")
    assert limit_task(parsed) == (parsed, None)


def test_a_huge_task_still_finds_its_first_symbols_and_the_header_says_it_was_cut(make_repo) -> None:
    root = make_repo({"storage.py": STORAGE})
    frames = "\n".join(f'  File "lib/mod_{i}.py", line {i}, in handler_{i}' for i in range(5000))
    task = f"Storage.save fails\nTraceback (most recent call last):\n{frames}\n"
    assert len(task) > 200_000
    result = gather(root, task, GatherConfig(budget=2000))
    assert [b.path for b in result.selection.blocks] == ["storage.py"]
    text = render_text(result, Cl100kCounter().count)
    assert text.splitlines()[1].startswith(f"# task cut: searched the first {MAX_TASK_SYMBOLS} of ")


def test_a_task_naming_an_empty_file_says_it_is_empty(make_repo, runner) -> None:
    root = make_repo({"storage.py": STORAGE, "pkg/empty_module.py": ""})
    result = runner.invoke(main, ["gather", "explain pkg/empty_module.py", "--root", str(root)])
    assert result.exit_code == 1
    assert "pkg/empty_module.py is empty" in result.output


def test_nothing_found_cuts_a_long_task_like_the_header(make_repo, runner) -> None:
    root = make_repo({"storage.py": STORAGE})
    task = "zebra " * 400
    result = runner.invoke(main, ["gather", task, "--root", str(root)])
    assert result.exit_code == 1
    assert len(result.output) < 500 and "…" in result.output


def test_budget_too_small_quotes_one_minimum_that_holds_the_header(make_repo) -> None:
    import pytest

    from ctxopt.errors import BudgetTooSmall, BudgetTooSmallForContent

    root = make_repo({"storage.py": STORAGE})
    minimums = set()
    for budget in (1, 10, 30, 37):
        with pytest.raises(BudgetTooSmall) as caught:
            gather(root, "fix Storage", GatherConfig(budget=budget))
        if not isinstance(caught.value, BudgetTooSmallForContent):
            minimums.add(caught.value.minimum)
    # regression: 37 was quoted at --budget 10, and 38 at --budget 37
    assert len(minimums) == 1
    minimum = minimums.pop()
    try:
        gather(root, "fix Storage", GatherConfig(budget=minimum))
    except BudgetTooSmallForContent:
        pass  # the header holds; the block does not
