"""The fitter is monotone in the budget: a larger budget never shows less (issue 17).

For budgets b1 < b2 and every candidate block: a block shown whole at b1 is whole at b2;
a block shown at all at b1 is shown at b2; a truncated block keeps at least the lines it
showed (or is whole); a signature stays a signature, is cut to more lines than it has, or
becomes whole.
"""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxopt.errors import BudgetTooSmallForContent
from ctxopt.fit import PARTIAL_LINES, TextPlan, fit_budget, fit_text
from ctxopt.model import Block, Fidelity, Intent, Result, Selection
from ctxopt.render import Layout, render_block
from ctxopt.tokens import count_tokens


def _block(i: int, score: float, lines: int, has_signature: bool, width: int) -> Block:
    content = "\n".join(f"    value_{n} = compute({n}){' + x' * width}" for n in range(lines))
    return Block(path=f"f{i}.py", language="python", start_line=1, end_line=lines,
                 content=content, tokens=count_tokens(content), score=score,
                 ring=0 if score >= 100 else 2 if score >= 60 else 3, reason="r",
                 symbols=(f"s{i}",), signature="def f():\n    ..." if has_signature else "",
                 focus_line=1 + lines // 3)


def _cost(b: Block) -> int:
    return count_tokens(render_block(b))


def _grown(shown: Block, large: Selection) -> Block | None:
    """The block of ``large`` that shows the candidate ``shown`` shows part or all of:
    the one of its file whose lines overlap it (a file's candidate blocks are disjoint)."""
    return next((b for b in large.blocks if b.path == shown.path
                 and b.start_line <= shown.end_line and shown.start_line <= b.end_line), None)


def assert_monotone(small: Selection, large: Selection) -> None:
    """What ``small`` shows, ``large`` shows at least as fully."""
    for shown in small.blocks:
        where = f"{shown.path}:{shown.start_line}-{shown.end_line}"
        grown = _grown(shown, large)
        assert grown is not None, f"{where} shown at the smaller budget, dropped at the larger"
        if shown.kind is Fidelity.FULL:
            assert grown.kind is Fidelity.FULL, f"{where} whole, then {grown.kind.value}"
        elif shown.kind is Fidelity.SIGNATURE:
            assert grown.kind is not Fidelity.TRUNCATED or \
                grown.content.count("\n") > shown.content.count("\n"), f"{where} cut shorter"
        elif grown.kind is Fidelity.TRUNCATED:
            assert grown.start_line <= shown.start_line and grown.end_line >= shown.end_line, \
                f"{where}, then lines {grown.start_line}-{grown.end_line}"
        else:
            assert grown.kind is Fidelity.FULL, f"{where} truncated, then {grown.kind.value}"


_SPECS = st.lists(
    st.tuples(st.sampled_from([140.0, 120.0, 100.0, 90.0, 70.0, 60.0, 45.0, 20.0]),
              st.integers(1, 160), st.booleans(), st.integers(0, 4)),
    min_size=1, max_size=9)


@settings(max_examples=150, deadline=None)
@given(_SPECS, st.integers(0, 5000), st.integers(1, 3000))
def test_a_larger_block_budget_never_shows_less(specs, budget, more) -> None:
    blocks = [_block(i, *spec) for i, spec in enumerate(specs)]
    small = fit_budget(blocks, budget, cost=_cost, count=count_tokens)
    large = fit_budget(blocks, budget + more, cost=_cost, count=count_tokens)
    assert sum(_cost(b) for b in large.blocks) <= budget + more
    assert_monotone(small, large)


@settings(max_examples=100, deadline=None)
@given(_SPECS, st.integers(30, 5000), st.integers(1, 3000))
def test_a_larger_text_budget_never_shows_less(specs, budget, more) -> None:
    blocks = [_block(i, *spec) for i, spec in enumerate(specs)]

    def fit(at: int) -> Selection:
        empty = Result(task="fix it", intent=Intent.FIX, budget=at, selection=Selection(()))
        try:
            selection, used = fit_text(blocks, at, Layout(empty, count_tokens, additive=True))
        except BudgetTooSmallForContent:
            return Selection(())
        assert used <= at
        return selection

    assert_monotone(fit(budget), fit(budget + more))


@settings(max_examples=60, deadline=None)
@given(_SPECS, st.integers(1, 4))
def test_the_plan_measures_its_states_in_turn_as_each_alone(specs, files) -> None:
    """``TextPlan`` measures each state of its plan from the one before (only the file
    of the block a step changes is summed again): the same figures as measuring each
    state alone, with several blocks to a file."""
    blocks = []
    for i, spec in enumerate(specs):
        block = _block(i, *spec)
        start = 1000 * i + 1  # (disjoint lines in a file shared with other blocks)
        blocks.append(replace(block, path=f"f{i % files}.py", start_line=start,
                              end_line=start + block.end_line - 1,
                              focus_line=start + block.focus_line - 1))
    def count(text: str) -> int:  # (any change of a text changes it, most likely)
        return len(text) + sum(map(ord, text)) % 97

    empty = Result(task="fix it", intent=Intent.FIX, budget=4000, selection=Selection(()))
    plan = TextPlan(blocks, Layout(empty, count, additive=True)).plan
    assert plan.totals == [plan.measure(state) for state in plan.states]


def test_a_small_block_shown_at_a_small_budget_is_not_dropped_for_a_larger_one() -> None:
    # The fitter before issue 17 filled rings 3-4 greedily: at 150 tokens it showed the
    # 89-token block whole (the 197-token one did not fit), at 250 the 197-token one and
    # dropped the other (one token more each in today's layout). Now the better-ranked
    # block comes first at every budget (cut where it does not fit whole).
    big, small = _block(0, 45.0, 20, False, 0), _block(1, 20.0, 8, False, 0)
    assert (_cost(big), _cost(small)) == (198, 90)
    fits = [fit_budget([big, small], budget, cost=_cost, count=count_tokens)
            for budget in range(80, 300)]
    for smaller, larger in zip(fits, fits[1:]):
        assert_monotone(smaller, larger)
    assert [[(b.path, b.kind) for b in fit.blocks] for fit in fits[150 - 80::100]] == [
        [("f0.py", Fidelity.TRUNCATED)], [("f0.py", Fidelity.FULL)]]
    assert [b.path for b in fits[-1].blocks] == ["f0.py", "f1.py"]


def _text_fit(blocks: list[Block], budget: int) -> tuple[Selection, int]:
    empty = Result(task="fix it", intent=Intent.FIX, budget=budget, selection=Selection(()))
    return fit_text(blocks, budget, Layout(empty, count_tokens, additive=True))


def test_the_budget_short_of_a_large_block_shows_its_lines_that_fit() -> None:
    # A prefix-only plan left the tokens between one step and a large next one unused: a
    # ring-3 block of 60 lines after a small one was shown at no budget below its whole
    # cost. Now those budgets show as many of its lines as fit (at least PARTIAL_LINES).
    small, large = _block(0, 45.0, 4, False, 0), _block(1, 40.0, 60, False, 0)
    whole = _text_fit([small, large], 100_000)[1]
    low, floor = _text_fit([small], 100_000)[1], whole  # the least budget that shows f1
    while low + 1 < floor:
        middle = (low + floor) // 2
        shown = [b.path for b in _text_fit([small, large], middle)[0].blocks]
        low, floor = (low, middle) if "f1.py" in shown else (middle, floor)
    cut = {b.path: b for b in _text_fit([small, large], floor)[0].blocks}["f1.py"]
    assert cut.end_line - cut.start_line + 1 == PARTIAL_LINES and floor < whole / 2
    line = _cost(large) // 60 + 2  # tokens of one more line, at most
    previous = None
    for budget in range(floor, whole, 37):
        selection, used = _text_fit([small, large], budget)
        assert [(b.path, b.kind) for b in selection.blocks] == [
            ("f0.py", Fidelity.FULL), ("f1.py", Fidelity.TRUNCATED)]
        assert budget - line < used <= budget
        if previous is not None:
            assert_monotone(previous, selection)
        previous = selection
    selection, _ = _text_fit([small, large], floor - 1)
    assert [b.path for b in selection.blocks] == ["f0.py"]


def test_a_signature_short_of_whole_is_cut_longer_and_a_short_block_is_not_cut() -> None:
    # ring 1: shown as its signature, then, at budgets just short of whole, cut to more
    # lines than its signature (the room before the large step is not left unused), then
    # whole. A block of PARTIAL_LINES lines or fewer is never cut.
    member = _block(0, 70.0, 60, True, 0)
    short = _block(1, 40.0, PARTIAL_LINES, False, 3)
    forms: dict[tuple[str, Fidelity], list[int]] = {}
    whole = _text_fit([member, short], 100_000)[1]
    for budget in [*range(70, whole, 23), whole]:
        for b in _text_fit([member, short], budget)[0].blocks:
            forms.setdefault((b.path, b.kind), []).append(b.content.count("\n") + 1)
    signature_lines = max(forms[("f0.py", Fidelity.SIGNATURE)])
    assert min(forms[("f0.py", Fidelity.TRUNCATED)]) > signature_lines
    assert ("f0.py", Fidelity.FULL) in forms
    assert ("f1.py", Fidelity.TRUNCATED) not in forms and ("f1.py", Fidelity.FULL) in forms


def test_too_small_names_the_budget_that_shows_the_first_cut() -> None:
    large = _block(0, 40.0, 60, False, 0)
    try:
        _text_fit([large], 60)
    except BudgetTooSmallForContent as exc:
        minimum = exc.minimum
    else:
        raise AssertionError("60 tokens hold no block")
    assert 60 < minimum < _cost(large)
    assert [b.kind for b in _text_fit([large], minimum)[0].blocks] == [Fidelity.TRUNCATED]
    with pytest.raises(BudgetTooSmallForContent) as raised:
        _text_fit([large], minimum - 1)
    assert raised.value.minimum == minimum


def test_a_cut_after_a_signature_names_every_definition_the_signature_named() -> None:
    # review 33: a block of three classes, shown as their signature, was cut at larger
    # budgets from its best class on, naming only that one (a manifest's keys and
    # ``ctxopt diff`` then changed as the budget grew)
    from ctxopt.model import Member

    lines: list[str] = []
    members, signature = [], []
    for c in range(3):
        start = len(lines) + 1
        lines.append(f"class C{c}:")
        signature.append(f"class C{c}:")
        for m in range(4):
            lines.append(f"    def m{c}_{m}(self):")
            signature.append(f"    def m{c}_{m}(self): ...")
            lines += [f"        x = compute({k}) + other_value_{k}" for k in range(8)]
        members.append(Member(f"C{c}", start, len(lines), "r"))
    content = "\n".join(lines)
    block = Block(path="a.py", language="python", start_line=1, end_line=len(lines),
                  content=content, tokens=count_tokens(content), score=80, ring=1, reason="r",
                  symbols=tuple(m.symbol for m in members), signature="\n".join(signature),
                  focus_line=1, members=tuple(members))
    named: set[str] = set()
    for budget in range(100, _cost(block) + 10, 25):
        shown = fit_budget([block], budget, cost=_cost, count=count_tokens).blocks
        if shown:
            assert named <= set(shown[0].symbols), f"budget {budget}: {shown[0].symbols}"
            named = set(shown[0].symbols)
    assert named == {"C0", "C1", "C2"}
