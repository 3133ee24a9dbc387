#!/usr/bin/env python3
"""Benchmark transcript compaction: seconds to compact long agent sessions.

The session in ``fixtures/transcripts/`` (about 3k tokens) is repeated ``--repeat``
times after its objective (call ids renamed so they stay unique), then compacted to a
200k window with an 8k reserve at 40% (exact cl100k_base counts, then the ~4 chars/token
estimate). Prints, per shape and counter: tokens before and after, messages kept and
dropped, results cut, and the median wall and CPU seconds of ``--runs`` runs (the CPU
time is the figure to compare on a shared machine).

Usage::

    python benchmarks/bench_compact.py [--repeat 80] [--runs 3]
"""
from __future__ import annotations

import argparse
import copy
import json
import statistics
import time
from pathlib import Path

from ctxopt.budget import EstimatingCounter
from ctxopt.tokens import Cl100kCounter
from ctxopt.transcript import Compaction, Estimator, Window, compact

SESSIONS = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"


def long_session(shape: str, repeat: int) -> dict:
    """The fixture session with its turns (after the objective) repeated."""
    document = json.loads((SESSIONS / f"agent_session.{shape}.json").read_text())
    messages = document["messages"]
    head = 2 if shape == "openai" else 1  # system and objective / objective
    turns = []
    for copy_number in range(repeat):
        text = json.dumps(messages[head:])
        turns += json.loads(text.replace('"call_', f'"call_{copy_number}_').replace(
            '"toolu_', f'"toolu_{copy_number}_'))
    document["messages"] = messages[:head] + turns
    return document


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=80)  # over the 192k trigger
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    window = Window(200_000, 8_000, Compaction(target_percent=40))
    for shape in ("anthropic", "openai"):
        document = long_session(shape, args.repeat)
        for name, counter in (("exact", Cl100kCounter()), ("estimate", EstimatingCounter())):
            estimator = Estimator(counter, shape)
            seconds, cpu = [], []
            for _ in range(args.runs):
                started, started_cpu = time.perf_counter(), time.process_time()
                result = compact(copy.deepcopy(document), window, estimator=estimator)
                seconds.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
            print(f"{shape:9} {name:8} {len(document['messages'])} messages: "
                  f"{result.tokens_before} -> {result.tokens_after} tokens, kept "
                  f"{len(result.kept)}, dropped {len(result.dropped)}, cut {len(result.cuts)}; "
                  f"median {statistics.median(seconds):.2f} s ({statistics.median(cpu):.2f} s "
                  f"CPU) of {args.runs}")


if __name__ == "__main__":
    main()
