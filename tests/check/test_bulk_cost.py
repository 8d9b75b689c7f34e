"""``forest supersede FILE`` lists each changed section with the lines added and
removed (check/bulk.py ``changes``); a 6,000-line section with every other line edited
took 4 to 12 s for that count alone: ``difflib`` aligned the lines, walking the rest of
the section for every block matched. They are counted on text/line_align.py's
alignment now. No timing is asserted: the lines difflib's searches walk are counted."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.cli import ok
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, make_repo, write

LINES = 6_000
MOST_WALKED = 20 * LINES  # ~9 million before


def test_supersede_listing_every_other_line_edited_linear_accepted(
    tmp_path: Path, walked: list[int]
) -> None:
    old = [f"line {i} of the section says alpha beta gamma\n" for i in range(LINES)]
    new = [x.replace("beta", "BETA") if i % 2 else x for i, x in enumerate(old)]
    repo = make_repo(tmp_path)
    write(repo, "f.md", f"# A\n\n{''.join(old)}\n# B\n\nx\n")
    init_and_adopt(repo, ["f.md#A", "f.md#B"])
    commit_all(repo, "adopt")
    write(repo, "f.md", f"# A\n\n{''.join(new)}\n# B\n\ny\n")  # two changes: listed
    walked.clear()
    done = ok(repo, "supersede", "f.md", "--words", "edited", "--yes")
    assert sum(walked) <= MOST_WALKED, sum(walked)
    listed = [x for x in done.stdout.splitlines() if x.startswith("  f.md#")]
    assert len(listed) == 2, done.stdout
    assert re.search(r"^  f\.md#A .* \+3000 \u22123000 lines$", listed[0]), listed[0]
    assert "2 in one segment" in done.stdout
