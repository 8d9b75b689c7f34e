"""custody/restore_swallowed.py: the refusal of a restore whose section hides the
headings after it names the line that closes the block, and that advice followed as
written, then the restore again, leaves the check clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.hidden import CUT

# The refusal's close advice: the line to close the block before and the line to write.
ADVICE = re.compile(
    r"before line (\d+) \(or take it out\): (?:a line of just (\d+) (backticks|tildes)"
    r"|the line (\S+)) closes it, then"
)


@pytest.mark.parametrize(
    ("text", "exclude", "opened"),
    [
        (CUT, ("--exclude", "#sub"), "```\n"),  # an excluded part hidden
        (CUT, ("--exclude", "#sub"), "````md\n"),  # closed by four backticks, not three
        (CUT, ("--exclude", "#sub"), "<!-- draft\n"),
    ],
)
def test_restore_hidden_heading_refusal_names_closing_line_followed_clean(
    tmp_path: Path, text: str, exclude: tuple[str, ...], opened: str
) -> None:
    """``forest restore 'f.md#A'`` refused with "close that code fence before line 6
    or take it out", not saying which line closes it (a ```` fence is closed only by
    four backticks or more). The refusal names the line now; written before the line
    it names, the restore goes through and the check is clean."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", text)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A", *exclude, "--words", "kept")
    commit_all(repo, "adopt")
    write(repo, "f.md", text.replace("text a\n", f"text a\n{opened}", 1))
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    said = ADVICE.search(got.stderr)
    assert said is not None, got.stderr
    before, count, marks, end = said.groups()
    closer = ("`" if marks == "backticks" else "~") * int(count) if count else end
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    n = int(before) - 1
    write(repo, "f.md", "".join([*lines[:n], f"{closer}\n", *lines[n:]]))
    ok(repo, "restore", "f.md#A")
    assert {f["kind"] for f in findings(repo)} == {"clean"}


def test_restore_hidden_heading_fence_closed_further_on_takes_its_closer_out_accepted(
    tmp_path: Path,
) -> None:
    """The fence is closed inside B: a line closing it before ``# B`` would leave its
    own closing line opening a fence over ``# C``. The refusal named no closing line
    (close it "before line 6 or take it out", with what left unsaid); it says to take
    that closing line out first, then names the line that closes it: followed as
    written, the restore goes through and the check is clean."""
    text = "# A\n\ntext a\n\n# B\n\nb\n\n# C\n\nc\n"
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", text)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A", "--words", "kept")
    commit_all(repo, "adopt")
    write(repo, "f.md", text.replace("text a\n", "```\ntext a\n").replace("\nb\n", "\nb\n```\n"))
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    assert "take out line 9 (that code fence's closing line" in got.stderr, got.stderr
    said = ADVICE.search(got.stderr)
    assert said is not None and said.group(1) == "6" and said.group(2) == "3", got.stderr
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    del lines[8]
    lines.insert(5, "```\n")
    write(repo, "f.md", "".join(lines))
    ok(repo, "restore", "f.md#A")
    assert {f["kind"] for f in findings(repo)} == {"clean"}
    assert (repo / "f.md").read_text() == text
