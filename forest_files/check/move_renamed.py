"""The renamed search: where a heading or symbol its selector no longer finds may stand now.

A renamed (or moved and edited) section is no unchanged text the moved search finds
by hash (moves.py). Its candidates are the sections standing where it stood: under
its old parent, or, where that parent is gone, under the place its own binding was
rebound to (move_rebound.py: the chapter's route pasted first), else, renamed too,
under each free place the parent may stand now (by this same rule); then the
sections of its own name under another parent; a heading in another Markdown file
of the change too (move_elsewhere.py: a chapter moved there with a subsection
renamed, and that subsection under the chapter's new place). For a heading id no
heading carries any more (``file.md#{id}``): every heading of its file, named by its
own id when the file holds that id once, else by its heading path. Each is bound by
no live binding (by selector, or resolving to the same section); renames.py ranks
them.

The outlines searched are the bindings' own files' (``add``: the moved search's
``MoveIndex`` hands each heading and symbol over as it parses them); another file of
the change is outlined on first use, from the files the search parsed.

Stores: nothing.
Refuses: nothing (a section no selector can name, such as an empty heading, is no
candidate; an Obsidian block id has none).
Returns: ``RenamedSearch.renamed`` (``Candidate`` values, in document order).
Test: tests/check/test_moves.py, tests/check/test_move_candidates.py,
tests/check/test_chapter_elsewhere.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from forest_files.check.move_names import Candidate, likeness, path_base, place_selector, unique_ids
from forest_files.check.move_places import Place
from forest_files.check.move_rebound import children_in
from forest_files.custody.bindings import Binding
from forest_files.kernel.errors import ForestError
from forest_files.text.selector import Kind, Selector, parse_selector, render

if TYPE_CHECKING:
    from forest_files.check.move_elsewhere import Elsewhere
    from forest_files.check.move_rebound import Rebound
    from forest_files.text.extract import Document

MAX_CANDIDATES = 12  # renamed-section candidates listed in a hint (renames.py ranks, then cuts)
MAX_POOL = 100  # candidates handed to the ranking at most, per binding


class RenamedSearch:
    """The outlines of the bindings' own files, searched for where a section renamed
    may stand. ``bound``: the selectors of the live bindings; ``doc``: a file as the
    search parsed it (None: not parsed); ``parse``: a file read and parsed (once);
    ``rebound``: where the binding that held a selector stands now (move_rebound.py)."""

    def __init__(
        self,
        bound: set[str],
        doc: Callable[[str], Document | None],
        parse: Callable[[str], Document | None],
        rebound: Rebound | None = None,
    ) -> None:
        self._bound, self._doc, self._parse = bound, doc, parse
        self._rebound = rebound
        self._children: dict[tuple[str, str, tuple[str, ...]], list[Place]] = {}
        self._outline: dict[tuple[str, str], list[Place]] = {}  # (path, kind) -> places
        self._taken: dict[str, set[int]] = {}  # path -> first lines a live binding holds
        self._elsewhere: Elsewhere | None = None  # built on first use (move_elsewhere.py)

    def add(self, place: Place) -> None:
        """A heading or symbol of a binding's own file, in document order."""
        self._children.setdefault((place.path, place.kind, place.parts[:-1]), []).append(place)
        self._outline.setdefault((place.path, place.kind), []).append(place)

    def renamed(
        self, binding: Binding, changed: Callable[[], Iterable[str]] | None = None
    ) -> tuple[Candidate, ...]:
        """Where a renamed (or moved and edited) section may stand now, bound by no
        other binding, in document order (renames.py ranks them): for a heading or
        symbol, the sections under its old parent (under the parent's new place when
        the parent was renamed as well), then those of its own name under another
        parent; for a heading id no heading carries any more (``file.md#{id}``),
        every heading of the file, named by its own id when it has one the file holds
        once (else by its heading path). A heading is looked for in the other Markdown
        files of ``changed()`` too (the change's: move_elsewhere.py): a chapter moved
        there with a subsection renamed, and that subsection under its new place."""
        sel = parse_selector(binding.selector)
        path = binding.path
        if sel.kind == "anchor":
            if sel.parts[0].startswith("^"):  # an Obsidian block id: no heading holds it
                return ()
            heads = self._outline.get((path, "heading"), [])
            return self._free(path, heads, by_id=sel.parts[0])
        if sel.kind not in ("heading", "symbol"):
            return ()
        there = None
        if sel.kind == "heading" and changed is not None:
            from forest_files.check.move_elsewhere import Elsewhere

            if self._elsewhere is None:
                self._elsewhere = Elsewhere(changed, self._parse)
            there = self._elsewhere
        return self._free(path, self._places(path, sel.kind, sel.parts, there))

    def _places(
        self, path: str, kind: Kind, parts: tuple[str, ...], there: Elsewhere | None
    ) -> list[Place]:
        """The sections under the parent of ``parts`` (where that parent is gone, renamed
        too: under each free place it may stand now, by this same rule), then those of
        its own name under another parent (``there``: in another file of the change too)."""
        parent, outline = parts[:-1], self._outline.get((path, kind), [])
        places = list(self._children.get((path, kind, parent), []))
        gone = not places and parent and all(p.parts != parent for p in outline)
        if gone:  # where its own binding was rebound (the chapter's route pasted first)
            places = self._under_rebound(path, kind, parent)
        if gone and not places:
            for new in self._places(path, kind, parent, there):
                if new.line in self._held(new.path) or place_selector(new) in self._bound:
                    continue
                if new.path == path:
                    places += self._children.get((path, kind, new.parts), [])
                elif there is not None:
                    places += there.children(new.path, new.parts)
        own = parts[-1].casefold()
        seen = {(p.path, p.line) for p in places}
        places += [  # moved under another parent (and edited: unchanged text is ``moved``)
            p for p in outline if (p.path, p.line) not in seen and p.parts[-1].casefold() == own
        ]
        if there is not None:  # or to another file, a subsection renamed on the way
            places += [p for p in there.named(path, own) if (p.path, p.line) not in seen]
        return places

    def _under_rebound(self, path: str, kind: Kind, parent: tuple[str, ...]) -> list[Place]:
        """The headings under the place the gone ``parent``'s own binding was rebound to
        (move_rebound.py: the chapter's route pasted first), in whichever file it is,
        less those a live binding holds there; none when no live binding held the
        parent's selector and holds another now."""
        if kind != "heading" or self._rebound is None:
            return []
        now = self._rebound.now(path, render(Selector(path, kind, parent)))
        if now is None:
            return []
        try:
            sel = parse_selector(now)
        except ForestError:
            return []
        if sel.kind != "heading" or sel.index is not None:
            return []
        doc = self._doc(sel.path) or self._parse(sel.path) or self._rebound.parse(sel.path)
        if doc is None:
            return []
        taken = self._rebound.taken(sel.path, doc)
        return [p for p in children_in(doc, sel.path, sel.parts) if p.line not in taken]

    def _free(
        self, path: str, places: Sequence[Place], *, by_id: str | None = None
    ) -> tuple[Candidate, ...]:
        """``places`` no live binding holds (by selector, or by resolving to the same
        section), as candidates; ``by_id`` (the id gone): each named by a heading id
        the file holds once, and past ``MAX_POOL`` of them the ones whose id or name
        reads most like the one gone."""
        ids = unique_ids(self._outline.get((path, "heading"), [])) if by_id else set()
        free: list[Candidate] = []
        for p in places:
            shown = place_selector(p)
            if p.line in self._held(p.path) or shown is None or shown in self._bound:
                continue
            anchor = next((a for a in p.anchors if a in ids), None)
            if anchor is not None:
                shown = render(Selector(p.path, "anchor", (anchor,)))
                if shown in self._bound:
                    continue
            free.append(Candidate(shown, p.line))
            if by_id is None and len(free) == MAX_POOL:
                break
        if len(free) > MAX_POOL and by_id is not None:  # a large file: the nearest names
            near = sorted(free, key=lambda c: likeness(by_id, c.selector), reverse=True)
            kept = set(near[:MAX_POOL])
            free = [c for c in free if c in kept]
        return tuple(free)

    def _held(self, path: str) -> set[int]:
        """First lines of the sections of ``path`` a live binding's selector resolves to
        (a tail selector, an anchor or a heading path: the same section is taken)."""
        if path in self._taken:
            return self._taken[path]
        from forest_files.text.extract import extract

        base, doc = path_base(path), self._doc(path)  # another file of the change: as parsed
        lines: set[int] = set()
        if base is not None and doc is not None:
            for shown in self._bound:
                if not shown.startswith(base) or shown[len(base) : len(base) + 1] not in ("#", ":"):
                    continue
                try:
                    sel = parse_selector(shown)
                    if sel.path == path and not (sel.kind == "anchor" and sel.parts[0][:1] == "^"):
                        lines.add(extract(doc, sel, ()).start_line)
                except ForestError:
                    continue
        self._taken[path] = lines
        return lines
