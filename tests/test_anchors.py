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


def test_restructured_text_and_html_anchors() -> None:
    rst = "Title\n=====\n\nUsage notes\n-----------\n\ntext\n\nOther part\n----------\nx\n"
    assert section_lines(rst, "usage-notes", rst=True) == (4, 7)
    assert section_lines(rst, "other-part", rst=True) == (9, 11)
    html = "<h1>Guide</h1>\n<p>a</p>\n<a name=\"retries\"></a>\n<p>b</p>\n# Next\n"
    assert section_lines(html, "retries") == (3, 4)


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
    assert "section" not in line.stdout
