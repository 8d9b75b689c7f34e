"""A bound heading an edit hid: the finding says what hides it, as a typed reason.

An unclosed fence or ``<!--`` an edit put into a section hides every heading after it,
so their selectors find nothing. No heading was renamed or moved: ``forest show`` and a
rebind lead nowhere. custody/restore_hidden.py judges it (``Hiders``, what ``forest
restore`` of such a section alone refuses by), asked only of an unresolved heading
section the run's move search (move_search.py) found nowhere else: never on a clean
run, no git call when the run parsed the file (else one read of the content source),
one parse of a file's blocks per run, whatever the number of its sections asked.
Stores: nothing.
Refuses: nothing.
Returns: ``HiddenJudge`` (a run's judge: the finding, its detail what hides the
heading (restore_hidden.py ``hidden_said``: the heading and its line, the block, its
line, the section holding it), with ``Reason(KIND, HOLDER, LINE, advice=CLOSE)``:
KIND ``hidden-split`` when the only fix is taking a fence's line out (opened inside
the paragraph a block id ends), else ``hidden``;
HOLDER the bound section whose restore with this one brings the heading back ("" for
none: no binding holds the block, that binding excludes parts (the bindings'
exclusions given: ``excludes``), it is closed further on, or that restore would keep
a heading of a level and path HEAD's file holds fewer of: one git read, only then),
LINE the heading's,
CLOSE the block closed before it (before a parent on the selector's path it hides
too: ``Hidden.close_before``), the line that closes it named (``Hidden.closed_by``),
or, a fence opened inside the paragraph a block id ends, its line taken out
(``Hidden.close``); a drifted bound holder whose own restore is refused over the same
block (its ground body hash given: ``drifted``): that holder's route's advice, said as
its, to be followed once (route_close.py ``refused_close``: two closes of one block,
each before its own line, followed in order would open a block again); or None), whose
routes route_unresolved.py gives.
Test: tests/doors/test_doors_hidden.py, tests/doors/test_doors_hidden_split.py,
      tests/check/test_hidden_heading.py, tests/check/test_route_swallowed.py
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING

from forest_files.check.finding import Finding, Reason, ReasonKind, replaced
from forest_files.custody.bindings import Binding
from forest_files.custody.content import ContentSource

if TYPE_CHECKING:
    from forest_files.custody.restore_hidden import Hidden, Hiders
    from forest_files.text.extract import Document


class HiddenJudge:
    """One run's judge of unresolved heading sections: what hides each one's heading
    (each file's blocks parsed once, on its first such section)."""

    def __init__(
        self,
        source: ContentSource,
        documents: dict[str, tuple[str, Document]] | None,
        bound: Collection[str],
        excludes: Mapping[str, tuple[str, ...]] | None = None,
        drifted: Mapping[str, str] | None = None,
    ) -> None:
        self._source, self._documents, self._bound = source, documents or {}, bound
        self._excludes = excludes or {}  # a holder excluding parts: no restore to route
        self._drifted = drifted or {}  # a drifted holder's ground body hash: its close
        self._hiders: dict[str, Hiders | None] = {}
        self._heads: dict[str, Callable[[], str | None] | None] = {}  # read once each

    def __call__(self, finding: Finding, binding: Binding) -> Finding | None:
        """``finding`` (an unresolved section) said as hidden by a block, or None."""
        from forest_files.custody.restore_hidden import hidden_said

        if finding.kind != "unresolved" or finding.reason is not None:
            return None
        if "#" not in binding.selector:  # no heading's or anchor's selector
            return None
        hiders = self._read(binding.path)
        if hiders is None:
            return None
        holders = [(s, self._excludes.get(s, ())) for s in self._holders(binding)]
        target = (binding.selector, binding.excludes)
        hidden = hiders.hidden(target, holders, self._committed(binding.path))
        if hidden is None:
            return None
        holder = hidden.holder if hidden.restorable and hidden.holder is not None else ""
        advice = (None if holder else self._shared(binding.path, hidden)) or hidden.close()
        return replaced(
            finding,
            detail=hidden_said(binding.selector, hidden),
            reason=Reason(_kind(hidden), holder, hidden.line, advice=advice),
            candidates=(),
            candidate_lines=(),
        )

    def _shared(self, path: str, hidden: Hidden) -> str | None:
        """The close advice of the drifted holder's own route (route_close.py
        ``refused_close``) when its restore is refused over the block hiding this
        heading, said as that route's, to be followed once: two closes of one block,
        each before its own line, followed in order would open a block over the
        heading again. None: no such holder, its restore refuses another block (or a
        heading in it that may be new: this heading's own close may be where its lines
        end, as that refusal says), or the
        check read a commit (its routes restore; only the working tree's and the
        index's route a close: routes.py)."""
        from forest_files.check.route_close import refused_close
        from forest_files.kernel.shellword import printable

        holder, root = hidden.holder, getattr(self._source, "root", None)
        if holder is None or hidden.take_out or holder not in self._drifted or root is None:
            return None
        if getattr(self._source, "rev", None) is not None:  # a commit's: no close route
            return None
        target = (path, holder, self._excludes.get(holder, ()))
        refused = refused_close(root, target, self._drifted[holder])
        if refused is None or refused[0] != hidden.block_line or refused[2]:
            return None  # another block, or a heading that may be a line of this one
        return f"the same as {printable(holder)}'s route (follow it once, for both): {refused[1]}"

    def _committed(self, path: str) -> Callable[[], str | None] | None:
        """The file's text at HEAD, read when asked (a restore refuses a heading HEAD's
        file does not hold either: restore_swallowed.py); None: no work tree."""
        from forest_files.custody.restore_files import committed_text

        if path not in self._heads:
            root = getattr(self._source, "root", None)
            self._heads[path] = committed_text(root, path) if root is not None else None
        return self._heads[path]

    def _read(self, path: str) -> Hiders | None:
        if path not in self._hiders:
            self._hiders[path] = _hiders(self._text(path))
        return self._hiders[path]

    def _text(self, path: str) -> str | None:
        doc = self._documents.get(path)
        if doc is not None:
            return doc[1].text
        data = self._source.read(path)
        if data is None:
            return None
        try:
            return data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            return None

    def _holders(self, binding: Binding) -> list[str]:
        """The other bound selectors of the binding's file (the block's holder is one)."""
        from forest_files.text.selector import parse_selector
        from forest_files.text.selector_errors import SelectorError

        out = []
        for selector in self._bound:
            if selector == binding.selector or not selector.startswith(binding.path):
                continue
            try:
                if parse_selector(selector).path == binding.path:
                    out.append(selector)
            except SelectorError:
                continue
        return out


def _kind(hidden: Hidden) -> ReasonKind:
    """``hidden-split``: only taking the fence's line out mends the block
    (``Hidden.take_out``); else ``hidden``, the block closed or taken out."""
    return "hidden-split" if hidden.take_out else "hidden"


def _hiders(text: str | None) -> Hiders | None:
    from forest_files.custody.restore_hidden import Hiders
    from forest_files.kernel.errors import ForestError

    if text is None:
        return None
    try:
        return Hiders(text)
    except ForestError:  # a text the reader refuses (normalise.py): no heading to name
        return None
