"""``forest restore`` never drops a section an edit made the restored one swallow: an
unclosed fence or HTML comment put into a section hides the headings after it, so the
section runs on over them; the restore keeps those sections after ground (the file as
before the edit) or, when that would not read back so, refuses with nothing written. A
section an edit cut short with a setext underline is refused too (its lines would be
written twice)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files.custody.restore import splice
from forest_files.kernel.errors import ForestError
from tests.helpers.cli import forest, kinds, ok
from tests.helpers.git import commit_all, make_repo, pasted, write

WORDS = "I adopt these words as written"
DOC = "# A\n\ntext a\nmore a\n\n# B\n\nb\n"


def adopted(tmp_path: Path, text: str, *targets: str) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", text)
    commit_all(repo, "init")
    ok(repo, "adopt", *targets, "--words", WORDS, "--yes")
    commit_all(repo, "adopt")
    return repo


def state(repo: Path) -> dict[str, bytes]:
    """The file, the ledger and the captures: what a refusal leaves byte-identical."""
    out = {"f.md": (repo / "f.md").read_bytes()}
    for top in (repo / ".forest", repo / ".git" / "forest" / "captures"):
        for dirpath, _dirs, files in os.walk(top):
            for name in files:
                path = Path(dirpath) / name
                out[path.relative_to(repo).as_posix()] = path.read_bytes()
    return out


@pytest.mark.parametrize("opener", ["```", "~~~~", "<!--", "<!-- a note"])
def test_restore_section_swallowing_the_next_keeps_it_accepted(tmp_path: Path, opener: str) -> None:
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text(DOC.replace("text a", f"{opener}\ntext a"))
    assert kinds(repo) == ["drifted"]
    out = ok(repo, "restore", "f.md#A").stdout
    assert out.startswith("restored f.md#A")
    assert (repo / "f.md").read_text() == DOC
    assert kinds(repo) == ["clean"]


def test_restore_swallowed_bound_section_kept_accepted(tmp_path: Path) -> None:
    text = DOC + "\n# C\n\nc\n"
    repo = adopted(tmp_path, text, "f.md", "--headings")
    (repo / "f.md").write_text(text.replace("more a\n", "more a\n<!--\n"))
    assert sorted(kinds(repo)) == ["drifted", "unresolved", "unresolved"]
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == text
    assert kinds(repo) == ["clean", "clean", "clean"]


def test_restore_swallowed_section_edited_too_kept_accepted(tmp_path: Path) -> None:
    """The swallowed section keeps its own edit; only A's lines are ground's."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    edited = DOC.replace("text a", "```\ntext a, edited").replace("\nb\n", "\nb, edited\n")
    (repo / "f.md").write_text(edited)
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == DOC.replace("\nb\n", "\nb, edited\n")


def test_restore_fence_added_and_closed_in_section_drops_it_accepted(tmp_path: Path) -> None:
    """A closed code block holding heading-like lines is the edit: it goes, B stays."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text(DOC.replace("more a\n", "more a\n```sh\n# install\n```\n"))
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == DOC


def test_restore_swallowed_section_that_would_not_stand_refused(tmp_path: Path) -> None:
    """The fence is closed inside B, so B kept after ground would swallow C: refused."""
    text = DOC + "\n# C\n\nc\n"
    repo = adopted(tmp_path, text, "f.md#A")
    (repo / "f.md").write_text(text.replace("text a", "```\ntext a").replace("\nb\n", "\nb\n```\n"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1
    line = got.stderr.strip()
    assert line.count("\n") == 0 and line.startswith("forest: f.md#A:")
    assert "code fence opened at line 3" in line and "`# B` at line 7" in line
    assert "nothing was written" in line and "forest check" in line
    assert state(repo) == before


def test_restore_swallowed_heading_after_a_changed_line_kept_accepted(tmp_path: Path) -> None:
    """The blank line above ``# B`` went too, and a changed line comes just before it:
    ``# B`` still stands after every line of ground's the section holds."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text("# A\n\n<!--\ntext a\nmore A\n# B\n\nb\n")
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == DOC


def test_restore_swallowed_heading_before_ground_lines_refused(tmp_path: Path) -> None:
    """A heading hidden above lines of ground's is not where the section's lines end:
    which lines stood outside it cannot be told, so nothing is guessed."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text("# A\n\n<!--\ntext a\n# Z\nmore a\n\n# B\n\nb\n")
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    assert "HTML comment or block opened at line 3" in got.stderr
    assert "`# Z` at line 5" in got.stderr
    assert state(repo) == before
    step = got.stderr.split("`")[-2]  # the last step the line names works pasted
    assert pasted(repo, step).returncode == 0, step


def test_restore_section_cut_short_by_setext_underline_refused(tmp_path: Path) -> None:
    """``more a`` underlined with ``===`` makes ``text a more a`` a heading that ends A:
    ground written back would hold those lines and the heading again."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text(DOC.replace("more a\n", "more a\n===\n"))
    assert kinds(repo) == ["drifted"]
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1
    line = got.stderr.strip()
    assert line.count("\n") == 0 and line.startswith("forest: f.md#A:")
    assert "lines 3-4" in line and "line 5" in line and "twice" in line
    assert "nothing was written" in line
    assert state(repo) == before


def test_splice_swallowed_crlf_and_bom_kept_byte_for_byte_accepted() -> None:
    doc = "\ufeff# A\r\n\r\ntext a\r\n\r\n# B\r\n\r\nb\r\n"
    edited = doc.replace("text a", "```\r\ntext a").encode("utf-8")
    new, old = splice(edited, "f.md#A", (), "# A\n\ntext a\n\n", "f.md")
    assert new == doc.encode("utf-8")
    assert isinstance(old, str) and "# B" in old  # the capture holds all it replaced


def test_splice_swallowed_under_a_subsection_level_kept_accepted() -> None:
    """A level-2 section hides its sibling and the level-1 section after; the
    subsection of its own ground stays in it."""
    doc = "# T\n\n## A\n\na\n\n### A1\n\nx\n\n## B\n\nb\n\n# C\n\nc\n"
    ground = "## A\n\na\n\n### A1\n\nx\n\n"
    edited = doc.replace("\na\n", "\n<!-- draft\na\n").encode()
    new, _ = splice(edited, "f.md#T/A", (), ground, "f.md")
    assert new.decode() == doc


def test_splice_nothing_hidden_restores_as_before_accepted() -> None:
    """A heading-like line in a closed block the edit added, and a lower-level heading
    hidden in the section, are the section's own: dropped as any edit."""
    doc = "# A\n\na\n\n# B\n\nb\n"
    edited = doc.replace("\na\n", "\n~~~\n# not a heading\n~~~\n<!--\n## A2\n-->\na\n").encode()
    new, _ = splice(edited, "f.md#A", (), "# A\n\na\n\n", "f.md")
    assert new.decode() == doc


def test_splice_underline_on_one_line_refused() -> None:
    doc = "## A\n\nonly a\n\n## B\n\nb\n"
    edited = doc.replace("only a\n", "only a\n---\n").encode()
    with pytest.raises(ForestError, match=r"underlined its line 3 \(line 4\)"):
        splice(edited, "f.md#A", (), "## A\n\nonly a\n\n", "f.md")


def test_restore_excluded_subsection_hidden_by_an_edit_refused(tmp_path: Path) -> None:
    """``<!--`` before an excluded subsection hides it (the exclusion finds nothing):
    ground written back would drop its text, which no record holds."""
    text = DOC + "\n# C\n\nc\n\n## Notes\n\nn\n"
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", text)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#C", "--exclude", "#C/Notes", "--words", WORDS)
    commit_all(repo, "adopt")
    (repo / "f.md").write_text(text.replace("\nc\n", "\nc\n<!--\n"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#C")
    assert got.exit_code == 1
    assert "HTML comment or block opened at line 13" in got.stderr
    assert "`## Notes` at line 15" in got.stderr
    assert state(repo) == before


@pytest.mark.parametrize("opener", ["```", "<!--"])
def test_restore_fence_opened_at_the_end_of_the_section_keeps_the_next_accepted(
    tmp_path: Path, opener: str
) -> None:
    """The opening line is the last of A, right above ``# B``: the lines the restore
    drops begin with it, so they are read again past it."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text(DOC.replace("\n# B", f"\n{opener}\n# B"))
    assert kinds(repo) == ["drifted"]
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == DOC


def test_restore_section_cut_short_by_an_atx_heading_refused(tmp_path: Path) -> None:
    """``text a`` made ``# text a`` ends A there: ground written back would hold
    ``text a`` and ``more a``, and the new section ``# text a`` would hold them again."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text(DOC.replace("text a", "# text a"))
    assert kinds(repo) == ["drifted"]
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0 and line.startswith("forest: f.md#A:")
    assert "heading at line 3 (`# text a`)" in line and "its lines 3-4 twice" in line
    assert "nothing was written" in line and "take out line 3" in line
    assert state(repo) == before


def test_splice_heading_put_among_ground_lines_refused() -> None:
    """A new heading put above ``more a`` takes it into its own section."""
    edited = DOC.replace("more a", "## Z\nmore a").replace("# A", "## A").replace("# B", "## B")
    ground = "## A\n\ntext a\nmore a\n\n"
    with pytest.raises(ForestError, match=r"heading at line 4 \(`## Z`\).*its line 5 twice"):
        splice(edited.encode(), "f.md#A", (), ground, "f.md")


def test_splice_next_section_holding_other_lines_restores_accepted() -> None:
    """A's last line deleted, ``# B`` as it was: nothing of ground's is under it."""
    new, _ = splice(DOC.replace("more a\n", "").encode(), "f.md#A", (), DOC[:20], "f.md")
    assert new.decode() == DOC


BOOK = "# A {#a}\n\ntext a\nmore a\n\n# B\n\nb\n\n# C\n\nc\n\n## Notes\n\nn\n"


def _book(tmp_path: Path) -> Path:
    """BOOK with A bound by its id, B bound, C bound without its Notes."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", BOOK)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#{a}", "--words", WORDS)
    ok(repo, "adopt", "f.md#B", "--words", WORDS)
    ok(repo, "adopt", "f.md#C", "--exclude", "#C/Notes", "--words", WORDS)
    commit_all(repo, "adopt")
    return repo


@pytest.mark.parametrize("target", ["f.md", "f.md#B", "f.md#C"])
def test_restore_whole_file_swallowed_sections_judged_after_accepted(
    tmp_path: Path, target: str
) -> None:
    """``forest restore f.md`` (and A named after B or C) restores A first, keeping B and
    C after it, and judges B and C on the result: clean. Before, B came first (its
    selector sorts before ``{a}``) and was judged on the file A swallowed: "no heading
    matches"."""
    repo = _book(tmp_path)
    (repo / "f.md").write_text(BOOK.replace("text a", "```\ntext a"))
    assert sorted(kinds(repo)) == ["drifted", "unresolved", "unresolved"]
    targets = (target,) if target == "f.md" else (target, "f.md#{a}")
    out = ok(repo, "restore", *targets).stdout
    assert "restored f.md#{a}; the replaced text is kept in" in out
    assert (repo / "f.md").read_text() == BOOK
    assert kinds(repo) == ["clean", "clean", "clean"]


def test_restore_whole_file_section_still_missing_after_refused(tmp_path: Path) -> None:
    """B deleted as well as swallowed: judged again on A restored, B is still missing,
    and the whole command is refused with nothing written."""
    repo = _book(tmp_path)
    (repo / "f.md").write_text(BOOK.replace("text a", "```\ntext a").replace("# B\n\nb\n\n", ""))
    before = state(repo)
    got = forest(repo, "restore", "f.md")
    assert got.exit_code == 1, got.stdout
    assert got.stderr.strip().startswith("forest: f.md#B: no heading matches")
    assert got.stderr.strip().count("\n") == 0
    assert state(repo) == before


def test_splice_next_section_beginning_as_the_lacked_lines_restores_accepted() -> None:
    """A's last code block deleted, ``# B`` beginning with a fence too: B's lines are
    not the ones A lacks (only the fence line is alike), so nothing is cut short."""
    doc = "# A\n\ntext a\n\n```\ncode a\n```\n\n# B\n\n```\ncode b\n```\n"
    edited = doc.replace("```\ncode a\n```\n\n", "").encode()
    new, _ = splice(edited, "f.md#A", (), doc[: doc.index("# B")], "f.md")
    assert new.decode() == doc
