"""``place_path``: the file of a place the check named, exactly what ``split_path`` splits
off (an escaped ``#`` in a file name, a region, a Python symbol, a heading path), with no
path judged again."""

from __future__ import annotations

import pytest

from forest_files.text import selector
from forest_files.text.selector_paths import place_path
from forest_files.text.selector_split import split_path

PLACES = [
    "a.md#H",
    "a.md#H/I",
    "dir/b.md#Top",
    "a.md#Other#More",  # a heading holding '#': the path ends at the first
    "c\\#d.md#H",  # an escaped '#' in the file name
    "e.md@region",
    "f.py::Class.method",
    "dir/b.md",
    "x@y.md#H",
]


@pytest.mark.parametrize("place", PLACES)
def test_place_path_as_split_path_accepted(place: str) -> None:
    assert place_path(place) == split_path(place)[0]


def test_place_path_judges_no_path_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []
    real = selector.validate_path

    def validate_path(path: str) -> str:
        checked.append(path)
        return real(path)

    monkeypatch.setattr(selector, "validate_path", validate_path)
    assert {place_path(f"notes/n{i}.md#Part {k}") for i in range(20) for k in range(10)} == {
        f"notes/n{i}.md" for i in range(20)
    }
    assert checked == []
