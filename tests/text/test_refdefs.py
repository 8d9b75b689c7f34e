"""Reference definitions a section uses from outside its lines (text/refdefs.py):
found with the parser's events and offsets, never a regular expression over uses."""

from __future__ import annotations

from forest_files.text.refdefs import Outside, outside

CONTRACT = (
    "# Contract\n\n## Terms\n\nPay to [the account][acct] within 30 days.\n"
    "See the [^fee] note.\n\n## Notes\n\nanything\n\n"
    "[acct]: https://bank.example/good\n[^fee]: The fee is 1%.\n"
)


def test_outside_definitions_named_with_their_lines_detected() -> None:
    assert outside(CONTRACT, [(3, 7)]) == [Outside("acct", 12), Outside("^fee", 13)]
    assert outside(CONTRACT, [(3, 7)], links=False) == [Outside("^fee", 13)]  # link-style


def test_outside_definitions_in_held_lines_accepted() -> None:
    assert outside(CONTRACT, [(1, 13)]) == []
    assert outside(CONTRACT, [(3, 7), (12, 13)]) == []


def test_outside_inline_and_autolinks_accepted() -> None:
    text = "## A\n\nSee [x](https://a.example) and <https://b.example>, [nope] and [^none].\n"
    assert outside(text, [(1, 3)]) == []


def test_outside_first_definition_outside_wins_detected() -> None:
    # CommonMark reads the first definition: the section's own second one is not read
    text = "[a]: /outer\n\n## S\n\n[A][] and ![pic][a]\n\n[a]: /inner\n"
    assert outside(text, [(3, 7)]) == [Outside("A", 1)]


def test_outside_definition_in_a_list_item_judged_by_the_held_text() -> None:
    inside = "## S\n\n- [b] here\n\n  [b]: /in\n\n## T\n\n- [c]: /out\n\n[c]\n"
    assert outside(inside, [(1, 6)]) == []
    assert outside(inside, [(7, 11)]) == []  # T holds its own, in a list
    assert outside(inside + "\n## U\n\nsee [c]\n", [(13, 15)]) == [Outside("c", 0)]


def test_outside_front_matter_is_not_a_definition_detected() -> None:
    text = "---\n[k]: /fm\n---\n## S\n\n[k]\n"
    assert outside(text, [(4, 6)]) == []  # no definition at all: [k] is text
