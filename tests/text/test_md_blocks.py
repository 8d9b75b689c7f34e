"""md_blocks.blocks: a text's top-level blocks, with the fence or HTML block that hides
the headings after it."""

from __future__ import annotations

from forest_files.text.md_blocks import Block, blocks


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
