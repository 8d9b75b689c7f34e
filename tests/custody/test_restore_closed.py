"""custody/restore_closed.py: a block an edit closed inside a section no longer hides
a heading quietly from ``forest restore``. A fence opened in A's text and closed
further down A's lines, over the heading of a part A excludes (``--exclude '#sub'``)
or over the next section (``# X``, which HEAD's file held there), made A's section run
on over it: the restore wrote ground over those lines, exited 0 and dropped that
section from the file (only the capture held it). Now the restore is refused, nothing
written, naming the block to close; ``forest check`` routes the same advice, which
followed as written, then the restore it names pasted, restores A and keeps the part.
A typed code sample that hides no heading of the file's restores as before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.custody.test_restore_swallowed import state
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.hidden import CUT

NEXT = "# A\n\ntext a\n\n# X\n\nx\n\n# B\n\nb\n"  # X: a section no binding holds


def bound(root: Path, text: str, *adopt: str) -> Path:
    """f.md (``text``) with A bound (``adopt``: its options), committed."""
    repo = make_repo(root)
    ok(repo, "init")
    write(repo, "f.md", text)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A", *adopt, "--words", "kept")
    commit_all(repo, "adopt")
    return repo


def fenced(text: str, head: str, opener: str = "```") -> str:
    """``text`` with a block opened after ``text a`` and closed before ``# B``."""
    closer = {"```": "```", "~~~~": "~~~~", "<!--": "-->"}[opener]
    return text.replace("text a\n", f"text a\n{opener}\n").replace("\n# B", f"{closer}\n\n# B")


CASES = [(CUT, ("--exclude", "#sub"), "## sub"), (NEXT, (), "# X")]


@pytest.mark.parametrize("opener", ["```", "~~~~", "<!--"])
@pytest.mark.parametrize(("text", "adopt", "head"), CASES, ids=["excluded", "next"])
def test_restore_closed_block_over_a_kept_heading_refused(
    tmp_path: Path, text: str, adopt: tuple[str, ...], head: str, opener: str
) -> None:
    repo = bound(tmp_path, text, *adopt)
    write(repo, "f.md", fenced(text, head, opener))
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0 and line.startswith("forest: f.md#A: an edit in it"), line
    assert "opened at line 4" in line and f"`{head}` at line 6" in line, line
    assert "nothing was written" in line and "before line 6" in line, line
    if opener != "<!--":  # its closing line, left, would open a fence over # B
        assert "take out line 9 (that code fence's closing line" in line, line
    assert state(repo) == before


# the route's advice: the closing line to take out first, the line to close before,
# the line that closes it, the restore to run after
ADVICE = re.compile(
    r"before line (\d+) \(or take it out\): (?:a line of just (\d+) (?:backticks|tildes)"
    r"|the line (\S+)) closes it; then `([^`]+)`"
)
TAKE_OUT = re.compile(r"take out line (\d+) \(the code fence's closing line")


@pytest.mark.parametrize("opener", ["```", "<!--"])
@pytest.mark.parametrize(("text", "adopt", "head"), CASES, ids=["excluded", "next"])
def test_check_closed_block_advice_followed_then_pasted_restores_accepted(
    tmp_path: Path, text: str, adopt: tuple[str, ...], head: str, opener: str
) -> None:
    """``forest check`` routed A to ``forest restore 'f.md#A'``, which dropped the hidden
    section; now its first route is the close advice: followed literally, the restore
    it names pasted brings A back and keeps the section (the part's own text as it
    stands: an HTML block's end line is left in it)."""
    repo = bound(tmp_path, text, *adopt)
    write(repo, "f.md", fenced(text, head, opener))
    (a,) = findings(repo)
    first = a["routes"][0]
    assert first["label"] == "close the block" and first["command"] is None, a["routes"]
    said = ADVICE.search(first["note"])
    assert said is not None, first["note"]
    at, count, end, then = said.groups()
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    taken = TAKE_OUT.search(first["note"])
    assert (taken is not None) == (opener == "```"), first["note"]
    if taken is not None:
        del lines[int(taken.group(1)) - 1]
    lines.insert(int(at) - 1, f"{'`' * int(count) if count else end}\n")
    write(repo, "f.md", "".join(lines))
    got = pasted(repo, then)
    assert got.returncode == 0, (then, got.stderr)
    want = text if opener == "```" else text.replace("\n\n# B", "\n-->\n\n# B")
    assert (repo / "f.md").read_text() == want
    if opener == "```":
        assert [f["kind"] for f in findings(repo)] == ["clean"]


@pytest.mark.parametrize(
    "sample", ["```sh\n# install\n```\n", "```\n# B\n```\n", "~~~\n## sub\n~~~\n"]
)
@pytest.mark.parametrize(
    ("text", "adopt"), [(CUT, ("--exclude", "#sub")), (NEXT, ())], ids=["excluded", "next"]
)
def test_restore_typed_code_sample_hiding_no_heading_accepted(
    tmp_path: Path, text: str, adopt: tuple[str, ...], sample: str
) -> None:
    """A code sample typed into A, closed, whose lines read alone as a heading the file
    still holds where it stood (``# B`` after A, ``## sub`` after the sample) or never
    held (``# install``): it is A's edit; the restore drops it, as before."""
    repo = bound(tmp_path, text, *adopt)
    write(repo, "f.md", text.replace("text a\n", f"text a\n{sample}"))
    out = ok(repo, "restore", "f.md#A").stdout
    assert out.startswith("restored f.md#A")
    assert (repo / "f.md").read_text() == text
