"""Why a file was skipped or degraded: the one table of ``Diagnostic.reason`` keywords.

Each keyword is printed as is (stderr summary, JSON ``diagnostics``, ``ctxopt index``), so
the values are part of the output format; code names them through these constants.
"""
from __future__ import annotations

__all__ = ["REASONS"]  # and the REASON_* constants

# discovery: the name rules and the content rules (discover.py)
REASON_VENDORED = "vendored"
REASON_BUILD_OUTPUT = "build output"
REASON_TOO_LARGE = "too large"
REASON_GENERATED = "generated"
REASON_MINIFIED = "minified"
REASON_NOT_CHECKED_OUT = "not checked out"  # outside a sparse checkout
REASON_EXCLUDED = "excluded"  # by --exclude or a .ctxoptignore (kept apart by the index)
# input safety (files.safety): what a hostile repository can hold
REASON_BINARY = "binary"
REASON_BROKEN_LINK = "broken link"
REASON_DIRECTORY_LINK = "directory link"
REASON_DUPLICATE_LINK = "duplicate link"
REASON_LINK_LOOP = "link loop"
REASON_LINE_TOO_LONG = "line too long"
REASON_NOT_REGULAR = "not a regular file"
REASON_OUTSIDE_ROOT = "outside root"
REASON_REPLACED = "decoded with replacement"
REASON_SECRET = "secret"
REASON_SUBMODULE = "submodule"
REASON_UNREADABLE = "unreadable"
# parsing (parsing.parse_file)
REASON_PARSE_TIMEOUT = "parse timeout"
REASON_UNPARSABLE = "unparsable"
REASON_NOTEBOOK_LANGUAGE = "notebook language"
# the index (store): its own database was damaged and rebuilt
REASON_DAMAGED_INDEX = "damaged index"

REASONS = frozenset(value for name, value in list(globals().items())
                    if name.startswith("REASON_") and isinstance(value, str))
