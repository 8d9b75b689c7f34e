"""Where a gone heading may stand in another file of the change, renamed or edited.

A chapter cut into another file with one of its subsections renamed is no unchanged
text (the subsection's heading is part of the chapter's), and neither is the renamed
subsection: the moved search finds neither by hash. The renamed search (moves.py
``renamed``) looked in the binding's own file alone, so both were unresolved with
no place, though the same move inside one file offered them theirs. Here the
heading outline of each other Markdown file of the change (move_search.py
``_Changed``: a hook's staged files; else the index's and the working tree's change,
or a commit's own) is read once, on first use, from the files the search parsed
(``parse``): the headings of a gone heading's name there (the chapter), and the
headings under the new place of its gone parent (the subsection).

Only the change's files: a heading of the same name in a page nobody touched is no
place the section went (a docs site has many "Introduction"s).

Stores: nothing.
Refuses: nothing (a file that is not UTF-8 text, or holds conflict markers, has no
outline here).
Returns: ``Elsewhere.named`` and ``Elsewhere.children`` (heading places, in file
order, then document order).
Test: tests/check/test_chapter_elsewhere.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from forest_files.check.move_places import MARKDOWN, Place, sections, suffix

if TYPE_CHECKING:
    from forest_files.text.extract import Document


class Elsewhere:
    """The heading outlines of the change's Markdown files, by name and by parent."""

    def __init__(
        self, paths: Callable[[], Iterable[str]], parse: Callable[[str], Document | None]
    ) -> None:
        self._paths, self._parse = paths, parse
        self._named: dict[str, list[Place]] | None = None
        self._children: dict[tuple[str, tuple[str, ...]], list[Place]] = {}

    def _outline(self) -> dict[str, list[Place]]:
        if self._named is None:
            self._named = {}
            for path in self._paths():
                if suffix(path) not in MARKDOWN:
                    continue
                doc = self._parse(path)
                if doc is None:
                    continue
                for place, _ in sections(doc, path, doc.headings(), {"heading"}, False):
                    self._named.setdefault(place.parts[-1].casefold(), []).append(place)
                    self._children.setdefault((path, place.parts[:-1]), []).append(place)
        return self._named

    def named(self, own: str, name: str) -> list[Place]:
        """The headings named ``name`` (case-blind) in the change's files but ``own``."""
        return [p for p in self._outline().get(name.casefold(), []) if p.path != own]

    def children(self, path: str, parent: tuple[str, ...]) -> list[Place]:
        """The headings right under ``parent`` in ``path`` (a file of the change)."""
        self._outline()
        return self._children.get((path, parent), [])
