"""The places of one parsed file the moved search hashes: each section of a kind it
asks for, with its span, and a section's text under a binding's exclusions.

Stores: nothing.
Refuses: nothing (a symbol parse that fails, a region that does not resolve, or
exclusions that cannot apply yield no place or no text).
Returns: ``sections`` (``Place`` and ``Span`` per section, document order),
``section_text`` (the text a binding with those exclusions would hash, or None).
Test: tests/check/test_moves.py, tests/check/test_move_candidates.py
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from forest_files.kernel.errors import ForestError
from forest_files.text.normalise import LineIndex
from forest_files.text.selector import Kind, Selector

if TYPE_CHECKING:
    from forest_files.text.extract import Document
    from forest_files.text.markdown import Heading

Excludes = tuple[str, ...]
Span = tuple[str, int, int, int | None]  # (kind, first line, last line, owning heading line)
MARKDOWN = (".md", ".markdown", ".mdx", ".mdown", ".mkd")


class Place(NamedTuple):
    """A section somewhere in the content: where it is and its first line. (A tuple:
    the index holds one per section of every candidate, and renders few of them.)"""

    path: str
    kind: Kind
    parts: tuple[str, ...]
    ordinal: int | None  # the [n] its canonical selector needs (None: none)
    line: int
    anchors: tuple[str, ...] = ()  # a heading's stable ids (anchors.py)
    end: int = 0  # its last line (a moved finding's lines: move_search.py)


def suffix(path: str) -> str:
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""


def sections(
    doc: Document,
    path: str,
    heads: list[Heading] | None,
    kinds: set[str],
    keep_outline: bool,
) -> Iterable[tuple[Place, Span]]:
    """Each section of a kind in ``kinds`` (and, with ``keep_outline``, every heading
    and symbol): its place and span."""
    if "file" in kinds:
        whole = Place(path, "file", (), None, 1, (), doc.lines.count)
        yield whole, ("file", 1, doc.lines.count, None)
    if suffix(path) == ".py" and ("symbol" in kinds or keep_outline):
        yield from _symbols(doc, path)
    if heads is not None and ("heading" in kinds or keep_outline):
        index = _heading_ordinals(heads)
        for h, n in zip(heads, index, strict=True):
            start = h.start_line
            place = Place(path, "heading", h.path, n, start, h.anchors, h.end_line)
            yield place, ("heading", start, h.end_line, start)
    if "region" in kinds:
        yield from _regions(doc, path)


def _symbols(doc: Document, path: str) -> Iterable[tuple[Place, Span]]:
    try:  # an @overload stub is never a selector's match (pysymbol.resolve_symbol)
        found = [s for s in doc.symbols(path) if not s.stub]
    except ForestError:
        return
    index = _ordinals([s.path for s in found])
    for s, n in zip(found, index, strict=True):
        if s.replaced_at is not None:  # the name is bound again later: never a move's place
            continue
        place = Place(path, "symbol", s.path, n, s.start_line, (), s.end_line)
        yield place, ("symbol", s.start_line, s.end_line, None)


def _regions(doc: Document, path: str) -> Iterable[tuple[Place, Span]]:
    if "forest:begin" not in doc.text:
        return
    from forest_files.text.region import resolve_region

    found = doc.markers()
    for name in sorted({nm for kind, nm, _ in found if kind == "begin"}):
        try:
            lo, hi = resolve_region(doc.lines, Selector(path, "region", (name,)), found)
        except ForestError:
            continue
        yield Place(path, "region", (name,), None, lo, (), hi), ("region", lo, hi, None)


def _heading_ordinals(heads: list[Heading]) -> list[int | None]:
    """The ``[n]`` each heading's canonical selector needs: its rank among the headings
    its full path matches as a tail (``A/B`` also matches ``X/A/B``), as markdown.py
    records one; None when it matches itself only."""
    from forest_files.text.markdown import Peers

    same = Peers(heads)
    out: list[int | None] = []
    for pos, h in enumerate(heads):
        peers = same(h.path)
        out.append(peers.index(pos) + 1 if len(peers) > 1 else None)
    return out


def _ordinals(paths: Sequence[tuple[str, ...]]) -> list[int | None]:
    """The ``[n]`` each symbol's full path needs (None when it occurs once)."""
    counts: dict[tuple[str, ...], int] = {}
    for p in paths:
        counts[p] = counts.get(p, 0) + 1
    seen: dict[tuple[str, ...], int] = {}
    out: list[int | None] = []
    for p in paths:
        seen[p] = seen.get(p, 0) + 1
        out.append(seen[p] if counts[p] > 1 else None)
    return out


def section_text(
    text: str,
    lines: LineIndex,
    heads: list[Heading] | None,
    span: Span,
    excludes: Excludes,
) -> str | None:
    """The section's text under ``excludes`` (None when they cannot apply to it)."""
    kind, lo, hi, owner = span
    if not excludes:
        return text[lines.offset(lo) : lines.offset(hi + 1)]
    if kind == "symbol" and not all(e.startswith("normalise:") for e in excludes):
        return None
    # extract's own exclusion steps, on the outline already parsed for this file
    from forest_files.text.exclude import parse_exclusions
    from forest_files.text.extract import assemble, exclusion_cuts

    try:
        parsed = parse_exclusions(excludes)
        cuts, _ = exclusion_cuts(parsed, text, lines, heads, lo, hi, owner)
        out = assemble(lines, lo, hi, cuts)
        labels = [ex.key for ex in parsed if ex.kind == "normalise"]
        if labels:  # and its declared normalisations (text/normalisers.py)
            from forest_files.text.normalisers import apply

            out = apply(labels, out, text, kind, "a moved section")
    except ForestError:
        return None
    return out
