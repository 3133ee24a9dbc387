"""One hierarchy of errors that abort a run; the CLI maps each to an exit code.

Per-file problems (unreadable, binary, unparsable files) are not errors: they are
``Diagnostic`` records in the result.
"""
from __future__ import annotations

from typing import ClassVar


class CtxoptError(Exception):
    """Base class; ``exit_code`` is what the CLI exits with (1: runtime failure)."""

    exit_code: ClassVar[int] = 1


class UsageError(CtxoptError):
    """Bad input from the caller (empty task, missing root, bad budget): exit 2."""

    exit_code: ClassVar[int] = 2


class BudgetTooSmall(UsageError):
    """The token budget cannot hold even the output header.

    Attributes
    ----------
    budget : int
        The budget asked for, in tokens.
    minimum : int
        The smallest budget that holds the header, in tokens.
    """

    def __init__(self, budget: int, minimum: int) -> None:
        super().__init__(
            f"budget of {budget} tokens is too small for the output header "
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
        Tokens the smallest form of the cheapest candidate needs (one line of a truncated
        block, a signature, or the whole block).
    minimum : int
        ``header + smallest_block``: about the smallest budget that shows something.
    """

    def __init__(self, budget: int, header: int, smallest_block: int) -> None:
        UsageError.__init__(
            self,
            f"budget of {budget} tokens is too small: the header takes {header} tokens and "
            f"the smallest block needs {smallest_block}"
        )
        self.budget = budget
        self.header = header
        self.smallest_block = smallest_block
        self.minimum = header + smallest_block


class GrammarError(CtxoptError):
    """A tag query in ``grammars/`` is missing or does not compile."""
