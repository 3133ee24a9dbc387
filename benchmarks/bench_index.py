#!/usr/bin/env python3
"""Benchmark the persistent index: whole-process wall seconds and peak resident memory.

For each repository (copied to a temporary directory first, so the original is never
touched and every run starts cold):

1. cold ``ctxopt index`` (no index yet, an empty parse cache), then again as a second
   checkout would (the index deleted, the parse cache kept: nothing is parsed);
2. the first ``ctxopt gather`` (a new task on a warm index), then warm ``ctxopt gather``
   on the unchanged tree (median of ``--runs``);
3. ``ctxopt gather`` right after one file was edited, and the slower of the two gathers
   after it, which read the edited file again (medians of ``--runs`` edits);
4. where an aider-chat venv is given, Aider's repository map on the same tree, cold
   (in-memory tags cache), through the shared benchmark's helper
   (``$CTXOPT_BENCH_AIDER_HELPER``, default ``/work/shared/bench/tools/aider_map_helper.py``),
   and the ratio.

Memory is the peak of the summed resident set of the process and its workers, sampled
every 50 ms from /proc (Linux), and at least the largest process's ``ru_maxrss``. (Every
10 ms, the sampler's scans of /proc took 0.7 s of a 5.6 s cold index's wall time on two
cores: 2.6 ms of CPU a scan.)

Usage::

    python benchmarks/bench_index.py --repo /path/to/sympy-1.13.3 --repo /path/to/networkx-3.3 \\
        [--aider-python /tmp/aider-venv/bin/python] [--runs 5] [--json results.json]

Targets (checked for a repository whose name starts with ``sympy``): cold index <= 5.5 s
and >= 3x faster than Aider's cold map; warm gather <= 0.5 s wall, process start included
(issue 14); an edit adds <= 0.2 s; peak memory <= 300 MB everywhere. Wall and CPU
seconds (user + system) are both printed: on a shared machine CPU is the steadier figure.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
AIDER_HELPER = Path(os.environ.get("CTXOPT_BENCH_AIDER_HELPER",
                                   "/work/shared/bench/tools/aider_map_helper.py"))
TARGETS = {"cold_s": 5.5, "warm_s": 0.5, "edit_extra_s": 0.2, "rss_mb": 300.0, "aider_ratio": 3.0}


_SAMPLE_EVERY = 0.05  # seconds between two samples of the memory of a measured command


def _tree_rss_kb(pid: int) -> int:
    """Summed VmRSS (KiB) of ``pid`` and its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        rss[int(entry)] = int(line.split()[1])
                        break
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        total += rss.get(current, 0)
        stack.extend(children.get(current, []))
    return total


def measure(command: list[str], *, stdin: bytes | None = None, env: dict | None = None,
            cwd: str | None = None) -> dict:
    """Run ``command``; return wall seconds, CPU seconds (user + system, of the process
    and the workers it waited for), peak RSS (MB), exit code and output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, cwd=cwd)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss_kb(process.pid))
            done.wait(_SAMPLE_EVERY)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = process.communicate(stdin)
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "rss_mb": peak[0] / 1024, "code": process.returncode,
            "stdout": stdout, "stderr": stderr}


def _edit_target(root: Path) -> Path:
    """A mid-sized Python file to edit (deterministic choice)."""
    files = sorted((p for p in root.rglob("*.py") if ".ctxopt" not in p.parts
                    and 5_000 < p.stat().st_size < 40_000), key=lambda p: str(p))
    if not files:
        files = sorted(root.rglob("*.py"))
    return files[len(files) // 2]


def bench_repo(source: Path, task: str, ctxopt: list[str], runs: int, jobs: int | None,
               aider_python: str | None, budget: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="ctxopt-bench-"))
    root = work / source.name
    shutil.copytree(source, root, symlinks=True, ignore=shutil.ignore_patterns(".ctxopt"))
    cache = work / "parse-cache"  # empty: the cold index parses every file
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "CTXOPT_PARSE_CACHE": str(cache)}
    env.pop("CTXOPT_INDEX", None)
    jobs_args = ["--jobs", str(jobs)] if jobs else []
    result: dict = {"repo": source.name, "task": task}
    try:
        cold = measure([*ctxopt, "index", "--root", str(root), "--format", "json", *jobs_args],
                       env=env)
        if cold["code"] != 0:
            raise SystemExit(f"ctxopt index failed: {cold['stderr'].decode()[-500:]}")
        summary = json.loads(cold["stdout"])
        result["files"] = summary["files"]
        result["languages"] = summary["languages"]
        result["cold"] = {"wall_s": cold["wall_s"], "cpu_s": cold["cpu_s"], "rss_mb": cold["rss_mb"]}
        shutil.rmtree(root / ".ctxopt")  # a second checkout: no index, the parse cache kept
        again = measure([*ctxopt, "index", "--root", str(root), "--format", "json", *jobs_args],
                        env=env)
        result["cold_cached"] = {"wall_s": again["wall_s"], "cpu_s": again["cpu_s"],
                                 "rss_mb": again["rss_mb"],
                                 "hits": json.loads(again["stdout"])["parse_cache"]["hits"]}
        gather = [*ctxopt, "gather", task, "--root", str(root), "--budget", str(budget),
                  "--format", "json", *jobs_args]
        # first gather: resolves the uses the task reaches (kept for the next ones), fills
        # the page cache and the token memo; the cost of a new task on a warm index
        first = measure(gather, env=env)
        result["first"] = {"wall_s": first["wall_s"], "cpu_s": first["cpu_s"],
                           "rss_mb": first["rss_mb"]}
        warm = [measure(gather, env=env) for _ in range(runs)]
        if any(w["code"] != 0 for w in warm):
            raise SystemExit(f"ctxopt gather failed: {warm[0]['stderr'].decode()[-500:]}")
        result["warm"] = {"wall_s": statistics.median(w["wall_s"] for w in warm),
                          "cpu_s": statistics.median(w["cpu_s"] for w in warm),
                          "rss_mb": max(w["rss_mb"] for w in warm)}
        target = _edit_target(root)
        original = target.read_bytes()
        edited, after_edit = [], []
        for i in range(runs):
            target.write_bytes(original + f"\n\ndef _bench_edit_{i}(x):\n    return x\n".encode())
            edited.append(measure(gather, env=env))
            # the next gathers read the edited file again (its mtime is too recent to
            # trust) and must stay warm: the slower of the next two
            after_edit.append(max((measure(gather, env=env) for _ in range(2)),
                                  key=lambda m: m["wall_s"]))
        target.write_bytes(original)
        result["edited_file"] = str(target.relative_to(root))
        for key, measured in (("edit", edited), ("after_edit", after_edit)):
            result[key] = {"wall_s": statistics.median(m["wall_s"] for m in measured),
                           "cpu_s": statistics.median(m["cpu_s"] for m in measured),
                           "rss_mb": max(m["rss_mb"] for m in measured)}
            result[key]["extra_s"] = result[key]["wall_s"] - result["warm"]["wall_s"]
        if aider_python and Path(aider_python).exists() and AIDER_HELPER.exists():
            result["aider"] = bench_aider(aider_python, root, task, budget)
            if result["aider"].get("wall_s"):
                result["aider"]["ratio"] = result["aider"]["wall_s"] / result["cold"]["wall_s"]
                # Aider's map runs in one process, ctxopt's index in workers: on a loaded
                # machine wall time follows the load, CPU seconds compare the work
                result["aider"]["cpu_ratio"] = result["aider"]["cpu_s"] / result["cold"]["cpu_s"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return result


def bench_aider(python: str, root: Path, task: str, budget: int) -> dict:
    """Aider's repository map, cold (in-memory tags cache), offline."""
    command = [python, str(AIDER_HELPER)]
    if shutil.which("unshare") and subprocess.run(["unshare", "-n", "true"],
                                                  capture_output=True).returncode == 0:
        command = ["unshare", "-n", *command]
    env = {**os.environ, "TOKENIZERS_PARALLELISM": "false", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONHASHSEED": "0"}
    request = json.dumps({"root": str(root), "task": task, "budget": budget}).encode()
    run = measure(command, stdin=request, env=env)
    if run["code"] != 0:
        return {"error": run["stderr"].decode("utf-8", "replace")[-300:]}
    return {"wall_s": run["wall_s"], "cpu_s": run["cpu_s"], "rss_mb": run["rss_mb"]}


def verdicts(result: dict) -> list[str]:
    """Target checks for the large repository (sympy)."""
    checks = [
        (f"cold index <= {TARGETS['cold_s']} s", result["cold"]["wall_s"] <= TARGETS["cold_s"]),
        (f"warm gather <= {TARGETS['warm_s']} s", result["warm"]["wall_s"] <= TARGETS["warm_s"]),
        (f"edit adds <= {TARGETS['edit_extra_s']} s",
         max(result[k]["extra_s"] for k in ("edit", "after_edit")) <= TARGETS["edit_extra_s"]),
        (f"peak memory <= {TARGETS['rss_mb']:.0f} MB",
         max(result[k]["rss_mb"] for k in ("cold", "cold_cached", "first", "warm", "edit",
                                            "after_edit")) <= TARGETS["rss_mb"]),
    ]
    if "ratio" in result.get("aider", {}):
        checks.append(("cold index >= 3x faster than Aider", result["aider"]["ratio"] >= 3.0))
    return [f"  {'MET   ' if ok else 'MISSED'} {name}" for name, ok in checks]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", action="append", required=True, type=Path,
                        help="a repository tree (repeatable)")
    parser.add_argument("--task", action="append", default=None,
                        help="gather task per --repo (default: a generic one)")
    parser.add_argument("--ctxopt", default=str(Path(sys.executable).with_name("ctxopt")),
                        help="the ctxopt command (default: next to this python)")
    parser.add_argument("--aider-python", default=os.environ.get(
        "CTXOPT_BENCH_AIDER_PYTHON", "/tmp/aider-venv/bin/python"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--budget", type=int, default=8000)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    tasks = args.task or []
    results = []
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start")
    for i, repo in enumerate(args.repo):
        task = tasks[i] if i < len(tasks) else "fix the bug in the main entry point"
        result = bench_repo(repo.resolve(), task, args.ctxopt.split(), args.runs, args.jobs,
                            args.aider_python, args.budget)
        results.append(result)
        print(f"\n{result['repo']}: {result['files']} files {result['languages']}; task {task!r}")
        print("                            wall      CPU    memory")
        print(f"  cold ctxopt index        {result['cold']['wall_s']:7.2f} s {result['cold']['cpu_s']:6.2f} s "
              f"{result['cold']['rss_mb']:6.0f} MB")
        cached = result["cold_cached"]
        print(f"  cold index, 2nd checkout {cached['wall_s']:7.2f} s {cached['cpu_s']:6.2f} s "
              f"{cached['rss_mb']:6.0f} MB  ({cached['hits']} parse cache hits)")
        print(f"  first gather (new task)  {result['first']['wall_s']:7.2f} s {result['first']['cpu_s']:6.2f} s "
              f"{result['first']['rss_mb']:6.0f} MB")
        print(f"  warm ctxopt gather       {result['warm']['wall_s']:7.2f} s {result['warm']['cpu_s']:6.2f} s "
              f"{result['warm']['rss_mb']:6.0f} MB  (median of {args.runs})")
        print(f"  gather after one edit    {result['edit']['wall_s']:7.2f} s {result['edit']['cpu_s']:6.2f} s "
              f"{result['edit']['rss_mb']:6.0f} MB  (+{result['edit']['extra_s']:.2f} s; edited {result['edited_file']})")
        after = result["after_edit"]
        print(f"  next two gathers, slower {after['wall_s']:7.2f} s {after['cpu_s']:6.2f} s "
              f"{after['rss_mb']:6.0f} MB  (+{after['extra_s']:.2f} s)")
        aider = result.get("aider")
        if aider is None:
            print("  aider repo map           not run (no aider-chat venv)")
        elif "error" in aider:
            print(f"  aider repo map           failed: {aider['error']}")
        else:
            print(f"  aider repo map, cold     {aider['wall_s']:7.2f} s {aider['cpu_s']:6.2f} s {aider['rss_mb']:6.0f} MB  "
                  f"(ctxopt cold index is {aider['ratio']:.1f}x faster in wall time, "
                  f"{aider['cpu_ratio']:.1f}x in CPU)")
        if result["repo"].startswith("sympy"):
            print("\n".join(verdicts(result)))
    print(f"\nload average {os.getloadavg()[0]:.2f} at end")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
