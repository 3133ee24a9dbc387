"""The text layout's costs (``render.Layout``) against counts of the rendered text."""
import json
import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ctxopt.budget import Calibrated
from ctxopt.errors import BudgetTooSmallForContent
from ctxopt.fit import fit_text
from ctxopt.model import Block, Dropped, Fidelity, Intent, Result, Selection
from ctxopt.render import (Layout, block_marker, render_body, render_header, render_json,
                           render_text)
from ctxopt.tokens import Cl100kCounter, count_tokens

# Text with what makes token boundaries move: backticks (longer fences), blank lines,
# trailing spaces, '#', digits, punctuation and non-ASCII letters.
_TEXT = st.lists(st.sampled_from(list("ab Z9#`\n\t.:-_()'\"é中\r") + ["  ", "\n\n", "```"]),
                max_size=30).map("".join)
_BLOCKS = st.lists(st.tuples(_TEXT, st.sampled_from(["python", "go", "", "json"]),
                             st.sampled_from(list(Fidelity)), _TEXT, st.integers(0, 2)),
                   max_size=5)


def _result(task: str, budget: int, specs, calibrated_for: str | None = None) -> Result:
    # blocks of up to three files, several to a file: one fence holds a file's blocks
    blocks = tuple(
        Block(path=f"d/f{file}.py", language=language, start_line=10 * i + 1,
              end_line=10 * i + 3, content=content, tokens=count_tokens(content),
              score=100.0 - i, ring=0, reason=reason or "r",
              symbols=(reason,) if reason.strip() else (), kind=kind)
        for i, (content, language, kind, reason, file) in enumerate(specs))
    return Result(task=task or "t", intent=Intent.GENERAL, budget=budget,
                  selection=Selection(blocks=blocks), calibrated_for=calibrated_for)


@given(_TEXT, st.integers(1, 10**6), _BLOCKS)
def test_the_parts_of_the_text_add_up_to_its_exact_count(task, budget, specs) -> None:
    # The layout counts the header and each block apart; for cl100k the sum is the count
    # of the whole text, whose header states exactly that figure.
    result = _result(task, budget, specs)
    layout = Layout(result, count_tokens, additive=True)
    used = layout.tokens(result.selection)
    text = render_header(result, used) + render_body(result.selection.blocks)
    assert count_tokens(text) == used
    assert render_text(result, count_tokens) == text
    # the fitter budgets each block at its own rendering: never less than it adds
    header = count_tokens(render_header(result, used))
    assert used <= header + sum(layout.block_cost(b) for b in result.selection.blocks)


def test_one_fence_holds_a_files_blocks_in_line_order() -> None:
    # A header line and two fences per block were 19% of the text (issue 11): a file's
    # blocks share one "## path" line and one fence, each opened by the lines it shows;
    # files come in the order of their best block.
    def block(path: str, start: int, score: float, content: str,
              kind: Fidelity = Fidelity.FULL) -> Block:
        return Block(path=path, language="python", start_line=start,
                     end_line=start + content.count("\n"), content=content,
                     tokens=count_tokens(content), score=score, ring=0, reason="r", kind=kind)

    blocks = (block("b.py", 40, 120.0, "def late():\n    return 2"),
              block("a.py", 1, 110.0, "x = 1"),
              block("b.py", 3, 90.0, "def early(): ...", Fidelity.SIGNATURE))
    result = Result(task="t", intent=Intent.GENERAL, budget=1000,
                    selection=Selection(blocks=blocks))
    body = render_text(result, count_tokens).split("\n", 3)[3]
    assert body == ("\n## b.py\n```python\n# lines 3-3 (signature)\ndef early(): ...\n"
                    "# lines 40-41\ndef late():\n    return 2\n```\n"
                    "\n## a.py\n```python\n# lines 1-1\nx = 1\n```\n")


def test_a_fence_is_longer_than_any_backtick_run_of_its_files_blocks() -> None:
    result = _result("t", 1000, [("a ``` b", "python", Fidelity.FULL, "r", 0),
                                 ("c ```` d", "python", Fidelity.FULL, "r", 0)])
    body = render_body(result.selection.blocks)
    assert body.startswith("\n## d/f0.py\n`````python\n") and body.endswith("\n`````\n")


@given(_TEXT, _BLOCKS, st.floats(0.5, 2.0))
def test_a_calibrated_count_is_measured_on_the_whole_text(task, specs, factor) -> None:
    # Rounding each part up would overcount, so a scaled counter is not added by parts.
    counter = Calibrated(Cl100kCounter(), factor=factor)
    result = _result(task, 5000, specs, calibrated_for="m")
    used = Layout(result, counter.count, additive=False).tokens(result.selection)
    assert used == counter.count(render_text(result, counter.count))
    assert used <= math.ceil(factor * count_tokens(render_text(result, counter.count)))


@given(st.lists(st.tuples(st.sampled_from([130.0, 100.0, 80.0, 60.0, 45.0]),
                          st.integers(1, 80)), min_size=1, max_size=6),
       st.integers(30, 3000))
def test_fit_text_never_exceeds_the_budget_and_states_the_exact_count(specs, budget) -> None:
    blocks = []
    for i, (score, lines) in enumerate(specs):
        content = "\n".join(f"    value_{n} = compute({n})" for n in range(lines))
        blocks.append(Block(path=f"f{i}.py", language="python", start_line=1, end_line=lines,
                            content=content, tokens=count_tokens(content), score=score,
                            ring=0 if score >= 100 else 2, reason="r", symbols=(f"s{i}",),
                            signature="def f():\n    ..."))
    empty = Result(task="fix it", intent=Intent.FIX, budget=budget, selection=Selection(()))
    layout = Layout(empty, count_tokens, additive=True)
    try:
        selection, used = fit_text(blocks, budget, layout)
    except BudgetTooSmallForContent as error:
        assert error.minimum > budget
        return
    result = Result(task="fix it", intent=Intent.FIX, budget=budget, selection=selection,
                    used=used)
    assert count_tokens(render_text(result, count_tokens)) == used <= budget
    assert len(selection.blocks) + len(selection.excluded) == len(blocks)


@pytest.mark.parametrize("budget", [40, 60])
def test_fit_text_raises_when_not_even_the_smallest_block_fits(budget) -> None:
    content = "\n".join(f"value_{n} = {n}" for n in range(30))
    block = Block(path="a.py", language="python", start_line=1, end_line=30, content=content,
                  tokens=count_tokens(content), score=40.0, ring=3, reason="r")
    empty = Result(task="fix it", intent=Intent.FIX, budget=budget, selection=Selection(()))
    with pytest.raises(BudgetTooSmallForContent):
        fit_text([block], budget, Layout(empty, count_tokens, additive=True))


def test_renderers_state_the_gathers_count_without_counting_again() -> None:
    # gather fits and measures once (Result.used); the renderers only print it.
    from ctxopt.render import render_json, render_manifest

    def no_count(text: str) -> int:
        raise AssertionError("the renderer counted again")

    result = replace(_result("t", 1000, [("x = 1", "python", Fidelity.FULL, "a", 0)]), used=123)
    assert "used 123" in render_text(result, no_count)
    assert '"used": 123' in render_json(result, no_count)
    assert "used 123" in render_manifest(result, no_count)


def _whole_task_line(task: str) -> str:
    """``task_line`` as it was, reading the whole task."""
    from ctxopt.files.text import display_text
    from ctxopt.render import _PARTIAL_ESCAPE, TASK_CHARS

    line = display_text(" ".join(task.split()))
    if len(line) <= TASK_CHARS:
        return line
    return _PARTIAL_ESCAPE.sub("", line[:TASK_CHARS - 1]).rstrip() + "…"


_CHUNKS = st.sampled_from(["word", " ", " " * 700, "\n" * 3000, "\x01", "é", "\udcff", "\t"])


@given(st.lists(_CHUNKS, max_size=40).map("".join))
def test_the_task_line_of_a_prefix_is_the_whole_tasks(task: str) -> None:
    from ctxopt.render import task_line

    assert task_line(task) == _whole_task_line(task)


def test_the_task_line_reads_only_the_start_of_a_huge_task(monkeypatch) -> None:
    # trial: a 12.9 MB log as the task took 80 CPU-s, the whole task read for each of
    # the 308 headers the fitter measured
    from ctxopt import render

    read: list[int] = []

    def display_text(text: str) -> str:
        read.append(len(text))
        return text

    monkeypatch.setattr(render, "display_text", display_text)
    assert render.task_line("fix it " * 200_000).endswith("…")
    assert max(read) <= 4 * render.TASK_CHARS


@pytest.mark.parametrize(("language", "marker"), [
    ("python", "# lines 3-4"), ("rust", "// lines 3-4"), ("typescript", "// lines 3-4"),
    ("go", "// lines 3-4"), ("markdown", "<!-- lines 3-4 -->"), ("", "# lines 3-4"),
    ("json", "lines 3-4")])
def test_a_block_marker_is_a_comment_in_the_blocks_language(language, marker) -> None:
    # trial: "# lines 3-4" opened every block, a syntax error in a Rust or Go fence
    block = Block(path="m", language=language, start_line=3, end_line=4, content="a\nb",
                  tokens=2, score=1.0, ring=0, reason="r")
    assert block_marker(block) == marker


def test_a_json_block_has_its_range_on_its_path_line_outside_its_fence() -> None:
    # review F17: "// lines 3-4" opened a JSON file's blocks inside a json fence: JSON has
    # no comments. Each block gets its own "## path (lines A-B)" line and fence.
    def block(start: int, content: str) -> Block:
        return Block(path="c.json", language="json", start_line=start,
                     end_line=start + content.count("\n"), content=content,
                     tokens=count_tokens(content), score=100.0 - start, ring=0, reason="r")

    blocks = (block(7, '  "b": 2'), block(1, '{\n  "a": 1,'))
    result = Result(task="t", intent=Intent.GENERAL, budget=1000,
                    selection=Selection(blocks=blocks))
    body = render_text(result, count_tokens).split("\n", 3)[3]
    assert body == ('\n## c.json (lines 1-2)\n```json\n{\n  "a": 1,\n```\n'
                    '\n## c.json (lines 7-7)\n```json\n  "b": 2\n```\n')
    layout = Layout(result, count_tokens, additive=True)
    assert layout.tokens(result.selection) == count_tokens(render_text(result, count_tokens))


@given(_TEXT, _BLOCKS, st.lists(st.lists(st.integers(0, 4), max_size=5), max_size=6))
def test_one_layout_measures_many_selections_each_exactly(task, specs, picks) -> None:
    # The fitter measures every state of its plan with one layout, which keeps each
    # file's sum by its blocks: each measure is still the count of its own text.
    result = _result(task, 5000, specs)
    blocks = result.selection.blocks
    layout = Layout(result, count_tokens, additive=True)
    for pick in [list(range(len(blocks))), *picks]:
        chosen = tuple(blocks[i] for i in dict.fromkeys(pick) if i < len(blocks))
        shown = replace(result, selection=Selection(blocks=chosen))
        assert layout.tokens(shown.selection) == count_tokens(render_text(shown, count_tokens))


def test_a_files_sum_is_measured_once_for_its_blocks(monkeypatch) -> None:
    # The plan's states are one step apart: measuring the next one lays out only the
    # file whose blocks changed (all of them each time was most of a gather's fit).
    from ctxopt import render

    result = _result("t", 5000, [("a = 1", "python", Fidelity.FULL, "r", 0),
                                 ("b = 2", "python", Fidelity.FULL, "r", 1),
                                 ("c = 3", "python", Fidelity.FULL, "r", 2),
                                 ("d = 4", "python", Fidelity.FULL, "r", 2)])
    blocks = result.selection.blocks
    layout = Layout(result, count_tokens, additive=True)
    layout.body_tokens(blocks[:3])
    expected = count_tokens(render_body(blocks)[1:])
    laid_out: list[str] = []
    sections = render._sections

    def laying_out(group: list[Block]) -> list[list[Block]]:
        laid_out.extend(block.path for block in group)
        return sections(group)

    monkeypatch.setattr(render, "_sections", laying_out)
    assert layout.body_tokens(blocks) == expected
    assert laid_out == ["d/f2.py", "d/f2.py"]


@pytest.mark.parametrize(("kinds", "said"), [
    ((Fidelity.FULL,), "0 signatures"),
    ((Fidelity.SIGNATURE, Fidelity.FULL), "1 signature"),
    ((Fidelity.SIGNATURE, Fidelity.SIGNATURE, Fidelity.TRUNCATED), "2 signatures"),
])
def test_the_header_counts_the_blocks_shown_as_signatures(kinds, said) -> None:
    # trial 10: "0 truncated, 9 excluded" above 13 signatures the walker asked for
    result = _result("t", 4000, [("x = 1", "python", kind, "", 0) for kind in kinds])
    assert render_header(result, 10).splitlines()[1].endswith(f"excluded; {said}")


def test_a_signature_is_not_counted_as_truncated_issue_b3() -> None:
    # trial 16: "5 truncated, 53 excluded; 5 signatures" where the fitter had reduced 5
    # blocks to signatures and cut none; the JSON summary says the same as the header
    shown = _result("t", 4000, [("x = 1", "python", Fidelity.SIGNATURE, "", 0),
                                ("y = 2", "python", Fidelity.TRUNCATED, "", 1)])
    reduced = [Dropped(b.path, b.start_line, b.end_line, 9, b.score, b.kind.value, "r")
               for b in shown.selection.blocks]
    result = replace(shown, selection=replace(shown.selection, truncated=tuple(reduced)))
    assert "; 1 truncated, 0 excluded; 1 signature\n" in render_header(result, 10)
    summary = json.loads(render_json(result, count_tokens))["summary"]
    assert (summary["truncated"], summary["signatures"]) == (1, 1)


def test_the_header_counts_one_file_in_the_singular_issue_b7() -> None:
    result = _result("t", 4000, [("x = 1", "python", Fidelity.FULL, "", 0)])
    assert "; 1 file; 0 truncated" in render_header(result, 10)
