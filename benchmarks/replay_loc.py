#!/usr/bin/env python3
"""Replay ``../shared/bench/run_loc.py``'s ctxopt runs in process, for relevance ablations.

``run_loc.py`` runs ``ctxopt gather TASK --format json`` once per task and budget, cold
(10-15 minutes for the 346 tasks at one budget). This script walks each task once
(``pipeline.prepare``), fits every ``--budgets`` budget (``pipeline.fit_prepared``) and
scores the JSON with the benchmark's own scorer (``scoring.score_instance``), on indexes
kept in ``--index-dir`` (one database a task, built on first use): about 3 minutes for all
346 tasks at three budgets, two processes. On the 346 tasks at 8,000 tokens it gave every
task's file, line and symbol recall as ``run_loc.py`` did (main dd7d628, 2026-12-05).

For experiments only: the indexes are kept whatever code wrote them (their fingerprint is
fixed), so a change to how files are parsed or indexed, or to name resolution (an index
keeps the uses it resolved), needs a new ``--index-dir``. A
lever is tried with ``--set``: a ``WalkConfig`` field (``--set max_siblings=12``,
``--set weights.callee=0.4``) or a module constant (``--set
mod:ctxopt.source.COVER_RATIO=0.3``), values as Python literals.

Usage (trees from ``run_loc.py``'s cache, ``CTXBENCH_CACHE``, default /tmp/ctxbench)::

    python benchmarks/replay_loc.py base.jsonl --bench ../shared/bench --budgets 4000,8000
    python benchmarks/replay_loc.py lever.jsonl --bench ../shared/bench --set max_siblings=12
    python benchmarks/replay_loc.py --compare lever.jsonl base.jsonl

``--blocks`` keeps each block's file, lines, kind, ring, tokens and reason in its record.

``--compare`` prints each split's projects whose mean line (file) recall moved, per budget,
then every task and budget whose file, line or symbol recall moved.
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import json
import os
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from ctxopt.walk_config import RingWeights, WalkConfig

_SETTINGS: dict[str, Any] = {}
_PLACES: dict[str, str] = {}


def _setup(settings: dict[str, Any], places: dict[str, str]) -> None:
    """A worker's set-up: the bench on the path, indexes kept, the ``--set`` overrides."""
    _PLACES.update(places)
    sys.path.insert(0, places["bench"])
    from ctxopt import pipeline
    from ctxopt.store import schema
    from ctxopt.walk_config import WalkConfig

    schema.fingerprint = lambda config: "replay"
    walk = {}
    for key, value in settings.items():
        if key.startswith("mod:"):
            module, name = key[4:].rsplit(".", 1)
            setattr(importlib.import_module(module), name, value)
        else:
            walk[key] = value
    if walk:
        plain = {k: v for k, v in walk.items() if not k.startswith("weights.")}
        weights = {k[8:]: v for k, v in walk.items() if k.startswith("weights.")}

        def configured(*args: Any, **kwargs: Any) -> WalkConfig:
            config = dataclasses.replace(WalkConfig(*args, **kwargs), **plain)
            return dataclasses.replace(config, weights=dataclasses.replace(config.weights,
                                                                           **weights))
        pipeline.WalkConfig = configured  # type: ignore[misc,assignment]


def _replay(job: tuple[dict[str, Any], list[int]]) -> list[dict[str, Any]]:
    """One task's records, one a budget, scored as ``run_loc.py`` scores them."""
    from scoring import score_instance, zero_scores  # type: ignore[import-not-found]
    from tools.base import BLOCK_KINDS  # type: ignore[import-not-found]

    from ctxopt.errors import CtxoptError
    from ctxopt.pipeline import GatherConfig, fit_prepared, prepare
    from ctxopt.render import render_json
    from ctxopt.store.options import IndexOptions

    task, budgets = job
    root = str(Path(_PLACES["trees"]) / task["id"])
    options = IndexOptions(path=Path(_PLACES["index_dir"]) / f"{task['id']}.db", jobs=1,
                           parse_cache="off")
    records = []
    try:
        prepared = prepare(root, task["task"], GatherConfig(budget=max(budgets)),
                           index_options=options)
        error = None
    except CtxoptError as exc:
        prepared, error = None, str(exc)
    for budget in budgets:
        record = {"id": task["id"], "repo": task["repo"], "split": task["split"],
                  "budget": budget, "ok": False, "error": error}
        if prepared is None:
            records.append({**record, **zero_scores(task)})
            continue
        try:
            result = fit_prepared(prepared, budget)
        except CtxoptError as exc:
            records.append({**record, **zero_scores(task), "error": str(exc)})
            continue
        data = json.loads(render_json(result, prepared.counter.count))
        blocks = [{"file": b["file"], "start_line": b["start_line"], "end_line": b["end_line"],
                   "content": b["content"], "score": b["score"], "tokens": b["tokens"],
                   "kind": b["kind"] if b["kind"] in BLOCK_KINDS else "full"}
                  for b in data["blocks"]]
        output = {"blocks": blocks, "text": data["text"], "meta": {}}
        record.update(score_instance(task, output, root, budget), ok=True)
        if _PLACES.get("blocks"):  # what each block is, for an ablation's analysis
            record["blocks"] = [[b["file"], b["start_line"], b["end_line"], b["kind"],
                                 b["ring"], b["tokens"], b["reason"]] for b in data["blocks"]]
        records.append(record)
    return records


def compare(run: Path, base: Path, dev: set[str]) -> None:
    """Print, per split and budget, the projects whose mean line (file) recall moved."""
    def load(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
        return {(r["id"], r["budget"]): r for r in map(json.loads, path.open())}

    new, old = load(run), load(base)
    groups: dict[tuple[str, int, str], list[tuple[str, int]]] = defaultdict(list)
    for key, record in new.items():
        if key in old:
            split = "dev" if key[0] in dev else "Live"
            groups[(split, key[1], record["repo"].split("/")[-1])].append(key)
    for split in ("dev", "Live"):
        rows = []
        for budget in sorted({b for s, b, _ in groups if s == split}):
            moved = []
            for (s, b, project), keys in sorted(groups.items()):
                if (s, b) != (split, budget):
                    continue
                line = sum(new[k]["line_recall"] - old[k]["line_recall"] for k in keys) / len(keys)
                file_delta = sum(new[k]["file_recall"] - old[k]["file_recall"]
                                 for k in keys) / len(keys)
                if abs(line) > 5e-4 or abs(file_delta) > 5e-4:
                    moved.append(f"{project} {line:+.3f}" + (
                        f" (file {file_delta:+.3f})" if abs(file_delta) > 5e-4 else ""))
            rows.append(f"{budget}: " + (", ".join(moved) or "0"))
        print(f"{split}: " + "; ".join(rows))
    # a task's move can hide in its project's mean (one of 94 tasks +0.03 is 0.0003)
    moved_tasks = [key for key in sorted(new) if key in old and any(
        abs((new[key][m] or 0) - (old[key][m] or 0)) > 1e-9
        for m in ("file_recall", "line_recall", "symbol_recall"))]
    print(f"{len(moved_tasks)} task-budgets moved")
    for key in moved_tasks:
        print(f"  {key[0]} {key[1]}: " + ", ".join(
            f"{m.split('_')[0]} {old[key][m] or 0:.2f} -> {new[key][m] or 0:.2f}"
            for m in ("file_recall", "line_recall", "symbol_recall")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="records, one JSON object a task and budget")
    parser.add_argument("base", type=Path, nargs="?", help="with --compare: the reference run")
    parser.add_argument("--bench", type=Path, default=Path("../shared/bench"))
    parser.add_argument("--budgets", default="2000,4000,8000")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--index-dir", type=Path, default=Path("/tmp/ctxopt-replay"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ids", help="only these task ids (comma-separated)")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--blocks", action="store_true",
                        help="keep each block's file, lines, kind, ring, tokens and reason")
    args = parser.parse_args()
    data = [args.bench / "data" / "loc_dev.jsonl", args.bench / "data" / "loc_dev_live.jsonl"]
    if args.compare:
        if args.base is None:
            parser.error("--compare needs RUN and BASE")
        compare(args.out, args.base, {json.loads(line)["id"] for line in data[0].open()})
        return
    settings = {}
    fields = {f.name for f in dataclasses.fields(WalkConfig)} | {
        f"weights.{f.name}" for f in dataclasses.fields(RingWeights)}
    for item in args.set:
        key, equals, value = item.partition("=")
        if not equals or not (key in fields or key.startswith("mod:") and "." in key):
            parser.error(f"--set {item!r}: want a WalkConfig field, weights.FIELD or "
                         "mod:MODULE.NAME, then =VALUE")
        try:
            settings[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            parser.error(f"--set {item!r}: {value!r} is no Python literal")
    try:
        budgets = [int(b) for b in args.budgets.split(",")]
    except ValueError:
        parser.error(f"--budgets {args.budgets!r}: want whole numbers of tokens, e.g. 4000,8000")
    args.index_dir.mkdir(parents=True, exist_ok=True)
    cache = Path(os.environ.get("CTXBENCH_CACHE", "/tmp/ctxbench"))
    places = {"bench": str(args.bench.resolve()), "trees": str(cache / "trees"),
              "index_dir": str(args.index_dir.resolve()), "blocks": "1" if args.blocks else ""}
    tasks = sorted((json.loads(line) for path in data for line in path.open()),
                   key=lambda t: t["id"])
    if args.ids:
        tasks = [t for t in tasks if t["id"] in set(args.ids.split(","))]
    with Pool(args.jobs, initializer=_setup, initargs=(settings, places)) as pool, \
            args.out.open("w") as out:
        for records in pool.imap_unordered(_replay, [(t, budgets) for t in tasks]):
            out.writelines(json.dumps(r) + "\n" for r in records)


if __name__ == "__main__":
    main()
