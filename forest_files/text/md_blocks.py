"""Markdown's top-level blocks of a text read alone: headings, fences, HTML blocks.

markdown.py's outline gives a file's headings; a restore also needs the blocks that
hide them. A fence without its closing line, or an HTML comment without ``-->``, runs
to the end of the document (or to a line that closes it) and every heading inside
reads as its text: an edit that opens one in a section makes the section run on over
the sections after it. custody/restore_swallowed.py reads the lines a restore would
drop with this, to see which would be headings once ground is back.

Stores: nothing. Imports pyromark only when a text is parsed (the same CommonMark
reading, with GFM tables, as markdown.py).
Refuses: nothing.
Returns: ``blocks(text)``: each top-level ``Block`` in order, its 1-based first and
last line, its kind (``heading`` with its level, ``fence``, ``code`` (indented),
``html``, or the parser's name lowercased: ``paragraph``, ``list``, ``blockquote``,
``table``, ``rule``) and, for a heading, whether it is a setext one (underlined).
Test: tests/text/test_md_blocks.py
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_KINDS = {"HtmlBlock": "html", "BlockQuote": "blockquote", "Rule": "rule"}


@dataclass(frozen=True)
class Block:
    """One top-level block of a text (1-based inclusive lines)."""

    first: int
    last: int
    kind: str
    level: int = 0  # a heading's: 1 for ``#`` or ``===``, 2 for ``##`` or ``---``, ...

    @property
    def setext(self) -> bool:
        """A heading written as its text lines with an underline (``===``, ``---``)."""
        return self.kind == "heading" and self.last > self.first


def blocks(text: str) -> list[Block]:
    """Every block of ``text`` outside all container blocks, in document order."""
    import pyromark

    data = text.encode("utf-8")
    found: list[Block] = []
    depth = 0
    for event, span in pyromark.events_with_range(text, options=pyromark.Options.ENABLE_TABLES):
        opened = event.get("Start") if event.__class__ is dict else event
        if depth == 0 and opened is not None and (event.__class__ is dict or event == "Rule"):
            first = data.count(b"\n", 0, span["start"]) + 1
            last = data.count(b"\n", 0, max(span["end"] - 1, span["start"])) + 1
            found.append(Block(first, last, *_kind(opened)))
        if event.__class__ is dict:
            depth += "Start" in event
            depth -= "End" in event
    return found


def _kind(opened: Any) -> tuple[str, int]:
    """(kind, heading level or 0) of a block's Start event."""
    if opened.__class__ is not dict:
        return _KINDS.get(str(opened), str(opened).lower()), 0
    if "Heading" in opened:
        return "heading", int(opened["Heading"]["level"][1:])
    if "CodeBlock" in opened:
        return ("fence" if isinstance(opened["CodeBlock"], dict) else "code"), 0
    name = next(iter(opened))
    return _KINDS.get(name, name.lower()), 0
