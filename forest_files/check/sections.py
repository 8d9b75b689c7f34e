"""Where each bound section of a content stands: every section one parse, once per run.

Stores: nothing itself; the parse cache (``.git/forest``, custody/statcache.py) it is
handed keeps each section's place under the normalised file hash for later runs.
Refuses: nothing; a section that cannot be found is a reason (``Why``: a string, with
the typed ``Reason`` its routes choose by where they differ by it): a file no
longer UTF-8 text (the reader's refusal, ending with what fixes a bound file:
``SourceRefused.of_bound_file``), a bad selector, or ``NotFound`` (the selector
matched nothing, or more than one heading without ``[n]``: its section may have moved
or been renamed, which the check searches for).
Returns: ``Sections`` (a run's places: (section hash, first line, last line) by file
hash and selector + exclusions) and the parsed ``Document`` of each file in which a
selector found nothing, for the run's search of moves (move_search.py).
Test: tests/check/test_parse_once.py, tests/custody/test_statcache.py

A section binding is located by the parse cache under the file hash, else parsed —
once per content and run, for every binding of that path at once, so a file holding
hundreds of bound sections costs one parse, not hundreds.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from forest_files.check.finding import Reason
from forest_files.custody.bindings import Binding
from forest_files.custody.statcache import ParseCache
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.text.normalise import SourceRefused, decode_bytes

if TYPE_CHECKING:
    from forest_files.text.extract import Document
    from forest_files.text.selector import Selector


class Why(str):
    """Why a section cannot be found, in words (the finding's detail), with the typed
    ``Reason`` its routes choose by (None: the routes need none)."""

    reason: Reason | None

    def __new__(cls, text: str, reason: Reason | None = None) -> Why:
        self = super().__new__(cls, text)
        self.reason = reason
        return self


class NotFound(Why):
    """Why a selector matched nothing (its section may have moved or been renamed)."""


Located = tuple[str, int, int]  # (section hash, first line, last line)
Want = tuple[str, tuple[str, ...]]  # a binding's (selector, exclusions)


class Sections:
    """Where each bound section of a content stands, for one check run: this run's
    answer or the parse cache's (by normalised file hash), else found now. A content
    is parsed once, for every binding of its path the run judges (``text.extract.
    sections``), whatever the number of sections it holds; a file in which a selector
    found nothing keeps its parsed ``Document`` for the run's search of moves."""

    def __init__(self, parsed: ParseCache | None, bindings: list[Binding]) -> None:
        self.parsed = parsed
        self._bindings = bindings
        self._wanted: dict[str, dict[Want, None]] | None = None  # grouped on first parse
        self._found: dict[str, dict[Want, Located | Why]] = {}
        self.documents: dict[str, tuple[str, Document]] = {}  # path -> (file hash, parsed)

    def get(self, file_hash: str | None, binding: Binding) -> Located | Why | None:
        """The section's place in the content hashing to ``file_hash``, when known."""
        if file_hash is None:
            return None
        want = (binding.selector, binding.excludes)
        got = self._found.get(file_hash, {}).get(want)
        if got is None and self.parsed is not None:
            got = self.parsed.get(file_hash, *want)
        return got

    def locate(self, data: bytes, file_hash: str | None, binding: Binding) -> Located | Why:
        """(hash, start, end) of the bound section in ``data``, or why it cannot be found;
        every other section the run wants of that path is found by the same parse."""
        want = (binding.selector, binding.excludes)
        if self._wanted is None:  # a clean whole-file check parses nothing: never grouped
            self._wanted = {}
            for b in self._bindings:
                self._wanted.setdefault(b.path, {})[(b.selector, b.excludes)] = None
        wanted = [*self._wanted.get(binding.path, {}), want]
        found, doc = _locate(data, binding.path, wanted)
        if file_hash is not None:
            self._found.setdefault(file_hash, {}).update(found)
            if doc is not None and any(isinstance(v, NotFound) for v in found.values()):
                self.documents[binding.path] = (file_hash, doc)
        if self.parsed is not None and file_hash is not None:  # for later runs too
            for (selector, excludes), one in found.items():
                if not isinstance(one, str):
                    self.parsed.put(file_hash, selector, excludes, one)
        return found[want]


def _locate(
    data: bytes, path: str, wanted: list[Want]
) -> tuple[dict[Want, Located | Why], Document | None]:
    """Each wanted section of ``data`` (read at ``path``), from one parse."""
    from forest_files.text.extract import Document, sections  # only for a changed file
    from forest_files.text.selector import parse_selector
    from forest_files.text.selector_errors import AmbiguousSelector, SectionNotFound

    try:
        doc = Document(decode_bytes(data, path))
    except SourceRefused as exc:  # a NUL byte, not UTF-8, a lone CR: what fixes it
        why = Reason("not-text", exc.reason, exc.line, exc.offset, exc.advice)
        return dict.fromkeys(wanted, Why(exc.of_bound_file(), why)), None
    except ForestError as exc:
        return {w: Why(str(exc)) for w in wanted}, None
    out: dict[Want, Located | Why] = {}
    asked: list[tuple[Want, Selector]] = []
    for w in wanted:
        try:
            asked.append((w, parse_selector(w[0])))
        except ForestError as exc:
            out[w] = Why(str(exc))
    got = sections(doc, [(sel, w[1]) for w, sel in asked])
    for w, sel in asked:
        one = got[(sel, w[1])]
        if isinstance(one, SectionNotFound) or (
            # A heading named like the bound one added before it makes the selector
            # match twice: its unchanged section now stands at ``[2]``, found as a move.
            # (An id written twice is the file's fault, said in one line: anchors.py.)
            isinstance(one, AmbiguousSelector) and sel.kind != "anchor"
        ):
            out[w] = NotFound(str(one), _reason(one))
        elif isinstance(one, ForestError):
            out[w] = Why(str(one), _reason(one))
        else:
            out[w] = (hash_body(one.text), one.start_line, one.end_line)
    return out, doc


def _reason(refused: ForestError) -> Reason | None:
    """The typed reason of a symbol's refusal its routes act on: the file is not
    Python (where), or the definition is bound anew later in its block (line, by what)."""
    # only a symbol's parse raises these, once pysymbol is loaded: a heading's refusal
    # never imports it (nor ``ast``) here
    pysymbol = sys.modules.get("forest_files.text.pysymbol")
    if pysymbol is None:
        return None
    if isinstance(refused, pysymbol.SymbolSourceError) and refused.where:
        return Reason("not-python", refused.where)
    if isinstance(refused, pysymbol.ReplacedSymbol) and refused.line:
        return Reason("replaced", refused.by, refused.line)
    return None
