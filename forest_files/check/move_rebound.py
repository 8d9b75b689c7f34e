"""Where a gone parent heading's own binding stands now: a chapter rebound first.

A chapter moved (to another file, or renamed in its own) with one of its subsections
renamed offers both their places (move_renamed.py). Pasted in the order a user
follows, the chapter's route first, its rebind carries the subsections that kept
their names and leaves the renamed one where it was; the subsection's parent is then
gone from its file and the chapter's new place is bound, so the renamed search,
which takes no bound place for a parent's (another binding's section is no place the
parent went), offered the subsection nothing: a dead end. The binding that held the
parent's selector, and holds another now, is the chapter's own: its place is where
the parent went. The index (or the view) keeps every binding's events
(custody/bindings.py ``binding_events``): where the bindings that ever held a
selector stand now is asked of them once per gone parent, only when the search
meets one (a section moved unchanged, or renamed under a parent still standing,
never asks).

The answers are the rows' own (every binding's latest place), not the bindings a
door judges, which may be a few paths' (a hook's staged files, a commit of a ci
range): the place, and the sections under it other bindings hold, are the same at
every door. A git source that listed those few paths only reads the place's file
on its own (``Rebound.parse``: one more listing, for a finding that fails anyway,
as explain.py's reader does for a refused commit's words).

Stores: nothing.
Refuses: nothing (rows that cannot be read, or a table a store lacks, know no
rebind; two live bindings that held the selector name no one place).
Returns: ``live_places`` (the live bindings' (path, selector) among some rows'),
``RowHistory`` (a store connection's answers), ``Rebound`` (``now``: the one other
selector the live binding that held a selector holds; ``parse``: its file, where
the check looked; ``taken``: the first lines of its sections a live binding holds),
``children_in`` (the headings right under one in a parsed file).
Test: tests/check/test_chapter_elsewhere.py, tests/doors/test_doors_rebound.py
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from forest_files.check.move_places import MARKDOWN, Place, sections, suffix
from forest_files.kernel.errors import ForestError
from forest_files.text.conflict_markers import has_markers
from forest_files.text.normalise import decode_bytes

if TYPE_CHECKING:
    import sqlite3

    from forest_files.custody.content import ContentSource
    from forest_files.text.extract import Document

# Every event, in apply order, of the bindings a bind or a rebind once put at a
# selector (a retire names none), or once put in a path; by path first, so the
# table's path index answers (an event's path is its selector's), then each
# binding's events by the bind_act index.
_HELD = (
    "SELECT bind_act, kind, path, selector FROM binding_events WHERE bind_act IN "
    "(SELECT bind_act FROM binding_events WHERE path = ? AND selector = ? "
    "AND kind != 'retire') ORDER BY seq"
)
_IN_PATH = (
    "SELECT bind_act, kind, path, selector FROM binding_events WHERE bind_act IN "
    "(SELECT bind_act FROM binding_events WHERE path = ?) ORDER BY seq"
)


class BindingHistory(Protocol):
    """What the binding history answers (``Custody``, or ``RowHistory`` of a store)."""

    def held_before(self, path: str, selector: str) -> Iterable[str]:
        """The selectors held now by the live bindings that ever held ``selector``."""
        ...

    def bound_in(self, path: str) -> Iterable[str]:
        """The selectors of the live bindings of ``path`` now."""
        ...


def live_places(rows: Iterable[tuple[str, str, str | None, str | None]]) -> set[tuple[str, str]]:
    """(path, selector) of each live binding among ``rows`` (bind_act, kind, path,
    selector; in apply order): its latest place; a retired one holds none, and a
    later rebind never revives it (custody/bindings.py ``_fold``)."""
    now: dict[str, tuple[str, str] | None] = {}
    for bind_act, kind, path, selector in rows:
        if kind == "retire":
            now[bind_act] = None
        elif path is not None and selector is not None and (kind == "bind" or now.get(bind_act)):
            now[bind_act] = (str(path), str(selector))
    return {p for p in now.values() if p is not None}


class RowHistory:
    """``BindingHistory`` read from one open store connection (``conn``)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def held_before(self, path: str, selector: str) -> tuple[str, ...]:
        found = live_places(self._conn.execute(_HELD, (path, selector)))
        return tuple(sorted(s for _, s in found))

    def bound_in(self, path: str) -> tuple[str, ...]:
        found = live_places(self._conn.execute(_IN_PATH, (path,)))
        return tuple(sorted(s for p, s in found if p == path))


class Rebound:
    """Where the live binding that once held a selector stands now, and what other
    bindings hold there, asked of ``history`` once each, on first need; ``source``:
    where the check looked."""

    def __init__(self, history: BindingHistory, source: ContentSource) -> None:
        self._history, self._source = history, source
        self._now: dict[str, str | None] = {}
        self._bound: dict[str, tuple[str, ...]] = {}

    def now(self, path: str, selector: str) -> str | None:
        """The other selector the one live binding that held ``selector`` (a section of
        ``path``) holds now; None for none, or for several."""
        if selector not in self._now:
            import sqlite3

            try:
                there = set(self._history.held_before(path, selector)) - {selector}
            except sqlite3.Error:
                there = set()
            self._now[selector] = there.pop() if len(there) == 1 else None
        return self._now[selector]

    def taken(self, path: str, doc: Document) -> set[int]:
        """The first lines of the sections of ``path`` (parsed: ``doc``) a live binding's
        selector resolves to (a tail selector, an anchor or a heading path alike)."""
        import sqlite3

        from forest_files.text.extract import extract
        from forest_files.text.selector import parse_selector

        if path not in self._bound:
            try:
                self._bound[path] = tuple(self._history.bound_in(path))
            except sqlite3.Error:
                self._bound[path] = ()
        lines: set[int] = set()
        for shown in self._bound[path]:
            try:
                lines.add(extract(doc, parse_selector(shown), ()).start_line)
            except ForestError:
                continue
        return lines

    def parse(self, path: str) -> Document | None:
        """``path`` where the check looked, parsed, for a git source that listed a few
        paths only (a hook's staged files, a ci commit's change) and not this one: the
        place a rebound binding holds may lie in a file the change left alone. None
        for no text, or when the source lists every path (the search read it)."""
        from forest_files.custody.content import GitTreeSource

        source = self._source
        if not isinstance(source, GitTreeSource) or source.listed("") is not None:
            return None
        one = GitTreeSource(
            source.root, rev=source.rev, keep_index_file=source.keep_index_file, only=(path,)
        )
        data = one.read(path)
        if data is None or has_markers(data):
            return None
        from forest_files.text.extract import Document

        try:
            return Document(decode_bytes(data, path))
        except ForestError:
            return None


def children_in(doc: Document, path: str, parts: tuple[str, ...]) -> list[Place]:
    """The headings right under the heading ``parts`` of the Markdown file ``path``
    (parsed: ``doc``), in document order."""
    if suffix(path) not in MARKDOWN:
        return []
    heads = sections(doc, path, doc.headings(), {"heading"}, False)
    return [p for p, _ in heads if p.parts[:-1] == parts]
