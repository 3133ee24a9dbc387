"""Every exception ctxopt defines: one hierarchy of errors that abort a run (the CLI maps
each to an exit code through ``exit_code``), two signals that are not errors:
``ParseCancelled`` and ``Interrupted``, and the failures a caller turns into a fallback or
a diagnostic (``IndexDamaged``, ``NotebookError``, ``SummarizerFailed``).

Per-file problems (unreadable, binary, unparsable files) are not errors: they are
``Diagnostic`` records in the result.
"""
from __future__ import annotations

from typing import ClassVar

from .wording import counted


class CtxoptError(Exception):
    """Base class; ``exit_code`` is what the CLI exits with (1: runtime failure)."""

    exit_code: ClassVar[int] = 1


class UsageError(CtxoptError):
    """Bad input from the caller (empty task, missing root, bad budget): exit 2."""

    exit_code: ClassVar[int] = 2


class BudgetError(UsageError, ValueError):
    """A budget, window, reserve, share or calibration input that makes no sense (exit 2)."""


class BudgetTooSmall(UsageError):
    """The token budget cannot hold even the output header.

    Attributes
    ----------
    budget : int
        The budget asked for, in tokens.
    minimum : int
        The smallest budget that works, in tokens: it holds the header (and, through
        ``BudgetTooSmallForContent``, a block when the task found any).
    """

    def __init__(self, budget: int, minimum: int) -> None:
        super().__init__(
            f"budget of {counted(budget, 'token')} is too small for the output header "
            f"(at least {minimum} tokens needed)"
        )
        self.budget = budget
        self.minimum = minimum


class BudgetTooSmallForContent(BudgetTooSmall):
    """The token budget holds the output header but no block, in any form.

    Attributes
    ----------
    budget : int
        The budget asked for, in tokens.
    header : int
        Tokens the header takes (with every candidate excluded).
    smallest_block : int
        Tokens the smallest form of the fitter's first block (the best-ranked) needs (one
        line of a truncated block, a signature, or the whole block).
    minimum : int
        The smallest budget that shows a block (``header + smallest_block`` unless given:
        the header quotes the budget, so it can grow by a token on the way there).
    """

    def __init__(self, budget: int, header: int, smallest_block: int,
                 minimum: int | None = None) -> None:
        self.minimum = header + smallest_block if minimum is None else minimum
        UsageError.__init__(
            self,
            f"budget of {counted(budget, 'token')} is too small: the header takes {header} tokens and "
            f"the smallest block needs {smallest_block} (at least {self.minimum} tokens "
            "needed)"
        )
        self.budget = budget
        self.header = header
        self.smallest_block = smallest_block


class ConfigError(UsageError):
    """A configuration file (``.ctxopt.toml``, ``[tool.ctxopt]``) that cannot be read, is
    not TOML, or holds a bad setting: the message names the file and the line (exit 2)."""


class PatternError(UsageError, ValueError):
    """An ``--exclude`` pattern (or ``exclude`` setting) that can never match a path, as
    git reads gitignore patterns: ``[``, ``[z-a]``, a trailing ``\\`` (exit 2)."""


class GrammarError(CtxoptError):
    """A tag query in ``grammars/`` is missing or does not compile."""


class TranscriptError(UsageError, ValueError):
    """A transcript that cannot be read as OpenAI chat or Anthropic messages (exit 2):
    a message that is not an object, an unknown role, a tool result answering no call
    before it, or signals of both shapes at once."""


class EmptyTranscriptError(TranscriptError):
    """A transcript with no messages: there is nothing to compact (exit 2)."""


class NoObjectiveError(TranscriptError):
    """A transcript without a user message: compaction keeps the first one (the
    objective) whatever it costs, so there must be one (exit 2)."""


class CompactionSettingsError(UsageError, ValueError):
    """Compaction or budget-policy settings that make no sense (exit 2).

    Attributes
    ----------
    setting : str
        The setting at fault (``trigger_percent``, ``target_percent``, ``target_tokens``,
        ``recent_tail``, ``preserve``, ``work_room``...).
    """

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(message)
        self.setting = setting


class RetentionTooLargeError(UsageError):
    """The messages compaction must keep (system messages, the objective and the
    preserved tools' calls and results) alone exceed the budget (exit 2).

    Attributes
    ----------
    retained : int
        Tokens of the retention set (with the tool schemas and the Anthropic system).
    budget : int
        The window's budget (``max_tokens - reserve``), in tokens.
    marker : int
        Tokens of the shortest marker for the dropped messages, when the retention set
        fits the budget without it (else 0).
    """

    def __init__(self, retained: int, budget: int, *, marker: int = 0) -> None:
        kept = "the messages that must be kept (system, objective, preserved tools)"
        if marker:
            message = (f"{kept} take {retained} tokens and the shortest marker for the dropped "
                       f"ones {marker} more: {retained + marker}, more than the budget of "
                       f"{budget}")
        else:
            message = f"{kept} take {retained} tokens, more than the budget of {budget}"
        super().__init__(message)
        self.retained = retained
        self.budget = budget
        self.marker = marker


class CalibrationError(CtxoptError):
    """The calibration file could not be written (exit 1); the old file is left as it was."""


class IndexStoreError(CtxoptError):
    """The index database cannot be used (unwritable, damaged, failing): exit 3, apart
    from 1 (nothing found) so that scripts can tell a broken index from an empty answer."""

    exit_code: ClassVar[int] = 3


class IndexMovedAside(IndexStoreError):
    """A query found ctxopt's own index damaged and moved it aside: the next open rebuilds
    it (``pipeline.prepare`` does so at once; exit 3 when it comes out)."""


class NotAnIndexError(IndexStoreError):
    """The index path given (``--index``, ``$CTXOPT_INDEX``) holds a file that is not a
    ctxopt index: bad input (exit 2); the file is left alone."""

    exit_code: ClassVar[int] = 2


class IndexDamaged(Exception):
    """The database at ctxopt's own index location is not an index or is corrupt: the
    store moves it aside and rebuilds (never raised out of ``store.open_index``)."""


class NotebookError(ValueError):
    """The bytes are not a notebook ctxopt can read (bad JSON, no cells): the notebook
    becomes a diagnostic (``files.notebook``)."""


class SummarizerFailed(Exception):
    """A summarizer command failed, timed out or printed nothing: compaction falls back to
    the offline summary (``transcript.summary.SummarizerCommand``)."""


class ParseCancelled(Exception):
    """The parser was asked to give up on a file (its time limit passed): not a run
    failure, the file becomes a ``parse timeout`` diagnostic."""


class Interrupted(Exception):
    """Ctrl-C during a command, raised by the CLI in place of ``KeyboardInterrupt`` (which
    click would turn into ``Abort`` after printing a blank line): exit 130."""
