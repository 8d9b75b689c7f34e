"""Stable anchors (issue 26, part 4): ``file.md#{id}`` names a heading by its mkdocs /
Pandoc attribute list or HTML anchor, ``file.md#{^id}`` an Obsidian block; such a
binding survives a retitle, heading names never include the attribute list, and
bindings recorded before (a format-2 ledger written by the code before anchors)
keep matching what they matched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from forest_files.text.extract import extract
from forest_files.text.markdown import outline
from forest_files.text.normalise import LineIndex
from forest_files.text.selector import Selector, parse_selector, render
from forest_files.text.selector_errors import AmbiguousSelector, SectionNotFound
from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, make_repo, write

WORDS = "The canon as written"
FORMAT2 = Path(__file__).resolve().parents[1] / "data" / "anchors-format2"
WIKI = """# Wiki v1.2 { #wiki }

The canon of the coast.

## Elias {#elias .person}

Elias keeps the lighthouse.

## <a id="treaty"></a>The Treaty

Signed at the harbour.
Witnessed by Mara. ^seal

- the oath
- the price

^terms
"""


def _lines(text: str, sel: str) -> tuple[int, int, str]:
    got = extract(text, parse_selector(sel))
    return got.start_line, got.end_line, render(got.selector)


def test_anchor_selector_grammar_round_trip_accepted() -> None:
    for text in ("a.md#{elias}", "a.md#{^seal}", "a.md#{x.y:z-1}"):
        sel = parse_selector(text)
        assert sel.kind == "anchor" and render(sel) == text
    # a heading literally named like an anchor is written with '\{'
    literal = Selector("a.md", "heading", ("{legend}",))
    assert render(literal) == "a.md#\\{legend}"
    assert parse_selector(render(literal)) == literal
    assert parse_selector("a.md#{two words}").kind == "heading"  # not an id: a name


def test_anchor_heading_name_attribute_list_excluded_accepted() -> None:
    heads = outline(WIKI)
    assert [h.name for h in heads] == ["Wiki v1.2", "Elias", "The Treaty"]
    assert [h.anchors for h in heads] == [("wiki",), ("elias",), ("treaty",)]
    assert _lines(WIKI, "a.md#Elias") == (5, 8, "a.md#Wiki v1.2/Elias")  # '#Title' matches


def test_anchor_kinds_pick_their_sections_accepted() -> None:
    assert _lines(WIKI, "a.md#{elias}") == (5, 8, "a.md#{elias}")
    assert _lines(WIKI, "a.md#{treaty}") == (9, 17, "a.md#{treaty}")
    assert _lines(WIKI, "a.md#{wiki}") == (1, 17, "a.md#{wiki}")
    assert _lines(WIKI, "a.md#{^seal}") == (11, 12, "a.md#{^seal}")  # the paragraph
    assert _lines(WIKI, "a.md#{^terms}") == (14, 17, "a.md#{^terms}")  # the block before


def test_anchor_in_code_or_absent_refused() -> None:
    text = "# T\n\n```\nnot a block ^hidden\n```\n"
    with pytest.raises(SectionNotFound, match=r"no heading or block carries the id '\^hidden'"):
        extract(text, parse_selector("a.md#{^hidden}"))
    with pytest.raises(SectionNotFound, match=r"ids in the file: #\{wiki\}"):
        extract(WIKI, parse_selector("a.md#{nobody}"))


def test_anchor_matching_twice_refused() -> None:
    text = '# A {#dup}\n\na\n\n# B <a name="dup"></a>\n\nb\n'
    with pytest.raises(AmbiguousSelector) as info:
        extract(text, parse_selector("a.md#{dup}"))
    message = str(info.value)
    assert "\n" not in message and "2 places (lines 1, 5)" in message
    assert "give each its own id" in message


def test_anchor_survives_retitle_accepted() -> None:
    retitled = WIKI.replace("# Wiki v1.2 { #wiki }", "# Wiki v1.3 { #wiki }")
    retitled = retitled.replace("## Elias {#elias .person}", "## Elias the Keeper {#elias}")
    before = extract(WIKI, parse_selector("a.md#{treaty}")).text
    assert extract(retitled, parse_selector("a.md#{treaty}")).text == before
    assert _lines(retitled, "a.md#{elias}")[:2] == (5, 8)


def test_anchor_many_selectors_one_parse_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    from forest_files.text import anchors, markdown
    from forest_files.text.extract import sections

    calls = {"outline": 0, "blocks": 0}
    real_outline, real_blocks = markdown._top_level_headings, anchors.block_ids

    def outline_counted(text: str) -> list[markdown.Found]:
        calls["outline"] += 1
        return real_outline(text)

    def blocks_counted(lines: LineIndex) -> list[tuple[str, int, int]]:
        calls["blocks"] += 1
        return real_blocks(lines)

    monkeypatch.setattr(markdown, "_top_level_headings", outline_counted)
    monkeypatch.setattr("forest_files.text.extract.block_ids", blocks_counted)
    wanted = ["{wiki}", "{elias}", "{treaty}", "{^seal}", "{^terms}", "Elias"]
    got = sections(WIKI, [(parse_selector(f"a.md#{w}"), ()) for w in wanted])
    assert all(not isinstance(v, Exception) for v in got.values())
    assert calls == {"outline": 1, "blocks": 1}


def test_anchor_literal_brace_heading_recorded_before_accepted() -> None:
    text = "# {legend}\n\nOld lore.\n"  # bound as 'a.md#{legend}' before anchors existed
    assert _lines(text, "a.md#{legend}") == (1, 3, "a.md#{legend}")


def _format2_repo(tmp_path: Path) -> Path:
    """A repository holding the ledger the code before anchors wrote (format 2),
    its selectors naming headings with their attribute lists and HTML anchors."""
    repo = make_repo(tmp_path)
    for name in ("docs", "forest.toml"):
        src = FORMAT2 / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, repo / name)
    shutil.copytree(FORMAT2 / "forest-dir", repo / ".forest")
    shutil.copy(FORMAT2 / "gitattributes", repo / ".gitattributes")
    commit_all(repo, "as the earlier version left it")
    return repo


def test_anchor_format2_ledger_attribute_names_keep_matching_accepted(tmp_path: Path) -> None:
    repo = _format2_repo(tmp_path)
    assert in_process.kinds(repo) == ["clean", "clean", "clean"]
    wiki = (repo / "docs/wiki.md").read_text(encoding="utf-8")
    write(repo, "docs/wiki.md", wiki.replace("lighthouse", "harbour light"))
    found = {f["selector"]: f["kind"] for f in in_process.findings(repo)}
    elias = "docs/wiki.md#Wiki v1.2 { \\#wiki }/Elias {\\#elias .person}"
    assert found[elias] == "drifted"  # the same section as before: its edit is seen
    assert sorted(found.values()) == ["clean", "clean", "drifted"]


def test_anchor_binding_retitled_in_git_history_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    in_process.ok(repo, "init")
    write(repo, "docs/wiki.md", WIKI)
    bound = in_process.ok(
        repo, "adopt", "docs/wiki.md#{elias}", "docs/wiki.md#The Treaty", "--words", WORDS
    )
    assert "bound docs/wiki.md#{elias}" in bound.stdout
    commit_all(repo, "canon")
    write(repo, "docs/wiki.md", WIKI.replace("Wiki v1.2", "Wiki v1.3"))  # a release
    commit_all(repo, "v1.3")
    found = {f["selector"]: f["kind"] for f in in_process.findings(repo)}
    assert found == {  # the anchored binding needs no rebind; the path one does
        "docs/wiki.md#{elias}": "clean",
        "docs/wiki.md#Wiki v1.2/The Treaty": "moved",  # rebind to follow the title
    }
    write(repo, "docs/wiki.md", WIKI.replace("## Elias {", "## Elias the Keeper {"))
    found = {f["selector"]: f["kind"] for f in in_process.findings(repo)}
    assert found["docs/wiki.md#{elias}"] == "drifted"  # its own title is its text
