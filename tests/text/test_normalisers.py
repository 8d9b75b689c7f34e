"""Declared normalisations at their edges: what each lets through, what stays drift
(a link target, a number, a name never changes unseen), idempotence, the registry's
refusals, and extract applying them after the exclusions."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from forest_files.text.extract import extract
from forest_files.text.normalisers import (
    ORDER,
    NormaliseError,
    apply,
    blank_lines,
    canonical,
    canonical_list,
    emphasis,
    link_style,
    list_markers,
    trailing_whitespace,
)
from forest_files.text.selector import parse_selector


def _same(fn: Callable[[str, str], str], a: str, b: str) -> bool:
    return fn(a, a) == fn(b, b)


# --- trailing whitespace and blank lines -----------------------------------------------


def test_trailing_whitespace_spaces_and_tabs_accepted() -> None:
    assert trailing_whitespace("a  \nb\t\n c \n") == "a\nb\n c\n"


def test_trailing_whitespace_inner_and_nbsp_change_detected() -> None:
    assert trailing_whitespace("a b\n") != trailing_whitespace("a  b\n")
    assert trailing_whitespace("a\u00a0\n") != trailing_whitespace("a\n")
    assert trailing_whitespace("v1 \n") != trailing_whitespace("v2\n")


def test_blank_lines_runs_collapse_accepted() -> None:
    assert blank_lines("\na\n\n\n  \nb\n\n") == "a\n\nb\n"
    assert blank_lines("a\n\nb\n") == blank_lines("a\n\n\n\nb\n")


def test_blank_lines_removed_paragraph_break_detected() -> None:
    """One blank line is kept: joining two paragraphs stays drift."""
    assert blank_lines("a\nb\n") != blank_lines("a\n\nb\n")


@pytest.mark.parametrize("mark", ["\x0c", "\u2028", "\x1c", "\x85"])
def test_blank_lines_paragraph_break_after_a_line_separator_detected(mark: str) -> None:
    """Lines end at LF only (as every section is cut): ``str.splitlines`` also ended one
    at a form feed or U+2028, so ``a^L`` then a blank line read like ``a^L`` alone and a
    paragraph split after a page break passed as clean."""
    assert blank_lines(f"a{mark}\nb\n") != blank_lines(f"a{mark}\n\nb\n")
    assert blank_lines(f"a{mark}\n\n\nb\n") == f"a{mark}\n\nb\n"


# --- list markers --------------------------------------------------------------------------


def test_list_markers_bullets_read_as_dash_accepted() -> None:
    assert list_markers("* a\n  + b\n> * q\n") == "- a\n  - b\n> - q\n"


def test_list_markers_ordered_numbers_change_detected() -> None:
    """Ordered-list numbers and delimiters are never touched."""
    assert list_markers("1. a\n2. b\n") != list_markers("1. a\n3. b\n")
    assert list_markers("1. a\n") != list_markers("1) a\n")
    assert list_markers("1. a\n") == "1. a\n"


def test_list_markers_code_and_rules_untouched_detected() -> None:
    """A ``*`` line in a fenced block or a ``* * *`` rule is not a bullet."""
    code = "```\n* not a bullet\n```\n"
    assert list_markers(code) == code
    assert list_markers("* * *\n") == "* * *\n"
    assert list_markers("* a\n") != list_markers("* b\n")


# --- emphasis ------------------------------------------------------------------------------


def test_emphasis_underscore_and_star_accepted() -> None:
    assert emphasis("_a_ and __b__ and ___c___\n") == "*a* and **b** and ***c***\n"
    assert _same(emphasis, "_x_\n", "*x*\n") and _same(emphasis, "__x__\n", "**x**\n")


def test_emphasis_text_and_code_change_detected() -> None:
    assert emphasis("_a_\n") != emphasis("_b_\n")
    assert emphasis("`_x_`\n") == "`_x_`\n"  # a code span is not emphasis
    assert emphasis("snake_case_name\n") == "snake_case_name\n"
    assert emphasis("*x*\n") != emphasis("**x**\n")  # emphasis is not strong


# --- link style ----------------------------------------------------------------------------

INLINE = 'See [ADR 3](adr-003.md) and ![map](img/map.png "Map").\n'
REFERENCE = "See [ADR 3][three] and ![map][m].\n\n[three]: adr-003.md\n[m]: <img/map.png> 'Map'\n"


def test_link_style_reference_equals_inline_accepted() -> None:
    assert blank_lines(link_style(REFERENCE)) == blank_lines(link_style(INLINE))


def test_link_style_collapsed_shortcut_accepted() -> None:
    a = "A [x][] and [y].\n\n[x]: http://x.example\n[y]: http://y.example\n"
    b = "A [x](http://x.example) and [y](http://y.example).\n"
    assert blank_lines(link_style(a)) == blank_lines(link_style(b))


def test_link_style_changed_target_detected() -> None:
    """The target is hashed: a changed URL in a definition is drift."""
    other = REFERENCE.replace("adr-003.md", "adr-004.md")
    assert link_style(REFERENCE) != link_style(other)
    assert link_style(INLINE) != link_style(INLINE.replace("adr-003", "adr-004"))
    assert link_style(INLINE) != link_style(INLINE.replace('"Map"', '"Plan"'))


def test_link_style_changed_link_text_detected() -> None:
    assert link_style(INLINE) != link_style(INLINE.replace("ADR 3", "ADR 4"))


def test_link_style_definition_outside_section_resolved_detected() -> None:
    """A heading section's reference resolves over the whole file: its target is in
    the hash, so changing the definition at the file's end is drift for it."""
    whole = "# A\nSee [t][r].\n\n# B\nmore\n\n[r]: http://x.example\n"
    section = "# A\nSee [t][r].\n\n"
    moved = whole.replace("http://x.example", "http://evil.example")
    assert link_style(section, whole) == "# A\nSee [t](http://x.example).\n\n"
    assert link_style(section, whole) != link_style(section, moved)


def test_link_style_unused_definition_kept_detected() -> None:
    """A definition no rewritten link used stays text: changing it is drift."""
    a = "Text.\n\n[r]: http://x.example\n"
    assert link_style(a) == a
    assert link_style(a) != link_style(a.replace("x.example", "y.example"))


def test_link_style_twice_defined_label_kept_detected() -> None:
    """A label the file defines twice keeps its definition lines: the second one's
    URL is never dropped unseen."""
    a = "[t][r]\n\n[r]: http://one.example\n[r]: http://two.example\n"
    assert "two.example" in link_style(a)
    assert link_style(a) != link_style(a.replace("two.example", "three.example"))


def test_link_style_code_and_escapes_untouched_detected() -> None:
    code = "`[t](u)` and \\[t](u)\n"
    assert link_style(code) == code
    assert link_style('[t](<a b> "x")\n') == '[t](<a b> "x")\n'


def test_link_style_plain_and_bracketed_targets_distinct_detected() -> None:
    """The canonical target is injective: a bracketed URL with a title never reads
    as a plain one."""
    assert link_style('[t](u "x")\n') != link_style("[t](u)\n")
    assert link_style("[t](<u> 'x')\n") == link_style('[t](u "x")\n')


# --- idempotence, registry, extract ----------------------------------------------------------

SAMPLES = [INLINE, REFERENCE, "* a\n\n\n_b_  \n", "1. x\n  * y\n"]


@pytest.mark.parametrize("label", [x for x in ORDER if not x.startswith("py-")])
def test_markdown_normalisations_idempotent_accepted(label: str) -> None:
    for sample in SAMPLES:
        once = apply([label], sample, sample, "file", "x")
        assert apply([label], once, once, "file", "x") == once


def test_canonical_names_and_versions_accepted() -> None:
    assert canonical("trailing-whitespace") == "trailing-whitespace@1"
    assert canonical("emphasis@1") == "emphasis@1"
    assert canonical_list(["emphasis", "blank-lines@1"]) == ("blank-lines@1", "emphasis@1")


def test_unknown_normalisation_refused() -> None:
    with pytest.raises(NormaliseError, match=r"unknown normalisation 'whitespace'; known: "):
        canonical("whitespace")
    with pytest.raises(NormaliseError, match="has no version '9'"):
        canonical("emphasis@9")
    with pytest.raises(NormaliseError, match="given twice"):
        canonical_list(["emphasis", "emphasis@1"])


def test_extract_normalises_after_exclusions_accepted() -> None:
    text = "# T\n\n## Body\n* item  \n\n\n## Status\nAccepted\n"
    sel = parse_selector("a.md#T")
    got = extract(text, sel, ("#Status", "normalise:list-markers", "normalise:blank-lines"))
    assert got.text == "# T\n\n## Body\n- item  \n"
    assert "normalise:list-markers@1" in got.excludes_matched


def test_extract_python_normalisation_on_markdown_refused() -> None:
    with pytest.raises(NormaliseError, match="apply to Python symbols"):
        extract("# T\nx\n", parse_selector("a.md#T"), ("normalise:py-comments",))


def test_extract_markdown_normalisation_on_symbol_refused() -> None:
    with pytest.raises(NormaliseError, match="reads Markdown"):
        extract("def f():\n    return 1\n", parse_selector("m.py::f"), ("normalise:emphasis",))


def test_extract_markdown_normalisation_on_python_file_refused() -> None:
    """A whole Python file is not Markdown: ``+ b)`` read as a bullet would hide a
    sign change, so list-markers does not apply there."""
    code = "total = (a\n+ b)\n"
    with pytest.raises(NormaliseError, match="reads Markdown"):
        extract(code, parse_selector("m.py"), ("normalise:list-markers",))
    assert extract(code, parse_selector("m.py"), ("normalise:trailing-whitespace",)).text == code
