"""custody/restore_hidden.py's typed answer (``Hiders``, ``Hidden``): which block hides
a heading, said truly (a block closed further on is not "left open"), the heading
named by its place (two headings of one name), and the parser asked again only of a
block that may hold the heading."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody import restore_hidden
from forest_files.custody.restore_hidden import Hidden, Hiders
from forest_files.text import markdown
from tests.custody.test_restore_hidden import BOOK, bound_book
from tests.custody.test_restore_swallowed import state
from tests.helpers.cli import finding_of, findings, forest
from tests.helpers.git import pasted, write
from tests.helpers.hidden import CUT, cut_open

FOUR = f"{BOOK}\n# D\n\nd\n"


def test_restore_hidden_by_fence_closed_further_on_said_truly_refused(tmp_path: Path) -> None:
    """A fence opened in A and closed in C, after B: the refusal says it runs over B's
    heading to its closing line (before: "which an edit left open over it", untrue)."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#B", "f.md#C", "f.md#D", text=FOUR)
    (repo / "f.md").write_text(FOUR.replace("text a", "```\ntext a").replace("\nc\n", "\n```\nc\n"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#B")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert (
        "hidden by the code fence opened at line 3 in f.md#A, which runs over it to line 13, "
        "so no heading matches" in line
    ), line
    assert "left open" not in line, line
    assert "close that code fence before line 7 (or take it out)" in line, line
    assert state(repo) == before


def test_hidden_value_left_open_accepted() -> None:
    """The value ``hidden_refusal`` renders: kind, lines, holder, left open."""
    text = BOOK.replace("text a", "```\ntext a")
    got = Hiders(text).hidden(("f.md#C", ()), [("f.md#A", ()), ("f.md#C", ())])
    assert got == Hidden("fence", 3, 13, "# C", 11, "f.md#A", "A", True, closer="```"), got
    assert got.restorable


def test_hidden_value_two_headings_of_one_name_the_hidden_one_named_detected() -> None:
    """Two ``## B``: the one under A hidden by a fence closed before C, the one under C
    not. ``A/B`` names the hidden one's line, ``C/B`` (found) is not hidden, and the
    second ``B`` by index, shifted by the hidden one, names no block."""
    text = "# A\n\n```\n## B\n\nb\n```\n\n# C\n\n## B\n\nc\n"
    hiders = Hiders(text)
    got = hiders.hidden(("f.md#A/B", ()), [("f.md#A", ())])
    assert got is not None and (got.line, got.heading, got.block_line) == (4, "## B", 3), got
    assert not got.left_open and not got.restorable
    assert hiders.hidden(("f.md#C/B", ()), []) is None
    assert hiders.hidden(("f.md#B[2]", ()), []) is None


def test_hidden_value_many_closed_blocks_one_parse_per_block_that_may_hide_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1,500 closed code blocks whose lines read as headings (``# Section N step K``),
    then a ``~~~`` left open in Section 150: a block's own lines are parsed alone
    (md_blocks.py ``inner_headings``) only when they hold the words of the heading
    asked, once whatever the number of selectors asked, and the text without a
    block's first line only for the one block whose lines hold that heading."""
    parts = ["# Book\n\nintro\n"]
    for n in range(200):
        parts.append(f"\n## Section {n}\n\nwords of {n}\n")
        parts.extend(f"\n```python\n# Section {n} step {k}\nx = 1\n```\n" for k in range(10))
    text = "".join(parts).replace("words of 150\n", "words of 150\n~~~\n")
    opened = text.splitlines().index("~~~") + 1
    made: list[int] = []
    alone: list[int] = []
    real, outline = restore_hidden.Document, markdown.outline

    def counted(text: str) -> object:
        made.append(1)
        return real(text)

    def read_alone(text: str) -> object:
        alone.append(1)
        return outline(text)

    monkeypatch.setattr(restore_hidden, "Document", counted)
    monkeypatch.setattr(markdown, "outline", read_alone)
    hiders = Hiders(text)
    for n in (151, 152, 199):
        got = hiders.hidden((f"f.md#Section {n}", ()), [])
        assert got is not None and got.block_line == opened and got.left_open, (n, got)
    assert len(alone) == 1, len(alone)  # the ~~~ block's lines, once
    assert hiders.hidden(("f.md#Section 3", ()), []) is None
    held = len(alone)  # the blocks whose lines hold "Section" and "3"
    assert 10 < held < 1501, held
    assert hiders.hidden(("f.md#Section 3", ()), []) is None
    assert len(alone) == held, len(alone)  # each parsed once
    assert len(made) == 2, len(made)  # the text without the ~~~ line, and the text itself


def test_hidden_value_heading_named_without_its_comment_detected() -> None:
    """``## Foo<!-- x -->Bar`` is named ``FooBar`` (markdown.py: the comment dropped, no
    space either side): hidden by a fence opened in A, the parser's name finds it
    (before: the pre-filter read the line's shape, ``Foo<!-- x -->Bar``, and its words,
    so no block may hide ``FooBar`` and "no heading matches" stood)."""
    text = "# A\n\ntext a\n```\nmore\n\n## Foo<!-- x -->Bar\n\nb\n\n# C\n\nc\n"
    got = Hiders(text).hidden(("f.md#A/FooBar", ()), [("f.md#A", ())])
    assert got is not None, got
    assert (got.heading, got.line, got.block_line, got.holder) == (
        "## Foo<!-- x -->Bar",
        7,
        4,
        "f.md#A",
    ), got


def test_hidden_value_heading_the_paragraph_above_runs_into_not_hidden_detected() -> None:
    """Read alone, the lines inside a fence opened straight under a paragraph hold the
    setext heading ``B``; with the file's other lines they continue that paragraph
    (``para B``, starting above the fence): the exact re-parse says no block hides
    ``B``, so "no heading matches" stands."""
    text = "# A\n\npara\n```\nB\n---\n\nb\n"
    assert Hiders(text).hidden(("f.md#B", ()), [("f.md#A", ())]) is None


PARENTS = "# T\n\n## A\n\ntext a\n\n# U\n\n## install\n\nu\n\n# V\n\n## install\n\nv\n"


def test_hidden_heading_same_name_other_parent_counted_by_path_routed_to_close_detected(
    tmp_path: Path,
) -> None:
    """HEAD holds ``## install`` under U and V; an edit opens a ``sh`` fence in bound T/A
    holding ``## install`` (a line of the fence, T/install once the fence goes) and
    renames V's to ``## setup``. Counted by level and text the file as the restore of
    T/A with U/install writes it holds no more ``## install`` than HEAD (two), so that
    restore was named, and pasted it wrote the fence's line as a new section T/install.
    Counted by path, T/install is one HEAD does not hold: ``forest check`` and ``forest
    restore 'f.md#U/install'`` route to close the fence; followed, the check is clean."""
    repo = bound_book(tmp_path, "f.md#T/A", "f.md#U/install", text=PARENTS)
    edited = PARENTS.replace("text a\n", "text a\n```sh\n## install\nmake\n")
    (repo / "f.md").write_text(edited.replace("## install\n\nv", "## setup\n\nv"))
    found = finding_of(repo, "f.md#U/install")
    assert "hidden by the code fence opened at line 6 in f.md#T/A" in found["detail"], found
    assert found["routes"][0]["label"] == "close the block", found["routes"]
    assert found["routes"][0]["note"].startswith(
        "close the code fence opened at line 6 before line 10"
    )
    commands = [r["command"] or "" for r in found["routes"]]
    assert not any(c.startswith("forest restore") for c in commands), commands
    before = state(repo)
    got = forest(repo, "restore", "f.md#U/install")
    assert got.exit_code == 1, got.stdout
    assert "forest restore 'f.md#T/A'" not in got.stderr, got.stderr
    assert "close that code fence before line 10 (or take it out)" in got.stderr, got.stderr
    assert state(repo) == before
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    (repo / "f.md").write_text("".join([*lines[:9], "```\n", *lines[9:]]))
    assert finding_of(repo, "f.md#U/install")["kind"] == "clean"


def test_hidden_heading_block_holding_another_new_heading_routed_to_close_detected(
    tmp_path: Path,
) -> None:
    """A ``sh`` fence left open in bound A holding ``# build`` (a heading neither HEAD
    nor ground holds) over bound B: the restore of A with B refuses (``# build`` may be
    a line of the fence, restore_swallowed.py), so ``forest check`` routes to close the
    fence (before: it named that restore, refused pasted: ``new`` asked only of B's
    name)."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#B", text="# A\n\ntext a\n\n# B\n\nb\n")
    (repo / "f.md").write_text("# A\n\ntext a\n```sh\n# build\nmake\n\n# B\n\nb\n")
    found = finding_of(repo, "f.md#B")
    assert "hidden by the code fence opened at line 4 in f.md#A" in found["detail"], found
    assert found["routes"][0]["label"] == "close the block", found["routes"]
    commands = [r["command"] or "" for r in found["routes"]]
    assert not any(c.startswith("forest restore") for c in commands), commands
    before = state(repo)
    assert forest(repo, "restore", "f.md#A", "f.md#B").exit_code == 1
    assert state(repo) == before


def test_block_id_hidden_by_a_fence_named_and_restored_detected(tmp_path: Path) -> None:
    """A fence left open in bound A hides the paragraph ``^treaty`` ends in B (block ids
    in fenced lines are none, anchors.py): ``forest check`` names the fence and the
    block's line, and routes the restore of A with it, which pasted leaves the check
    clean (before: "no heading or block carries the id '^treaty'", routed to ``forest
    show``)."""
    text = "# A\n\ntext a\n\n# B\n\nThe treaty holds. ^treaty\n\nb\n"
    repo = bound_book(tmp_path, "f.md#A", "f.md#{^treaty}", text=text)
    (repo / "f.md").write_text(text.replace("text a\n", "text a\n```\n"))
    found = finding_of(repo, "f.md#{^treaty}")
    assert found["detail"] == (
        "f.md#{^treaty}: its block id `^treaty` (line 8) is hidden by the code fence opened "
        "at line 4 in f.md#A, which an edit left open over it, so no block carries it"
    ), found
    route = found["routes"][0]["command"]
    assert route == "forest restore 'f.md#A' 'f.md#{^treaty}'", found["routes"]
    refused = forest(repo, "restore", "f.md#{^treaty}")
    assert refused.exit_code == 1 and f"`{route}`" in refused.stderr, refused.stderr
    assert pasted(repo, route).returncode == 0
    assert [f["kind"] for f in findings(repo)] == ["clean", "clean"]


def test_restore_hidden_heading_with_holder_typed_same_name_other_parent_refused(
    tmp_path: Path,
) -> None:
    """The repo above, the restore of T/A with U/install typed by hand (no door names
    it): restore_swallowed.py counted the hidden heading's level and text, two
    ``## install`` written against two at HEAD, so it wrote the fence's line as a new
    section T/install and exited 0. Counted by level and path (hidden_place.py
    ``kept_new``), T/install is one HEAD lacks: refused, one line routing to close the
    fence, nothing written."""
    repo = bound_book(tmp_path, "f.md#T/A", "f.md#U/install", text=PARENTS)
    edited = PARENTS.replace("text a\n", "text a\n```sh\n## install\nmake\n")
    (repo / "f.md").write_text(edited.replace("## install\n\nv", "## setup\n\nv"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#T/A", "f.md#U/install")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0 and line.startswith("forest: f.md#T/A: "), line
    assert (
        "hides `## install` at line 7, a heading neither the file at HEAD nor ground holds "
        "as f.md#T/install: " in line
    ), line
    assert "close that code fence where its lines end" in line, line
    assert state(repo) == before


RENAMED = "# A\n\ntext a\n\n# B\n\nb\n\n# C\n\nc\n"


def test_hidden_heading_later_heading_renamed_in_the_same_edit_restore_routed_detected(
    tmp_path: Path,
) -> None:
    """A fence left open in bound A over bound B, and ``# C`` renamed ``# See`` in the
    same edit: the restore of A with B keeps B's heading first, which HEAD holds (the
    guard asks that one alone), so it brings B back; ``forest check`` routed to close
    the fence only (before: ``kept_new`` counted every heading after A, ``# See`` one
    HEAD lacks). Pasted, the route leaves A and B clean, the rename kept."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#B", text=RENAMED)
    (repo / "f.md").write_text(RENAMED.replace("text a\n", "text a\n```\n").replace("# C", "# See"))
    found = finding_of(repo, "f.md#B")
    route = found["routes"][0]["command"]
    assert route == "forest restore 'f.md#A' 'f.md#B'", found["routes"]
    assert pasted(repo, route).returncode == 0
    assert (repo / "f.md").read_text() == RENAMED.replace("# C", "# See")
    assert [f["kind"] for f in findings(repo)] == ["clean", "clean"]


def test_hidden_heading_first_kept_heading_renamed_still_routed_to_close_refused(
    tmp_path: Path,
) -> None:
    """The heading the restore would keep first renamed (``# B`` to ``# Bee``, bound C
    hidden): it may be a line of the fence, so the restore of A with C is refused and
    ``forest check`` routes to close the fence, as before."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#C", text=RENAMED)
    (repo / "f.md").write_text(RENAMED.replace("text a\n", "text a\n```\n").replace("# B", "# Bee"))
    found = finding_of(repo, "f.md#C")
    assert found["routes"][0]["label"] == "close the block", found["routes"]
    before = state(repo)
    assert forest(repo, "restore", "f.md#A", "f.md#C").exit_code == 1
    assert state(repo) == before


def test_restore_hidden_heading_holder_excluding_a_part_routed_to_close_refused(
    tmp_path: Path,
) -> None:
    """A fence left open in bound A (``--exclude '#sub'``) over bound B: ``forest restore
    'f.md#B'`` named the restore of A with B, which pasted is refused (a section that
    excludes parts keeps no hidden heading: restore_swallowed.py). The refusal routes
    to close the fence instead, and that advice followed leaves B clean."""
    repo = cut_open(tmp_path)
    before = state(repo)
    got = forest(repo, "restore", "f.md#B")
    assert got.exit_code == 1 and state(repo) == before, got.stdout
    line = got.stderr.strip()
    assert "forest restore 'f.md#A'" not in line, line
    assert "close that code fence before line 10 (or take it out)" in line, line
    lines = CUT.replace("text a\n", "text a\n```\n").splitlines(keepends=True)
    write(repo, "f.md", "".join([*lines[:9], "```\n", *lines[9:]]))
    assert finding_of(repo, "f.md#B")["kind"] == "clean"
