"""Input units (ctxopt.files, parsing.parse_text): decoding, line splitting, binary sniffing,
escapes, secrets, the parse time limit."""
import codecs

import pytest

from ctxopt.files.safety import HygieneConfig
from ctxopt.files.secrets import find_secrets, redact_secrets, secret_file_kind
from ctxopt.files.text import (decode_written, decode_text, display_text, looks_binary,
                               normalize_newlines, split_lines)
from ctxopt.model import Diagnostic
from ctxopt.parsing.parse import parse_text


@pytest.mark.parametrize(("text", "lines"), [
    ("a\nb\n", ["a", "b"]),
    ("a\r\nb\r\n", ["a", "b"]),
    ("a\rb\r", ["a", "b"]),
    ("a\r\rb", ["a", "", "b"]),
    ("a\n\r\nb", ["a", "", "b"]),
    ("a\u2028b\x0cc\x0bd\x85e\n", ["a\u2028b\x0cc\x0bd\x85e"]),  # editors do not break these
    ("", []),
    ("\n", [""]),
])
def test_split_lines_breaks_where_editors_do(text, lines) -> None:
    assert split_lines(text) == lines
    assert split_lines(normalize_newlines(text)) == lines
    assert "\r" not in normalize_newlines(text)


@pytest.mark.parametrize(("data", "text", "encoding", "replaced"), [
    (b"x = 1\n", "x = 1\n", "utf-8", 0),
    (codecs.BOM_UTF8 + b"x = '\xc3\xa9'\n", "x = 'é'\n", "utf-8-sig", 0),
    ("x = 'é'\n".encode("utf-16"), "x = 'é'\n", "utf-16", 0),
    (codecs.BOM_UTF16_BE + "x\n".encode("utf-16-be"), "x\n", "utf-16", 0),
    ("x\n".encode("utf-32"), "x\n", "utf-32", 0),
    (b"# caf\xe9 \xff\xfe\n", "# caf\ufffd \ufffd\ufffd\n", "utf-8", 3),
])
def test_decode_text(data, text, encoding, replaced) -> None:
    decoded = decode_text(data)
    assert (decoded.text, decoded.encoding, decoded.replaced) == (text, encoding, replaced)


def test_ignore_file_keeps_latin1_bytes_as_file_name_escapes() -> None:
    assert decode_written(b"caf\xe9.py\n") == "caf\udce9.py\n"
    assert decode_written(codecs.BOM_UTF8 + b"a.py\n") == "a.py\n"
    assert decode_written("a.py\r\n".encode("utf-16")) == "a.py\r\n"


@pytest.mark.parametrize(("sample", "binary"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", True),
    (b"def f():\n\treturn 1\n", False),
    ("def f(): pass\n".encode("utf-16"), False),
    (b"\x01\x02\x03\x04abcdef", True),  # 4 control bytes in 10
    (b"\x1b[31mred\x1b[0m and a form feed \x0c\n", False),
    (b"", False),
])
def test_looks_binary(sample, binary) -> None:
    assert looks_binary(sample) is binary


@pytest.mark.parametrize(("text", "shown"), [
    ("café/名前.py", "café/名前.py"),
    ("bad\udcffname.py", "bad\\xffname.py"),
    ("new\nline\t.py", "new\\x0aline\\x09.py"),
    ("lone \ud800", "lone \\ud800"),
    # (trial 14: a right-to-left override in a task was echoed raw in the header; a C1
    # CSI is a terminal's escape as ESC [ is)
    ("fix \u202eFind\u2066 \x9b2J", "fix \\u202eFind\\u2066 \\x9b2J"),
    # (review 32: zero-width characters hide text, U+2028 breaks a line)
    ("a\u200bb\ufeff c\u2028d", "a\\u200bb\\ufeff c\\u2028d"),
])
def test_display_text_escapes_what_utf8_cannot_carry(text, shown) -> None:
    assert display_text(text) == shown
    shown.encode("utf-8")


@pytest.mark.parametrize(("path", "text", "kind"), [
    (".env", None, "environment file"),
    ("config/.env.production", None, "environment file"),
    ("certs/server.pem", None, "key or certificate"),
    ("deploy/id_rsa", None, "SSH key"),
    ("deploy/id_ed25519.pub", None, "SSH key"),
    ("home/.aws/credentials", None, "cloud credentials"),
    ("gcp/service-account-prod.json", None, "cloud credentials"),
    (".npmrc", "//registry.npmjs.org/:_authToken=npm_abc\n", "npm token"),
    (".npmrc", "registry=https://registry.npmjs.org/\n", None),
    (".pypirc", "[pypi]\nusername = __token__\npassword = pypi-abc\n", "PyPI password"),
    (".pypirc", "[distutils]\nindex-servers = pypi\n", None),
    ("src/environment.py", None, None),
    ("src/keys.py", None, None),
])
def test_secret_file_kind(path, text, kind) -> None:
    assert secret_file_kind(path, text) == kind


PRIVATE_KEY = ("KEY = '''-----BEGIN RSA PRIVATE KEY-----\n"
               "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
               "-----END RSA PRIVATE KEY-----'''\n"
               "x = 1\n")


def test_private_key_is_redacted_whole_and_lines_are_kept() -> None:
    redacted, findings = redact_secrets(PRIVATE_KEY)
    assert redacted == "KEY = '''[REDACTED Private Key]\n\n'''\nx = 1\n"
    assert [(f.kind, f.start) for f in findings] == [("Private Key", 9)]


@pytest.mark.parametrize(("line", "redacted"), [
    ("aws = 'AKIAIOSFODNN7EXAMPLE'", "aws = '[REDACTED AWS Access Key]'"),
    ('gh = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"', 'gh = "[REDACTED GitHub Token]"'),
    ("slack = 'xoxb-123456789012-abcdefghij'", "slack = '[REDACTED Slack Token]'"),
    ("stripe = 'sk_live_abcdefghijklmnopqrstuvwx'", "stripe = '[REDACTED Stripe Access Key]'"),
    ("jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
     "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'", "jwt = '[REDACTED JSON Web Token]'"),
    ("url = 'https://user:hunter2@example.com/x'",
     "url = 'https://user:[REDACTED Basic Auth Credentials]@example.com/x'"),
    ('x = "glcbt-ab_abcdefghijklmnopqrstuvwxyz"', 'x = "[REDACTED GitLab Token]"'),
])
def test_tokens_are_redacted(line, redacted) -> None:
    assert redact_secrets(line)[0] == redacted


_AWS_SECRET = "9hT2abcdefghijklmnopqrstuvwxyzABCDEFGHV3"


@pytest.mark.parametrize(("line", "redacted"), [
    (f'export const aws_secret_access_key = "{_AWS_SECRET}"',
     'export const aws_secret_access_key = "[REDACTED AWS Access Key]"'),
    (f"aws_secret_access_key: '{_AWS_SECRET}'", "aws_secret_access_key: '[REDACTED AWS Access Key]'"),
    (f'{{"aws_secret_key": "{_AWS_SECRET}"}}', '{"aws_secret_key": "[REDACTED AWS Access Key]"}'),
    ("//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789",
     "//registry.npmjs.org/:_authToken=[REDACTED NPM tokens]"),
])
def test_only_the_value_of_a_named_secret_is_redacted(line, redacted) -> None:
    # trial 13: a detector whose pattern matches the name with the value (AWS's secret
    # key) had the name redacted too: `export const [REDACTED AWS Access Key]`
    assert redact_secrets(line)[0] == redacted


@pytest.mark.parametrize("text", [
    "def get_password(user):\n    return vault.read(user)\n",
    "sha = 'da39a3ee5e6b4b0d3255bfef95601890afd80709'\n",
    "uuid = '123e4567-e89b-12d3-a456-426614174000'\n",
    "special = '<|endoftext|>'\n",
])
def test_ordinary_code_is_not_a_secret(text) -> None:
    assert find_secrets(text) == []


def _ticking_clock(step: float):
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]
    return clock


def test_parse_time_limit_skips_the_file() -> None:
    text = "def f(x):\n    return x\n" * 2000  # long enough for tree-sitter to poll
    config = HygieneConfig(parse_timeout=2.5)
    parsed = parse_text("slow.py", "python", text, config, clock=_ticking_clock(1.0))
    assert parsed == Diagnostic("slow.py", "parse timeout", "parsing took longer than 2.5 s")
    # the parser was reset: the next file parses from its own start
    parsed = parse_text("ok.py", "python", "def g():\n    pass\n", config)
    assert [(d.name, d.start_line) for d in parsed.definitions] == [("g", 1)]


def test_hygiene_config_rejects_non_positive_limits() -> None:
    for timeout in (0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="parse_timeout must be positive"):
            HygieneConfig(parse_timeout=timeout)
    with pytest.raises(ValueError, match="max_line_length must be positive"):
        HygieneConfig(max_line_length=0)
