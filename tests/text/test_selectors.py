"""Selector grammar and the three resolvers (Markdown headings, Python symbols, regions)."""

from __future__ import annotations

import textwrap

import pytest

from forest_files.text.extract import extract
from forest_files.text.markdown import outline, resolve_heading
from forest_files.text.pysymbol import SymbolSourceError, resolve_symbol
from forest_files.text.region import RegionError
from forest_files.text.selector import MAX_SELECTOR_CHARS, Selector, parse_selector
from forest_files.text.selector_errors import AmbiguousSelector, SectionNotFound, SelectorError

# --- grammar -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("canon/characters.md", Selector("canon/characters.md")),
        ("a.md#Family/Elias", Selector("a.md", "heading", ("Family", "Elias"))),
        ("a.md#A/Dup[2]", Selector("a.md", "heading", ("A", "Dup"), 2)),
        ("src/pay.py::Invoice.total", Selector("src/pay.py", "symbol", ("Invoice", "total"))),
        ("src/pay.py::Invoice.total[2]", Selector("src/pay.py", "symbol", ("Invoice", "total"), 2)),
        ("notes/ch3.md@treaty", Selector("notes/ch3.md", "region", ("treaty",))),
        (r"a.md#Either\/Or/C\# notes", Selector("a.md", "heading", ("Either/Or", "C# notes"))),
        (r"a.md#Footnote \[2]", Selector("a.md", "heading", ("Footnote [2]",))),
        ("a.md#Pick [draft]/x", Selector("a.md", "heading", ("Pick [draft]", "x"))),
        (r"pkgs/\@scope/x.md@r", Selector("pkgs/@scope/x.md", "region", ("r",))),
        (r"C\#.md#Intro", Selector("C#.md", "heading", ("Intro",))),
        (r"ab\:\:c.md", Selector("ab::c.md")),
        ("ab:c.md", Selector("ab:c.md")),
    ],
)
def test_selector_parse_and_render_round_trip_accepted(text: str, expected: Selector) -> None:
    sel = parse_selector(text)
    assert sel == expected
    assert parse_selector(str(sel)) == sel


def test_selector_render_canonical_escapes_accepted() -> None:
    sel = Selector("a.md", "heading", ("x/y", "back\\slash", "Note [3]"))
    assert str(sel) == r"a.md#x\/y/back\\slash/Note \[3]"
    assert parse_selector(str(sel)) == sel


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("/etc/passwd", "absolute"),
        ("C:/x.md", "absolute"),
        ("../x.md", "'..'"),
        ("a/../x.md", "'..'"),
        ("./x.md", "'.'"),
        ("a//x.md", "empty component"),
        ("a/", "empty component"),
        ("a\\b.md", "backslash"),
        ("a\x00b.md", "control character"),
        ("a\nb.md", "control character"),
        ("a.md#", "nothing follows"),
        ("a.md#A//B", "empty part"),
        ("a.md#A/", "empty part"),
        ("a.md# A", "spaces"),
        ("a.md#A[0]", "out of range"),
        ("a.md::", "nothing follows"),
        ("a.md::Cls.", "identifiers"),
        ("a.md::1x", "identifiers"),
        ("a.md::a-b", "identifiers"),
        ("a.md@", "nothing follows"),
        ("a.md@bad name", "region name"),
        ("pkgs/@scope/x.md", "write it as"),
        ("a.md@x-", "region name"),
    ],
)
def test_selector_bad_syntax_refused(text: str, why: str) -> None:
    with pytest.raises(SelectorError, match="valid selectors") as info:
        parse_selector(text)
    assert why in str(info.value)


def test_selector_length_limit_at_n_accepted_n_plus_one_refused() -> None:
    head = "a.md#"
    ok = head + "x" * (MAX_SELECTOR_CHARS - len(head))
    assert parse_selector(ok).parts == ("x" * (MAX_SELECTOR_CHARS - len(head)),)
    with pytest.raises(SelectorError, match="longer than"):
        parse_selector(ok + "x")


def test_selector_direct_construction_validated_refused() -> None:
    with pytest.raises(SelectorError):
        Selector("../a.md")
    with pytest.raises(SelectorError):
        Selector("a.md", "region", ("a b",))
    with pytest.raises(SelectorError):
        Selector("a.md", "file", (), 2)


# --- Markdown headings -------------------------------------------------------

DOC = textwrap.dedent(
    """\
    # Family

    Intro.

    ## Elias

    Elias text.

    ### Childhood

    Young.

    ## Mara
    Mara text.


    Setext Title
    ============

    Setext Sub
    ----------

    ```
    # Not a heading in a fence
    ```

        # Not a heading, indented code

    > # Not a section heading, in a quote

    # A
    ## Dup
    first
    ## Dup
    second
    # B
    ## Dup
    third
    ## Either/Or \\# one
    escaped
    """
)


def _sel(spec: str) -> Selector:
    return parse_selector("doc.md#" + spec)


def test_heading_atx_section_boundaries_exact_accepted() -> None:
    out = extract(DOC, _sel("Family/Elias"), ())
    assert out.text == "## Elias\n\nElias text.\n\n### Childhood\n\nYoung.\n\n"
    assert (out.start_line, out.end_line) == (5, 12)


def test_heading_trailing_blank_lines_belong_to_section_accepted() -> None:
    out = extract(DOC, _sel("Mara"), ())
    assert out.text == "## Mara\nMara text.\n\n\n"


def test_heading_setext_accepted() -> None:
    out = extract(DOC, _sel("Setext Title"), ())
    assert out.text.startswith("Setext Title\n============\n\nSetext Sub\n")
    sub = extract(DOC, _sel("Setext Title/Setext Sub"), ())
    assert sub.text.startswith("Setext Sub\n----------\n\n```\n")
    assert "# Not a heading in a fence" in sub.text
    assert "# Not a heading, indented code" in sub.text
    assert "# Not a section heading, in a quote" in sub.text


@pytest.mark.parametrize(
    "name",
    [
        "Not a heading in a fence",
        "Not a heading, indented code",
        "Not a section heading, in a quote",
    ],
)
def test_heading_inside_code_or_quote_not_a_heading_refused(name: str) -> None:
    with pytest.raises(SectionNotFound, match="no heading matches"):
        extract(DOC, _sel(name), ())


def test_heading_unique_tail_accepted() -> None:
    out = extract(DOC, _sel("Elias"), ())
    assert out.selector == Selector("doc.md", "heading", ("Family", "Elias"))
    assert str(out.selector) == "doc.md#Family/Elias"


def test_heading_duplicate_refused_listing_candidates() -> None:
    with pytest.raises(AmbiguousSelector) as info:
        extract(DOC, _sel("A/Dup"), ())
    assert info.value.candidates == ("doc.md#A/Dup[1]", "doc.md#A/Dup[2]")
    assert "doc.md#A/Dup[1]" in str(info.value)
    with pytest.raises(AmbiguousSelector) as tail:
        extract(DOC, _sel("Dup"), ())
    assert tail.value.candidates == ("doc.md#A/Dup[1]", "doc.md#A/Dup[2]", "doc.md#B/Dup")


def test_heading_duplicate_disambiguated_by_index_accepted() -> None:
    out = extract(DOC, _sel("A/Dup[2]"), ())
    assert out.text == "## Dup\nsecond\n"
    third = extract(DOC, _sel("Dup[3]"), ())
    assert third.text == "## Dup\nthird\n"
    assert str(third.selector) == "doc.md#B/Dup"


def test_heading_index_beyond_matches_refused() -> None:
    with pytest.raises(SectionNotFound, match=r"only 2 heading\(s\) match"):
        extract(DOC, _sel("A/Dup[3]"), ())


def test_heading_escaped_slash_and_hash_accepted() -> None:
    # Source text of the heading is 'Either/Or \# one' (the Markdown escape is kept).
    out = extract(DOC, _sel(r"Either\/Or \\\# one"), ())
    assert out.text == "## Either/Or \\# one\nescaped\n"


def test_heading_not_found_lists_nearby_refused() -> None:
    with pytest.raises(SectionNotFound, match="nearby headings: #Family/Elias"):
        extract(DOC, _sel("Elia"), ())


def test_heading_empty_section_accepted() -> None:
    out = extract("# A\n# B\ntext\n", parse_selector("x.md#A"), ())
    assert (out.text, out.start_line, out.end_line) == ("# A\n", 1, 1)


def test_heading_front_matter_not_parsed_as_headings_accepted() -> None:
    text = "---\ntitle: x\n# comment: y\n---\n# Real\nbody\n"
    assert [h.text for h in outline(text)] == ["Real"]


def test_heading_multiline_setext_joined_accepted() -> None:
    text = "Long\ntitle here\n===\nbody\n"
    heading, canonical = resolve_heading(text, parse_selector("x.md#Long title here"))
    assert (heading.start_line, heading.end_line) == (1, 4)
    assert canonical.parts == ("Long title here",)


def test_heading_ten_thousand_headings_resolve_accepted() -> None:
    text = "".join(f"## Heading {i}\n\nBody {i} with *some* text.\n\n" for i in range(10_000))
    out = extract(text, parse_selector("big.md#Heading 9876"), ())
    assert out.text == "## Heading 9876\n\nBody 9876 with *some* text.\n\n"


def test_heading_ten_thousand_duplicates_ambiguity_refused() -> None:
    text = "# Dup\n" * 10_000
    with pytest.raises(AmbiguousSelector) as info:
        extract(text, parse_selector("big.md#Dup"), ())
    assert info.value.candidates[-1] == "big.md#Dup[10000]"


# --- Python symbols ----------------------------------------------------------

PY = textwrap.dedent(
    """\
    import functools


    class Invoice:
        \"\"\"An invoice.\"\"\"

        @property
        @functools.cache
        def total(self) -> int:
            return 1

        @total.setter
        def total(self, v: int) -> None:
            pass

        class Line:
            def amount(self) -> int:
                return 2

        async def fetch(self) -> None:
            await thing()
    # trailing comment


    def outer():
        def inner():
            return 3
        return inner

    if True:
        def conditional():
            pass
    """
)


def test_symbol_decorated_method_includes_decorators_accepted() -> None:
    out = extract(PY, parse_selector("pay.py::Invoice.total[1]"), ())
    assert out.text.startswith("    @property\n    @functools.cache\n    def total(self)")
    assert out.text.endswith("        return 1\n")
    assert (out.start_line, out.end_line) == (7, 10)


def test_symbol_duplicate_refused_listing_candidates() -> None:
    with pytest.raises(AmbiguousSelector) as info:
        extract(PY, parse_selector("pay.py::Invoice.total"), ())
    assert info.value.candidates == ("pay.py::Invoice.total[1]", "pay.py::Invoice.total[2]")


def test_symbol_nested_class_accepted() -> None:
    out = extract(PY, parse_selector("pay.py::Invoice.Line.amount"), ())
    assert out.text == "        def amount(self) -> int:\n            return 2\n"


def test_symbol_async_method_accepted() -> None:
    out = extract(PY, parse_selector("pay.py::Invoice.fetch"), ())
    assert out.text == "    async def fetch(self) -> None:\n        await thing()\n"


def test_symbol_class_excludes_trailing_comment_accepted() -> None:
    out = extract(PY, parse_selector("pay.py::Invoice"), ())
    assert out.start_line == 4
    assert "# trailing comment" not in out.text


def test_symbol_nested_function_and_conditional_accepted() -> None:
    assert extract(PY, parse_selector("pay.py::outer.inner"), ()).text.endswith("return 3\n")
    assert "def conditional" in extract(PY, parse_selector("pay.py::conditional"), ()).text


def test_symbol_defs_in_every_compound_statement_accepted() -> None:
    src = textwrap.dedent(
        """\
        x = 1
        if x:
            def in_if(): pass
        else:
            def in_else(): pass
        for _ in ():
            def in_for(): pass
        else:
            def in_for_else(): pass
        while False:
            def in_while(): pass
        with open(__file__) as fh:
            def in_with(): pass
        try:
            def in_try(): pass
        except* ValueError:
            def in_except_star(): pass
        try:
            pass
        except OSError:
            def in_except(): pass
        else:
            def in_try_else(): pass
        finally:
            def in_finally(): pass
        match x:
            case 1:
                def in_case(): pass
        async def outer():
            async for _ in y:
                def in_async_for(): pass
            async with y:
                def in_async_with(): pass
        value = [lambda: 1 for _ in ()]
        """
    )
    from forest_files.text.pysymbol import symbols

    names = [".".join(s.path) for s in symbols(src, "m.py")]
    assert names == [
        "in_if", "in_else", "in_for", "in_for_else", "in_while", "in_with", "in_try",
        "in_except_star", "in_except", "in_try_else", "in_finally", "in_case", "outer",
        "outer.in_async_for", "outer.in_async_with",
    ]  # fmt: skip


def test_symbol_missing_refused_with_nearby() -> None:
    with pytest.raises(SectionNotFound, match=r"nearby symbols: .*Invoice\.total"):
        resolve_symbol(PY, parse_selector("pay.py::Invoice.totl"))


def test_symbol_syntax_error_refused_without_echo() -> None:
    with pytest.raises(SymbolSourceError, match=r"bad\.py: not valid Python \(line 2") as info:
        resolve_symbol("x = 1\ndef SECRET_BODY(:\n", parse_selector("bad.py::f"))
    assert "SECRET_BODY" not in str(info.value)


# --- regions -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("begin", "end"),
    [
        ("<!-- forest:begin treaty -->", "<!-- forest:end treaty -->"),
        ("# forest:begin treaty", "# forest:end treaty"),
        ("// forest:begin treaty", "// forest:end treaty"),
        ("  /* forest:begin treaty */", "  /* forest:end treaty */"),
        ("<!--forest:begin treaty-->", "<!--forest:end treaty-->"),
    ],
)
def test_region_any_comment_syntax_accepted(begin: str, end: str) -> None:
    text = f"before\n{begin}\nline one\n\nline two\n{end}\nafter\n"
    out = extract(text, parse_selector("n.md@treaty"), ())
    assert out.text == "line one\n\nline two\n"
    assert (out.start_line, out.end_line) == (3, 5)


def test_region_adjacent_markers_empty_accepted() -> None:
    out = extract("# forest:begin r\n# forest:end r\n", parse_selector("n.md@r"), ())
    assert (out.text, out.start_line, out.end_line) == ("", 2, 1)


def test_region_marker_with_text_on_line_not_a_marker_refused() -> None:
    text = "x = 1  # forest:begin r\ny\n# forest:end r\n"
    with pytest.raises(RegionError, match="has no begin marker"):
        extract(text, parse_selector("n.py@r"), ())


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("# forest:begin r\nx\n", "no 'forest:end r' after it"),
        ("# forest:end r\nx\n# forest:begin r\n", "comes before"),
        ("# forest:begin r\n# forest:end r\n# forest:begin r\n# forest:end r\n", "more than once"),
        ("# forest:begin r\n# forest:begin r\n# forest:end r\n", "more than once"),
    ],
)
def test_region_unbalanced_or_duplicate_refused(text: str, match: str) -> None:
    with pytest.raises(RegionError, match=match):
        extract(text, parse_selector("n.md@r"), ())


def test_region_missing_refused_listing_regions() -> None:
    text = "# forest:begin alpha\n# forest:end alpha\n"
    with pytest.raises(SectionNotFound, match="regions in the file: alpha"):
        extract(text, parse_selector("n.md@beta"), ())


def test_region_other_names_nest_accepted() -> None:
    text = "# forest:begin a\n1\n# forest:begin b\n2\n# forest:end b\n3\n# forest:end a\n"
    assert extract(text, parse_selector("n.md@b"), ()).text == "2\n"
    assert extract(text, parse_selector("n.md@a"), ()).text.count("\n") == 5
