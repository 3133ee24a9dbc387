"""Budget arithmetic: windows, fair shares (with an oracle), estimates, calibration."""
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ctxopt import budget as budget_module
from ctxopt.budget import (MAX_FACTOR, MIN_FACTOR, Calibrated, Window, choose_budget,
                           distribute_budget, estimate_tokens)
from ctxopt.calibration import CalibrationStore, config_dir
from ctxopt.errors import BudgetError, CalibrationError, UsageError
from ctxopt.tokens import count_tokens


# -- Window ---------------------------------------------------------------------------

def test_window_budget_is_max_minus_reserve() -> None:
    assert Window(200_000, 8_000).budget == 192_000
    assert Window(4096).budget == 4096


@pytest.mark.parametrize(("max_tokens", "reserve", "message"), [
    (0, 0, "the window must be a positive number of tokens, got 0"),
    (-5, 0, "the window must be a positive number of tokens, got -5"),
    (1000, -1, "the reserve cannot be negative, got -1"),
    (1000, 1000, "the reserve (1000) must be less than the window (1000)"),
    (1000, 5000, "the reserve (5000) must be less than the window (1000)"),
    (1000.5, 0, "the window must be a whole number of tokens"),
    (True, 0, "the window must be a whole number of tokens"),
])
def test_bad_window_raises_budget_error(max_tokens, reserve, message) -> None:
    with pytest.raises(BudgetError) as caught:
        Window(max_tokens, reserve)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, UsageError)


def test_choose_budget() -> None:
    assert choose_budget(budget=None, window=None, reserve=None, default=12000) == 12000
    assert choose_budget(budget=500, window=None, reserve=None, default=12000) == 500
    assert choose_budget(budget=None, window=10_000, reserve=2_000, default=12000) == 8000
    assert choose_budget(budget=None, window=10_000, reserve=None, default=12000) == 10_000
    with pytest.raises(BudgetError, match="alternatives"):
        choose_budget(budget=500, window=1000, reserve=None, default=12000)
    with pytest.raises(BudgetError, match="--reserve needs --window"):
        choose_budget(budget=None, window=None, reserve=10, default=12000)


# -- distribute_budget ----------------------------------------------------------------

def progressive_filling(demand: list[int], total: int, floor: int) -> list[int]:
    """Oracle: hand out one token at a time, round-robin over the items still short."""
    allocation = [0] * len(demand)
    left = total
    while left > 0 and any(a < d for a, d in zip(allocation, demand)):
        for i, d in enumerate(demand):
            if left and allocation[i] < d:
                allocation[i] += 1
                left -= 1
    return [max(a, min(d, floor)) for a, d in zip(allocation, demand)]


demands = st.lists(st.integers(0, 400), max_size=9)


@given(demands, st.integers(0, 1500), st.integers(0, 120))
def test_distribute_budget_matches_progressive_filling(demand, total, floor) -> None:
    assert distribute_budget(demand, total, floor) == progressive_filling(demand, total, floor)


@given(st.lists(st.integers(0, 50_000), max_size=40), st.integers(0, 200_000),
       st.integers(0, 2_000))
def test_distribute_budget_invariants(demand, total, floor) -> None:
    allocation = distribute_budget(demand, total, floor)
    assert len(allocation) == len(demand)
    # never more than asked for
    assert all(0 <= a <= d for a, d in zip(allocation, demand))
    # small items keep everything; the others get at least the floor
    assert all(a == d for a, d in zip(allocation, demand) if d < floor)
    assert all(a >= floor for a, d in zip(allocation, demand) if d >= floor)
    achievable = sum(min(d, floor) for d in demand) <= total
    if achievable:
        # within budget and nothing wasted
        assert sum(allocation) == min(total, sum(demand))
    else:
        # the overflow is the least the floors force
        assert allocation == [min(d, floor) for d in demand]
    # items that fit an equal share pass untouched
    if demand:
        share = total // len(demand)
        assert all(a == d for a, d in zip(allocation, demand) if d <= share)
    # fairness: everyone cut short sits at the common level (first ones get +1)
    short = [a for a, d in zip(allocation, demand) if a < d]
    if short:
        assert max(allocation) - min(short) <= 1
        assert short == sorted(short, reverse=True)


def test_distribute_budget_slack_rolls_to_the_big_items() -> None:
    # 100 and 200 fit an equal share (1000); the 1700 they leave go to the other two
    assert distribute_budget([100, 5000, 200, 5000], 4000, 0) == [100, 1850, 200, 1850]


@pytest.mark.parametrize(("demand", "total", "floor"), [
    ([-1], 10, 0), ([1], -10, 0), ([1], 10, -1), ([1.5], 10, 0), ([1], 10.0, 0)])
def test_distribute_budget_rejects_bad_input(demand, total, floor) -> None:
    with pytest.raises(BudgetError):
        distribute_budget(demand, total, floor)


# -- counting -------------------------------------------------------------------------

def test_estimate_is_about_four_characters_a_token() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1 and estimate_tokens("abcde") == 2
    source = Path(budget_module.__file__).read_text(encoding="utf-8")
    exact = count_tokens(source)
    assert 0.6 * exact <= estimate_tokens(source) <= 1.6 * exact


# -- calibration ----------------------------------------------------------------------

class FixedCounter:
    def __init__(self, tokens: int) -> None:
        self.tokens = tokens

    def count(self, text: str) -> int:
        return self.tokens


def test_calibrated_scales_and_rounds_up() -> None:
    counter = Calibrated(FixedCounter(10), factor=1.25)
    assert counter.count("x") == 13
    assert Calibrated(FixedCounter(10)).count("x") == 10


def test_first_observation_sets_the_factor() -> None:
    # trial 38: averaged with the starting 1.0, a measured 1.18 became 1.054
    counter = Calibrated(FixedCounter(100), alpha=0.3)
    assert counter.observe(1000, 1180) == pytest.approx(1.18)
    assert counter.observations == 1


def test_observe_moves_by_the_moving_average() -> None:
    counter = Calibrated(FixedCounter(100), alpha=0.3, observations=1)
    # estimated 100 at factor 1.0, actual 150: target 1.5, so 0.7 * 1.0 + 0.3 * 1.5
    assert counter.observe(100, 150) == pytest.approx(1.15)
    # the next estimate already carries the factor: 115 handed out, 150 actual
    assert counter.count("x") == 115
    assert counter.observe(115, 150) == pytest.approx(0.7 * 1.15 + 0.3 * 1.5)


def test_one_outlier_moves_the_factor_only_alpha_of_the_way_to_a_bound() -> None:
    # trial: 100 estimated, 100000 actual took the factor from 1.0 to 2.0 in one step
    assert Calibrated(FixedCounter(1), observations=1).observe(100, 100_000) == pytest.approx(1.3)
    assert Calibrated(FixedCounter(1), observations=1).observe(100_000, 100) == pytest.approx(0.85)
    # a first measurement is clamped to the bounds
    assert Calibrated(FixedCounter(1)).observe(100, 100_000) == 2.0


@pytest.mark.parametrize(("estimated", "actual"), [(0, 100), (-5, 100), (100, 0), (100, -3)])
def test_observe_ignores_non_positive_values(estimated, actual) -> None:
    counter = Calibrated(FixedCounter(100), factor=1.2)
    assert counter.observe(estimated, actual) == 1.2


@pytest.mark.parametrize(("alpha", "factor", "observations"),
                         [(0, 1.0, 0), (1.5, 1.0, 0), (0.3, 0.4, 0), (0.3, 2.5, 0), (0.3, 1.0, -1)])
def test_calibrated_rejects_bad_parameters(alpha, factor, observations) -> None:
    with pytest.raises(BudgetError):
        Calibrated(FixedCounter(1), alpha=alpha, factor=factor, observations=observations)


observations = st.lists(st.tuples(st.floats(-10, 1e6, allow_nan=False),
                                  st.floats(-10, 1e6, allow_nan=False)), max_size=30)


@given(observations, st.floats(0.01, 1.0), st.floats(MIN_FACTOR, MAX_FACTOR))
def test_factor_stays_within_bounds(pairs, alpha, start) -> None:
    counter = Calibrated(FixedCounter(7), alpha=alpha, factor=start)
    for estimated, actual in pairs:
        assert MIN_FACTOR <= counter.observe(estimated, actual) <= MAX_FACTOR


@given(st.integers(50, 5000), st.floats(0.2, 3.0), st.floats(0.1, 1.0),
       st.floats(MIN_FACTOR, MAX_FACTOR))
def test_factor_converges_to_actual_over_estimated(raw, ratio, alpha, start) -> None:
    # The model's tokenizer counts `actual` where cl100k counts `raw`; each round hands
    # out the calibrated estimate and observes the true count.
    actual = max(1, round(raw * ratio))
    counter = Calibrated(FixedCounter(raw), alpha=alpha, factor=start)
    target = min(MAX_FACTOR, max(MIN_FACTOR, actual / raw))
    distance = abs(counter.factor - target)
    for _ in range(200):
        counter.observe(counter.count("text"), actual)
        new_distance = abs(counter.factor - target)
        assert new_distance <= distance + 1.5 / raw  # never moves away (up to rounding)
        distance = new_distance
    assert counter.factor == pytest.approx(target, abs=1.5 / raw)


# -- the calibration store ------------------------------------------------------------

def test_store_round_trip(tmp_path: Path) -> None:
    store = CalibrationStore(tmp_path / "deep" / "dir")
    assert store.factor("claude") == (None, None)
    assert store.save("claude", 1.2) is None
    assert store.save("llama", 0.8) is None
    assert store.save("claude", 1.3) is None
    assert store.factor("claude") == (1.3, None)
    document = json.loads(store.path.read_text())
    assert document == {"version": 1, "models": {"claude": {"factor": 1.3, "observations": 2},
                                                 "llama": {"factor": 0.8, "observations": 1}}}
    assert [p.name for p in store.path.parent.iterdir()] == ["calibration.json"]


@pytest.mark.parametrize("content", [
    "not json", "[]", '{"version": 1}', '{"version": 2, "models": {}}',
    '{"version": 1, "models": {"m": {"factor": 9}}}',
    '{"version": 1, "models": {"m": 1.2}}', '{"version": 1, "models": {"m": {"factor": "x"}}}'])
def test_corrupt_store_is_reported_then_set_aside_and_replaced(tmp_path: Path, content) -> None:
    store = CalibrationStore(tmp_path)
    store.path.write_text(content)
    (tmp_path / "calibration.json.corrupt").write_text("an older one")
    factor, problem = store.factor("m")
    assert factor is None and "is corrupt" in problem
    assert store.save("m", 1.1) == f"{problem}; kept it as {tmp_path / 'calibration.json.corrupt.1'}"
    assert store.factor("m") == (1.1, None)
    assert (tmp_path / "calibration.json.corrupt").read_text() == "an older one"
    assert (tmp_path / "calibration.json.corrupt.1").read_text() == content


def test_store_write_failure_leaves_the_old_file(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(CalibrationError, match="cannot write"):
        CalibrationStore(blocker / "sub").save("m", 1.0)
    assert blocker.read_text() == "x"


def test_a_file_where_the_directory_goes_is_named_so(tmp_path: Path) -> None:
    # trial: CTXOPT_CONFIG_DIR=a-file said "cannot write a-file/calibration.json: File exists"
    (tmp_path / "file").write_text("x")
    with pytest.raises(CalibrationError, match=f"{tmp_path / 'file'} is not a directory$"):
        CalibrationStore(tmp_path / "file").save("m", 1.0)


def test_config_dir_env_override(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CTXOPT_CONFIG_DIR", raising=False)
    assert config_dir(tmp_path / "default") == tmp_path / "default"
    monkeypatch.setenv("CTXOPT_CONFIG_DIR", str(tmp_path / "env"))
    assert config_dir(tmp_path / "default") == tmp_path / "env"


# -- end to end: the printed text never exceeds the budget ----------------------------

_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.fixture(scope="module")
def fixture_indexes(tmp_path_factory):
    """The stored index of each fixture read in place (never written to), built once: the
    property test below only reads them."""
    from ctxopt.store import IndexOptions, open_index
    directory = tmp_path_factory.mktemp("indexes")
    indexes = {name: open_index(_FIXTURES / name, IndexOptions(path=directory / f"{name}.db", jobs=1))[0]
               for name in ("py_storage", "go_storage", "web_ts")}
    yield indexes
    for index in indexes.values():
        index.close()


@given(st.sampled_from(["py_storage", "go_storage", "web_ts"]),
       st.sampled_from(["fix Storage bug", "fix Storage and CachedStorage and make_service",
                        "add a method to Storage", "understand the handler", "rename UserService"]),
       st.integers(40, 3000), st.integers(0, 4),
       st.one_of(st.none(), st.floats(MIN_FACTOR, MAX_FACTOR)))
def test_printed_text_never_exceeds_the_budget(fixture_indexes, fixture, task, budget, max_ring,
                                               factor) -> None:
    # Reads the fixtures in place (the prebuilt index is never written back).
    from ctxopt.errors import BudgetTooSmall
    from ctxopt.pipeline import GatherConfig, gather
    from ctxopt.render import render_text
    from ctxopt.tokens import Cl100kCounter

    counter = Cl100kCounter() if factor is None else Calibrated(Cl100kCounter(), factor=factor)
    try:
        result = gather(_FIXTURES / fixture, task, GatherConfig(budget=budget, max_ring=max_ring),
                        counter=counter, index=fixture_indexes[fixture])
    except BudgetTooSmall:
        return
    assert counter.count(render_text(result, counter.count)) <= budget
