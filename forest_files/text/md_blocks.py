"""Markdown's top-level blocks of a text read alone: headings, fences, HTML blocks.

markdown.py's outline gives a file's headings; a restore also needs the blocks that
hide them. A fence without its closing line, or an HTML comment without ``-->``, runs
to the end of the document (or to a line that closes it) and every heading inside
reads as its text: an edit that opens one in a section makes the section run on over
the sections after it. custody/restore_swallowed.py reads the lines a restore would
drop with this, to see which would be headings once ground is back;
custody/restore_hidden.py reads which fence or comment hides a heading, asking the
CommonMark parser again only of a block ``heading_like`` says may hold it.

Stores: nothing. Imports pyromark only when a text is parsed (the same CommonMark
reading, with GFM tables, as markdown.py).
Refuses: nothing.
Returns: ``blocks(text)``: each top-level ``Block`` in order, its 1-based first and
last line, its kind (``heading`` with its level, ``fence``, ``code`` (indented),
``html``, or the parser's name lowercased: ``paragraph``, ``list``, ``blockquote``,
``table``, ``rule``) and, for a heading, whether it is a setext one (underlined);
``heading_like(lines, block)``: what the lines inside a block (its first taken out)
may read as heading names, by line shape alone (no parse).
Test: tests/text/test_md_blocks.py
"""

from __future__ import annotations

import re
from collections.abc import Sequence
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
    line, counted = 1, 0  # the line of byte ``counted``: each byte counted once, in order
    for event, span in pyromark.events_with_range(text, options=pyromark.Options.ENABLE_TABLES):
        opened = event.get("Start") if event.__class__ is dict else event
        if depth == 0 and opened is not None and (event.__class__ is dict or event == "Rule"):
            start = span["start"]
            line += data.count(b"\n", counted, start)
            counted = start
            last = line + data.count(b"\n", start, max(span["end"] - 1, start))
            found.append(Block(line, last, *_kind(opened)))
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


# A line that may read as an ATX heading (its text, a closing ``#`` run left out), one
# whose name may differ from its text (an inline comment, an anchor, an attribute
# list: markdown.py), a line that may underline a setext heading.
_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")


def heading_like(lines: Sequence[str], block: Block) -> tuple[frozenset[str], str | None]:
    """What the lines inside ``block`` (of ``lines``, the text's) may read as heading
    names once its first line is taken out: the text of each line shaped as an ATX
    heading; and, when one may name its heading otherwise than by its text (``<`` or
    ``{`` in it) or a line may underline a setext heading, those lines with the ones
    after the block up to a blank line (a setext heading's text may run on), joined
    (None: none). A heading the parser finds there is named by one of the former or
    by words all of the latter holds."""
    names: set[str] = set()
    odd = False
    for line in lines[block.first : block.last]:
        atx = _ATX.match(line)
        if atx is not None:
            name = (atx.group(1) or "").strip()
            names.update((name, name.rstrip("# \t")))
            odd = odd or "<" in name or "{" in name
        elif not odd and _UNDERLINE.match(line):
            odd = True
    if not odd:
        return frozenset(names), None
    end = min(block.last, len(lines))
    while end < len(lines) and lines[end].strip():
        end += 1
    return frozenset(names), "".join(lines[block.first : end])
