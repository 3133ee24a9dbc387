"""The budget fitter: tiers, reasons and the hard guarantee."""
from hypothesis import given
from hypothesis import strategies as st

from ctxopt.fit import fit_budget
from ctxopt.model import Block, Fidelity
from ctxopt.render import render_block
from ctxopt.tokens import count_tokens


def block(path: str, score: float, lines: int, signature: str = "def f():\n    ...") -> Block:
    content = "\n".join(f"    value_{i} = compute({i})" for i in range(lines))
    return Block(path=path, language="python", start_line=1, end_line=lines, content=content,
                 tokens=count_tokens(content), score=score, ring=0 if score >= 100 else 2,
                 reason="r", symbols=("f",), signature=signature)


def cost(b: Block) -> int:
    return count_tokens(render_block(b))


def test_everything_fits_whole() -> None:
    blocks = [block("a.py", 120, 5), block("b.py", 70, 5)]
    selection = fit_budget(blocks, 10_000, cost=cost, count=count_tokens)
    assert [b.kind for b in selection.blocks] == [Fidelity.FULL, Fidelity.FULL]
    assert selection.truncated == () and selection.excluded == ()


def test_ring0_block_is_truncated_with_a_marker() -> None:
    big = block("a.py", 120, 200)
    selection = fit_budget([big], 300, cost=cost, count=count_tokens)
    (kept,) = selection.blocks
    assert kept.kind is Fidelity.TRUNCATED
    omitted = 200 - (kept.end_line - kept.start_line + 1)
    assert kept.content.endswith(f"⋮ {omitted} more lines omitted")
    assert cost(kept) <= 300
    assert selection.truncated[0].action == "truncated"
    assert selection.truncated[0].reason.startswith(f"kept {200 - omitted} of 200 lines")


def test_ring2_block_is_reduced_to_its_signature_and_low_scores_excluded() -> None:
    blocks = [block("a.py", 120, 10), block("b.py", 70, 300), block("c.py", 40, 300)]
    selection = fit_budget(blocks, cost(blocks[0]) + 60, cost=cost, count=count_tokens)
    assert [(b.path, b.kind) for b in selection.blocks] == [("a.py", Fidelity.FULL),
                                                            ("b.py", Fidelity.SIGNATURE)]
    assert selection.blocks[1].content == "def f():\n    ..."
    assert [(d.path, d.action) for d in selection.excluded] == [("c.py", "excluded")]


def test_block_without_signature_is_excluded() -> None:
    blocks = [block("b.py", 70, 300, signature="")]
    selection = fit_budget(blocks, 50, cost=cost, count=count_tokens)
    assert selection.blocks == () and selection.excluded[0].path == "b.py"


block_sets = st.lists(
    st.tuples(st.sampled_from([130.0, 100.0, 80.0, 60.0, 45.0, 12.0]), st.integers(1, 120)),
    min_size=1, max_size=8)


@given(block_sets, st.integers(1, 3000))
def test_kept_cost_never_exceeds_the_budget(specs, budget) -> None:
    blocks = [block(f"f{i}.py", score, lines) for i, (score, lines) in enumerate(specs)]
    selection = fit_budget(blocks, budget, cost=cost, count=count_tokens)
    assert sum(cost(b) for b in selection.blocks) <= budget
    # every candidate is accounted for exactly once
    shown = {b.path for b in selection.blocks}
    excluded = {d.path for d in selection.excluded}
    assert shown | excluded == {b.path for b in blocks} and not shown & excluded
    # a shortened block never costs more than the original
    for kept in selection.blocks:
        original = next(b for b in blocks if b.path == kept.path)
        assert kept.tokens <= original.tokens or kept.kind is Fidelity.FULL


def test_truncation_starts_at_the_best_item_not_at_merged_neighbours() -> None:
    from dataclasses import replace
    big = replace(block("a.py", 120, 200), start_line=11, end_line=210, focus_line=61)
    selection = fit_budget([big], 200, cost=cost, count=count_tokens)
    (kept,) = selection.blocks
    assert kept.start_line == 61
    assert kept.content.startswith("    value_50 = compute(50)")
