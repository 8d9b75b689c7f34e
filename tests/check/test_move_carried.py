"""The carriers a moved section is looked up under (move_carried.py ``_prefixes``):
only prefixes that hold a ``#``, so the folders of its path are never asked.

A carrier is a heading (``_heading``: a heading selector, which always holds a
``#``), so a prefix without one is never a carrier: the walk over every character
of every selector, for every ``/`` of its path, did work no answer needed. A
hypothesis property proves the prefixes those of the walk that hold a ``#``, and
another that no text without a ``#`` is taken as a heading: ``carried`` answers the
same.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from forest_files.check.move_carried import _heading, _prefixes

_SELECTOR = st.text(alphabet="ab/#\\:@[]{}1 .", max_size=16)


def _walk(selector: str) -> list[str]:
    """Each prefix before a ``/``, char by char (the old ``_prefixes``)."""
    return [selector[:i] for i, ch in enumerate(selector) if ch == "/"]


def test_prefixes_folder_moved_section_no_folder_asked_accepted() -> None:
    assert _prefixes("vault/old/n0001.md#Part 3") == []
    assert _prefixes("vault/old/n0001.md#Book/Part/Scene") == [
        "vault/old/n0001.md#Book",
        "vault/old/n0001.md#Book/Part",
    ]


@settings(max_examples=400, deadline=None)
@given(_SELECTOR)
@example("a\\#b/c.md#H/X")
@example("x#y#z/w/")
def test_prefixes_equal_walk_holding_mark_accepted(selector: str) -> None:
    assert _prefixes(selector) == [p for p in _walk(selector) if "#" in p]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab/\\:@[]{}1 .", max_size=16))
@example("a/b.md")
@example("a/b.md::C.m")
def test_text_without_mark_never_a_heading_accepted(text: str) -> None:
    assert _heading(text) is None
