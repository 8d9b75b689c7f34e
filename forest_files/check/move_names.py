"""How the moved search names what it found: a place's full selector (rendered only
for a place a finding shows), a binding's selector kind, and, for a heading id no
heading carries any more, which ids a file holds once and how much one reads like
the id gone.

Stores: nothing.
Refuses: nothing (a place or path no selector can name, its selector too long among
them, is named None: never a route's target).
Returns: ``Candidate`` (a place shown: selector and first line), ``place_selector``
(None past ``MAX_SELECTOR_CHARS`` too), ``unnamed_why`` (why None), ``path_base``,
``binding_kind``, ``unique_ids``, ``likeness``.
Test: tests/check/test_moves.py, tests/check/test_move_candidates.py,
tests/check/test_moved_unnamed.py
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

from forest_files.check.move_places import Place
from forest_files.custody.bindings import Binding
from forest_files.kernel.errors import ForestError
from forest_files.text.selector import (
    MAX_INDEX,
    MAX_SELECTOR_CHARS,
    Selector,
    check_heading_part,
    parse_selector,
    render,
    render_heading_path,
    render_path,
    validate_path,
)
from forest_files.text.selector_errors import SelectorError


class Candidate(NamedTuple):
    """A place shown to the user: its full selector and its first line."""

    selector: str
    line: int


def likeness(gone: str, selector: str) -> float:
    """How much a candidate's id, or its heading name as a slug, reads like the id
    gone (``glass-road`` against ``#{glass-road-2}`` or ``#A/The Glass Road``)."""
    import difflib

    own = selector.rpartition("#")[2].rpartition("/")[2].strip("{}")
    slug = "-".join(own.casefold().split())
    return difflib.SequenceMatcher(None, gone.casefold(), slug, autojunk=False).ratio()


def unique_ids(heads: Sequence[Place]) -> set[str]:
    """The heading ids that occur on one heading of the file only (an id on two is
    no selector: anchors.py refuses it)."""
    count: dict[str, int] = {}
    for p in heads:
        for a in p.anchors:
            count[a] = count.get(a, 0) + 1
    return {a for a, n in count.items() if n == 1}


@functools.lru_cache(maxsize=4096)
def path_base(path: str) -> str | None:
    """``path`` as a selector renders it, checked once per path (None: no selector
    can name it)."""
    try:
        return render_path(validate_path(path))
    except ForestError:
        return None


def place_selector(place: Place) -> str | None:
    """The place's full selector, rendered only for a place that is looked at; None
    when no selector can name it (an empty heading, or a long path and a long heading
    path longer together than ``MAX_SELECTOR_CHARS``, say): never a route's target."""
    shown = _rendered(place)
    return shown if shown is not None and len(shown) <= MAX_SELECTOR_CHARS else None


def unnamed_why(place: Place) -> str:
    """Why ``place_selector`` names ``place`` None: the selector's own refusal of its
    path or section (a control character in the path, say), or its length."""
    try:
        shown = render(Selector(place.path, place.kind, place.parts, place.ordinal))
    except SelectorError as exc:
        return exc.problem
    return f"its selector would be {len(shown)} characters, longer than {MAX_SELECTOR_CHARS}"


def _rendered(place: Place) -> str | None:
    """The place's selector as ``render`` spells it, its length not judged."""
    base = path_base(place.path)
    if base is None:
        return None
    if place.kind == "file":
        return base
    try:
        if place.kind == "heading":  # Selector's own checks, the path's done once
            for part in place.parts:
                check_heading_part(part)
            if place.ordinal is not None and not 1 <= place.ordinal <= MAX_INDEX:
                return None
            return f"{base}#{render_heading_path(place.parts, place.ordinal)}"
        return render(Selector(place.path, place.kind, place.parts, place.ordinal))
    except ForestError:
        return None


def binding_kind(binding: Binding) -> str:
    """The selector kind of a binding, from the marker after its (escaped) path."""
    if binding.selector == binding.path:
        return "file"
    base = path_base(binding.path)
    marker = binding.selector[len(base) : len(base) + 1] if base is not None else ""
    # an anchor (``#{id}``) picks a heading's section: a heading elsewhere may hold it
    return {"#": "heading", "@": "region", ":": "symbol"}.get(marker) or parse_selector(
        binding.selector
    ).kind
