"""Markdown's top-level blocks of a text read alone: headings, fences, HTML blocks.

markdown.py's outline gives a file's headings; a restore also needs the blocks that
hide them. A fence without its closing line, or an HTML comment without ``-->``, runs
to the end of the document (or to a line that closes it) and every heading inside
reads as its text: an edit that opens one in a section makes the section run on over
the sections after it. custody/restore_swallowed.py reads the lines a restore would
drop with this, to see which would be headings once ground is back;
custody/restore_hidden.py reads which fence or comment hides a heading, asking the
CommonMark parser again, with the whole text, only of a block whose own lines read
alone hold a heading of its name (``inner_headings``).

Stores: nothing. Imports pyromark only when a text is parsed (the same CommonMark
reading, with GFM tables, as markdown.py; ``inner_headings`` is markdown.py's outline).
Refuses: nothing.
Returns: ``blocks(text)``: each top-level ``Block`` in order, its 1-based first and
last line, its kind (``heading`` with its level, ``fence``, ``code`` (indented),
``html``, or the parser's name lowercased: ``paragraph``, ``list``, ``blockquote``,
``table``, ``rule``) and, for a heading, whether it is a setext one (underlined);
``inner_text(lines, block)``: the lines inside a block, its first taken out, as read
on their own; ``inner_headings(inner)``: the headings (markdown.py ``Heading``) the
parser finds in them, one parse; ``Insides(lines, blocks).naming(names, words)``: the
blocks whose lines, read alone, hold a heading of one of those names; ``.holding(word)``:
the blocks whose lines hold ``word`` at all.
Test: tests/text/test_md_blocks.py
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forest_files.text.markdown import Heading

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


def inner_text(lines: Sequence[str], block: Block) -> str:
    """``block``'s lines (of ``lines``, the text's) with its first taken out, as they
    are read on their own: with the lines after the block up to a blank line (a setext
    heading begun inside it may be underlined there; a blank line ends its text),
    after one blank line (so a ``---`` inside never reads as front matter). Read alone
    (``inner_headings``) they hold every heading that starts inside the block when the
    text without its first line is parsed whole: CommonMark reads a line by the lines
    above it, save a setext underline or a table's delimiter row, the next line; the
    lines above can only take a heading away (a paragraph they end runs on into the
    block's lines) or move its start above the block. So a block whose lines hold no
    heading of a name hides none of that name."""
    end = min(block.last, len(lines))
    while end < len(lines) and lines[end].strip():
        end += 1
    return "".join(["\n", *lines[block.first : end]])


def inner_headings(inner: str) -> list[Heading]:
    """The headings the CommonMark parser finds in ``inner`` (``inner_text``), read
    alone (markdown.py's outline; its line 2 is the block's second)."""
    from forest_files.text.markdown import outline

    return outline(inner)


class Insides:
    """The lines inside some blocks of a text (``inner_text``), asked which hold a
    heading of a name. One string holds them all, searched once for each word a name
    asked holds; a block's lines are parsed alone (``inner_headings``) once, and only
    when they hold every word of a name asked, or an HTML comment (a heading's name is
    its source's words but for a comment it drops with no space either side:
    markdown.py)."""

    def __init__(self, lines: Sequence[str], blocks: Sequence[Block]) -> None:
        self._inners = [inner_text(lines, b) for b in blocks]
        self._starts = list(accumulate((len(t) + 1 for t in self._inners), initial=0))
        self._all = "\n".join(self._inners)  # no word holds a line break
        self._words: dict[str, set[int]] = {}
        self._comments = self.holding("<!--")
        self._names: dict[int, frozenset[str]] = {}

    def naming(self, wanted: Collection[str], words: Sequence[str]) -> list[int]:
        """The blocks (positions, in order) whose lines read alone hold a heading named
        one of ``wanted`` (by its name, its source text, or ``#{id}`` for an id it
        carries); ``words``: the words each of those names holds."""
        if words:
            held = set.intersection(*sorted(map(self.holding, words), key=len))
        else:
            held = set(range(len(self._inners)))
        return [
            at for at in sorted(held | self._comments) if not self._names_of(at).isdisjoint(wanted)
        ]

    def holding(self, word: str) -> set[int]:
        """The blocks whose lines hold ``word``: one search of the joined string, kept."""
        found = self._words.get(word)
        if found is not None:
            return found
        found = self._words[word] = set()
        pos = self._all.find(word)
        while pos >= 0:
            at = bisect_right(self._starts, pos) - 1
            found.add(at)
            pos = self._all.find(word, self._starts[at + 1])
        return found

    def _names_of(self, at: int) -> frozenset[str]:
        names = self._names.get(at)
        if names is None:
            found = inner_headings(self._inners[at])
            named = {n for h in found for n in (h.name, h.text)}
            names = frozenset(named | {f"#{{{a}}}" for h in found for a in h.anchors})
            self._names[at] = names
        return names
