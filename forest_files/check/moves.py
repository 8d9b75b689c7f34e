"""The moved search: where a section that left its place stands now, by section hash.

Stores: nothing.
Refuses: nothing (a candidate that is not UTF-8 text or not valid Python, a
file holding merge conflict markers, or a section no selector can name, such as
an empty heading, is simply no candidate; so is a file this user may not read,
kept in ``unread`` for the finding to say).
Returns: for a binding whose file is gone or whose selector matches nothing,
the places whose section hashes to ground (one: the finding becomes ``moved``;
several: copies of it, move_search.py), and for a whole file without exclusions
found whole nowhere, the heading sections of the change's files that hash to it
(``merged``: a page merged into another, move_merged.py); for an unresolved heading
or symbol with no such place, where a renamed (or moved and edited) section may
stand now (``renamed``: move_renamed.py searches the outlines this index reads,
renames.py ranks); for a gone heading, the heading sections of any candidate file
whose text is its ground but for its trailing blank lines (``near``: a section cut
from the end of a page and pasted before a heading, or the other way;
move_near.py); the first and last line of a place found (``lines``: a ``moved``
finding's). (A place in a file whose name is not UTF-8 is found all the same:
routes.py routes that file's rename, never a rebind the ledger could not record.)
Test: tests/check/test_moves.py, tests/check/test_parse_once.py,
tests/check/test_move_candidates.py, tests/check/test_hook_move_cost.py,
tests/check/test_moved_not_utf8.py, tests/check/test_merged_pages.py,
tests/check/test_docs_site.py, tests/check/test_chapter_elsewhere.py,
tests/doors/test_move_search_unreadable.py

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

from forest_files.check.move_names import Candidate, binding_kind, place_selector
from forest_files.check.move_places import MARKDOWN, Place, section_text, sections
from forest_files.check.move_places import suffix as _suffix
from forest_files.check.move_renamed import RenamedSearch
from forest_files.custody.bindings import Binding
from forest_files.custody.content import ContentSource
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.text.conflict_markers import has_markers
from forest_files.text.normalise import decode_bytes, normalised_hash

if TYPE_CHECKING:
    from forest_files.check.move_merged import MergedIndex
    from forest_files.check.move_near import NearIndex
    from forest_files.check.move_rebound import Rebound
    from forest_files.text.extract import Document

Excludes = tuple[str, ...]
Key = tuple[Excludes, str, str]  # (exclusions, selector kind, section hash)
_BATCH = 1000  # candidate blobs read per ``git cat-file --batch`` (and held at once)


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
        rebound: Rebound | None = None,
    ) -> None:
        self._hits: dict[Key, list[Place]] = {}
        self.unread: dict[str, PermissionError] = {}  # a candidate this user may not read
        self._docs: dict[str, Document] = {}  # the bindings' own files, as parsed here
        self._bound = set(bound)
        self._lines: dict[str, tuple[int, int]] = {}  # a shown place -> its first, last line
        self._source = source
        self._merged: MergedIndex | None = None  # built on first use (move_merged.py)
        self._parsed: list[tuple[str, Document]] = []  # each candidate file, as parsed
        self._near: NearIndex | None = None  # likewise (move_near.py)
        # path -> (file hash, parsed): the check's parses, and this search's own added
        # (the caller's dict), so the commit's route (commit_plan.py) reads them too
        self._documents = documents if documents is not None else {}
        self._renamed = RenamedSearch(self._bound, self._doc, self._parse, rebound)
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
        data = self._read(path)
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
                self._renamed.add(place)
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
        ``paths()`` (the change's own files) whose text hashes to ``expected``, as
        ``copies`` gives them: where a page merged into another stands now
        (move_merged.py, outlined once, on first use)."""
        kind = self._kind_of.get(binding.bind_act) or binding_kind(binding)
        if binding.excludes or kind != "file":
            return ()
        if self._merged is None:
            from forest_files.check.move_merged import MergedIndex

            self._merged = MergedIndex(paths, self._parse)
        return self._shown(binding, self._merged.places(expected))

    def _parse(self, path: str) -> Document | None:
        """``path`` read and parsed (once: ``_document``); None for no text."""
        data = self._read(path)
        if data is None or has_markers(data):
            return None
        return self._document(path, data)

    def _read(self, path: str) -> bytes | None:
        """``source.read``; a file this user may not read (``special`` raises for it)
        is passed by, and kept in ``unread``: a section found nowhere may stand there."""
        data = self._source.read(path)
        if data is None:
            try:
                self._source.special(path)
            except PermissionError as exc:
                self.unread.setdefault(path, exc)
        return data

    def unnamed(self, binding: Binding, expected: str) -> Place | None:
        """The first place whose section hashes to ``expected`` as ``copies`` finds them
        but that no selector can name (``place_selector``: None), for a finding that
        says why it names no place."""
        kind = self._kind_of.get(binding.bind_act) or binding_kind(binding)
        hits = self._hits.get((binding.excludes, kind, expected), [])
        return next((p for p in hits if place_selector(p) is None), None)

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
        other binding, in document order (move_renamed.py; renames.py ranks them); a
        heading is looked for in the other Markdown files of ``changed()`` too."""
        return self._renamed.renamed(binding, changed)

    def _doc(self, path: str) -> Document | None:
        """``path`` as this search parsed it: a binding's own file, or another file of
        the change as the check or this search parsed it; None when it was not."""
        kept = self._documents.get(path)
        return self._docs.get(path) or (kept[1] if kept else None)
