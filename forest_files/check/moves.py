"""The moved search: where a section that left its place stands now, by section hash.

Stores: nothing.
Refuses: nothing (a candidate that is not UTF-8 text or not valid Python, a
file holding merge conflict markers, or a section no selector can name, such as
an empty heading, is simply no candidate).
Returns: for a binding whose file is gone or whose selector matches nothing,
the places whose section hashes to ground (one: the finding becomes ``moved``;
several: copies of it, move_search.py), and for a whole file without exclusions
found whole nowhere, the heading sections of the change's files that hash to it
(``merged``: a page merged into another); for an unresolved heading or symbol with no such
place, the sections that stand where it stood (same parent; the parent's new
place when the parent is gone, renamed too) or bear its name under another
parent (moved and edited; a heading in another file of the change too, its parent's
new place there: move_elsewhere.py), and for a heading id no heading
carries any more (``file.md#{id}``), every heading of its file (named by its
own id when the file holds that id once, else by its heading path) — each
bound by no live binding (by selector, or resolving to the same section),
with its first line: a renamed section's candidates, ranked by renames.py; for a
gone heading, the heading sections of any candidate file whose text is its ground
but for its trailing blank lines (``near``: a section cut from the end of a page
and pasted before a heading, or the other way; move_near.py); the
first and last line of a place found (``lines``: a ``moved`` finding's). (A
place in a file whose name is not UTF-8 is found all the same: routes.py routes
that file's rename, never a rebind the ledger could not record.)
Test: tests/check/test_moves.py, tests/check/test_parse_once.py,
tests/check/test_move_candidates.py, tests/check/test_hook_move_cost.py,
tests/check/test_moved_not_utf8.py, tests/check/test_merged_pages.py,
tests/check/test_docs_site.py, tests/check/test_chapter_elsewhere.py

The places of a file and their text are read by move_places.py; a place is named
(its selector, a binding's kind, a heading id's likeness) by move_names.py.

One ``MoveIndex`` serves one check run: the candidate blobs are read in one
``git cat-file`` batch, each file parsed at most once (a file the check itself
parsed, where a selector found nothing, is taken as the check left it,
``Sections.documents``, when its content is the same), and each section of a
kind the missing bindings name (heading, symbol, region, whole file) hashed
once per exclusion set they use. Nothing is computed for display that is not
shown: a selector is rendered only for a place a finding names (no
similarity suggestions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from forest_files.check.move_names import (
    Candidate,
    binding_kind,
    likeness,
    path_base,
    place_selector,
    unique_ids,
)
from forest_files.check.move_places import MARKDOWN, Place, section_text, sections
from forest_files.check.move_places import suffix as _suffix
from forest_files.custody.bindings import Binding
from forest_files.custody.content import ContentSource
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.text.conflict_markers import has_markers
from forest_files.text.normalise import decode_bytes, normalised_hash
from forest_files.text.selector import Kind, Selector, parse_selector, render

if TYPE_CHECKING:
    from forest_files.check.move_elsewhere import Elsewhere
    from forest_files.check.move_near import NearIndex
    from forest_files.text.extract import Document

Excludes = tuple[str, ...]
Key = tuple[Excludes, str, str]  # (exclusions, selector kind, section hash)
_BATCH = 1000  # candidate blobs read per ``git cat-file --batch`` (and held at once)
MAX_CANDIDATES = 12  # renamed-section candidates listed in a hint (renames.py ranks, then cuts)
MAX_POOL = 100  # candidates handed to the ranking at most, per binding


class MoveIndex:
    """Section hashes of the candidate files, built once for a set of bindings: only
    the kinds of section those bindings name (a heading binding needs no symbol
    parse, a whole-file one no outline unless its exclusions cut by heading)."""

    def __init__(
        self,
        source: ContentSource,
        candidates: Iterable[str],
        wanted: Sequence[Binding],
        bound: Iterable[str] = (),
        documents: dict[str, tuple[str, Document]] | None = None,
    ) -> None:
        self._hits: dict[Key, list[Place]] = {}
        self._children: dict[tuple[str, str, tuple[str, ...]], list[Place]] = {}
        self._outline: dict[tuple[str, str], list[Place]] = {}  # (path, kind) -> places
        self._docs: dict[str, Document] = {}  # the bindings' own files, as parsed here
        self._taken: dict[str, set[int]] = {}  # path -> first lines a live binding holds
        self._bound = set(bound)
        self._lines: dict[str, tuple[int, int]] = {}  # a shown place -> its first, last line
        self._source = source
        self._merged: dict[str, list[Place]] | None = None  # heading hash -> places (merged)
        self._parsed: list[tuple[str, Document]] = []  # each candidate file, as parsed
        self._near: NearIndex | None = None  # built on first use (move_near.py)
        self._elsewhere: Elsewhere | None = None  # likewise (move_elsewhere.py)
        # path -> (file hash, parsed): the check's parses, and this search's own added
        # (the caller's dict), so the commit's route (commit_plan.py) reads them too
        self._documents = documents if documents is not None else {}
        own = {b.path for b in wanted}
        suffixes = {_suffix(p) for p in own}
        self._kind_of = {b.bind_act: binding_kind(b) for b in wanted}
        self._kinds = set(self._kind_of.values())
        sets = sorted({b.excludes for b in wanted})
        chosen = [p for p in sorted(set(candidates) | own) if _suffix(p) in suffixes]
        prefetch = getattr(source, "prefetch", None)  # a git source: blobs in batches
        for start in range(0, len(chosen), _BATCH):
            batch = chosen[start : start + _BATCH]
            if prefetch is not None:  # every blob: a known file hash finds no section
                prefetch(batch, known_too=True)
            for path in batch:
                self._add(source, path, sets, keep_outline=path in own)

    def _add(
        self, source: ContentSource, path: str, sets: list[Excludes], keep_outline: bool
    ) -> None:
        data = source.read(path)
        if data is None or has_markers(data):  # a merge conflict: no section stands there
            return
        doc = self._document(path, data)
        if doc is None:
            return
        self._parsed.append((path, doc))
        text, lines, kinds = doc.text, doc.lines, self._kinds
        cut = any(sets)  # an exclusion may name a heading: the outline is needed
        markdown = _suffix(path) in MARKDOWN
        heads = doc.headings() if markdown and (keep_outline or cut or "heading" in kinds) else None
        hits = self._hits
        if keep_outline:
            self._docs[path] = doc
        for place, span in sections(doc, path, heads, kinds, keep_outline):
            if keep_outline and place.kind in ("heading", "symbol"):
                self._children.setdefault((path, place.kind, place.parts[:-1]), []).append(place)
                self._outline.setdefault((path, place.kind), []).append(place)
            if place.kind not in kinds:
                continue
            for excludes in sets:
                body = section_text(text, lines, heads, span, excludes)
                if body is not None:
                    hits.setdefault((excludes, place.kind, hash_body(body)), []).append(place)

    def _document(self, path: str, data: bytes) -> Document | None:
        """``data`` parsed: the check's own parse when it read the same content there
        (by normalised file hash), else a new one; None when it is not UTF-8 text."""
        from forest_files.text.extract import Document

        file_hash = normalised_hash(data)
        kept = self._documents.get(path)
        if kept is not None and kept[0] == file_hash:
            return kept[1]
        try:
            doc = Document(decode_bytes(data, path))
        except ForestError:
            return None
        if file_hash is not None:
            self._documents[path] = (file_hash, doc)
        return doc

    def copies(self, binding: Binding, expected: str) -> tuple[Candidate, ...]:
        """Every other place whose section (under the binding's exclusions) hashes to
        ``expected``, in the index's order, leaving out the places live bindings name
        (an identical copy bound on its own, as an untranslated file beside its
        original, is no place the section went): one is where the section moved, two
        or more are copies of its unchanged text (a class pasted twice)."""
        kind = self._kind_of.get(binding.bind_act) or binding_kind(binding)
        return self._shown(binding, self._hits.get((binding.excludes, kind, expected), []))

    def near(self, binding: Binding, expected: str) -> tuple[Candidate, ...]:
        """For a heading binding: the places whose section reads as its ground but for
        its trailing blank lines (cut from the end of a page and pasted before a
        heading, or the other way: move_near.py), as ``copies`` gives them."""
        if (self._kind_of.get(binding.bind_act) or binding_kind(binding)) != "heading":
            return ()
        if self._near is None:
            from forest_files.check.move_near import NearIndex

            self._near = NearIndex(self._parsed)
        return self._shown(binding, self._near.places(binding.excludes, expected))

    def merged(
        self, binding: Binding, expected: str, paths: Callable[[], Iterable[str]]
    ) -> tuple[Candidate, ...]:
        """For a whole-file binding without exclusions: the heading sections of
        ``paths()`` (the change's own files, move_search.py bounds them) whose text hashes
        to ``expected``, as ``copies`` gives them: where a page merged into another
        stands now. The Markdown files among ``paths`` are outlined once, on first use."""
        kind = self._kind_of.get(binding.bind_act) or binding_kind(binding)
        if binding.excludes or kind != "file":
            return ()
        if self._merged is None:
            self._merged = {}
            for path in paths():
                self._add_headings(path, self._merged)
        return self._shown(binding, self._merged.get(expected, []))

    def _parse(self, path: str) -> Document | None:
        """``path`` read and parsed (once: ``_document``); None for no text."""
        data = self._source.read(path)
        if data is None or has_markers(data):
            return None
        return self._document(path, data)

    def _add_headings(self, path: str, into: dict[str, list[Place]]) -> None:
        """Each heading section of a Markdown ``path``, by the hash of its text."""
        doc = self._parse(path) if _suffix(path) in MARKDOWN else None
        if doc is None:
            return
        heads = doc.headings()
        for place, span in sections(doc, path, heads, {"heading"}, False):
            body = section_text(doc.text, doc.lines, heads, span, ())
            if body is not None:
                into.setdefault(hash_body(body), []).append(place)

    def _shown(self, binding: Binding, hits: Sequence[Place]) -> tuple[Candidate, ...]:
        """``hits`` by selector, first line kept, less the binding's own place and
        those a live binding names."""
        seen: dict[str, int] = {}
        for place in hits:
            sel = place_selector(place)
            if sel is not None and sel != binding.selector and sel not in self._bound:
                seen.setdefault(sel, place.line)
                if place.kind != "file" and place.end:
                    self._lines.setdefault(sel, (place.line, place.end))
        return tuple(Candidate(sel, line) for sel, line in seen.items())

    def lines(self, selector: str) -> tuple[int, int] | None:
        """The first and last line of the section ``selector`` names (a place this index
        showed: ``copies``, ``merged``), as the index found it; None for a whole file
        (the file is the place) or a place it never showed."""
        return self._lines.get(selector)

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
        if not places and parent and all(p.parts != parent for p in outline):
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

        kept = self._documents.get(path)  # another file of the change: as it was parsed
        base, doc = path_base(path), self._docs.get(path) or (kept[1] if kept else None)
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
