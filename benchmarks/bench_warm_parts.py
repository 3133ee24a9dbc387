#!/usr/bin/env python3
"""Where a warm gather's linear parts spend their time, in CPU seconds of this process
(best of 3), without a profiler's overhead:

- the discovery walk (``discover.list_candidates``, the part of every warm gather that
  lists and stats the files) and its parts; git's own CPU (``git ls-files``, a child
  process) is not counted;
- with ``--task``, on the built index of ROOT: bringing it up to date and opening it
  (``store.open_index``), the lexical relevance of every matching definition
  (``seeds.relevance_scores``), ``walk.signature_file_ring``'s grouping of those
  definitions by file and ``walk._rank_files``, and ``walk.walk_rings`` whole.

Run with the python of the environment ctxopt is installed in, from outside a checkout of
ctxopt (the index is updated in place, as a gather would).

Usage::

    python benchmarks/bench_warm_parts.py ROOT [--task "fix the Name lookup bug"]
"""
from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ctxopt import discover, gitrepo
from ctxopt.files.safety import HygieneConfig
from ctxopt.files.secrets import secret_file_kind
from ctxopt.seeds import relevance_scores
from ctxopt.store import IndexOptions, open_index
from ctxopt.task import parse_task
from ctxopt.walk import _rank_files, walk_rings
from ctxopt.walk_config import WalkConfig


def best(run: Callable[[], Any], runs: int = 3) -> tuple[float, Any]:
    """The least CPU seconds of ``runs`` calls, and the last result."""
    least, result = float("inf"), None
    for _ in range(runs):
        started = time.process_time()
        result = run()
        least = min(least, time.process_time() - started)
    return least, result


def vendored(root: Path, paths: list[str]) -> list[bool]:
    """``discover._vendored`` of every path, with one memo of virtual environments."""
    seen: dict[str, bool] = {}
    return [discover._vendored(p, root, seen, 0) for p in paths]


def walk_parts(root: Path, task_text: str, runs: int = 3) -> None:
    """Print the CPU seconds of the gather's parts named in the module docstring."""
    task, config = parse_task(task_text), WalkConfig()
    seconds: dict[str, list[float]] = defaultdict(list)

    def timed(label: str, run: Callable[[], Any]) -> Any:
        started = time.process_time()
        result = run()
        seconds[label].append(time.process_time() - started)
        return result

    for _ in range(runs):  # a new index each time: it caches postings it has read
        index, _ = timed("open_index (update + read view)",
                         lambda: open_index(root, IndexOptions(jobs=1)))
        relevance, files = timed("relevance_scores", lambda: relevance_scores(index, task, config))

        def group() -> dict[str, list[str]]:
            by_path: dict[str, list[str]] = defaultdict(list)
            for node in relevance:
                by_path[index.path_of(node)].append(node)
            return by_path

        timed("signature_file_ring's by_path", group)
        ranked = timed("_rank_files", lambda: _rank_files(index, relevance, files, config))
        index.close()
        index, _ = open_index(root, IndexOptions(jobs=1))
        timed("walk_rings, whole", lambda: walk_rings(index, task, config))
        index.close()
    print(f"{task_text!r}: {len(relevance):,} definitions matched, {len(files):,} files "
          f"scored, {len(ranked):,} ranked")
    for label, values in seconds.items():
        print(f"  {label}: {min(values):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--task", default=None, help="also time the walk's parts (needs an index)")
    args = parser.parse_args()
    if not args.root.is_dir():
        raise SystemExit(f"bench_warm_parts.py: {args.root} is not a directory")
    root = args.root.resolve()
    config = HygieneConfig()
    total, (candidates, _) = best(lambda: discover.list_candidates(root))
    paths = [c.path for c in candidates]
    base = os.path.join(str(root), "")
    parts = [
        ("listing (git ls-files and attributes, or the walk)",
         lambda: discover._list_files(root, config, [])),
        ("  of which gitrepo.work_tree", lambda: gitrepo.work_tree(root)),
        ("one lstat a file", lambda: [os.lstat(base + p) for p in paths]),
        ("name_rule a file", lambda: [discover.name_rule(p, 100, discover.MAX_FILE_BYTES,
                                                         config, None) for p in paths]),
        ("  of which secret_file_kind", lambda: [secret_file_kind(p) for p in paths]),
        ("_vendored a file", lambda: vendored(root, paths)),
        ("_attribute_skip a file", lambda: [discover._attribute_skip(p, {}) for p in paths]),
    ]
    print(f"list_candidates: {total:.3f} CPU-s for {len(paths):,} candidates")
    for label, run in parts:
        print(f"  {label}: {best(run)[0]:.3f}")
    if args.task:
        walk_parts(root, args.task)


if __name__ == "__main__":
    main()
