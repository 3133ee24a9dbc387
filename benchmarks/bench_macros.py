#!/usr/bin/env python3
"""CPU seconds of ``parsing.macros.blank_macros`` on the inputs that were quadratic before
review 32 (a macro alone on each line, one long ``a::a::...`` line, macros between block
comments), about 1 MB each. Linear now: each should take well under a second.

Usage::

    python benchmarks/bench_macros.py
"""
from __future__ import annotations

import time

from ctxopt.parsing.macros import blank_macros

INPUTS = {
    "a macro alone on each of 250,000 lines": b"FOO\n" * 250_000,
    "one line of 22,000 `a::`": b"FOO " + b"a::" * 22_000 + b";\n",
    "100,000 macros between block comments": b"FOO\n/*\n" * 100_000 + b"*/\n",
}


def main() -> None:
    for name, source in INPUTS.items():
        started = time.process_time()
        blank_macros(source)
        print(f"{time.process_time() - started:6.2f} CPU-s  {name} ({len(source):,} bytes)")


if __name__ == "__main__":
    main()
