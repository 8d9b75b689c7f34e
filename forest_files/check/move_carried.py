"""A chapter split shown once: the moved subsections a heading's one rebind carries.

``forest rebind FILE#A FILE2#A`` carries the heading's bound subtree (``A/B`` to
``FILE2#A/B``: custody/lookup.py ``descendants``). So when a chapter is cut into a
file of its own, a file is renamed, or a chapter's heading renamed, its bound
subsections are ``moved`` exactly where their chapter's rebind puts them: one route
settles them all, and a route of their own, pasted after the chapter's, is refused
(its binding moved already). The chapter's finding is ``moved``, or names one place
it may stand now (finding.py ``target``: a renamed heading's one candidate).
``carried`` names those findings so a terminal shows each under the outermost such
heading that carries it, with no block of its own. Display only: every binding is
still judged, fails and keeps its own routes in machine output.

A subsection is carried only when its finding is ``moved`` to the very selector the
rule gives (the same file as the heading's, parts below it, the heading's new parts
in front); one moved anywhere else, drifted, or unresolved keeps its own block.
A heading whose place has an ``[n]``, or whose new place is in a file whose name is
not UTF-8 (its route renames that file first), carries nothing here.

Stores: nothing.
Refuses: nothing.
Returns: ``carried``: the id of each carrying item -> the items it carries, in order.
Test: tests/check/test_chapter_split.py, tests/check/test_move_carried.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from forest_files.check.finding import target
from forest_files.kernel.errors import ForestError
from forest_files.text.selector import Selector, parse_selector, render

if TYPE_CHECKING:
    from forest_files.check.findings import Reported


def _heading(text: str | None) -> Selector | None:
    """The heading selector ``text`` names without an ``[n]``; None for anything else."""
    if not text:
        return None
    try:
        sel = parse_selector(text)
    except ForestError:
        return None
    return sel if sel.kind == "heading" and sel.index is None else None


def carried(items: Sequence[Reported]) -> dict[int, tuple[Reported, ...]]:
    """Each heading's item (by ``id``) whose finding names one place -> the moved items
    its rebind carries to where they stand now, under the outermost such heading."""
    # A carrier's selector is a prefix of the selector of each section it carries, up
    # to a "/" after its "#": tested on the strings first, so a move of many sections
    # that carry none (a folder of files moved) parses no selector here.
    placed = {r.finding.selector: r for r in items if target(r.finding)}
    under = [r for r in items if r.finding.kind == "moved" and r.finding.moved_to]
    under = [r for r in under if any(p in placed for p in _prefixes(r.finding.selector))]
    if not under:
        return {}
    heads: dict[tuple[str, tuple[str, ...]], tuple[Reported, Selector]] = {}
    for r in placed.values():
        old, new = _heading(r.finding.selector), _heading(target(r.finding))
        if old and new:
            heads[(old.path, old.parts)] = (r, new)
    out: dict[int, list[Reported]] = {}
    for r in under:
        f = r.finding
        try:
            sel = parse_selector(f.selector)
        except ForestError:
            continue
        if sel.kind != "heading":
            continue
        for depth in range(1, len(sel.parts)):  # the outermost carrier first
            head = heads.get((sel.path, sel.parts[:depth]))
            if head is None:
                continue
            carrier, new = head
            there = Selector(new.path, "heading", (*new.parts, *sel.parts[depth:]), sel.index)
            if render(there) == f.moved_to:
                out.setdefault(id(carrier), []).append(r)
                break
    return {key: tuple(found) for key, found in out.items()}


def _prefixes(selector: str) -> list[str]:
    """Each prefix of ``selector`` that ends before one of its ``/`` and holds a ``#``:
    a carrier is a heading, whose selector holds one, so the folders of the path are
    never a carrier's (a folder of 2,000 moved sections walked every character of
    every selector for them)."""
    out: list[str] = []
    mark = selector.find("#")
    cut = selector.find("/", mark) if mark >= 0 else -1
    while cut >= 0:
        out.append(selector[:cut])
        cut = selector.find("/", cut + 1)
    return out


def carried_line(r: Reported) -> str:
    """The line naming a carried subsection under its heading's block (not printable yet)."""
    f = r.finding
    where = f" lines {f.start_line}-{f.end_line}" if f.start_line else ""
    return f"  carried by the rebind above: {f.selector}, now at {f.moved_to}{where}"
