"""Marked regions: text between ``forest:begin NAME`` and ``forest:end NAME`` lines.

A marker is a line holding ``forest:begin NAME`` or ``forest:end NAME`` with
nothing else on it but whitespace and comment punctuation, so it works in
any comment syntax: ``<!-- forest:begin x -->``, ``# forest:begin x``,
``// forest:begin x``, ``/* forest:begin x */``, ``-- forest:begin x``.
Anything with letters or digits before or after (``foo()  # forest:begin x``,
``forest:begin x please``) is not a marker. Markers are found textually,
also inside code fences.

Section boundaries (exact): the lines strictly between the begin marker line
and the end marker line; both marker lines are outside the section, so
restoring the region never rewrites a marker. Adjacent markers give an empty
section. Regions of different names may nest or overlap; only markers of the
requested name are checked. No language is parsed: a marker in a string
literal, a heredoc or a comment syntax the file's language lacks is a marker,
and nothing outside the section (the rest of a marker line, a ``/*`` above, a
heredoc around) is bound; docs/cli.md says so to users.

Stores: nothing.
Refuses (``RegionError``): an end without a begin above it, a begin without
an end, a name marked more than once; ``SectionNotFound`` (listing the
region names present) when no begin marker of that name exists.
Returns: the region's inclusive 1-based line range.
Test: tests/text/test_selectors.py
"""

from __future__ import annotations

import re

from forest_files.text.normalise import LineIndex
from forest_files.text.selector import REGION_NAME, Selector
from forest_files.text.selector_errors import SectionNotFound, SelectorError

_MARKER_RE = re.compile(rf"^[^\w\n]*forest:(begin|end)[ \t]+({REGION_NAME})[^\w\n]*$", re.MULTILINE)


class RegionError(SelectorError):
    """Region markers of one name are unbalanced or duplicated."""


def markers(lines: LineIndex) -> list[tuple[str, str, int]]:
    """Every marker as ``(begin|end, name, line)`` in file order."""
    return [
        (m.group(1), m.group(2), lines.line_of(m.start())) for m in _MARKER_RE.finditer(lines.text)
    ]


def resolve_region(
    lines: LineIndex, sel: Selector, found: list[tuple[str, str, int]] | None = None
) -> tuple[int, int]:
    """``(start_line, end_line)`` of region ``sel``; empty when markers touch
    (``found``: the ``markers`` of ``lines``, when already listed)."""
    name = sel.parts[0]
    found = markers(lines) if found is None else found
    mine = [(kind, line) for kind, nm, line in found if nm == name]
    where = f"{sel.path}@{name}"
    if not mine:
        names = sorted({nm for _, nm, _ in found})
        listed = ", ".join(names[:10]) if names else "none"
        raise SectionNotFound(
            f"{where}: no 'forest:begin {name}' marker line; regions in the file: {listed}"
        )
    begins = [line for kind, line in mine if kind == "begin"]
    ends = [line for kind, line in mine if kind == "end"]
    if len(begins) > 1 or len(ends) > 1:
        lines_ = ", ".join(str(line) for _, line in mine)
        raise RegionError(
            f"{where}: region {name!r} is marked more than once (marker lines {lines_}); "
            "region names must be unique within a file"
        )
    if not begins:
        raise RegionError(f"{where}: 'forest:end {name}' at line {ends[0]} has no begin marker")
    if not ends:
        raise RegionError(
            f"{where}: 'forest:begin {name}' at line {begins[0]} has no "
            f"'forest:end {name}' after it"
        )
    if ends[0] < begins[0]:
        raise RegionError(
            f"{where}: 'forest:end {name}' at line {ends[0]} comes before its "
            f"'forest:begin {name}' at line {begins[0]}"
        )
    return begins[0] + 1, ends[0] - 1
