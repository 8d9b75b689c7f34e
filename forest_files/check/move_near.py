"""Where a gone heading section stands with only its trailing blank lines changed.

A section cut from the end of a page and pasted before another heading gains the
blank line that separates them; one pasted at the end of a page loses it. A
section's trailing blank lines are part of its text (markdown.py), so such a move
is no unchanged text the moved search finds by hash (moves.py), and the section's
name under another file is no renamed section's place either: it was offered no
place at all. Here each heading section of the candidate files is hashed once
more, as its text without its trailing line ends and with 0 to ``MAX_ENDS`` of them
put back (the ones it has already hashed by moves.py): a place whose text hashes to
ground that way is where the section may stand now, offered as a renamed section's
is (a rebind with words: its text did change, by blank lines).

Built on first use only (a gone heading whose unchanged text is nowhere), over the
files the moved search parsed already: no read, no parse of its own.

Stores: nothing.
Refuses: nothing (a section its binding's exclusions cannot cut is no place).
Returns: ``NearIndex.places`` (the heading places, in the index's file order).
Test: tests/check/test_docs_site.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from forest_files.check.move_places import MARKDOWN, Place, section_text, sections, suffix
from forest_files.kernel.hashing import hash_body

if TYPE_CHECKING:
    from forest_files.text.extract import Document

Excludes = tuple[str, ...]
MAX_ENDS = 3  # line ends put back: the text's last line end and two blank lines


class NearIndex:
    """The heading sections of ``parsed`` (path, parsed file), by the hashes of their
    texts with their trailing line ends changed, one table per set of exclusions."""

    def __init__(self, parsed: Sequence[tuple[str, Document]]) -> None:
        self._parsed = [(p, doc) for p, doc in parsed if suffix(p) in MARKDOWN]
        self._tables: dict[Excludes, dict[str, list[Place]]] = {}

    def places(self, excludes: Excludes, expected: str) -> list[Place]:
        """The heading places whose section (under ``excludes``) reads as the text
        hashed ``expected`` but for its trailing line ends."""
        table = self._tables.get(excludes)
        if table is None:
            table = self._tables[excludes] = self._table(excludes)
        return table.get(expected, [])

    def _table(self, excludes: Excludes) -> dict[str, list[Place]]:
        table: dict[str, list[Place]] = {}
        for path, doc in self._parsed:
            heads = doc.headings()
            for place, span in sections(doc, path, heads, {"heading"}, False):
                body = section_text(doc.text, doc.lines, heads, span, excludes)
                if body is None:
                    continue
                core = body.rstrip("\n")
                for ends in range(MAX_ENDS + 1):
                    variant = core + "\n" * ends
                    if variant != body:  # its own text: moves.py's hash already
                        table.setdefault(hash_body(variant), []).append(place)
        return table
