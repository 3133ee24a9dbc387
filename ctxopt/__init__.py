"""ctxopt: the most relevant code for a task, fitted to a token budget.

Library use::

    from ctxopt import gather, GatherConfig, render_text, count_tokens
    result = gather("path/to/repo", "fix Storage bug", GatherConfig(budget=8000))
    print(render_text(result, count_tokens))
"""
from .errors import (BudgetTooSmall, BudgetTooSmallForContent, CtxoptError, GrammarError,
                     UsageError)
from .model import Block, Diagnostic, Fidelity, Intent, Result, Selection
from .pipeline import GatherConfig, gather
from .render import RENDERERS, render_json, render_manifest, render_text
from .task import ParsedTask, parse_task
from .tokens import count_tokens

__all__ = [
    "Block", "BudgetTooSmall", "BudgetTooSmallForContent", "CtxoptError", "Diagnostic",
    "Fidelity", "GatherConfig", "GrammarError", "Intent", "ParsedTask", "RENDERERS", "Result", "Selection", "UsageError",
    "count_tokens", "gather", "parse_task", "render_json", "render_manifest", "render_text",
]
__version__ = "0.1.0"
