#!/usr/bin/env python3
"""Benchmark how fully the fitter spends a budget: tokens left unused (issue 17).

For each task on a source tree (one walk, ``pipeline.prepare``), fits every budget from
``--from`` to ``--to`` in steps of ``--every`` tokens (``pipeline.fit_prepared``, what
``gather`` shows) and prints, over the budgets that still leave a block cut, reduced or
excluded: the mean, median and largest number of tokens left (budget minus the text's
tokens), and the relevance summed over all budgets (the area under ``ctxopt curve``).
Then the tokens used at each ``--at`` budget. The fitter is monotone (a budget shows a
prefix of one plan), so what is left is at most the next step of the plan.

Usage::

    pip download --no-deps --no-binary :all: requests==2.32.3   # unpack it
    python benchmarks/bench_fill.py requests-2.32.3 "fix Session.send redirect bug" \\
        "retry on connection error in HTTPAdapter.send" [--from 1000 --to 16000 --every 100]
"""
from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from ctxopt.pipeline import GatherConfig, fit_prepared, prepare


def sweep(root: Path, task: str, budgets: range, at: list[int]) -> tuple[list[int], float,
                                                                         list[int]]:
    """(tokens left at each budget that leaves something unshown, summed relevance over
    all budgets, tokens used at each ``at`` budget)."""
    prepared = prepare(root, task, GatherConfig(budget=max(budgets.stop, *at)))
    left, relevance = [], 0.0
    for budget in budgets:
        result = fit_prepared(prepared, budget)
        relevance += sum(block.score for block in result.selection.blocks)
        if result.upcoming and result.used is not None:
            left.append(budget - result.used)
    used = [fit_prepared(prepared, budget).used or 0 for budget in at]
    return left, relevance, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("tasks", nargs="+")
    parser.add_argument("--from", dest="low", type=int, default=1000)
    parser.add_argument("--to", dest="high", type=int, default=16000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--at", default="4000,8000", help="budgets to print the use of")
    args = parser.parse_args()
    at = [int(b) for b in args.at.split(",")]
    budgets = range(args.low, args.high + 1, args.every)
    every_left, total, used_at = [], 0.0, [0] * len(at)
    for task in args.tasks:
        left, relevance, used = sweep(args.root, task, budgets, at)
        every_left += left
        total += relevance
        used_at = [a + b for a, b in zip(used_at, used)]
        spent = ", ".join(f"{u}/{b}" for u, b in zip(used, at))
        print(f"{task[:48]:48}  left mean {statistics.mean(left or [0]):6.1f} median "
              f"{statistics.median(left or [0]):5} max {max(left or [0]):5}  "
              f"relevance {relevance:10.1f}  used {spent}")
    spent = ", ".join(f"{u} of {b * len(args.tasks)} ({100 * u / (b * len(args.tasks)):.1f}%)"
                      for u, b in zip(used_at, at))
    print(f"all: left mean {statistics.mean(every_left or [0]):.1f} median "
          f"{statistics.median(every_left or [0])} max {max(every_left or [0])}; relevance "
          f"{total:.1f}; used at {args.at}: {spent}")


if __name__ == "__main__":
    main()
