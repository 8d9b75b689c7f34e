"""Adopting a proposal into a section an edit made swallow the sections after it (an
unclosed fence or comment), or cut short with a heading made of the proposed lines,
is refused in the proposal's words: what would be written is the proposed text, not
ground (custody/restore_swallowed.py, proposals/adopt.py). Where the hidden sections
can stay after the proposed text, they do, as a restore keeps them."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from tests.helpers.cli import forest
from tests.helpers.custody import BY
from tests.helpers.state import files_state
from tests.helpers.watch import EDITED, bound_repo, captured_proposal


def _refused(root: Path, pid: str) -> str:
    """The one line ``forest proposal adopt`` refused with; nothing written, the
    proposal open."""
    before = files_state(root)
    result = forest(root, "proposal", "adopt", pid, "--words", "take the proposal", "--as", BY)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"forest: proposal {pid}: "), line
    assert "nothing was written" in line and "restor" not in line and "ground" not in line
    assert f"`forest proposal discard {pid}`" in line
    assert files_state(root) == before
    with ProposalStore(root) as store:
        assert store.get(pid).status == "open"
    return line


def test_proposal_adopt_into_swallowing_section_refused(tmp_path: Path) -> None:
    """A fence opened in Keep and closed in Other: Other kept after the proposed text
    would open a fence over ``## Last``."""
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    edited = EDITED.replace("edited words", "```\nedited words")
    (root / "a.md").write_text(edited.replace("other words\n", "other words\n```\n\n## Last\n"))
    line = _refused(root, pid)
    assert "a.md#Title/Keep" in line and "code fence opened at line 5" in line
    assert "`## Other` at line 8" in line and "the proposed text written in would" in line


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ("edited words\n---\n", "underlined a.md#Title/Keep's line 5 (line 6)"),
        ("## edited words\n", "put a heading at line 5 (`## edited words`)"),
    ],
    ids=["setext", "atx"],
)
def test_proposal_adopt_into_section_cut_short_refused(
    tmp_path: Path, edit: str, said: str
) -> None:
    """``edited words`` underlined with ``---`` (or made ``## edited words``) is a
    heading that ends Keep: the proposed text written in would hold it twice."""
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    (root / "a.md").write_text(EDITED.replace("edited words\n", edit))
    line = _refused(root, pid)
    assert said in line and "the proposed text written in would hold" in line


def test_proposal_adopt_into_swallowing_section_keeps_the_next_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    (root / "a.md").write_text(EDITED.replace("edited words", "<!--\nedited words"))
    result = forest(root, "proposal", "adopt", pid, "--words", "take the proposal", "--as", BY)
    assert result.exit_code == 0, result.output
    assert (root / "a.md").read_text() == EDITED


def test_proposal_adopt_fence_left_open_with_a_hash_line_refused(tmp_path: Path) -> None:
    """A fence left open at Keep's end with ``## install`` in it: a heading neither HEAD
    nor the proposed text holds (a line of the fence, or a new section), refused in the
    proposal's words (before: adopted, ``## install`` kept as a new section)."""
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    (root / "a.md").write_text(
        EDITED.replace("edited words\n", "edited words\n```sh\n## install\n")
    )
    line = _refused(root, pid)
    assert "a.md#Title/Keep (the code fence opened at line 6) hides `## install` at line 7" in line
    assert "neither the file at HEAD nor the proposed text holds" in line
