"""Token-budget arithmetic: windows, fair shares, counts and calibrated counts (pure).

Stored calibration factors are read and written by ``calibration.CalibrationStore``.

Units: every count and budget here is in tokens (cl100k_base unless a ``Calibrated``
counter scales it); allocations are whole tokens.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import BudgetError
from .tokens import TokenCounter, count_tokens

__all__ = [
    "Window", "choose_budget", "distribute_budget", "count_tokens", "estimate_tokens",
    "EstimatingCounter", "Calibrated", "CHARS_PER_TOKEN", "MIN_FACTOR", "MAX_FACTOR",
]

CHARS_PER_TOKEN = 4  # English prose and code average about 4 characters per cl100k token
MIN_FACTOR = 0.5
MAX_FACTOR = 2.0


def _require_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BudgetError(f"{name} must be a whole number of tokens, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Window:
    """A model's context window and the part of it kept for the answer.

    Parameters
    ----------
    max_tokens : int
        The model's context window, in tokens (e.g. 200000).
    reserve : int
        Tokens kept free for the model's answer (e.g. 8000); 0 by default.

    Attributes
    ----------
    budget : int
        ``max_tokens - reserve``: what the gathered context may use, always >= 1.

    Raises
    ------
    BudgetError
        When ``max_tokens`` is not a positive integer, ``reserve`` is negative or not an
        integer, or ``reserve`` is not less than ``max_tokens``.
    """

    max_tokens: int
    reserve: int = 0

    def __post_init__(self) -> None:
        _require_int("the window", self.max_tokens)
        _require_int("the reserve", self.reserve)
        if self.max_tokens <= 0:
            raise BudgetError(f"the window must be a positive number of tokens, got {self.max_tokens}")
        if self.reserve < 0:
            raise BudgetError(f"the reserve cannot be negative, got {self.reserve}")
        if self.reserve >= self.max_tokens:
            raise BudgetError(f"the reserve ({self.reserve}) must be less than the window "
                              f"({self.max_tokens}), or nothing is left for the context")

    @property
    def budget(self) -> int:
        """Tokens left for the context: ``max_tokens - reserve``."""
        return self.max_tokens - self.reserve


def choose_budget(*, budget: int | None, window: int | None, reserve: int | None,
                  default: int) -> int:
    """The context budget (tokens) from either ``budget`` or ``window`` minus ``reserve``.

    ``None`` means "not given". With neither, ``default``.

    Raises
    ------
    BudgetError
        Both ``budget`` and ``window`` given, ``reserve`` without ``window``, or a bad
        ``Window`` (see there).
    """
    if budget is not None and window is not None:
        raise BudgetError("--budget and --window are alternatives: give one of them")
    if window is None:
        if reserve is not None:
            raise BudgetError("--reserve needs --window (the reserve is taken from the window)")
        return default if budget is None else budget
    return Window(window, reserve or 0).budget


def distribute_budget(demand: Sequence[int], total_budget: int, floor: int) -> list[int]:
    """Share ``total_budget`` tokens among items by max-min fairness (water-filling).

    Parameters
    ----------
    demand : sequence of int
        Tokens each item would use if it had all it wants, in the items' order (>= 0).
    total_budget : int
        Tokens to share (>= 0).
    floor : int
        The fewest tokens worth giving an item that wants more (>= 0): a share smaller
        than that is useless (a truncated code block of a few lines plus its header).

    Returns
    -------
    list of int
        One allocation per item, in the given order, such that

        - no allocation exceeds its demand;
        - an item whose demand is below ``floor`` gets its full demand;
        - every other item gets at least ``floor``;
        - subject to those, the sum is at most ``total_budget`` whenever that is
          achievable (``sum(min(d, floor)) <= total_budget``), and then equals
          ``min(total_budget, sum(demand))``: no token is left unused;
        - items whose demand fits an equal share pass untouched, and their slack rolls
          to the others: all items that do not get their demand get the same level
          ``L``, or ``L + 1`` for the first few of them in the given order (whole tokens).

    Notes
    -----
    The sum must exceed the budget in two cases, and then each item gets exactly
    ``min(demand, floor)``:

    - too many items above the floor: ``k`` items each wanting at least ``floor`` with
      ``k * floor > total_budget``;
    - many small items: items below the floor keep their full demand, and together
      with the floors of the others they already exceed the budget.

    Handing out less than ``floor`` (or truncating a small item) would keep the sum
    within budget but show a block cut to a line or two, which costs its header and
    fences and tells the model nothing. Overflowing instead leaves the decision to the
    caller, which knows the items' priorities and can drop the least important ones
    whole (``fit_budget`` does, until the sum fits).

    The fair shares come from progressive filling (``_water_fill``), then are raised to
    the floor.

    Raises
    ------
    BudgetError
        A negative or non-integer demand, ``total_budget`` or ``floor``.

    Examples
    --------
    >>> distribute_budget([100, 3000, 3000], 4000, 128)
    [100, 1950, 1950]
    >>> distribute_budget([3000, 3000, 3000], 200, 128)
    [128, 128, 128]
    """
    total_budget = _require_int("total_budget", total_budget)
    floor = _require_int("floor", floor)
    demands = [_require_int("a demand", d) for d in demand]
    if total_budget < 0 or floor < 0 or any(d < 0 for d in demands):
        raise BudgetError(f"demands, total_budget and floor must be >= 0, got "
                          f"{demands}, {total_budget}, {floor}")
    if sum(demands) <= total_budget:
        return demands
    allocation = _water_fill(demands, total_budget)
    return [max(a, min(d, floor)) for a, d in zip(allocation, demands)]


def _water_fill(demands: list[int], total_budget: int) -> list[int]:
    """Max-min fair shares of ``total_budget`` tokens (whole tokens, summing to it) for
    ``demands`` whose sum exceeds it; no floor.

    The algorithm is progressive filling (Bertsekas and Gallager, *Data Networks*, 2nd
    ed., section 6.5.2, "max-min fairness"): raise a common level, freezing every item
    whose demand it reaches. Here the level is found in one pass over the demands in
    ascending order, O(n log n).
    """
    order = sorted(range(len(demands)), key=lambda i: (demands[i], i))
    remaining = total_budget
    level = 0
    for position, index in enumerate(order):
        share = remaining // (len(order) - position)
        if demands[index] > share:
            level = share
            break
        remaining -= demands[index]
    capped = [i for i in range(len(demands)) if demands[i] > level]
    extra = remaining - level * len(capped)  # 0 <= extra < len(capped)
    allocation = [min(d, level) for d in demands]
    for index in capped[:extra]:
        allocation[index] += 1
    return allocation


def estimate_tokens(text: str) -> int:
    """A fast estimate of ``text``'s token count: ``ceil(len(text) / 4)``.

    For pre-filtering only (within a factor of about 1.5 of cl100k_base on code and
    English); anything that bounds the output is measured with ``count_tokens``.
    """
    return -(-len(text) // CHARS_PER_TOKEN)


class EstimatingCounter:
    """``TokenCounter`` over ``estimate_tokens`` (about 4 characters a token)."""

    def count(self, text: str) -> int:
        """Estimated tokens in ``text``."""
        return estimate_tokens(text)


class Calibrated:
    """A ``TokenCounter`` scaled by a learned correction factor, for other tokenizers.

    ``count(text) = ceil(factor * counter.count(text))``, so the scaled count never
    rounds below the model's count it stands for. The factor starts at ``factor``
    (1.0 by default) and always lies in [``MIN_FACTOR``, ``MAX_FACTOR``] = [0.5, 2.0].

    Parameters
    ----------
    counter : TokenCounter
        The underlying counter (exact cl100k_base, or an estimate).
    alpha : float
        Weight of the newest observation in the moving average, in (0, 1].
    factor : float
        The starting factor, in [0.5, 2.0].
    observations : int
        How many measurements ``factor`` was learned from. With none it is only a guess,
        which the first measurement replaces (``observe``).

    Raises
    ------
    BudgetError
        ``alpha`` outside (0, 1], ``factor`` outside [0.5, 2.0] or ``observations``
        negative.
    """

    def __init__(self, counter: TokenCounter, alpha: float = 0.3, factor: float = 1.0,
                 observations: int = 0) -> None:
        if not 0 < alpha <= 1:
            raise BudgetError(f"alpha must be in (0, 1], got {alpha!r}")
        if not MIN_FACTOR <= factor <= MAX_FACTOR:
            raise BudgetError(f"the calibration factor must be in [{MIN_FACTOR}, {MAX_FACTOR}], "
                              f"got {factor!r}")
        if observations < 0:
            raise BudgetError(f"observations must be at least 0, got {observations!r}")
        self.counter = counter
        self.alpha = alpha
        self.factor = float(factor)
        self.observations = observations

    def count(self, text: str) -> int:
        """Calibrated tokens in ``text``."""
        return math.ceil(self.factor * self.counter.count(text) - 1e-9)

    def observe(self, estimated: float, actual: float) -> float:
        """Learn from one measurement and return the new factor.

        ``estimated`` is the calibrated count this counter handed out (already
        multiplied by the current factor) and ``actual`` what the model's own tokenizer
        reported for the same text. The factor this measurement suggests, ``factor *
        actual / estimated``, is first clamped to [0.5, 2.0]. The first measurement
        (``observations`` 0) sets the factor to it; each later one moves the factor toward
        it by an exponentially weighted moving average with weight ``alpha`` (so one
        outlier moves a learned factor at most ``alpha`` of the way to a bound). Repeated
        observations of one text therefore converge geometrically to ``actual /
        uncalibrated count``. A non-positive ``estimated`` or ``actual`` carries no
        information and is ignored (and not counted).
        """
        if estimated > 0 and actual > 0:
            target = min(MAX_FACTOR, max(MIN_FACTOR, self.factor * actual / estimated))
            # (the starting factor is a guess, not a measurement: averaging the first
            # measurement with it left a model counting 1.18 at 1.054, over its budget)
            weight = self.alpha if self.observations else 1.0
            blended = (1 - weight) * self.factor + weight * target
            self.factor = min(MAX_FACTOR, max(MIN_FACTOR, blended))
            self.observations += 1
        return self.factor
