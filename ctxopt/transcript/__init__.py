"""Agent transcripts that stay inside the context window.

Pure computation over message lists (OpenAI chat or Anthropic messages, detected per
transcript): token estimates including images (``estimate``, ``images``), compaction to
a target with fair shares for tool results (``compact``), the offline summary of what
was dropped (``summary``) and a window-restarting budget policy (``policy``). No
network, no model calls.
"""
from __future__ import annotations

from .compact import ALGORITHM, ALGORITHM_VERSION, CompactResult, Compaction, Cut, Window, compact
from .estimate import (Estimator, Usage, estimate_image, estimate_message, estimate_messages,
                       estimate_tool_schemas, family_for_model, split_usage)
from .policy import BudgetPolicy, Decision, PolicyConfig
from .shapes import ANTHROPIC, OPENAI, Transcript, build_units, detect_shape, load_transcript
from .summary import SummarizerCommand, extractive_summary

__all__ = ["ALGORITHM", "ALGORITHM_VERSION", "ANTHROPIC", "OPENAI", "BudgetPolicy", "Decision",
           "PolicyConfig", "CompactResult",
           "Compaction", "Cut", "Estimator", "SummarizerCommand", "Transcript", "Usage",
           "Window", "build_units", "compact", "detect_shape", "estimate_image",
           "estimate_message", "estimate_messages", "estimate_tool_schemas",
           "extractive_summary", "family_for_model", "load_transcript", "split_usage"]
