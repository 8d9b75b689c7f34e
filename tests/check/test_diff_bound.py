"""``forest check`` (on a terminal, ``--show-diff``) prints at most ``MAX_DIFF_LINES`` lines
of a drift's diff per finding, worked out no further, then one line saying more follow
(how many, for a line diff) and the ``forest diff`` that prints every one (check/diff.py
``section_diff`` with a limit); a short diff is printed whole, and machine output
carries none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_files.check import diff as diffs
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, pasted, write

LINES = 1_000


def _rewritten(tmp_path: Path, name: str) -> Path:
    old = "".join(f"line {i} says alpha beta\n" for i in range(LINES))
    text = f"# A\n\n{old}\n# B\n\nx\n" if name.endswith(".md") else old
    repo = adopted_repo(tmp_path, name, text, f"{name}#A" if name.endswith(".md") else name)
    new = "".join(f"row {i} reads delta\n" for i in range(LINES))
    write(repo, name, f"# A\n\n{new}\n# B\n\nx\n" if name.endswith(".md") else new)
    return repo


def _diff(out: str) -> list[str]:
    lines = out.splitlines()
    return lines[lines.index(next(x for x in lines if x.startswith("--- ground"))) : -1]


@pytest.mark.parametrize(
    ("name", "command"), [("f.md", "forest diff 'f.md#A' --words"), ("f.cfg", "forest diff f.cfg")]
)
def test_check_rewritten_section_diff_bounded_accepted(
    tmp_path: Path, name: str, command: str
) -> None:
    """Before: 2,000 lines of diff for 1,000 rewritten (60,000 for a 30,000-line section).
    A line diff's lines are counted (cheap); a word diff is aligned no further than the
    lines shown, so its last line says more follow, not how many."""
    repo = _rewritten(tmp_path, name)
    done = forest(repo, "check", "--show-diff")
    assert done.exit_code == 1, done.output
    shown = _diff(done.stdout)
    assert len(shown) == diffs.MAX_DIFF_LINES + 1
    tail = shown[-1]
    counted = r"\d+ more line\(s\)" if name == "f.cfg" else "more lines"
    assert re.fullmatch(rf"… {counted} not shown; every line: `[^`]*`", tail), tail
    (route,) = re.findall(r"`([^`]*)`", tail)
    assert route == command
    every = pasted(repo, route)
    assert every.returncode == 0, every.stderr
    assert "row 999 reads delta" in every.stdout
    assert shown[:-1] == every.stdout.splitlines()[1 : 1 + diffs.MAX_DIFF_LINES]
    if name == "f.cfg":
        assert int(tail.split()[1]) == len(every.stdout.splitlines()) - 1 - diffs.MAX_DIFF_LINES
    assert "row 999" not in forest(repo, "check", "--json").stdout  # no text in machine output


@pytest.mark.parametrize("name", ["f.md", "f.cfg"])
@pytest.mark.parametrize("spare", [0, 1])
def test_check_diff_at_its_bound_printed_whole_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, spare: int
) -> None:
    """A diff of exactly the bound is printed whole; one line more, and the last says so
    (one more line, never a line cut to make room)."""
    repo = _rewritten(tmp_path, name)
    route = "forest diff 'f.md#A' --words" if name == "f.md" else "forest diff f.cfg"
    every = pasted(repo, route).stdout.splitlines()[1:]  # under the "drifted" line
    monkeypatch.setattr(diffs, "MAX_DIFF_LINES", len(every) - spare)
    done = forest(repo, "check", "--show-diff")
    shown = _diff(done.stdout)
    if not spare:
        assert shown == every
    else:
        assert shown[:-1] == every[:-1]
        more = "1 more line(s)" if name == "f.cfg" else "more lines"
        assert shown[-1].startswith(f"… {more} not shown; every line: `{route}`"), shown[-1]


@pytest.mark.parametrize("where", ["--staged", "--rev"])
def test_check_bounded_diff_not_of_working_tree_says_whose_accepted(
    tmp_path: Path, where: str
) -> None:
    """The hook's (``--staged``) or a commit's (``--rev``) diff cut at its bound named
    ``forest diff``, which compares the working tree, as printing "every line" of it: the
    working tree here is back at ground, so pasted it printed no change at all. The last
    line says it is the working tree's diff."""
    repo = _rewritten(tmp_path, "f.md")
    git(repo, "add", "f.md")
    args = ["--staged"]
    if where == "--rev":
        git(repo, "commit", "-q", "--no-verify", "-m", "rewritten")
        args = ["--rev", "HEAD"]
    write(
        repo, "f.md", git(repo, "show", "HEAD~1:f.md" if where == "--rev" else "HEAD:f.md") + "\n"
    )
    done = forest(repo, "check", *args, "--show-diff")
    assert done.exit_code == 1, done.output
    shown = _diff(done.stdout)
    (tail,) = [x for x in shown if x.startswith("… ")]
    whose = "the staged file's" if where == "--staged" else "the commit's"
    route = "forest diff 'f.md#A' --words"
    assert tail == (
        f"… more lines not shown; every line of the working tree's diff ({whose} may "
        f"differ): `{route}`"
    ), tail
    assert pasted(repo, route).stdout.splitlines()[1:] == ["(no change)"]  # it is here
