"""The errors of the persistent index."""
from __future__ import annotations

from typing import ClassVar

from ..errors import CtxoptError

__all__ = ["IndexStoreError", "NotAnIndexError"]


class IndexStoreError(CtxoptError):
    """The index database cannot be used (not a ctxopt index, unwritable, damaged)."""


class NotAnIndexError(IndexStoreError):
    """The index path given (``--index``, ``$CTXOPT_INDEX``) holds a file that is not a
    ctxopt index: bad input (exit 2); the file is left alone."""

    exit_code: ClassVar[int] = 2

