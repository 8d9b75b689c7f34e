"""``forest restore`` of a long section costs about its lines, not their square
(text/line_align.py): a 6,000-line bound section with every other line edited took
13 s, three ``difflib`` alignments of its lines (custody/restore_merge.py, which lines
keep their bytes; restore_swallowed.py and restore_cut_short.py, the guards) each
walking the rest of the section for every block matched. No timing is asserted: the
lines difflib's searches walk are counted, and the file is checked byte for byte."""

from __future__ import annotations

from pathlib import Path

from forest_files.custody.restore_merge import merge_lines
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.git import write

LINES = 6_000
MOST_WALKED = 20 * LINES  # ~27 million before (three alignments of ~9 million)


def _sections() -> tuple[list[str], list[str]]:
    old = [f"line {i} of the section says alpha beta gamma\n" for i in range(LINES)]
    new = [x.replace("beta", "BETA") if i % 2 else x for i, x in enumerate(old)]
    return old, new


def test_restore_every_other_line_edited_linear_accepted(tmp_path: Path, walked: list[int]) -> None:
    old, new = _sections()
    ground = f"# A\n\n{''.join(old)}\n# B\n\nx\n"
    repo = adopted_repo(tmp_path, "f.md", ground, "f.md#A")
    write(repo, "f.md", f"# A\n\n{''.join(new)}\n# B\n\nx\n")
    walked.clear()
    done = forest(repo, "restore", "f.md#A")
    assert done.exit_code == 0, done.output
    assert sum(walked) <= MOST_WALKED, sum(walked)
    assert (repo / "f.md").read_text(encoding="utf-8") == ground


def test_merge_every_other_line_keeps_unchanged_bytes_accepted(walked: list[int]) -> None:
    """Each line ground holds keeps its own bytes (here its CRLF), each edited one
    becomes ground's with the section's line end."""
    old, new = _sections()
    section = [x.replace("\n", "\r\n") for x in new]
    merged = merge_lines(section, "".join(old), "\r\n")
    assert sum(walked) <= MOST_WALKED, sum(walked)
    assert merged == "".join(old).replace("\n", "\r\n")
