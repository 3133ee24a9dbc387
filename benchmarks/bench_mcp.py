#!/usr/bin/env python3
"""Benchmark the MCP server: what a gather costs once the index is open.

Starts ``ctxopt mcp --root ROOT`` with the SDK's stdio client and calls ``gather`` for
each task: the first call opens (and, with a fresh ``--index``, builds) the index, the
later ones reuse it. For comparison, runs ``ctxopt gather`` in a new process per task on
the same, already built, index (each run scans the tree for changes). Prints seconds per
call: the first MCP call, the median of the warm MCP calls, the median CLI run.

Usage::

    python benchmarks/bench_mcp.py ROOT [--task "fix Storage bug"]... [--runs 3]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client


async def mcp_seconds(root: Path, index: Path, tasks: list[str], runs: int) -> list[float]:
    server = StdioServerParameters(command=sys.executable, args=[
        "-m", "ctxopt", "mcp", "--root", str(root), "--index", str(index)])
    seconds = []
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for _ in range(runs):
                for task in tasks:
                    started = time.perf_counter()
                    result = await session.call_tool("gather", {"task": task, "budget": 8000})
                    seconds.append(time.perf_counter() - started)
                    if result.is_error:
                        raise SystemExit(f"gather failed: {result.content[0].text}")
    return seconds


def cli_seconds(root: Path, index: Path, tasks: list[str], runs: int) -> list[float]:
    seconds = []
    for _ in range(runs):
        for task in tasks:
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "ctxopt", "gather", task, "--root", str(root),
                            "--index", str(index), "--budget", "8000"], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            seconds.append(time.perf_counter() - started)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--task", action="append", dest="tasks")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    tasks = args.tasks or ["fix Storage bug"]
    with tempfile.TemporaryDirectory() as directory:
        index = Path(directory) / "index.db"
        served = anyio.run(mcp_seconds, args.root, index, tasks, args.runs)
        run = cli_seconds(args.root, index, tasks, args.runs)
    print(f"root: {args.root}  tasks: {len(tasks)}  runs: {args.runs}")
    print(f"mcp first call (cold index): {served[0]:.3f} s")
    print(f"mcp warm calls, median of {len(served) - 1}: {statistics.median(served[1:]):.3f} s")
    print(f"cli gather per run (warm index), median of {len(run)}: {statistics.median(run):.3f} s")


if __name__ == "__main__":
    main()
