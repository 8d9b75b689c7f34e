"""What ranking a renamed section's candidates (check/renames.py) and pairing a moved
file with its new name (check/filerenames.py) cost on a long section: a 6,000-line
bound section renamed (or its file moved) and every other line edited. Their line
ratios were ``difflib.SequenceMatcher(...).ratio()`` on the whole sections, each
longest-match search walking the rest of the section (~9 million lines walked, 3 to 5 s
in ``forest check`` and in the pre-commit hook); past 100 x 100 lines they are the
ratio of text/line_align.py's matched lines now. No timing is asserted: the lines
difflib's searches walk are counted, and the candidates are checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.doors.hooks.run import main as hook
from tests.helpers.cli import finding_of
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, write

LINES = 6_000
MOST_WALKED = 20 * LINES  # ~9 million before


def _body(edited: bool = False) -> str:
    return "".join(
        f"line {i} of the section says alpha {'BETA' if edited and i % 2 else 'beta'} gamma\n"
        for i in range(LINES)
    )


def test_check_renamed_long_section_edited_ranked_linear_accepted(
    tmp_path: Path, walked: list[int]
) -> None:
    root = make_repo(tmp_path)
    write(root, "f.md", f"# Book\n\n## A\n\n{_body()}\n## B\n\nother text here\n")
    init_and_adopt(root, ["f.md#Book/A"])
    commit_all(root, "adopt")
    write(root, "f.md", f"# Book\n\n## B\n\nother text here\n\n## A2\n\n{_body(True)}")
    walked.clear()
    found = finding_of(root, "f.md#Book/A")
    assert sum(walked) <= MOST_WALKED, sum(walked)
    assert found["kind"] == "unresolved"
    assert found["candidates"] == ["f.md#Book/A2", "f.md#Book/B"]  # not document order


def test_hook_moved_long_file_edited_paired_linear_accepted(
    tmp_path: Path, walked: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repo(tmp_path)
    write(root, "f.md", f"# A\n\n{_body()}\n# B\n\nother\n")
    init_and_adopt(root, ["f.md#A"])
    commit_all(root, "adopt")
    git(root, "mv", "f.md", "g.md")
    write(root, "g.md", f"# A\n\n{_body(True)}\n# B\n\nother\n")
    git(root, "add", "-A")
    walked.clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        assert hook(["pre-commit"]) == 1
    assert sum(walked) <= MOST_WALKED, sum(walked)
    out = capsys.readouterr()
    assert "forest rebind 'f.md#A' 'g.md#A'" in out.out + out.err
