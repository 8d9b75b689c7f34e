"""A selector's path without its section parse (``selector_path``), against the parse.

The hook's commit plan needs only the file each step lands in; ``selector_path``
gives it without parsing the section. These properties hold it to
``parse_selector`` on generated selectors, hostile ones included (escaped ``\\#``,
``::``, ``@``, ``{^id}``, ``[n]``, unicode, control characters, ``..``, a path ending
in ``/``): the same path for every selector the parse takes, the same refusal for
every one it refuses for the text or its path, and, where only the section is
malformed, a path the parse takes alone.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from forest_files.text.selector import Selector, parse_selector, render, selector_path
from forest_files.text.selector_errors import SelectorError

PIECES = [
    "a", "b.md", "docs/", "/", "#", "@", ":", "::", ":::", "\\", "\\#", "\\@", "\\:",
    "\\/", "{", "}", "{^", "[", "]", "[2]", "[0]", ".", "..", " ", "é", "日本", "\u200b",
    "\x00", "\n", "\x7f", "\t", "x_1", "Part 1", "{id}", "{^blk-1}", "C.d", "r-1",
]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=12).map("".join)


def _outcome(call: object, text: str) -> object:
    try:
        return call(text)  # type: ignore[operator]
    except SelectorError as exc:
        return ("refused", type(exc).__name__, str(exc))


@settings(max_examples=500, deadline=None)
@given(texts)
@example("notes/a.md#Decision/Status")
@example("a\\#b.md#H\\/I[2]")
@example("a\\:\\:b.md::C.d[3]")
@example("pkgs/x\\@y.md@region-1")
@example("n\u00e9e.md#{^blk-1}")
@example("a.md#{id}")
@example("a.md")
@example("a.md#\x01")
@example("a.md/#H")
@example("/abs.md#H")
@example("../x.md#H")
@example("a.md#")
@example("a.md# H")
@example("a.md::1x")
@example("a.md@-r")
@example("a.md#H[0]")
@example("")
def test_selector_path_is_the_parsed_path_refused(text: str) -> None:
    parsed = _outcome(parse_selector, text)
    path = _outcome(selector_path, text)
    if isinstance(parsed, Selector):
        assert path == parsed.path
    elif isinstance(path, tuple):  # refused for the text or its path: the same words
        assert path == parsed
    else:  # only the section is malformed: the path stands alone
        assert parse_selector(render(Selector(path))).path == path


PARTS: dict[str, tuple[str, ...]] = {
    "file": (),
    "heading": ("A", "B/C#[1]"),
    "anchor": ("^blk-1",),
    "symbol": ("C", "d"),
    "region": ("r-1",),
}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=3),
    st.sampled_from(sorted(PARTS)),
)
def test_selector_path_of_a_rendered_selector_accepted(names: list[str], kind: str) -> None:
    """Every canonical selector (what a commit step names) gives the path it was built on."""
    path = "/".join(names)
    try:
        sel = Selector(path, kind, PARTS[kind])  # type: ignore[arg-type]
    except SelectorError:
        return
    assert selector_path(render(sel)) == path == parse_selector(render(sel)).path
