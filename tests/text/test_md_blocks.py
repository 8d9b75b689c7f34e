"""md_blocks.blocks: a text's top-level blocks, with the fence or HTML block that hides
the headings after it."""

from __future__ import annotations

from forest_files.text.md_blocks import Block, blocks, inner_headings, inner_text


def test_blocks_unclosed_fence_and_comment_hold_every_heading_after_detected() -> None:
    assert blocks("```\n# B\n\nb\n") == [Block(1, 4, "fence")]
    assert blocks("<!--\n# B\n\nb\n") == [Block(1, 4, "html")]
    assert blocks("<!-- x -->\n# B\n") == [Block(1, 1, "html"), Block(2, 2, "heading", 1)]


def test_blocks_setext_heading_spans_its_lines_detected() -> None:
    got = blocks("intro\n\ntext a\nmore a\n===\n\n## B\n---\n")
    assert got[1] == Block(3, 5, "heading", 1) and got[1].setext
    assert got[2] == Block(7, 7, "heading", 2) and not got[2].setext
    assert got[3].kind == "rule"


def test_blocks_container_kinds_named_detected() -> None:
    got = blocks("    code\n\n- a\n  # in a list\n\n> q\n\n|a|b|\n|-|-|\n|1|2|\n\né\n")
    assert [b.kind for b in got] == ["code", "list", "blockquote", "table", "paragraph"]
    assert got[-1].first == 12


def test_inner_headings_read_by_the_parser_alone_detected() -> None:
    """The lines inside a block (its first taken out) read alone, by the parser: a
    closed fence's closing line opens one there, a ``---`` never reads as front
    matter, a name drops its comment (``FooBar``), and a setext heading begun on the
    block's last line is underlined by the line after it."""
    text = "```\n---\n# A\n---\n## Foo<!-- x -->Bar\n```\n# C\n"
    lines = text.splitlines(keepends=True)
    got = inner_headings(inner_text(lines, blocks(text)[0]))
    assert [(h.level, h.name, h.start_line) for h in got] == [(1, "A", 3), (2, "FooBar", 5)]
    text = "<!--\nB -->\n===\n\nc\n"
    lines = text.splitlines(keepends=True)
    assert blocks(text)[0] == Block(1, 2, "html")
    assert [(h.level, h.text) for h in inner_headings(inner_text(lines, blocks(text)[0]))] == [
        (1, "B -->")
    ]
