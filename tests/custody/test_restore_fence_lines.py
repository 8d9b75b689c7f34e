"""A fence an edit left open at the end of a section, with ``#`` lines inside it
(```` ```sh ```` then ``# install``), hides a "heading" that is only a line of the
fence's: kept after ground as a hidden section would be, it would stand as a new
section. A hidden heading neither the file at HEAD nor ground holds may be either,
so the restore is refused (custody/restore_swallowed.py ``guard``); one HEAD holds
is kept after ground as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.restore import splice
from forest_files.custody.restore_swallowed import Swallowed
from tests.custody.test_restore_swallowed import DOC, adopted, state
from tests.helpers.cli import forest, kinds, ok
from tests.helpers.git import pasted

FENCED = DOC.replace("more a\n", "more a\n```sh\n# install\n")


def test_restore_fence_left_open_with_a_hash_line_refused(tmp_path: Path) -> None:
    """``# install`` (line 6) is no heading HEAD or ground holds: refused in one line
    naming the fence, the line, and what to do; nothing written (before: restored with
    ``# install`` kept as a new section above ``# B``)."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text(FENCED)
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    (line,) = got.stderr.splitlines()
    assert line.startswith(
        "forest: f.md#A: an edit in it (the code fence opened at line 5) hides "
        "`# install` at line 6, a heading neither the file at HEAD nor ground holds: it "
        "may be a line of that code fence or a new section; nothing was written — "
    ), line
    assert "close that code fence where its lines end" in line, line
    assert state(repo) == before
    (diff,) = [x for x in line.split("`") if x.startswith("git diff")]
    assert pasted(repo, diff).returncode == 0


def test_restore_fence_closed_after_its_hash_line_restores_accepted(tmp_path: Path) -> None:
    """The refusal's way out: the fence closed where its lines end, the restore drops
    the block (A's edit, kept in the capture) and B stands."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text(FENCED.replace("# install\n", "# install\n```\n"))
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == DOC
    assert kinds(repo) == ["clean"]


def test_restore_hidden_heading_head_holds_kept_accepted(tmp_path: Path) -> None:
    """A fence opened at the end of A hiding ``# B`` (which HEAD holds): B is kept after
    ground as before; HEAD is read to tell them apart."""
    repo = adopted(tmp_path, DOC, "f.md#A")
    (repo / "f.md").write_text(DOC.replace("more a\n", "more a\n```sh\n"))
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == DOC


def test_splice_hidden_heading_no_file_at_head_refused() -> None:
    """HEAD holds no such file (never committed): nothing tells a line of the fence
    from a new section, so the restore is refused the same way."""
    ground = DOC[: DOC.index("# B")]
    with pytest.raises(Swallowed, match=r"hides `# install` at line 6, a heading neither"):
        splice(FENCED.encode(), "f.md#A", (), ground, "f.md", committed=lambda: None)


def test_splice_hidden_heading_no_committed_asked_kept_accepted() -> None:
    """A caller giving no ``committed`` keeps the hidden lines after ground, as before."""
    ground = DOC[: DOC.index("# B")]
    new, _ = splice(FENCED.encode(), "f.md#A", (), ground, "f.md")
    assert new.decode() == DOC.replace("# B", "# install\n\n# B")


INSTALL = "# A\n\ntext a\n\n# install\n\nreal steps\n"


def test_restore_fence_hash_line_head_holds_once_refused(tmp_path: Path) -> None:
    """HEAD holds one ``# install`` (bound, after A); an edit opens a ``sh`` fence at
    the end of A holding ``# install``: kept after ground it would stand as a second
    ``# install`` section before the real one. The file written would hold one more
    ``# install`` than HEAD's, so the restore is refused, nothing written, and the way
    out pasted works (before: exit 0, ``# install`` and ``pip x`` written as a new
    section)."""
    repo = adopted(tmp_path, INSTALL, "f.md#A", "f.md#install")
    (repo / "f.md").write_text(INSTALL.replace("text a\n", "text a\n```sh\n# install\npip x\n"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    (line,) = got.stderr.splitlines()
    assert line.startswith(
        "forest: f.md#A: an edit in it (the code fence opened at line 4) hides "
        "`# install` at line 5, one more `# install` than the file at HEAD holds: it "
        "may be a line of that code fence or a new section; nothing was written — "
    ), line
    assert "neither" not in line, line
    assert state(repo) == before
    steps = [x for x in line.split("`") if x.startswith(("git diff", "forest check"))]
    assert steps == ["forest check", "git diff -- f.md"], line
    assert pasted(repo, steps[1]).returncode == 0
    (repo / "f.md").write_text(INSTALL.replace("text a\n", "text a\n```sh\n# install\n```\n"))
    ok(repo, "restore", "f.md#A")  # the fence closed where its lines end
    assert (repo / "f.md").read_text() == INSTALL
    assert kinds(repo) == ["clean", "clean"]
