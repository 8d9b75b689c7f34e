"""Where a whole page merged into another stands now: a heading section of a file of
the change whose text is the page's ground.

A page moved whole into another file under a heading of its own is no whole file
the moved search finds by hash (moves.py: a whole file's text is found whole, or
nowhere), so it was ``missing`` with its text standing there. Here the heading
sections of the change's own files (move_search.py ``_Changed`` bounds them) are
hashed once, without exclusions, on first use: the one whose text hashes to the
page's ground is where it went (``merged``).

Only for a whole-file binding without exclusions; over the files the search parsed
(``parse``: each file read and parsed once, the moved search's own parse reused).

Stores: nothing.
Refuses: nothing (a file that is not Markdown, not UTF-8 text, or holds conflict
markers has no heading section here).
Returns: ``MergedIndex.places`` (the heading places, in file order, then document order).
Test: tests/check/test_merged_pages.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from forest_files.check.move_places import MARKDOWN, Place, section_text, sections, suffix
from forest_files.kernel.hashing import hash_body

if TYPE_CHECKING:
    from forest_files.text.extract import Document


class MergedIndex:
    """The heading sections of ``paths()``' Markdown files, by the hash of their text."""

    def __init__(
        self, paths: Callable[[], Iterable[str]], parse: Callable[[str], Document | None]
    ) -> None:
        self._paths, self._parse = paths, parse
        self._table: dict[str, list[Place]] | None = None

    def places(self, expected: str) -> list[Place]:
        """The heading places whose section hashes to ``expected``."""
        if self._table is None:
            self._table = {}
            for path in self._paths():
                self._add(path, self._table)
        return self._table.get(expected, [])

    def _add(self, path: str, into: dict[str, list[Place]]) -> None:
        """Each heading section of a Markdown ``path``, by the hash of its text."""
        doc = self._parse(path) if suffix(path) in MARKDOWN else None
        if doc is None:
            return
        heads = doc.headings()
        for place, span in sections(doc, path, heads, {"heading"}, False):
            body = section_text(doc.text, doc.lines, heads, span, ())
            if body is not None:
                into.setdefault(hash_body(body), []).append(place)
