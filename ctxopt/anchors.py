"""The sections of documentation files that URL anchors name (pure).

A task may point at a section of a document by a link's anchor: an exception message's
``https://github.com/google/gson/blob/main/Troubleshooting.md#unexpected-json-structure``.
``section_lines`` finds the lines of that section, as GitHub names the headings of Markdown
(its "anchor" of a heading: the text lower-cased, punctuation other than ``-`` and ``_``
dropped, spaces made ``-``, a repeated one numbered ``-1``, ``-2``...) and docutils those of
reStructuredText (lower-cased, each run of other characters one ``-``), plus explicit HTML
anchors (``<a name="x">``, ``id="x"``).
"""
from __future__ import annotations

import re

__all__ = ["DOCUMENT_EXTENSIONS", "section_lines"]

# The extensions of the documents whose anchors name sections.
DOCUMENT_EXTENSIONS = frozenset({"md", "markdown", "mdx", "rst", "adoc", "html", "htm"})

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_HTML_ANCHOR = re.compile(r"""<a\s[^>]*\bname=["']([^"']+)["']|\bid=["']([^"']+)["']""")
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+:.<>_])\1{2,}[ \t]*$")
# What GitHub drops from a heading's text to make its anchor: all but letters, digits,
# spaces, ``-`` and ``_``
_NOT_SLUG = re.compile(r"[^\w\- ]")
_INLINE_MARKUP = re.compile(r"[`*]|\[([^\]]*)\]\([^)]*\)")


def _github_slug(text: str) -> str:
    text = _INLINE_MARKUP.sub(lambda m: m.group(1) or "", text)
    return _NOT_SLUG.sub("", text.strip().lower()).replace(" ", "-")


def _docutils_slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.strip().lower()).strip("-")


def _headings(lines: list[str], rst: bool) -> list[tuple[int, int, str]]:
    """(line, level, text) of each heading, 1-indexed lines, in order: Markdown's ATX and
    setext headings outside fenced code, or (``rst``) reStructuredText's underlined titles,
    levels by the order their underline characters first appear, as docutils reads them."""
    found: list[tuple[int, int, str]] = []
    rst_levels: dict[str, int] = {}
    fenced = False
    for i, line in enumerate(lines):
        if not rst and _FENCE.match(line):
            fenced = not fenced
            continue
        atx = None if rst or fenced else _ATX.match(line)
        if atx:
            found.append((i + 1, len(atx.group(1)), atx.group(2) or ""))
            continue
        title = lines[i - 1].strip() if i else ""
        if fenced or not title or (not rst and _ATX.match(lines[i - 1])):
            continue
        if not rst and _SETEXT.match(line):
            found.append((i, 1 if line.strip()[0] == "=" else 2, title))
        elif rst and _RST_UNDERLINE.match(line) and len(line.strip()) >= len(title):
            level = rst_levels.setdefault(line.strip()[0], len(rst_levels) + 1)
            found.append((i, level, title))
    return found


def section_lines(text: str, anchor: str, *, rst: bool = False) -> tuple[int, int] | None:
    """The lines (1-indexed, inclusive) of the section of the document ``text`` that the
    link anchor ``anchor`` names: from its heading to the line before the next heading of
    its level or above (blank lines at the end left out), or to the end; an explicit HTML
    anchor's line to the next heading. ``rst``: the text is reStructuredText, else
    Markdown (or HTML). None when no heading or anchor has that name. Case is ignored."""
    wanted = anchor.strip().lower()
    if not wanted:
        return None
    lines = text.split("\n")
    headings = _headings(lines, rst)
    seen: dict[str, int] = {}
    for position, (line, level, title) in enumerate(headings):
        slug = _github_slug(title)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        names = {slug if not count else f"{slug}-{count}", _docutils_slug(title)}
        if wanted in names:
            end = next((other - 1 for other, other_level, _ in headings[position + 1:]
                        if other_level <= level), len(lines))
            return line, max(line, _last_text_line(lines, end))
    for i, text_line in enumerate(lines):
        for match in _HTML_ANCHOR.finditer(text_line):
            if (match.group(1) or match.group(2) or "").lower() == wanted:
                end = next((other - 1 for other, _, _ in headings if other > i + 1), len(lines))
                return i + 1, max(i + 1, _last_text_line(lines, end))
    return None


def _last_text_line(lines: list[str], end: int) -> int:
    """``end`` moved up past the blank lines above it (1-indexed)."""
    while end > 1 and not lines[end - 1].strip():
        end -= 1
    return end
