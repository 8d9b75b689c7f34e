"""Splitting a selector's path from its section: the fast path equals the walk.

``split_path`` finds the first marker (``#``, ``@``, ``::``) of a selector with no
backslash in one regex search; a selector with a backslash (an escaped ``\\#``,
``\\@``, ``\\:`` in a file name) is walked char by char (``walk_path``). These
properties hold the two to the same answer on generated selectors, hostile ones
included (markers side by side, lone and tripled colons, anchors, control
characters, unicode), and every path ``parse_selector`` accepts to the walk's.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from forest_files.text.selector import parse_selector
from forest_files.text.selector_errors import SelectorError
from forest_files.text.selector_split import split_path, walk_path

PIECES = [
    "a", "b.md", "docs/", "/", "#", "@", ":", "::", ":::", "\\", "\\#", "\\@", "\\:",
    "{", "}", "{^", "[", "]", "[2]", ".", "..", " ", "é", "日本", "\u200b", "\x00",
    "\n", "\x7f", "\t", "x_1", "Part 1", "{id}", "{^blk-1}",
]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=12).map("".join)
plain = texts.map(lambda t: t.replace("\\", ""))


@settings(max_examples=400, deadline=None)
@given(plain)
@example("notes/a.md#Decision/Status")
@example("a.md::B.c[2]")
@example("pkgs/@scope/x.md@region-1")
@example("a:::b")
@example("a.md#@::x")
@example(":")
@example("")
@example("a.md#{^blk}")
@example("r\u00e9sum\u00e9.md#\u00c9t\u00e9\x00")
def test_split_without_backslash_is_the_walk_accepted(text: str) -> None:
    assert "\\" not in text
    assert split_path(text) == walk_path(text)


@settings(max_examples=300, deadline=None)
@given(texts)
@example("a\\#b.md#H\\/I")
@example("a\\:\\:b.md::C")
@example("x\\@y.md@r")
@example("a.md\\")
def test_split_any_text_is_the_walk_accepted(text: str) -> None:
    assert split_path(text) == walk_path(text)


@settings(max_examples=300, deadline=None)
@given(texts)
@example("a.md#\x01")
@example("a.md/#H")
@example("/abs.md#H")
@example("docs/a b.md#A/B\\/C[2]")
@example("a\\#b.md::C.d")
@example("x\\@y:z.md@r-1")
@example("n\u00e9e.md#{^blk-1}")
def test_parsed_path_is_the_walks_accepted(text: str) -> None:
    try:
        parsed = parse_selector(text)
    except SelectorError:
        return
    assert parsed.path == walk_path(text)[0]
