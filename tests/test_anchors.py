"""The sections that documentation links' anchors name (``ctxopt.anchors``)."""
from __future__ import annotations

import pytest

from ctxopt.anchors import section_lines
from ctxopt.cli import main

GUIDE = """# Troubleshooting

Intro.

## Unexpected JSON structure

**Symptom:** an exception.

```
## not a heading: code
```

## `ClassCastException` when using [the object](x.md)

Text.
### Sub section
More.

Setext title
------------

## Unexpected JSON structure

The same title again.
"""


@pytest.mark.parametrize(("anchor", "lines"), [
    ("unexpected-json-structure", (5, 11)),  # to the line before the next heading at its level
    ("Unexpected-JSON-Structure", (5, 11)),  # (case is ignored)
    ("classcastexception-when-using-the-object", (13, 17)),  # markup dropped, sub-sections kept
    ("sub-section", (16, 17)),
    ("setext-title", (19, 20)),  # (a section of its title alone)
    ("unexpected-json-structure-1", (22, 24)),  # a repeated title is numbered, as GitHub does
    ("troubleshooting", (1, 24)),
])
def test_a_markdown_anchor_names_its_section(anchor, lines) -> None:
    assert section_lines(GUIDE, anchor) == lines


def test_no_section_for_an_unknown_anchor_or_a_heading_in_code() -> None:
    assert section_lines(GUIDE, "no-such-section") is None
    assert section_lines(GUIDE, "not-a-heading-code") is None
    assert section_lines(GUIDE, "") is None


def test_html_anchors_name_the_section_of_their_heading() -> None:
    # review 38: an anchor just above its heading (a table of contents' target) named only
    # its own line
    doc = ('# Guide\n\n<a name="retry-policy"></a>\n\n## Retries\n\nback off\n\n'
           '## <a id="limits"></a>Limits\n\nten\n### Per host\nfive\n\n## End\n')
    assert section_lines(doc, "retry-policy") == (5, 7)
    assert section_lines(doc, "limits") == (9, 13)  # with its sub-section
    free = '# Guide\n\ntext\n<p id="notes">a</p>\nb\n\n# Next\n'
    assert section_lines(free, "notes") == (4, 5)
    assert section_lines('<div data-id="notes">\n', "notes") is None


def test_what_is_no_heading_ends_no_section() -> None:
    # review 38: a list item over `---`, a fence closed by another fence's characters and
    # front matter were read as headings
    doc = ("---\ntitle: x\n---\n# Usage\n\n- item one\n---\n\n```\n~~~\n"
           "# a comment in code\n```\n\nmore\n\n# Next\n")
    assert section_lines(doc, "usage") == (4, 14)
    assert section_lines(doc, "title-x") is None


def test_anchor_spellings() -> None:
    doc = "# Über uns\n\na\n\n# Step 1: Install! <code>x</code>\n\nb\n"
    assert section_lines(doc, "über-uns") == (1, 3)
    assert section_lines(doc, "%C3%BCber-uns") == (1, 3)  # percent-encoded, as URLs carry it
    assert section_lines(doc, "uber-uns") == (1, 3)  # the plain spelling of other renderers
    assert section_lines(doc, "step-1-install-x") == (5, 7)  # a tag's text kept, not the tag


def test_a_task_linking_a_section_of_a_guide_shows_that_section(make_repo, runner) -> None:
    # trial 38: gson's exception messages link Troubleshooting.md#unexpected-json-structure,
    # and the guide was shown from its top (3,785 of 8,000 tokens)
    intro = "\n".join(f"Intro line {i} about other things." for i in range(200))
    root = make_repo({
        "Troubleshooting.md": f"# Troubleshooting\n\n{intro}\n\n## Unexpected JSON structure\n\n"
                              "Use the type the JSON holds.\n\n## Other\n\nmore\n",
        "Reader.java": "class Reader {\n  void beginObject() {\n  }\n}\n"})
    task = ("JsonSyntaxException: Expected BEGIN_OBJECT. See https://github.com/google/gson/"
            "blob/main/Troubleshooting.md#unexpected-json-structure")
    result = runner.invoke(main, ["gather", task, "--root", str(root), "--budget", "400",
                                  "--format", "manifest"])
    assert result.exit_code == 0, result.output
    rows = [line.split("\t") for line in result.stdout.splitlines() if not line.startswith("#")]
    guide = [row for row in rows[1:] if row[0] == "Troubleshooting.md"]
    start, end = map(int, guide[0][3].split("-"))  # (a line or two of context above it)
    assert 200 <= start <= 204 and end == 206 and guide[0][4] == "full", guide
    assert guide[0][6].startswith("section unexpected-json-structure of Troubleshooting.md")
    # a line anchor stays a place, not a section
    line = runner.invoke(main, ["gather", "see Troubleshooting.md#L3", "--root", str(root),
                                "--budget", "400", "--format", "manifest"])
    assert line.exit_code == 0 and "Troubleshooting.md" in line.stdout
    assert "section" not in line.stdout


def test_a_link_s_anchor_picks_the_document_holding_the_section(make_repo, runner) -> None:
    # review 38: a link to docs/README.md#install seeded every README.md of the tree
    root = make_repo({"README.md": "# Project\n\n" + "About it.\n" * 40,
                      "docs/README.md": "# Docs\n\n## Install\n\npip install it\n",
                      "app.py": "def main():\n    pass\n"})
    result = runner.invoke(main, ["gather", "see https://x.org/blob/main/docs/README.md#install",
                                  "--root", str(root), "--format", "manifest"])
    assert result.exit_code == 0, result.output
    rows = [line.split("\t") for line in result.stdout.splitlines()[4:]]
    first = [row for row in rows if row[0].endswith("README.md")][0]
    assert first[0] == "docs/README.md" and first[3].endswith("-5")
    assert first[6].startswith("section install of docs/README.md")
    assert "README.md" not in [row[0] for row in rows if row[6].startswith("file ")]
