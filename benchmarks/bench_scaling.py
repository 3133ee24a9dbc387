#!/usr/bin/env python3
"""How ctxopt's costs grow with the repository: generated trees of 1,000, 10,000 and
50,000 files (``gentree.py``) and real ones (sympy, a TypeScript project).

Each tree is copied (or generated) into ``--work`` and committed to a new git repository,
as a user's checkout is (``--no-git``: measured as a plain directory, which ctxopt walks
itself). For each, whole-process figures of the console script given by ``--ctxopt``
(install ctxopt non-editable, as a user does; wall seconds, CPU seconds of the process,
its workers and the git commands it runs, peak summed RSS; ``bench_index.measure``):

1. cold ``ctxopt index`` with an empty parse cache;
2. cold ``ctxopt index`` of a second checkout (the index deleted, the parse cache kept);
3. the first ``ctxopt gather`` of the task on that index, then warm ``ctxopt gather``
   (median of ``--runs``);
4. ``ctxopt gather`` right after one file was edited (median of ``--runs`` edits);
5. the discovery walk alone (``discover.list_candidates``: listing the files and one
   ``lstat`` each, what every warm gather pays before it can trust the index),
   in-process wall seconds, best of 3;
6. with ``--profile DIR``, one warm gather and one gather after an edit under cProfile,
   timed in CPU seconds (the top functions go into the JSON);
7. Aider's cold repository map (``bench_index.bench_aider``), stopped after
   ``--aider-timeout`` seconds.

Writes ``--json`` (results of earlier runs in it are kept, by tree name), a markdown table
with the machine, dates and commands (``--table``) and a log-log plot (``--plot``, needs
matplotlib: a benchmark-only dependency). ``benchmarks/scaling.md`` is written by hand
around that table.

Usage::

    python benchmarks/bench_scaling.py --generated 1000 --generated 10000 --generated 50000 \\
        --repo /tmp/sympy-1.13.3 --task "fix Symbol subs bug" --work /tmp/scaling \\
        --ctxopt /path/to/venv/bin/ctxopt --aider-python /path/to/aider-venv/bin/python \\
        --json benchmarks/scaling.json --table /tmp/table.md --plot benchmarks/scaling.png
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_index import bench_aider, measure
from gentree import generate

_DISCOVERY = ("import sys, time\nfrom pathlib import Path\nfrom ctxopt.discover import "
              "list_candidates\nroot = Path(sys.argv[1])\nbest = None\nfor _ in range(3):\n"
              "    t = time.perf_counter(); found, _ = list_candidates(root)\n"
              "    s = time.perf_counter() - t; best = s if best is None else min(best, s)\n"
              "print(len(found), best)\n")


# cProfile of a console script, timed in CPU seconds of the process (the default timer is
# wall time, which on a shared machine follows the other processes' load)
_PROFILE = ("import cProfile, runpy, sys, time\nout = sys.argv[1]\nsys.argv = sys.argv[2:]\n"
            "profiler = cProfile.Profile(time.process_time)\ntry:\n"
            "    profiler.runcall(runpy.run_path, sys.argv[0], run_name='__main__')\n"
            "except SystemExit:\n    pass\nfinally:\n    profiler.dump_stats(out)\n")


def _edit_target(root: Path) -> Path:
    files = sorted(p for p in root.rglob("*.py") if ".ctxopt" not in p.parts
                   and 3_000 < p.stat().st_size < 40_000)
    files = files or sorted(p for p in root.rglob("*.ts") if ".ctxopt" not in p.parts
                            and "node_modules" not in p.parts)
    return files[len(files) // 2]


def _task_for(target: Path) -> str:
    found = re.search(r"\bclass\s+([A-Z]\w+)", target.read_text(errors="replace"))
    return f"fix the {found.group(1) if found else target.stem} lookup bug"


def _figures(run: dict) -> dict:
    return {"wall_s": round(run["wall_s"], 3), "cpu_s": round(run["cpu_s"], 3),
            "rss_mb": round(run["rss_mb"], 1)}


def bench_tree(name: str, root: Path, task: str | None, ctxopt: list[str], python: str,
               runs: int, aider_python: str | None, aider_timeout: int, budget: int,
               profile: Path | None = None) -> dict:
    """The figures of one tree (see the module docstring); ``root`` is scratch."""
    cache = Path(tempfile.mkdtemp(prefix="ctxopt-scaling-cache-"))
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "CTXOPT_PARSE_CACHE": str(cache)}
    env.pop("CTXOPT_INDEX", None)
    target = _edit_target(root)
    task = task or _task_for(target)
    result: dict = {"tree": name, "task": task}
    try:
        index = [*ctxopt, "index", "--root", str(root), "--format", "json"]
        cold = measure(index, env=env)
        if cold["code"] != 0:
            raise SystemExit(f"{name}: ctxopt index failed: {cold['stderr'].decode()[-500:]}")
        summary = json.loads(cold["stdout"])
        result.update(files=summary["scanned"], parsed=summary["parsed"],
                      languages=summary["languages"], cold=_figures(cold),
                      index_mb=round(sum(p.stat().st_size for p in (root / ".ctxopt").iterdir()
                                         if p.is_file()) / 2**20, 1),
                      cache_mb=round(sum(p.stat().st_size for p in cache.iterdir()) / 2**20, 1))
        shutil.rmtree(root / ".ctxopt")
        again = measure(index, env=env)
        result["second_checkout"] = {**_figures(again),
                                     "hits": json.loads(again["stdout"])["parse_cache"]["hits"]}
        gather = [*ctxopt, "gather", task, "--root", str(root), "--budget", str(budget),
                  "--format", "json"]
        first = measure(gather, env=env)  # a new task on a warm index; page cache, memo
        if first["code"] != 0:
            raise SystemExit(f"{name}: ctxopt gather failed: {first['stderr'].decode()[-500:]}")
        result["first"] = _figures(first)
        warm = [measure(gather, env=env) for _ in range(runs)]
        result["warm"] = {k: round(statistics.median(w[k] for w in warm), 3)
                          for k in ("wall_s", "cpu_s")} | {
                              "rss_mb": round(max(w["rss_mb"] for w in warm), 1)}
        original = target.read_bytes()
        edits = []
        for i in range(runs + bool(profile)):
            added = (f"\n\ndef _scaling_edit_{i}(x):\n    return x\n" if target.suffix == ".py"
                     else f"\n\nexport function scalingEdit{i}(x: number): number {{\n"
                          "  return x;\n}\n")
            target.write_bytes(original + added.encode())
            if i < runs:
                edits.append(measure(gather, env=env))
            else:  # one more edit, profiled
                result["profile_edit"] = profile_gather(
                    gather, python, env, profile / f"{root.name}-edit.prof")  # type: ignore[operator]
        target.write_bytes(original)
        measure(gather, env=env)  # the original content indexed again
        result["edited_file"] = str(target.relative_to(root))
        result["edit"] = {k: round(statistics.median(e[k] for e in edits), 3)
                          for k in ("wall_s", "cpu_s")} | {
                              "rss_mb": round(max(e["rss_mb"] for e in edits), 1)}
        walk = subprocess.run([python, "-c", _DISCOVERY, str(root)], capture_output=True,
                              text=True, env=env, check=True, cwd=root.parent).stdout.split()
        result["discovery"] = {"candidates": int(walk[0]), "seconds": round(float(walk[1]), 3)}
        if profile:
            result["profile"] = profile_gather(gather, python, env, profile / f"{root.name}.prof")
        if aider_python and Path(aider_python).exists():
            shutil.rmtree(root / ".ctxopt", ignore_errors=True)
            result["aider"] = bench_aider_with_timeout(aider_python, root, task, budget,
                                                       aider_timeout)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return result


def profile_gather(gather: list[str], python: str, env: dict, out: Path) -> dict:
    """One more gather under cProfile, timed in CPU seconds (``out`` keeps the raw
    profile); the 25 functions of most own time (``own``) and the 40 of ctxopt's of most
    cumulative time (``cumulative``), each ``[function, calls, own seconds, cumulative
    seconds]``. The profiler inflates small calls: read the shares, not the sums."""
    # run from the output directory: ``-c`` puts the working directory first on sys.path,
    # and a checkout's ctxopt/ there would be profiled instead of the installed one
    subprocess.run([python, "-c", _PROFILE, str(out), *gather], env=env, check=True,
                   capture_output=True, cwd=out.parent)
    import pstats

    stats = pstats.Stats(str(out))
    rows = []
    for (filename, line, function), (_, calls, own, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        where = filename.split("site-packages/")[-1]
        rows.append([f"{where}:{line}({function})", calls, round(own, 3), round(cumulative, 3)])
    own = sorted(rows, key=lambda r: -r[2])[:25]
    ours = sorted((r for r in rows if r[0].startswith("ctxopt/")), key=lambda r: -r[3])[:40]
    return {"own": own, "cumulative": ours}


def bench_aider_with_timeout(python: str, root: Path, task: str, budget: int,
                             timeout: int) -> dict:
    """``bench_index.bench_aider`` run under ``timeout(1)``: ``{"timeout": seconds}`` when
    Aider's map did not finish in time."""
    wrapper = Path(tempfile.mkdtemp(prefix="ctxopt-aider-")) / "python"
    wrapper.write_text(f"#!/bin/sh\nexec timeout {timeout} {python} \"$@\"\n")
    wrapper.chmod(0o755)
    try:
        started = time.perf_counter()
        figures = bench_aider(str(wrapper), root, task, budget)
        if "error" in figures and time.perf_counter() - started >= timeout - 1:
            return {"timeout": timeout}
        return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}
    finally:
        shutil.rmtree(wrapper.parent, ignore_errors=True)


def commit_tree(root: Path) -> None:
    """Make ``root`` a git repository with every file committed (fixed author and date)."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "bench@example.invalid",
           "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "tree"]):
        # no automatic gc: it would pack the new objects in the background while ctxopt runs
        subprocess.run(["git", "-C", str(root), "-c", "gc.auto=0", *command], env=env, check=True,
                       capture_output=True)


def machine() -> dict:
    """What the figures were measured on: date, CPU model and count, memory, Python, and
    the commit of this checkout (ctxopt is installed from it)."""
    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")),
                 "unknown CPU") if Path("/proc/cpuinfo").exists() else "unknown CPU"
    memory = next((int(line.split()[1]) // 1024 for line in
                   Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")),
                  0) if Path("/proc/meminfo").exists() else 0
    commit = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"],
                            check=False, capture_output=True, text=True).stdout.strip()
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpu": model,
            "cores": os.cpu_count(), "memory_mb": memory,
            "python": sys.version.split()[0], "commit": commit}


def table(results: list[dict]) -> str:
    """The markdown table of ``results``."""
    runs: dict[tuple[str, str], list[str]] = {}
    for r in results:
        if "machine" in r:
            runs.setdefault((r["command"], r["machine"]["commit"]), []).append(
                r["machine"]["date"])
    notes = "".join(f"- {min(dates)}{' to ' + max(dates) if max(dates) != min(dates) else ''}, "
                    f"checkout {commit}: `{command}`\n"
                    for (command, commit), dates in sorted(runs.items(), key=lambda c: min(c[1])))
    any_run = next((r for r in results if "machine" in r), None)
    if any_run:
        m = any_run["machine"]
        notes = (f"Measured on {m['cpu']} ({m['cores']} cores, {m['memory_mb'] // 1024} GB), "
                 f"Python {m['python']}; trees "
                 f"{'committed to git' if any_run.get('git') else 'as plain directories'}. "
                 f"Runs (with the commit of the benchmark's checkout):\n\n{notes}\n")
    head = notes + ("| tree | files read | parsed | cold index: wall / CPU / peak | second checkout "
                    "(cache hits) | warm gather: wall / CPU / peak | after one edit: wall / CPU | "
                    "discovery walk | Aider cold map: wall / CPU / peak | load average (start, end) |\n"
            "|---|---:|---:|---|---|---|---|---|---|---|\n")
    rows = []
    for r in results:
        aider = r.get("aider")
        if aider is None:
            aider_text = "not run"
        elif "timeout" in aider:
            aider_text = f"> {aider['timeout']} s (stopped)"
        elif "error" in aider:
            aider_text = "failed"
        else:
            aider_text = (f"{aider['wall_s']:.1f} s / {aider['cpu_s']:.1f} s / "
                          f"{aider['rss_mb']:.0f} MB")
        c, s, w, e = r["cold"], r["second_checkout"], r["warm"], r["edit"]
        rows.append(
            f"| {r['tree']} | {r['files']:,} | {r['parsed']:,} | {c['wall_s']:.1f} s / "
            f"{c['cpu_s']:.1f} s / {c['rss_mb']:.0f} MB | {s['wall_s']:.1f} s / {s['cpu_s']:.1f} s "
            f"({s['hits']:,}) | {w['wall_s']:.2f} s / {w['cpu_s']:.2f} s / {w['rss_mb']:.0f} MB | "
            f"{e['wall_s']:.2f} s / {e['cpu_s']:.2f} s | {r['discovery']['seconds']:.2f} s | "
            f"{aider_text} | {', '.join(f'{v:.1f}' for v in r.get('load_average', []))} |")
    return head + "\n".join(rows) + "\n"


def plot(results: list[dict], path: Path) -> None:
    """Two log-log panels of CPU seconds against files read: building the index (cold,
    second checkout, Aider's cold map) and one gather (warm, after an edit, the discovery
    walk alone). Generated trees are joined by lines, real trees are labelled points; a
    dotted line of slope 1 (cost proportional to files) runs through the smallest
    generated tree's figure for comparison."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = sorted(results, key=lambda r: r["files"])
    generated = [r for r in results if r["tree"].startswith("generated")]
    real = [r for r in results if not r["tree"].startswith("generated")]

    def aider(r: dict) -> float | None:
        found = r.get("aider", {})
        return found.get("cpu_s") if "cpu_s" in found else None

    panels = [("building the index", [
        ("cold ctxopt index (empty parse cache)", lambda r: r["cold"]["cpu_s"], "o"),
        ("second checkout (parse cache hits)", lambda r: r["second_checkout"]["cpu_s"], "s"),
        ("Aider cold repo map", aider, "x")]),
        ("one gather, index built", [
        ("warm gather", lambda r: r["warm"]["cpu_s"], "o"),
        ("gather after one edit", lambda r: r["edit"]["cpu_s"], "s"),
        ("discovery walk alone (in-process, wall seconds)", lambda r: r["discovery"]["seconds"],
         "^")])]
    figure, axes = plt.subplots(1, 2, figsize=(12, 5), dpi=110)
    for ax, (title, series) in zip(axes, panels):
        for i, (label, value, marker) in enumerate(series):
            color = f"C{i}"
            points = [(r["files"], value(r)) for r in generated if value(r) is not None]
            if points:
                ax.plot(*zip(*points), marker=marker, color=color, label=label)
                x0, y0 = points[0]
                if i == 0:
                    top = max(r["files"] for r in generated)
                    ax.plot([x0, top], [y0, y0 * top / x0], ":", color="grey",
                            label="proportional to files (from the first point)")
            for r in real:
                if value(r) is not None:
                    ax.scatter([r["files"]], [value(r)], marker=marker, color=color,
                               facecolors="none", s=60)
            for r in generated:
                stopped = r.get("aider", {}).get("timeout")
                if value is aider and stopped:
                    ax.annotate(f"Aider stopped after {stopped} s wall at {r['files']:,} files",
                                (r["files"], 0.03), xycoords=("data", "axes fraction"),
                                fontsize=7, color=color, ha="right")
        for r in real:
            ax.annotate(r["tree"], (r["files"], series[0][1](r)), fontsize=7,
                        textcoords="offset points", xytext=(5, -10))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("files read (filled: generated trees; hollow: real ones)")
        ax.set_ylabel("CPU seconds (user + system, workers included)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    figure.suptitle("ctxopt: cost against repository size", fontsize=11)
    figure.tight_layout()
    figure.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generated", type=int, action="append", default=[],
                        help="generate a tree of this many files (repeatable)")
    parser.add_argument("--repo", type=Path, action="append", default=[],
                        help="a real tree, copied first (repeatable)")
    parser.add_argument("--task", action="append", default=[], help="gather task per --repo")
    parser.add_argument("--ctxopt", default=str(Path(sys.executable).with_name("ctxopt")))
    parser.add_argument("--aider-python", default=os.environ.get(
        "CTXOPT_BENCH_AIDER_PYTHON", "/tmp/aider-venv/bin/python"))
    parser.add_argument("--aider-timeout", type=int, default=600)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-git", action="store_true",
                        help="measure the trees as plain directories (default: each is "
                        "committed to a new git repository first, as a user's checkout is; "
                        "ctxopt then lists files with git instead of walking them)")
    parser.add_argument("--budget", type=int, default=8000)
    parser.add_argument("--work", type=Path, default=None, help="scratch directory")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--table", type=Path, default=None)
    parser.add_argument("--plot", type=Path, default=None)
    parser.add_argument("--profile", type=Path, default=None,
                        help="also profile one warm gather and one gather after an edit per tree "
                        "(cProfile) into this directory")
    args = parser.parse_args()
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    work = args.work or Path(tempfile.mkdtemp(prefix="ctxopt-scaling-"))
    python = str(Path(args.ctxopt).with_name("python"))
    results = json.loads(args.json.read_text()) if args.json and args.json.exists() else []
    started = machine()
    print(f"machine: {started}; load average {os.getloadavg()[0]:.2f} at start", flush=True)
    trees: list[tuple[str, Path, str | None]] = []
    for count in args.generated:
        trees.append((f"generated {count:,}", work / f"gen{count}", None))
    for i, repo in enumerate(args.repo):
        trees.append((repo.name, work / repo.name, args.task[i] if i < len(args.task) else None))
    for name, root, task in trees:
        shutil.rmtree(root, ignore_errors=True)
        if name.startswith("generated"):
            generate(root, int(name.split()[1].replace(",", "")))
        else:
            shutil.copytree(args.repo[[r.name for r in args.repo].index(name)], root,
                            symlinks=True, ignore=shutil.ignore_patterns(".ctxopt", ".git"))
        if not args.no_git:
            commit_tree(root)
        load = os.getloadavg()[0]
        result = bench_tree(name, root, task, args.ctxopt.split(), python, args.runs,
                            args.aider_python, args.aider_timeout, args.budget, args.profile)
        result["load_average"] = [round(load, 2), round(os.getloadavg()[0], 2)]
        result["machine"] = started
        result["command"] = shlex.join(["python", *sys.argv])
        result["git"] = not args.no_git
        results = [r for r in results if r["tree"] != name] + [result]
        print(json.dumps(result), flush=True)
        shutil.rmtree(root, ignore_errors=True)
        if args.json:
            args.json.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(table(results))
    if args.table:
        args.table.write_text(table(results))
    if args.plot:
        plot(results, args.plot)


if __name__ == "__main__":
    main()
