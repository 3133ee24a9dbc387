"""Which files an update must read again although their bytes did not change: those whose
verdict depends on an option or attribute that is not in the index fingerprint.

The fingerprint (``schema.fingerprint``) covers what changes the tags of every file; a
change there rebuilds the index. These change the verdict on a few files only, so an
update re-checks just them:

- ``--allow-secrets``: files whose content decides whether they hold credentials
  (``files.secrets.content_decides``: ``.npmrc``...); credential files known by name are
  skipped before reading, on every run, so they need nothing;
- ``.gitattributes`` saying a file is not generated (``-linguist-generated``), which turns
  the generated-header rule off for it;
- ``--parse-timeout``: a file skipped for parsing too slowly is tried again under a higher
  limit (a lower limit keeps files already parsed: the limit guards against hangs, it
  does not select files).

The first two are recorded per file in ``meta`` (key ``rules``: {path: rules}, only for
files with any) so that a change either way is seen.
"""
from __future__ import annotations

import json
import re
import sqlite3

from ..discover import Candidate
from ..files.reasons import REASON_PARSE_TIMEOUT
from ..files.safety import HygieneConfig
from ..files.secrets import content_decides
from .schema import Transaction, read_meta

__all__ = ["file_rules", "stored_rules", "store_rules", "must_recheck"]

_TIMEOUT = re.compile(r"longer than ([0-9.e+-]+) s")


def file_rules(candidate: Candidate, config: HygieneConfig) -> str:
    """What the verdict on ``candidate`` depends on besides its bytes and the fingerprint,
    as a short string (``''`` for most files)."""
    rules = []
    if candidate.generated is False:
        rules.append("not generated")
    if config.allow_secrets and content_decides(candidate.path):
        rules.append("secrets allowed")
    return ",".join(rules)


def stored_rules(conn: sqlite3.Connection) -> dict[str, str]:
    """The ``file_rules`` the last update recorded, {path: rules}."""
    try:
        found = json.loads(read_meta(conn).get("rules", "{}"))
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def store_rules(conn: sqlite3.Connection, rules: dict[str, str]) -> None:
    """Record ``rules`` (only the non-empty ones) for the next update."""
    with Transaction(conn):
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('rules', ?)",
                     (json.dumps({p: r for p, r in sorted(rules.items()) if r}),))


def must_recheck(skip: str | None, detail: str, old_rules: str, new_rules: str,
                 config: HygieneConfig) -> bool:
    """Whether a file stored with ``skip`` and ``detail`` must be judged again."""
    if old_rules != new_rules:
        return True
    if skip == REASON_PARSE_TIMEOUT:
        limit = _TIMEOUT.search(detail)
        return limit is None or float(limit.group(1)) < config.parse_timeout
    return False
