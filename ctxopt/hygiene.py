"""Input hygiene: what a hostile repository can hold, and how each case is made safe.

Called from discovery (links, nested repositories, binary, undecodable and secret files,
over-long lines), from the indexer (decoding before parsing, the parse time limit), from
the source reader (decoding and line splitting) and from the pipeline (redacting secrets,
escaping names that are not valid UTF-8). Everything that is skipped or degraded becomes a
``Diagnostic`` whose ``reason`` is one of the ``REASON_*`` keywords below; nothing here
prints.

Text coordinates: a file's text is its bytes decoded (a UTF-8 BOM dropped, UTF-16 and
UTF-32 with a BOM decoded, other bytes that are not UTF-8 replaced by U+FFFD). Lines end
at ``\\r\\n``, ``\\r`` or ``\\n``, as editors count them; form feeds, U+2028 and the other
characters ``str.splitlines`` also breaks on do not end a line. Lines are 1-indexed.
"""
from __future__ import annotations

import codecs
import errno
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .model import Block, Diagnostic, FileTags
from .secret_scan import redact_secrets, secret_file_kind
from .tokens import TokenCounter

__all__ = [
    "HygieneConfig", "Decoded", "REASONS", "decode_text", "decode_ignore_file", "split_lines",
    "normalize_newlines", "looks_binary", "check_link", "drop_duplicate_links",
    "is_nested_repository", "submodule_diagnostic",
    "inspect_file", "parse_source", "clean_blocks", "display_text",
    "DEFAULT_PARSE_TIMEOUT", "MAX_LINE_LENGTH",
]

REASON_BINARY = "binary"
REASON_BROKEN_LINK = "broken link"
REASON_DIRECTORY_LINK = "directory link"
REASON_DUPLICATE_LINK = "duplicate link"
REASON_LINK_LOOP = "link loop"
REASON_LINE_TOO_LONG = "line too long"
REASON_NOT_REGULAR = "not a regular file"
REASON_OUTSIDE_ROOT = "outside root"
REASON_PARSE_TIMEOUT = "parse timeout"
REASON_REPLACED = "decoded with replacement"
REASON_SECRET = "secret"
REASON_SUBMODULE = "submodule"
REASON_UNREADABLE = "unreadable"
REASONS = frozenset({REASON_BINARY, REASON_BROKEN_LINK, REASON_DIRECTORY_LINK, REASON_DUPLICATE_LINK,
                     REASON_LINK_LOOP, REASON_LINE_TOO_LONG, REASON_NOT_REGULAR,
                     REASON_OUTSIDE_ROOT, REASON_PARSE_TIMEOUT, REASON_REPLACED,
                     REASON_SECRET, REASON_SUBMODULE, REASON_UNREADABLE})

DEFAULT_PARSE_TIMEOUT = 5.0  # seconds; the largest real files we tried parse in under 1 s
# Longer lines are minified or generated data: useless context, and slow to parse.
MAX_LINE_LENGTH = 10_000
# Bytes read to decide whether a file is binary (git reads 8000 too).
_SNIFF_BYTES = 8000
# A text file has almost no control bytes besides \t \n \v \f \r and ESC.
_CONTROL_BYTES = bytes(set(range(32)) - {8, 9, 10, 11, 12, 13, 27}) + b"\x7f"
_MAX_CONTROL_SHARE = 0.1
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SURROGATE = re.compile("[\ud800-\udfff]")
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))


@dataclass(frozen=True, slots=True)
class HygieneConfig:
    """How strict the input hygiene is.

    ``parse_timeout`` is in seconds per file; ``max_line_length`` in characters.
    """

    allow_secrets: bool = False
    submodules: bool = False
    parse_timeout: float = DEFAULT_PARSE_TIMEOUT
    max_line_length: int = MAX_LINE_LENGTH

    def __post_init__(self) -> None:
        if not self.parse_timeout > 0:
            raise ValueError(f"parse_timeout must be positive, got {self.parse_timeout!r}")
        if self.max_line_length <= 0:
            raise ValueError(f"max_line_length must be positive, got {self.max_line_length!r}")


@dataclass(frozen=True, slots=True)
class Decoded:
    """A file's text, the encoding it was read with and how many bytes were replaced."""

    text: str
    encoding: str
    replaced: int = 0


def decode_text(data: bytes) -> Decoded:
    """Decode a file's bytes: BOMs first (UTF-8, UTF-16, UTF-32), else UTF-8.

    Bytes that do not decode become U+FFFD, one per byte, and are counted in
    ``replaced``. Never raises.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return Decoded(data.decode(encoding), encoding)
            except UnicodeDecodeError:
                text = data.decode(encoding, "replace")
                return Decoded(text, encoding, max(1, text.count("\ufffd")))
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        escaped = data.decode("utf-8", "surrogateescape")
        replaced = len(_SURROGATE.findall(escaped))
        return Decoded(_SURROGATE.sub("\ufffd", escaped), "utf-8", replaced)


def decode_ignore_file(data: bytes) -> str:
    """The text of a ``.gitignore``-style file, for matching against path names.

    A BOM is honoured (UTF-8, UTF-16, UTF-32); other bytes that are not UTF-8 are kept
    as surrogate escapes, which is how Python spells the same bytes in file names, so a
    Latin-1 pattern still matches the Latin-1 name it was written for (git compares
    bytes).
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding, "replace")
    return data.decode("utf-8", "surrogateescape")


def split_lines(text: str) -> list[str]:
    """``text`` split at ``\\r\\n``, ``\\r`` and ``\\n`` (as editors do), terminators dropped.

    A final terminator does not start another line: ``"a\\nb\\n"`` is two lines.
    """
    # the same split, faster, when there is no \r
    lines = text.split("\n") if "\r" not in text else _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def normalize_newlines(text: str) -> str:
    """``text`` with every ``\\r\\n`` and lone ``\\r`` replaced by ``\\n``.

    Tree-sitter counts rows at ``\\n`` only; parsing the normalized text makes its rows
    the lines of ``split_lines``.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n")


def looks_binary(sample: bytes) -> bool:
    """True when the first bytes of a file say it is not text.

    Text with a UTF-16 or UTF-32 BOM is text. Otherwise a NUL byte means binary (as for
    git), and so does a share of other control bytes above 10%.
    """
    sample = sample[:_SNIFF_BYTES]
    if any(sample.startswith(bom) for bom, _ in _BOMS):
        return False
    if b"\0" in sample:
        return True
    if not sample:
        return False
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return controls > _MAX_CONTROL_SHARE * len(sample)


def check_link(link: Path, rel: str, root: Path) -> Diagnostic | None:
    """None when the symbolic link ``link`` (at ``rel`` under the resolved ``root``) may
    be read: it resolves to a regular file inside the root. Otherwise why not.

    Links are never followed into directories: a link to a directory that contains it
    (``up -> ..``) is a ``link loop``, any other one a ``directory link`` (its files are
    indexed at their real path when that is inside the root).
    """
    try:
        target = link.resolve(strict=True)
    except RuntimeError:  # Python < 3.13 reports a loop so
        return Diagnostic(rel, REASON_LINK_LOOP)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Diagnostic(rel, REASON_LINK_LOOP)
        return Diagnostic(rel, REASON_BROKEN_LINK)
    if not target.is_relative_to(root):
        return Diagnostic(rel, REASON_OUTSIDE_ROOT, "the link points outside the root")
    if target.is_dir():
        where = target.relative_to(root).as_posix()
        if where == "." or rel == where or rel.startswith(where + "/"):
            return Diagnostic(rel, REASON_LINK_LOOP, f"points to {where if where != '.' else 'the root'}, which contains it")
        return Diagnostic(rel, REASON_DIRECTORY_LINK, f"not followed; {where} is indexed at its own path")
    if not target.is_file():
        return Diagnostic(rel, REASON_NOT_REGULAR)
    return None


def drop_duplicate_links(root: Path, files: list[str], links: set[str] | None = None
                         ) -> tuple[list[str], list[Diagnostic]]:
    """``files`` without the links to files that are themselves in ``files``.

    ``root`` is resolved; ``files`` are root-relative; ``links``: which of them are
    symbolic links, when the caller knows (else each file is checked). The real file is
    kept, so the same code is not indexed and emitted twice; each dropped link gets a
    ``duplicate link`` diagnostic naming the file it points to.
    """
    present = set(files)
    kept: list[str] = []
    diagnostics: list[Diagnostic] = []
    for rel in files:
        if links is not None and rel not in links:
            kept.append(rel)
            continue
        path = root / rel
        if path.is_symlink():
            try:
                target = path.resolve(strict=True).relative_to(root).as_posix()
            except (OSError, RuntimeError, ValueError):
                target = None
            if target is not None and target != rel and target in present:
                diagnostics.append(Diagnostic(rel, REASON_DUPLICATE_LINK, f"same file as {target}"))
                continue
        kept.append(rel)
    return kept, diagnostics


def is_nested_repository(directory: Path) -> bool:
    """True when ``directory`` is the work tree of a submodule or a nested repository
    (it holds a ``.git`` file or directory)."""
    return os.path.lexists(directory / ".git")


def submodule_diagnostic(rel: str) -> Diagnostic:
    """The one diagnostic for a skipped submodule or nested repository at ``rel``."""
    return Diagnostic(rel, REASON_SUBMODULE, "nested repository, not indexed (use --submodules)")


def inspect_file(path: Path, rel: str, config: HygieneConfig, *, data: bytes | None = None
                 ) -> tuple[bool, list[Diagnostic]]:
    """Read one discovered file (unless its bytes are given as ``data``) and decide
    whether to index it.

    Returns (keep, diagnostics). A file is dropped when its name or content says it
    holds credentials (unless ``config.allow_secrets``), when it cannot be read, when its
    content is binary, or when a line is longer than ``config.max_line_length``
    characters. A kept file may still carry a ``decoded with replacement`` diagnostic.
    """
    if path.name == ".git":  # a submodule's link to its git directory
        return False, []
    if not config.allow_secrets:
        kind = secret_file_kind(rel)
        if kind is not None:
            return False, [Diagnostic(rel, REASON_SECRET, kind)]
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            return False, [Diagnostic(rel, REASON_UNREADABLE, exc.strerror or str(exc))]
    if looks_binary(data):
        return False, [Diagnostic(rel, REASON_BINARY)]
    decoded = decode_text(data)
    if not config.allow_secrets:
        kind = secret_file_kind(rel, decoded.text)
        if kind is not None:
            return False, [Diagnostic(rel, REASON_SECRET, kind)]
    lengths = [len(line) for line in split_lines(decoded.text)]
    most = max(lengths, default=0)
    if most > config.max_line_length:
        longest = lengths.index(most)  # the first of the longest lines
        return False, [Diagnostic(rel, REASON_LINE_TOO_LONG,
                                  f"line {longest + 1} has {most} characters "
                                  f"(limit {config.max_line_length})")]
    if decoded.replaced:
        return True, [Diagnostic(rel, REASON_REPLACED,
                                 f"{decoded.replaced} bytes are not {decoded.encoding} "
                                 "and show as U+FFFD")]
    return True, []


def extract_tags(path: str, language: str, source: bytes, **options: Any) -> FileTags:
    """``treesitter.extract_tags``, imported on first use (tree-sitter loads slowly and a
    warm gather never parses)."""
    from .treesitter import extract_tags as extract

    return extract(path, language, source, **options)


def parse_source(path: str, language: str, data: bytes, config: HygieneConfig, *,
                 clock: Callable[[], float] = time.monotonic, text: str | None = None,
                 reference_tuples: bool = False) -> tuple[FileTags | None, list[Diagnostic]]:
    """Decode, normalize and parse one file within the time limit.

    ``text``: the file's text already decoded and normalized (``normalize_newlines(
    decode_text(data).text)``), when the caller has it; ``reference_tuples``: see
    ``treesitter.extract_tags``. Returns the file's tags (line
    numbers as ``split_lines`` counts them), or None and a ``parse timeout`` diagnostic
    when parsing took longer than ``config.parse_timeout`` seconds by ``clock``.
    """
    from .treesitter import ParseCancelled

    if text is None:
        text = normalize_newlines(decode_text(data).text)
    source = text.encode("utf-8")
    deadline = clock() + config.parse_timeout
    try:
        options: dict[str, Any] = {"reference_tuples": True} if reference_tuples else {}
        return extract_tags(path, language, source, should_stop=lambda: clock() > deadline,
                            **options), []
    except ParseCancelled:
        return None, [Diagnostic(path, REASON_PARSE_TIMEOUT,
                                 f"parsing took longer than {config.parse_timeout:g} s")]


def display_text(text: str) -> str:
    """``text`` made safe to print and to encode as UTF-8.

    Bytes that were not valid UTF-8 (Python's surrogate escapes, as in file names read
    from the file system) and control characters become ``\\xHH`` (two lowercase hex
    digits, the byte's value); other lone surrogates become ``\\uXXXX``. Valid text,
    including non-ASCII letters, is unchanged.
    """
    def escape(match: re.Match[str]) -> str:
        code = ord(match.group(0))
        if 0xDC80 <= code <= 0xDCFF:
            return f"\\x{code - 0xDC00:02x}"
        if code >= 0xD800:
            return f"\\u{code:04x}"
        return f"\\x{code:02x}"

    return _UNPRINTABLE.sub(escape, text)


def clean_blocks(blocks: list[Block], counter: TokenCounter, config: HygieneConfig
                 ) -> tuple[list[Block], list[Diagnostic]]:
    """Blocks ready to leave the machine: secrets redacted, paths made printable.

    The path, the reason and the symbols (which quote file and definition names) get
    ``display_text``'s escape.

    Each block whose content or signature holds a secret (see ``secret_scan``) gets it
    replaced by ``[REDACTED <type>]`` and its tokens recounted, with one ``secret``
    diagnostic per block naming the types and lines. ``config.allow_secrets`` turns
    redaction off. Order and line numbers are unchanged.
    """
    cleaned: list[Block] = []
    diagnostics: list[Diagnostic] = []
    for block in blocks:
        path = display_text(block.path)
        original = block.content
        reason = display_text(block.reason)
        symbols = tuple(display_text(s) for s in block.symbols)
        if (path, reason, symbols) != (block.path, block.reason, block.symbols):
            block = replace(block, path=path, reason=reason, symbols=symbols)
        if not config.allow_secrets:
            content, findings = redact_secrets(block.content)
            signature, signature_findings = redact_secrets(block.signature)
            if findings or signature_findings:
                block = replace(block, content=content, signature=signature,
                                tokens=counter.count(content))
                kinds = sorted({f.kind for f in findings + signature_findings})
                lines = sorted({block.start_line + original.count("\n", 0, f.start)
                                for f in findings})
                where = f" at line {', '.join(map(str, lines))}" if lines else " in a signature"
                diagnostics.append(Diagnostic(path, REASON_SECRET,
                                              f"{', '.join(kinds)} redacted{where}"))
        cleaned.append(block)
    return cleaned, diagnostics
