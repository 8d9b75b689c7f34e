"""A heading selector that misses lists nearby headings as selectors that work: a
heading path two headings share is given with its ``[n]`` (``#Notes/Results 🌲[2]``),
as adopt binds them, not twice bare (a pasted bare path is refused as ambiguous)."""

from __future__ import annotations

import re

import pytest

from forest_files.text.extract import extract
from forest_files.text.selector import parse_selector
from forest_files.text.selector_errors import SectionNotFound

DOC = "# Notes\n\n## Results 🌲\n\nfirst\n\n## Results 🌲\n\nsecond\n\n## Method\n\nhow\n"


def test_markdown_nearby_duplicate_paths_indexed_refused() -> None:
    with pytest.raises(SectionNotFound) as caught:
        extract(DOC, parse_selector("n.md#Notes/Result 🌲"), ())
    listed = str(caught.value).split("nearby headings: ", 1)[1]
    assert listed == "#Notes/Results 🌲[1], #Notes/Results 🌲[2]"
    for name in listed.split(", "):  # each one names its own heading
        out = extract(DOC, parse_selector("n.md" + name), ())
        assert out.text.split("\n")[2] in ("first", "second")


def test_markdown_nearby_unique_path_bare_refused() -> None:
    with pytest.raises(SectionNotFound, match=re.escape("nearby headings: #Notes/Method")):
        extract(DOC, parse_selector("n.md#Notes/Methods"), ())
