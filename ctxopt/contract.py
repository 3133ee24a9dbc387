"""The JSON contract: where a result came from (root, version, commit, index figures) and
the JSON Schemas shipped in ``ctxopt/schema/`` that the JSON outputs follow.

``ctxopt schema [NAME]`` prints a schema; tests validate every JSON output against them.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Protocol

from .errors import UsageError
from .files.text import display_text
from .model import Origin

__all__ = ["SCHEMAS", "load_schema", "origin_of", "git_commit", "render_index_json"]

# name -> the file in ctxopt/schema/ that describes that output
SCHEMAS = {"gather": "gather.schema.json", "diff": "diff.schema.json",
           "index": "index.schema.json", "tags": "tags.schema.json",
           "curve": "curve.schema.json"}
_GIT_SECONDS = 10.0


class _Indexed(Protocol):
    files: list[str]

    def line_count(self, path: str) -> int | None: ...


def load_schema(name: str = "gather") -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of output ``name`` (a key of ``SCHEMAS``).

    Raises
    ------
    UsageError
        For a name that is not in ``SCHEMAS``.
    """
    if name not in SCHEMAS:
        raise UsageError(f"no schema named {name!r} (choose from {', '.join(sorted(SCHEMAS))})")
    from importlib import resources  # (here: it loads tempfile and shutil, which a gather needs not)

    text = resources.files("ctxopt").joinpath("schema").joinpath(SCHEMAS[name]).read_text("utf-8")
    return json.loads(text)


def git_commit(root: Path) -> tuple[str, bool] | None:
    """(HEAD's commit id, whether tracked files differ from it) for a root inside a git
    work tree; None when it is not one, git is missing, or the repository has no commit.

    Untracked files do not make the tree dirty (ctxopt's own index is one). Runs git
    with optional locks off, so a read never writes git's index file.
    """
    import subprocess  # (here: a gather on a tree outside git runs none)

    environment = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                                  text=True, env=environment, timeout=_GIT_SECONDS,
                                  stdin=subprocess.DEVNULL, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout if done.returncode == 0 else None

    head = git("rev-parse", "--verify", "--quiet", "HEAD")
    if not head or not head.strip():
        return None
    status = git("status", "--porcelain", "--untracked-files=no", "--ignore-submodules=dirty")
    return head.strip(), bool(status and status.strip())


def origin_of(root: Path, index: _Indexed) -> Origin:
    """Where a gather over ``index`` of ``root`` came from (see ``model.Origin``)."""
    parsed = sum(index.line_count(path) is not None for path in index.files)
    commit = git_commit(root)
    return Origin(root=display_text(str(root.resolve())),
                  commit=None if commit is None else commit[0],
                  dirty=None if commit is None else commit[1],
                  files=len(index.files), parsed=parsed,
                  diagnosed=len({d.path for d in getattr(index, "diagnostics", ())}))


def render_index_json(summary: dict[str, Any]) -> str:
    """``ctxopt index --format json``: the summary (``ctxopt/schema/index.schema.json``),
    keys sorted."""
    return json.dumps(summary, indent=2, sort_keys=True) + "\n"
