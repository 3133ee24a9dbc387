"""Secrets (pure, no IO): which files commonly hold credentials, and which text does.

File names are matched against ``SECRET_FILE_PATTERNS`` (``.env*``, ``*.pem``, ``id_rsa*``,
cloud credential files...). Text is scanned with the regex detectors of Yelp's
``detect-secrets`` (private key headers, AWS/Azure/GitHub/GitLab/Slack/Stripe/npm/PyPI/
OpenAI... tokens, passwords in URLs). Only the detectors' ``analyze_string`` is called:
it is a regular-expression search, so scanning never verifies a secret over the network.
detect-secrets' entropy and keyword detectors are left out: on source code they flag
hashes, test fixtures and every ``password = get_password()``.
"""
from __future__ import annotations

import fnmatch
import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..memo import memoized, module_fingerprint

__all__ = ["Finding", "SECRET_FILE_PATTERNS", "secret_file_kind", "content_decides", "find_secrets",
           "redact_secrets"]

# Matched against the file's name (fnmatch, case-insensitive) unless the pattern has a
# '/', then against the end of its repository-relative path.
SECRET_FILE_PATTERNS: tuple[tuple[str, str], ...] = (
    (".env", "environment file"), (".env.*", "environment file"), ("*.env", "environment file"),
    ("*.pem", "key or certificate"), ("*.key", "private key"), ("*.p12", "key store"),
    ("*.pfx", "key store"), ("*.jks", "key store"), ("*.keystore", "key store"),
    ("id_rsa*", "SSH key"), ("id_dsa*", "SSH key"), ("id_ecdsa*", "SSH key"),
    ("id_ed25519*", "SSH key"), ("*.ppk", "SSH key"),
    (".netrc", "credentials"), ("_netrc", "credentials"), (".git-credentials", "credentials"),
    (".htpasswd", "credentials"), (".pgpass", "credentials"),
    (".aws/credentials", "cloud credentials"), (".aws/config", "cloud credentials"),
    (".docker/config.json", "cloud credentials"), (".kube/config", "cloud credentials"),
    ("application_default_credentials.json", "cloud credentials"),
    ("credentials.json", "cloud credentials"), ("service-account*.json", "cloud credentials"),
    ("*.tfstate", "cloud credentials"), ("*.tfstate.backup", "cloud credentials"),
    (".azure/accesstokens.json", "cloud credentials"),
)
# Any name pattern (one expression, as fnmatch translates them), and the path patterns.
_SECRET_NAME = re.compile("|".join(fnmatch.translate(p) for p, _ in SECRET_FILE_PATTERNS
                                   if "/" not in p))
_SECRET_PATH_ENDS = tuple(p for p, _ in SECRET_FILE_PATTERNS if "/" in p)
# These hold a token only sometimes: they are secret when their text says so.
_TOKEN_FILES = {".npmrc": "npm token", ".yarnrc": "npm token", ".yarnrc.yml": "npm token",
                ".pypirc": "PyPI password", "pip.conf": "index password"}
_TOKEN_LINE = re.compile(
    r"(?im)^\s*(?:[^\s=:#;]*:)?_?(?:authtoken|auth|password|npmauthtoken|npmauthident)"
    r"\s*[=:]\s*\S|://[^/\s:@]+:[^/\s@]+@")

# detect-secrets detectors used on text (module, class); see the module docstring.
_DETECTORS = (
    ("private_key", "PrivateKeyDetector"), ("aws", "AWSKeyDetector"),
    ("azure_storage_key", "AzureStorageKeyDetector"), ("basic_auth", "BasicAuthDetector"),
    ("discord", "DiscordBotTokenDetector"), ("github_token", "GitHubTokenDetector"),
    ("gitlab_token", "GitLabTokenDetector"), ("jwt", "JwtTokenDetector"),
    ("mailchimp", "MailchimpDetector"), ("npm", "NpmDetector"), ("openai", "OpenAIDetector"),
    ("pypi_token", "PypiTokenDetector"), ("sendgrid", "SendGridDetector"),
    ("slack", "SlackDetector"), ("square_oauth", "SquareOAuthDetector"),
    ("stripe", "StripeDetector"), ("telegram_token", "TelegramBotTokenDetector"),
    ("twilio", "TwilioKeyDetector"),
)
_PRIVATE_KEY = "Private Key"
_PRIVATE_KEY_START = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|PuTTY-User-Key-File-\d")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=.")
_PRIVATE_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----")


@dataclass(frozen=True, slots=True)
class Finding:
    """A secret in a text: its detect-secrets type and its character span [start, end)."""

    kind: str
    start: int
    end: int


def content_decides(path: str) -> bool:
    """True when whether the file ``path`` holds credentials depends on its content
    (``.npmrc``, ``.pypirc``... with a token or password), not on its name alone."""
    return posixpath.basename(path.lower()) in _TOKEN_FILES


def secret_file_kind(path: str, text: str | None = None) -> str | None:
    """What kind of credentials a file's name says it holds, or None.

    ``path`` is repository-relative with ``/``. ``.npmrc``, ``.pypirc`` and similar
    configuration files count only when ``text`` (their content) holds a token or a
    password; without ``text`` they do not count.
    """
    lowered = path.lower()
    name = posixpath.basename(lowered)
    if not _SECRET_NAME.match(name) and not lowered.endswith(_SECRET_PATH_ENDS) \
            and name not in _TOKEN_FILES:
        return None  # the common case, decided by one match (the loop below says why)
    for pattern, kind in SECRET_FILE_PATTERNS:
        if "/" in pattern:
            if lowered == pattern or lowered.endswith("/" + pattern):
                return kind
        elif fnmatch.fnmatchcase(name, pattern):
            return kind
    token_kind = _TOKEN_FILES.get(name)
    if token_kind is not None and text is not None and _TOKEN_LINE.search(text):
        return token_kind
    return None


@lru_cache(maxsize=1)
def _detectors() -> tuple[Any, ...]:
    import importlib

    return tuple(getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)()
                 for module, name in _DETECTORS)


def find_secrets(text: str) -> list[Finding]:
    """Every secret the detectors find in ``text``, sorted by position (kept in the shared
    memo, ``memo.memoized``, so a text scanned before is not scanned again).

    A private key spans from its ``-----BEGIN ... PRIVATE KEY-----`` header to its
    ``-----END ...-----`` line (to the end of the text when that is missing); any other
    secret spans the value the detector reports (the token, the password of a URL).
    """
    kept = memoized(_memo_namespace(), text, lambda t: [(f.kind, f.start, f.end) for f in _scan(t)])
    return [Finding(*finding) for finding in kept]


@lru_cache(maxsize=1)
def _memo_namespace() -> str:
    """The memo namespace of findings: the files of detect-secrets and of this module."""
    return "-".join(("secrets", module_fingerprint("detect_secrets"), module_fingerprint(__name__)))


def _scan(text: str) -> list[Finding]:
    findings: list[Finding] = []
    offset = 0
    candidates = _denylist()
    for line in text.splitlines(keepends=True):
        if len(line) > 1 and any(ch.isalnum() for ch in line) \
                and any(pattern.search(line) for pattern in candidates):
            for detector in _detectors():
                findings.extend(_line_findings(detector, text, offset, line))
        offset += len(line)
    return sorted(set(findings), key=lambda f: (f.start, -f.end, f.kind))


@lru_cache(maxsize=1)
def _denylist() -> tuple[re.Pattern[str], ...]:
    """Every pattern of every detector's ``denylist``: a line none of them matches has no
    finding (``_line_findings`` reports only matches of these patterns), so its detectors
    need not run. Kept in the shared memo, so that scanning a new text (a file just
    edited) imports detect-secrets (a tenth of a second) only for a line that may hold a
    secret."""
    kept = memoized(_memo_namespace() + "-denylist", "denylist", lambda _: [
        (pattern.pattern, pattern.flags) for detector in _detectors() for pattern in detector.denylist])
    return tuple(re.compile(pattern, flags) for pattern, flags in kept)


def _line_findings(detector: Any, text: str, offset: int, line: str) -> list[Finding]:
    """The spans of one detector's hits on one line (``offset``: where the line starts).

    The detector's own ``analyze_string`` decides whether the line holds a secret (some
    detectors validate, e.g. a JWT must decode). The span is the value: from the start of
    the pattern's first group that matched (unless it starts inside a word), or of its
    whole match, to the token's end (past the match or the group while token characters
    go on: a token is redacted whole when the group is its prefix, GitHub's ``ghp``). So a
    name or URL the pattern matches around the value stays (AWS's
    ``aws_secret_access_key = "..."``, ``://user:...@``; trial 13: the name went with the
    value and broke the line).
    """
    values = [value for value in detector.analyze_string(line) if value]
    if not values:
        return []
    if detector.secret_type == _PRIVATE_KEY:
        header = _PRIVATE_KEY_START.search(line)
        if header is not None:
            end = _PRIVATE_KEY_END.search(text, offset + header.end())
            return [Finding(_PRIVATE_KEY, offset + header.start(), end.end() if end else len(text))]
    found = []
    for pattern in detector.denylist:
        for match in pattern.finditer(line):
            if match.end() > match.start() and any(v in match.group(0) for v in values):
                group = next((g for g in range(1, (match.lastindex or 0) + 1) if match.group(g)), 0)
                start, end = match.span(group)
                if line[start - 1:start].isalnum() or line[start - 1:start] in ("_", "-"):
                    start, end = match.span()  # the group is inside the token (GitLab's)
                # a pattern may stop short of the token's end (a JWT's signature)
                while end < len(line) and line[end - 1] in _TOKEN_CHARS and line[end] in _TOKEN_CHARS:
                    end += 1
                found.append(Finding(detector.secret_type, offset + start, offset + end))
    return found


def redact_secrets(text: str) -> tuple[str, list[Finding]]:
    """``text`` with every secret replaced by ``[REDACTED <type>]``, and the findings.

    Line breaks inside a redacted span are kept, so the text keeps its line count and
    every line after a secret keeps its number.
    """
    findings = find_secrets(text)
    if not findings:
        return text, []
    pieces = []
    position = 0
    for finding in findings:
        if finding.start < position:  # inside a span already redacted
            if finding.end > position:
                pieces.append("\n" * text.count("\n", position, finding.end))
                position = finding.end
            continue
        pieces.append(text[position:finding.start])
        pieces.append(f"[REDACTED {finding.kind}]")
        pieces.append("\n" * text.count("\n", finding.start, finding.end))
        position = finding.end
    pieces.append(text[position:])
    return "".join(pieces), findings
