"""``code_span`` read back by a CommonMark parser (markdown-it-py): exactly the text,
for any run of backquotes in it, at either end, or spaces at both ends."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from forest_files.text.codespan import code_span

TEXTS = [
    "forest check",
    "forest rebind 'a`b.md#X' 'c``d.md#X'",
    "`lead.md#X",
    "trail.md#X`",
    "``",
    "`",
    " padded both ",
    " lead only",
    "a ``` b `` c",
    "|pipe| and \\ backslash",
]


@pytest.mark.parametrize("text", TEXTS)
def test_code_span_of_backquoted_text_reads_back_exact_accepted(text: str) -> None:
    line = f"run {code_span(text)} then"
    (inline,) = MarkdownIt().parseInline(line)
    kinds = [(t.type, t.content) for t in inline.children or []]
    assert kinds == [("text", "run "), ("code_inline", text), ("text", " then")], line
