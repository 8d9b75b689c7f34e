"""One entry point: the exact text a selector picks from a file, minus exclusions.

``extract`` first applies the declared normalisation (``NORMALISATION``:
BOM dropped, CRLF/CR -> LF; idempotent, so already-normalised text is
unchanged), resolves the selector to whole lines (boundaries are defined in
the resolver modules: whole file = every line; ``markdown.py``,
``pysymbol.py``, ``region.py``), then removes excluded line ranges. The text
returned is exactly those lines, final LF included where the file has one;
it never passes through Forest's scrub. ``section_hash`` is ``HASH_ALGO`` over
its UTF-8 bytes; a binding records ``NORMALISATION`` and ``HASH_ALGO`` so a
later policy change is never mistaken for drift.

Stores: nothing.
Refuses: whatever the selector, resolvers and exclusions refuse
(``SelectorError`` family), and with ``strict`` (adoption) an exclusion that
removed nothing (``ExcludeError`` saying what the section holds); never echoes
section bodies.
Returns: ``Extracted(text, start_line, end_line, excludes_matched, selector)``
where lines are 1-based inclusive in the normalised file (``end_line ==
start_line - 1`` for an empty section), ``excludes_matched`` holds the
canonical form of each exclusion that removed something, and ``selector`` is
the canonical full selector (full heading path, ``[n]`` only when needed).
Test: tests/test_extract.py, tests/test_selector_rules.py
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_files.kernel.hashing import hash_body
from forest_files.text.exclude import (
    ExcludeError,
    Exclusion,
    heading_range,
    line_ranges,
    meta_range,
    parse_exclusions,
    unmatched,
)
from forest_files.text.markdown import Heading, outline, resolve_heading
from forest_files.text.normalise import NORMALISATION, LineIndex, normalise_text
from forest_files.text.pysymbol import resolve_symbol
from forest_files.text.region import resolve_region
from forest_files.text.selector import Selector

__all__ = ["HASH_ALGO", "NORMALISATION", "Extracted", "extract", "section_hash"]

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


def extract(
    text: str, selector: Selector, excludes: tuple[str, ...] = (), *, strict: bool = False
) -> Extracted:
    """Select ``selector``'s section of ``text`` and drop ``excludes`` from it.

    ``strict`` (adoption) refuses an exclusion that matches nothing, saying what
    the section holds instead; a check (not strict) accepts it."""
    parsed = parse_exclusions(excludes)
    if parsed and selector.kind == "symbol":
        raise ExcludeError(
            f"{selector}: exclusions apply to Markdown/text sections; "
            "a Python symbol has no sub-headings or front matter"
        )
    text = normalise_text(text)
    lines = LineIndex(text)
    headings: list[Heading] | None = None
    owner: int | None = None
    canonical = selector
    if selector.kind == "file":
        lo, hi = 1, lines.count
    elif selector.kind == "heading":
        headings = outline(text, lines)
        heading, canonical = resolve_heading(text, selector, headings)
        lo, hi, owner = heading.start_line, heading.end_line, heading.start_line
    elif selector.kind == "symbol":
        symbol, canonical = resolve_symbol(text, selector)
        lo, hi = symbol.start_line, symbol.end_line
    else:
        lo, hi = resolve_region(lines, selector)
    cuts, matched = _exclusion_cuts(parsed, text, lines, headings, lo, hi, owner)
    if strict and len(matched) < len(parsed):
        missed = next(ex for ex in parsed if str(ex) not in matched)
        if missed.kind == "heading" and headings is None:
            headings = outline(text, lines)
        raise unmatched(missed, str(canonical), headings, lines, (lo, hi), owner)
    text_out = _assemble(lines, lo, hi, cuts)
    return Extracted(text_out, lo, hi, matched, canonical, tuple(sorted(cuts)))


def _exclusion_cuts(
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


def _assemble(lines: LineIndex, lo: int, hi: int, cuts: list[tuple[int, int]]) -> str:
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
