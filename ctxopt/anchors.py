"""The sections of Markdown documents that URL anchors name (pure).

A task may point at a section of a document by a link's anchor: an exception message's
``https://github.com/google/gson/blob/main/Troubleshooting.md#unexpected-json-structure``.
``section_lines`` finds the lines of that section, as GitHub names the headings of Markdown
(its "anchor" of a heading: the text lower-cased, HTML tags and punctuation other than
``-`` and ``_`` dropped, spaces made ``-``, a repeated one numbered ``-1``, ``-2``...), or
by an explicit HTML anchor (``<a name="x">``, ``id="x"``).
"""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote

__all__ = ["DOCUMENT_EXTENSIONS", "section_lines"]

# The extensions of the documents whose anchors name sections: those a task's path is
# read with (``task._CODE_EXTENSIONS``) and whose headings ``section_lines`` reads.
DOCUMENT_EXTENSIONS = frozenset({"md"})

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# (bounded: a long line of ``<a `` made the unbounded pattern backtrack for seconds)
_HTML_ANCHOR = re.compile(r"""<a\s[^>]{0,500}?\bname=["']([^"']+)["']|(?<![\w-])id=["']([^"']+)["']""")
# A line that cannot be a setext heading's text: a list item, a quote, a table's rule
_NOT_A_TITLE = re.compile(r"^ {0,3}(?:[-*+>|]|\d{1,9}[.)])(?:[ \t]|$)")
_TAG = re.compile(r"<[^>\n]{0,500}>")
_INLINE_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def _github_slug(text: str) -> str:
    """GitHub's anchor of a heading's text (letters and marks of every script kept)."""
    text = _INLINE_LINK.sub(r"\1", _TAG.sub("", text)).strip().lower()
    kept = "".join(c for c in text if c in "-_ " or unicodedata.category(c)[0] in "LMN")
    return kept.replace(" ", "-")


def _plain_slug(text: str) -> str:
    """A looser anchor: each run of other than ASCII letters and digits one ``-`` (what
    other renderers, and hand-written links, often use)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line, level, text) of each heading, 1-indexed lines, in order: ATX (``## x``) and
    setext (``x`` over ``---``) headings outside fenced code and a leading front matter."""
    found: list[tuple[int, int, str]] = []
    fence: str | None = None  # the open fence's characters
    start = _front_matter_end(lines)
    for i in range(start, len(lines)):
        line = lines[i]
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence) \
                    and not line.strip()[len(opened.group(1)):].strip():
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        atx = _ATX.match(line)
        if atx:
            found.append((i + 1, len(atx.group(1)), atx.group(2) or ""))
            continue
        title = lines[i - 1] if i > start else ""
        if (_SETEXT.match(line) and title.strip() and not _NOT_A_TITLE.match(title)
                and not _ATX.match(title) and not _FENCE.match(title)
                and not (found and found[-1][0] == i)):
            found.append((i, 1 if line.strip()[0] == "=" else 2, title.strip()))
    return found


def _front_matter_end(lines: list[str]) -> int:
    """The index of the first line after a leading ``---`` front matter block, else 0."""
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def section_lines(text: str, anchor: str) -> tuple[int, int] | None:
    """The lines (1-indexed, inclusive) of the section of the Markdown ``text`` that the
    link anchor ``anchor`` (percent-encoded or not) names: from its heading to the line
    before the next heading of its level or above, blank lines at the end left out, or to
    the end. An explicit HTML anchor names the section of the heading it is in or stands
    just above (only blank lines between), else its own line to the next heading. None
    when no heading or anchor has that name. Case is ignored."""
    wanted = unquote(anchor).strip().lower()
    if not wanted:
        return None
    lines = text.split("\n")
    headings = _headings(lines)
    seen: dict[str, int] = {}
    for position, (line, _, title) in enumerate(headings):
        slug = _github_slug(title)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        if wanted in (slug if not count else f"{slug}-{count}", _plain_slug(title)):
            return _section(lines, headings, position)
    for i, text_line in enumerate(lines):
        for match in _HTML_ANCHOR.finditer(text_line):
            if (match.group(1) or match.group(2) or "").lower() != wanted:
                continue
            below = next((p for p, (line, _, _) in enumerate(headings) if line >= i + 1), None)
            if below is not None and all(not lines[k].strip() or k == i
                                         for k in range(i, headings[below][0] - 1)):
                return _section(lines, headings, below)
            end = headings[below][0] - 1 if below is not None else len(lines)
            return i + 1, max(i + 1, _last_text_line(lines, end))
    return None


def _section(lines: list[str], headings: list[tuple[int, int, str]], position: int
             ) -> tuple[int, int]:
    """The lines of the section the ``position``-th heading opens."""
    line, level, _ = headings[position]
    end = next((other - 1 for other, other_level, _ in headings[position + 1:]
                if other_level <= level), len(lines))
    return line, max(line, _last_text_line(lines, end))


def _last_text_line(lines: list[str], end: int) -> int:
    """``end`` moved up past the blank lines above it (1-indexed)."""
    while end > 1 and not lines[end - 1].strip():
        end -= 1
    return end
