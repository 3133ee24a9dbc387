"""ctxopt: the most relevant code for a task, fitted to a token budget.

Library use::

    from ctxopt import gather, GatherConfig, render_text, count_tokens
    result = gather("path/to/repo", "fix Storage bug", GatherConfig(budget=8000))
    print(render_text(result, count_tokens))

The names below are imported on first use (PEP 562), so that ``import ctxopt`` (and
``ctxopt --version``) does not load the pipeline.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import (BudgetTooSmall, BudgetTooSmallForContent, CtxoptError, GrammarError,
                         UsageError)
    from .model import Block, Diagnostic, Fidelity, Intent, Result, Selection
    from .pipeline import GatherConfig, gather
    from .render import RENDERERS, render_json, render_manifest, render_text
    from .task import ParsedTask, parse_task
    from .tokens import count_tokens

# public name -> the module that defines it
_EXPORTS = {
    **dict.fromkeys(("BudgetTooSmall", "BudgetTooSmallForContent", "CtxoptError",
                     "GrammarError", "UsageError"), "errors"),
    **dict.fromkeys(("Block", "Diagnostic", "Fidelity", "Intent", "Result", "Selection"),
                    "model"),
    **dict.fromkeys(("GatherConfig", "gather"), "pipeline"),
    **dict.fromkeys(("RENDERERS", "render_json", "render_manifest", "render_text"), "render"),
    **dict.fromkeys(("ParsedTask", "parse_task"), "task"),
    "count_tokens": "tokens",
}

__all__ = [
    "Block", "BudgetTooSmall", "BudgetTooSmallForContent", "CtxoptError", "Diagnostic",
    "Fidelity", "GatherConfig", "GrammarError", "Intent", "ParsedTask", "RENDERERS", "Result", "Selection", "UsageError",
    "count_tokens", "gather", "parse_task", "render_json", "render_manifest", "render_text",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """Import a public name's module the first time the name is used."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ctxopt' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
