"""One entry point: the exact text a selector picks from a file, minus exclusions.

``extract`` first applies the declared normalisation (``NORMALISATION``:
BOM dropped, CRLF/CR -> LF; idempotent, so already-normalised text is
unchanged), resolves the selector to whole lines (boundaries are defined in
the resolver modules: whole file = every line; ``markdown.py``,
``pysymbol.py``, ``region.py``), then removes excluded line ranges, then
applies the binding's declared normalisations (``normalise:NAME@V`` items among
its exclusions: normalisers.py), so the section hash is the hash of the section
as the binding sees it. The text
returned is exactly those lines, final LF included where the file has one;
it never passes through Forest's scrub. ``section_hash`` is ``HASH_ALGO`` over
its UTF-8 bytes; a binding records ``NORMALISATION`` and ``HASH_ALGO`` so a
later policy change is never mistaken for drift.

A file holding many bound sections is parsed once, not once per section:
``Document`` keeps one normalised text with its line index and, computed the
first time a selector needs them, its Markdown outline, Python symbols and
region markers; ``extract`` takes a ``Document`` as well as a string, and
``sections(text, requests)`` cuts every requested section from one
``Document`` (a request that cannot be resolved gives its error, the others
still resolve).

Stores: nothing.
Refuses: whatever the selector, resolvers and exclusions refuse
(``SelectorError`` family), and with ``strict`` (adoption) an exclusion that
removed nothing (``ExcludeError`` saying what the section holds); never echoes
section bodies.
Returns: ``Extracted(text, start_line, end_line, excludes_matched, selector)``
where lines are 1-based inclusive in the normalised file (``end_line ==
start_line - 1`` for an empty section), ``excludes_matched`` holds the
canonical form of each exclusion that removed something, and ``selector`` is
the canonical full selector (full heading path, ``[n]`` only when needed);
``sections`` returns a dict from each request to its ``Extracted`` or its
refusal.
Test: tests/text/test_extract.py, tests/text/test_selector_rules.py, tests/check/test_parse_once.py,
tests/text/test_stable_anchors.py, tests/text/test_normalisers.py
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.text.anchors import block_ids, resolve_anchor
from forest_files.text.exclude import (
    ExcludeError,
    Exclusion,
    heading_range,
    line_ranges,
    meta_range,
    parse_exclusions,
    unmatched,
)
from forest_files.text.markdown import Heading, Peers, outline, resolve_heading
from forest_files.text.normalise import NORMALISATION, LineIndex, normalise_text
from forest_files.text.selector import Selector
from forest_files.text.selector_errors import SectionNotFound

if TYPE_CHECKING:  # loaded by the selector kinds that need them: a Markdown check never
    from forest_files.text.pysymbol import Symbol  # parses Python nor reads region markers

__all__ = [
    "HASH_ALGO",
    "NORMALISATION",
    "Document",
    "Extracted",
    "Request",
    "extract",
    "section_hash",
    "sections",
]

HASH_ALGO = "sha256"


@dataclass(frozen=True)
class Extracted:
    """The selected text (after exclusions) and where it sits in the file."""

    text: str
    start_line: int
    end_line: int
    excludes_matched: tuple[str, ...]
    selector: Selector
    cuts: tuple[tuple[int, int], ...] = ()  # excluded inclusive line ranges (restore)


def section_hash(text: str) -> str:
    """Lowercase hex ``HASH_ALGO`` digest of ``text`` encoded as UTF-8."""
    return hash_body(text)


Request = tuple[Selector, tuple[str, ...]]  # a selector and its exclusions


class Document:
    """One file's normalised text and line index, and what its selectors are resolved
    against, each computed at most once: the Markdown outline (with the suffix index
    of its heading paths), the Python symbols, the region markers."""

    __slots__ = ("_blocks", "_headings", "_markers", "_peers", "_symbols", "lines", "text")

    def __init__(self, text: str) -> None:
        self.text = normalise_text(text)
        self.lines = LineIndex(self.text)
        self._headings: list[Heading] | None = None
        self._peers: Peers | None = None
        self._symbols: dict[str, list[Symbol] | ForestError] = {}
        self._markers: list[tuple[str, str, int]] | None = None
        self._blocks: list[tuple[str, int, int]] | None = None

    def headings(self) -> list[Heading]:
        """The Markdown outline (markdown.py), parsed on first use."""
        if self._headings is None:
            self._headings = outline(self.text, self.lines)
        return self._headings

    def peers(self) -> Peers:
        """Heading-path matcher shared by every selector of this text."""
        if self._peers is None:
            self._peers = Peers(self.headings())
        return self._peers

    def symbols(self, path: str) -> list[Symbol]:
        """The Python definitions (pysymbol.py), parsed on first use; a refusal is kept
        and raised again for every later symbol selector."""
        got = self._symbols.get(path)
        if got is None:
            from forest_files.text.pysymbol import symbols

            try:
                got = symbols(self.text, path)
            except ForestError as exc:
                got = exc
            self._symbols[path] = got
        if isinstance(got, ForestError):
            raise got.with_traceback(None)  # the same refusal, no traceback piling up
        return got

    def blocks(self) -> list[tuple[str, int, int]]:
        """The Obsidian block ids (anchors.py), found on first use."""
        if self._blocks is None:
            self._blocks = block_ids(self.lines)
        return self._blocks

    def markers(self) -> list[tuple[str, str, int]]:
        """The region markers (region.py), found on first use."""
        if self._markers is None:
            from forest_files.text.region import markers

            self._markers = markers(self.lines)
        return self._markers


def extract(
    text: str | Document,
    selector: Selector,
    excludes: tuple[str, ...] = (),
    *,
    strict: bool = False,
) -> Extracted:
    """Select ``selector``'s section of ``text`` and drop ``excludes`` from it.

    ``strict`` (adoption) refuses an exclusion that matches nothing, saying what
    the section holds instead; a check (not strict) accepts it. A ``Document``
    keeps what one call parsed for the next."""
    parsed = parse_exclusions(excludes)
    norms = tuple(ex for ex in parsed if ex.kind == "normalise")
    if norms:
        parsed = tuple(ex for ex in parsed if ex.kind != "normalise")
    if parsed and selector.kind == "symbol":
        raise ExcludeError(
            f"{selector}: exclusions apply to Markdown/text sections; "
            "a Python symbol has no sub-headings or front matter"
        )
    doc = text if isinstance(text, Document) else Document(text)
    lines = doc.lines
    headings: list[Heading] | None = None
    owner: int | None = None
    canonical = selector
    if selector.kind == "file":
        lo, hi = 1, lines.count
    elif selector.kind == "heading":
        headings = doc.headings()
        heading, canonical = resolve_heading(doc.text, selector, headings, doc.peers())
        lo, hi, owner = heading.start_line, heading.end_line, heading.start_line
    elif selector.kind == "anchor":
        headings = doc.headings()
        lo, hi, owner, canonical = _anchored(doc, selector, headings)
    elif selector.kind == "symbol":
        from forest_files.text.pysymbol import resolve_symbol

        symbol, canonical = resolve_symbol(doc.text, selector, doc.symbols(selector.path))
        lo, hi = symbol.start_line, symbol.end_line
    else:
        from forest_files.text.region import resolve_region

        lo, hi = resolve_region(lines, selector, doc.markers())
    if parsed and headings is None and any(ex.kind == "heading" for ex in parsed):
        headings = doc.headings()
    cuts, matched = exclusion_cuts(parsed, doc.text, lines, headings, lo, hi, owner)
    if strict and len(matched) < len(parsed):
        missed = next(ex for ex in parsed if str(ex) not in matched)
        if missed.kind == "heading" and headings is None:
            headings = doc.headings()
        raise unmatched(missed, str(canonical), headings, lines, (lo, hi), owner)
    text_out = assemble(lines, lo, hi, cuts)
    if norms:  # declared normalisations, after the exclusions (normalisers.py)
        from forest_files.text.normalisers import apply

        labels = [ex.key for ex in norms]
        text_out = apply(labels, text_out, doc.text, selector.kind, str(canonical), selector.path)
        matched += tuple(str(ex) for ex in norms)
    return Extracted(text_out, lo, hi, matched, canonical, tuple(sorted(cuts)))


def _anchored(
    doc: Document, selector: Selector, headings: list[Heading]
) -> tuple[int, int, int | None, Selector]:
    """The lines of an anchor selector's section. A selector recorded before anchors
    existed for a heading literally named ``{x}`` still resolves to that heading
    when no id ``x`` is in the file (and keeps its recorded form)."""
    blocks = doc.blocks() if selector.parts[0].startswith("^") else None
    try:
        lo, hi, owner = resolve_anchor(selector, headings, blocks)
    except SectionNotFound:
        literal = replace(selector, kind="heading", parts=("{" + selector.parts[0] + "}",))
        if not doc.peers()(literal.parts):
            raise
        heading, _ = resolve_heading(doc.text, literal, headings, doc.peers())
        return heading.start_line, heading.end_line, heading.start_line, selector
    return lo, hi, owner, selector


def sections(
    text: str | Document, requests: Iterable[Request]
) -> dict[Request, Extracted | ForestError]:
    """Every requested section of one text, parsed once: each request's
    ``Extracted``, or the refusal ``extract`` would have raised for it alone."""
    doc = text if isinstance(text, Document) else Document(text)
    out: dict[Request, Extracted | ForestError] = {}
    for request in requests:
        if request in out:
            continue
        try:
            out[request] = extract(doc, *request)
        except ForestError as exc:
            out[request] = exc
    return out


def exclusion_cuts(
    parsed: tuple[Exclusion, ...],
    text: str,
    lines: LineIndex,
    headings: list[Heading] | None,
    lo: int,
    hi: int,
    owner: int | None,
) -> tuple[list[tuple[int, int]], tuple[str, ...]]:
    cuts: list[tuple[int, int]] = []
    matched: list[str] = []
    for ex in parsed:
        if ex.kind == "normalise":  # never a cut: applied after (normalisers.py)
            continue
        if ex.kind == "line":
            found = line_ranges(ex, lines, lo, hi, owner)
            cuts.extend(found)
            if found:
                matched.append(str(ex))
            continue
        if ex.kind == "meta":
            cut = meta_range(ex, lines, lo, hi)
        else:
            if headings is None:
                headings = outline(text, lines)
            cut = heading_range(ex, headings, lo, hi, owner)
        if cut is not None:
            cuts.append(cut)
            matched.append(str(ex))
    return cuts, tuple(matched)


def assemble(lines: LineIndex, lo: int, hi: int, cuts: list[tuple[int, int]]) -> str:
    """Lines ``lo..hi`` without the (possibly overlapping) ``cuts``."""
    pieces: list[str] = []
    pos = lo
    for start, end in sorted(cuts):
        if start > pos:
            pieces.append(lines.text[lines.offset(pos) : lines.offset(start)])
        pos = max(pos, end + 1)
    if pos <= hi:
        pieces.append(lines.text[lines.offset(pos) : lines.offset(hi + 1)])
    return "".join(pieces)
