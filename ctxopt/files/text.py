"""Text of a file: decoding, line splitting and escaping for display (pure, no IO).

Text coordinates: a file's text is its bytes decoded (a UTF-8 BOM dropped, UTF-16 and
UTF-32 with a BOM decoded, other bytes that are not UTF-8 replaced by U+FFFD). Lines end
at ``\\r\\n``, ``\\r`` or ``\\n``, as editors count them; form feeds, U+2028 and the other
characters ``str.splitlines`` also breaks on do not end a line. Lines are 1-indexed.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

__all__ = ["Decoded", "decode_text", "decode_written", "split_lines", "normalize_newlines",
           "looks_binary", "display_text", "display_lines", "without_invisible", "SNIFF_BYTES"]

# Bytes read to decide whether a file is binary (git reads 8000 too).
SNIFF_BYTES = 8000
# A text file has almost no control bytes besides \t \n \v \f \r and ESC.
_CONTROL_BYTES = bytes(set(range(32)) - {8, 9, 10, 11, 12, 13, 27}) + b"\x7f"
_MAX_CONTROL_SHARE = 0.1
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SURROGATE = re.compile("[\ud800-\udfff]")
# (with C1 controls, ``\x9b`` is a terminal's CSI as ``\x1b[`` is, and the bidirectional
# formatting characters, which reorder what a terminal or a reviewer sees: trial 14's
# U+202E in a task was echoed raw in the header; the zero-width characters hide text as
# they do, and U+2028 and U+2029 break a line for str.splitlines and some editors: review 32)
# The bidirectional and zero-width formatting characters and the byte order mark: they
# change how text looks, not what it says
_FORMATTING = "\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff"
_UNPRINTABLE = re.compile(f"[\x00-\x1f\x7f-\x9f{_FORMATTING}\u2028\u2029\ud800-\udfff]")
# Whitespace other than a line break: a tab of a pasted Java stack trace is a space in a task
_INLINE_SPACE = re.compile("[\t\v\f]")
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))


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


def decode_written(data: bytes) -> str:
    """Text a person wrote into a file or a pipe (a ``.gitignore``, a task): a BOM is
    honoured (UTF-8, UTF-16 as Windows PowerShell's ``>`` writes it, UTF-32), and other
    bytes that are not UTF-8 are kept as surrogate escapes, as Python spells them in file
    names and command-line arguments (``display_text`` shows them as ``\\xHH``), so a
    Latin-1 ``.gitignore`` pattern still matches the Latin-1 name it was written for (git
    compares bytes). Never raises."""
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
    sample = sample[:SNIFF_BYTES]
    if any(sample.startswith(bom) for bom, _ in _BOMS):
        return False
    if b"\0" in sample:
        return True
    if not sample:
        return False
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return controls > _MAX_CONTROL_SHARE * len(sample)


def display_text(text: str) -> str:
    """``text`` made safe to print and to encode as UTF-8.

    Bytes that were not valid UTF-8 (Python's surrogate escapes, as in file names read
    from the file system) and control characters (C0, DEL and C1) become ``\\xHH`` (two
    lowercase hex digits, the byte's value); other lone surrogates, the bidirectional
    formatting characters (U+202E, U+2066...), the zero-width ones (U+200B-U+200D, U+FEFF)
    and the line and paragraph separators (U+2028, U+2029) become ``\\uXXXX``. Other valid text,
    including non-ASCII letters, is unchanged.
    """
    def escape(match: re.Match[str]) -> str:
        code = ord(match.group(0))
        if 0xDC80 <= code <= 0xDCFF:
            return f"\\x{code - 0xDC00:02x}"
        if code >= 0x100:
            return f"\\u{code:04x}"
        return f"\\x{code:02x}"

    return _UNPRINTABLE.sub(escape, text)


# ``_FORMATTING``, and the word joiner and invisible operators (U+2060-U+2065)
_INVISIBLE = re.compile(f"[{_FORMATTING}\u2060-\u2065]")


def without_invisible(text: str) -> str:
    """``text`` as it reads: without its invisible formatting characters (``_INVISIBLE``:
    a zero-width space pasted from a web page, a right-to-left override), its line and
    paragraph separators (U+2028, U+2029) line breaks. What a task is searched by:
    ``display_text`` shows those characters as ``\\uXXXX``, which would be words.

    >>> without_invisible("fix Store\\u200b.get\\u2028now")
    'fix Store.get\\nnow'
    """
    return _INVISIBLE.sub("", text).replace("\u2028", "\n").replace("\u2029", "\n")


def display_lines(text: str) -> str:
    """Text typed or pasted by a person (a task), made safe to print, its lines kept.

    Line breaks (``\\r\\n``, ``\\r``, ``\\n``) become ``\\n`` and tabs, vertical tabs and
    form feeds become spaces: they are layout, not content, so a task file saved with
    Windows line endings or a stack trace indented with tabs reads as its words. Every other
    character is as ``display_text`` leaves it.
    """
    lines = normalize_newlines(text).split("\n")
    return "\n".join(display_text(_INLINE_SPACE.sub(" ", line)) for line in lines)
