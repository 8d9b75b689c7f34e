"""``forest restore`` of a Markdown section an edit cut short with a new heading put
above its last lines, those lines (or the ones above) edited too: ground written back
would hold the lines under that heading again, once as ground and once as the new
heading's section, so the restore is refused, nothing written. A heading the
committed file (HEAD) holds already is no new one: its section is judged as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.custody.test_restore_swallowed import WORDS, state
from tests.helpers.cli import forest, kinds, ok
from tests.helpers.git import commit_all, make_repo, write

GROUND = "# A\ntext a\nmore a\n"


def _adopted(tmp_path: Path, text: str) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", text)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A", "--words", WORDS)
    commit_all(repo, "adopt")
    return repo


@pytest.mark.parametrize(
    "edited",
    [
        "# A\ntext a\n# X\nmore a EDITED\n",  # the line under the new heading edited
        "# A\ntext a EDITED\n# X\nmore a\n",  # the line above it edited
        "# A\ntext a\n\n# X\n\nmore a EDITED\n",
    ],
)
def test_restore_cut_short_by_a_new_heading_above_edited_lines_refused(
    tmp_path: Path, edited: str
) -> None:
    """Before: restored as ``# A / text a / more a / # X / more a…``: ``more a`` (or its
    edit) in the file twice."""
    repo = _adopted(tmp_path, GROUND)
    (repo / "f.md").write_text(edited)
    assert kinds(repo) == ["drifted"]
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0, line
    top = edited.splitlines().index("# X") + 1
    assert line.startswith(f"forest: f.md#A: an edit put a heading at line {top} (`# X`)"), line
    assert f"take out line {top}" in line and "nothing was written" in line
    assert state(repo) == before


def test_restore_new_heading_over_other_words_accepted(tmp_path: Path) -> None:
    """``more a`` deleted and a new section of other words put after A: nothing of
    ground's is under the new heading, so ground goes back above it."""
    repo = _adopted(tmp_path, GROUND)
    (repo / "f.md").write_text("# A\ntext a\n# X\nsomething else entirely\n")
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == GROUND + "# X\nsomething else entirely\n"
    assert kinds(repo) == ["clean"]


def test_restore_committed_heading_after_edited_lines_accepted(tmp_path: Path) -> None:
    """``# B`` stood in the committed file: A's last line deleted and B's first line
    edited to read like it is no cut of A (B is not the edit), so A is restored."""
    doc = "# A\ntext a\nmore a\n# B\nmore b\n"
    repo = _adopted(tmp_path, doc)
    (repo / "f.md").write_text("# A\ntext a\n# B\nmore a b\n")
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == "# A\ntext a\nmore a\n# B\nmore a b\n"


def test_restore_emptied_before_committed_sibling_with_the_same_line_accepted(
    tmp_path: Path,
) -> None:
    """A's only line deleted; B, which HEAD holds, begins with that same line (the slow
    lane's property draw): B is its own, not A's lines cut off by a new heading, so A's
    line goes back. Before: refused with "an edit put a heading at line 3"."""
    repo = _adopted(tmp_path, "# Z\n# A\nqac\n# B\nqac\n\n# C\ntext\n")
    (repo / "f.md").write_text("# Z\n# A\n# B\nqac\n\n# C\ntext\n")
    ok(repo, "restore", "f.md#A")
    assert (repo / "f.md").read_text() == "# Z\n# A\nqac\n# B\nqac\n\n# C\ntext\n"
    assert kinds(repo) == ["clean"]


def test_restore_emptied_before_new_heading_over_its_line_refused(tmp_path: Path) -> None:
    """The same text, but ``# B`` is new (HEAD holds no B): a heading put above A's
    line, so writing ground back would hold ``qac`` twice: refused, nothing written."""
    repo = _adopted(tmp_path, "# Z\n# A\nqac\n\n# C\ntext\n")
    (repo / "f.md").write_text("# Z\n# A\n# B\nqac\n\n# C\ntext\n")
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1 and "an edit put a heading at line 3 (`# B`)" in got.stderr
    assert state(repo) == before
