#!/usr/bin/env python3
"""CPU seconds of ``task.parse_task`` on hostile task texts of ``MAX_TASK_CHARS`` or
about, among them those that were quadratic before review 39 (a web address of
repeated file names, each ``.py#`` read to the next ``/`` and back: 29 s for 96,000
characters). Linear now: each should take well under a second.

Usage::

    python benchmarks/bench_task_parse.py
"""
from __future__ import annotations

import time

from ctxopt.task import parse_task

INPUTS = {
    "a web address of 12,000 `.py#`": "see https://h/x" + ".py#" * 12_000 + "/z",
    "25,000 `a://`": "a://" * 25_000,
    "25,000 `www.`": "www." * 25_000,
    "50,000 `/a`": "/a" * 50_000,
    "20,000 words": "fix Storage.get " + "word " * 20_000,
}


def main() -> None:
    for name, text in INPUTS.items():
        started = time.process_time()
        parse_task(text)
        print(f"{time.process_time() - started:6.2f} CPU-s  {name} ({len(text):,} characters)")


if __name__ == "__main__":
    main()
