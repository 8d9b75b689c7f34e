"""``selector_paths``: the files selectors name (a commit's rebinds land in them), each path checked
once, and exactly what ``selector_path`` of every selector gives: the same paths, or
the same refusal of the first selector it refuses (too long, a control character,
empty, an unsafe path, a path ending in ``/``)."""

from __future__ import annotations

import pytest

from forest_files.text import selector
from forest_files.text.selector import MAX_SELECTOR_CHARS, SelectorError, selector_path
from forest_files.text.selector_paths import selector_paths

GOOD = [
    "a.md#H",
    "a.md#H/I",
    "dir/b.md#Top",
    "a.md#Other",
    "c\\#d.md#H",  # an escaped '#' in the file name
    "e.md@region",
    "f.py::Class.method",
    "dir/b.md",
]
LONG = "a.md#" + "x" * MAX_SELECTOR_CHARS  # its path checked already: the text still too long
REFUSED = [
    LONG,
    "a.md#H\x07",  # a control character after a path checked already
    "",
    "../up.md#H",
    "a.md/#H",  # a directory's spelling
    "/abs.md#H",
    "a.md#" + "\x1b",
]


def _old(texts: list[str]) -> object:
    try:
        return {selector_path(t) for t in texts}
    except SelectorError as exc:
        return str(exc)


def _new(texts: list[str]) -> object:
    try:
        return selector_paths(texts)
    except SelectorError as exc:
        return str(exc)


def test_selector_paths_plain_selectors_same_paths_accepted() -> None:
    assert (
        selector_paths(GOOD)
        == {selector_path(t) for t in GOOD}
        == {
            "a.md",
            "dir/b.md",
            "c#d.md",
            "e.md",
            "f.py",
        }
    )


@pytest.mark.parametrize("bad", REFUSED)
def test_selector_paths_refused_selector_same_refusal_refused(bad: str) -> None:
    for texts in ([*GOOD, bad], [bad, *GOOD], [GOOD[0], bad, GOOD[1]]):
        old = _old(texts)
        assert isinstance(old, str), texts  # selector_path refuses it
        assert _new(texts) == old


def test_selector_paths_each_path_checked_once_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []
    real = selector.validate_path

    def validate_path(path: str) -> str:
        checked.append(path)
        return real(path)

    monkeypatch.setattr(selector, "validate_path", validate_path)
    texts = [f"notes/n{i}.md#Part {k}" for i in range(20) for k in range(10)]
    assert selector_paths(texts) == {f"notes/n{i}.md" for i in range(20)}
    assert sorted(checked) == sorted(f"notes/n{i}.md" for i in range(20))
