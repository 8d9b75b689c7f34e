"""The heading outline (pulldown-cmark through pyromark) against markdown-it-py.

forest-files parsed headings with markdown-it-py until the bulk-adoption
benchmark showed its block parse was half the cost of adopting 10,000 files.
The outline now comes from pulldown-cmark. This test pins what the switch kept:
both parsers give the same top-level headings (level, name, line) on every real
document we hold and on generated documents mixing every block construct that
decides whether a line is a heading. It also pins the three places where they
differ, so a parser upgrade that moves any of them is noticed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forest_files.text.markdown import front_matter_end, outline
from forest_files.text.normalise import LineIndex

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parents[1] / "data" / "madr-decisions"
_JOIN = re.compile(r"[ \t]*\n[ \t]*")

# Every block construct that can hide, make or end a heading. Left out on
# purpose, as the known differences pinned below: link reference definitions,
# one-column tables without pipes in the delimiter row, and lines straight
# after a table (every table here ends with a blank line).
FRAGMENTS = [
    "# H1\n",
    "## H2 ##\n",
    "### H3 #\n",
    "#NoSpace\n",
    "# Trailing \\#\n",
    "  ## Indented\n",
    "    # code\n",
    "\t# tab\n",
    "#\theading tab\n",
    "#\n",
    "## ##\n",
    "#    \n",
    "x\n  ### ###\n",
    "Setext\n===\n",
    "Two\nlines\n---\n",
    "Title\n-\n",
    "Foo\n    ===\n",
    "Foo\n= =\n",
    "Foo\n---  \n",
    "para\n",
    "para *em* `c`\n",
    "Para\n# interrupts\n",
    "Para\n    # lazy\n",
    "# é ünï *x*\n",
    "# a &amp; b\n",
    "# [link](x) \\\n",
    "\n",
    "\n\n",
    "```\n",
    "~~~\n",
    "   ```\n",
    "```py\n# inside\n```\n",
    "    indented\n",
    "<div>\n",
    "</div>\n",
    "<custom>\n",
    "<!--\n# c\n-->\n",
    "<pre>\n# x\n</pre>\n",
    "<script>\n# s\n</script>\n",
    "<?php\n# x\n?>\n",
    "<![CDATA[\n",
    "]]>\n",
    "> # quoted\n",
    "> para\n",
    "> lazy\ncontinued\n===\n",
    "- item\n",
    "- # item head\n",
    "- a\n\n  # in item\n",
    "  - nested\n",
    "1. one\n",
    "1) x\n",
    "+ y\n",
    "* z\n",
    "  continued\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
    "***\n",
    "---\n",
    "===\n",
]


def markdown_it_outline(text: str) -> list[tuple[int, str, int]]:
    """The outline as forest-files computed it with markdown-it-py (the reference),
    front matter masked first exactly as ``outline`` masks it."""
    from markdown_it import MarkdownIt

    lines = LineIndex(text)
    fm_end = front_matter_end(lines)
    if fm_end:
        text = "\n" * fm_end + text[lines.offset(fm_end + 1) :]

    md = MarkdownIt("commonmark").enable("table").disable(["inline", "text_join"])
    tokens = md.parse(text)
    return [
        (int(tok.tag[1:]), _JOIN.sub(" ", tokens[i + 1].content.strip()), tok.map[0] + 1)
        for i, tok in enumerate(tokens)
        if tok.type == "heading_open" and tok.level == 0 and tok.map is not None
    ]


def ours(text: str) -> list[tuple[int, str, int]]:
    return [(h.level, h.text, h.start_line) for h in outline(text)]


def test_real_documents_agree_accepted() -> None:
    corpus = sorted(CORPUS.glob("*.md"))
    assert len(corpus) >= 21, "the MADR corpus in tests/data is missing"
    docs = [*REPO.glob("*.md"), *REPO.glob("docs/*.md"), *corpus]
    for doc in docs:
        text = doc.read_text(encoding="utf-8")
        assert ours(text) == markdown_it_outline(text), doc


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=30))
def test_generated_documents_agree_accepted(parts: list[str]) -> None:
    text = "".join(parts)
    assert ours(text) == markdown_it_outline(text)


def test_non_ascii_lines_and_names_accepted() -> None:
    text = "ünï\n\n# Ça va *bien* #\n\nbody é\n\nDeux\n  lignes  \n===\n"
    assert ours(text) == [(1, "Ça va *bien*", 3), (1, "Deux lignes", 7)]
    assert ours(text) == markdown_it_outline(text)


@pytest.mark.parametrize(
    ("text", "pulldown", "markdown_it"),
    [
        # CommonMark 0.31: a link reference definition is taken from the start of
        # a paragraph, so the next line continues that paragraph (a type-7 HTML
        # line cannot interrupt one) and the ATX heading after it stands.
        ("[ref]: /url\n<custom>\n# Heading\n", [(1, "Heading", 3)], []),
        # A pipe-less delimiter row under a one-column row: a setext heading for
        # pulldown-cmark, a table for markdown-it-py. Write `| --- |` for a table.
        ("| x |\n---\n", [(2, "| x |", 1)], []),
        # GFM: a table runs to the first blank line or block start, so every
        # line here after the table's rows is a row too; markdown-it-py ends the
        # table at the indented line and finds a setext heading after it.
        ("| a | b |\n|---|---|\n| 1 | 2 |\nFoo\n    ===\nFoo\n---\n", [], [(2, "Foo", 6)]),
    ],
)
def test_known_differences_pinned_accepted(
    text: str, pulldown: list[tuple[int, str, int]], markdown_it: list[tuple[int, str, int]]
) -> None:
    assert ours(text) == pulldown
    assert markdown_it_outline(text) == markdown_it
