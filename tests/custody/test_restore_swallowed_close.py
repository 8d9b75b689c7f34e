"""custody/restore_swallowed.py: the refusal of a restore whose section hides the
headings after it names the line that closes the block, and that advice followed as
written, then the restore again, leaves the check clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.custody.test_restore_swallowed import state
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, make_repo, pasted, write
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


NEW = "# A\n\ntext a\nmore a\n\n# B\n\nb\n\n# C\n\nc\n"


@pytest.mark.parametrize(
    ("opened", "closed"), [("```sh\n", "```\n"), ("<!--\n", "-->\n"), ("<!--\n", "a note -->\n")]
)
@pytest.mark.parametrize("way", ["close", "take out"])
def test_restore_new_heading_block_closed_further_on_advice_followed_clean(
    tmp_path: Path, opened: str, closed: str, way: str
) -> None:
    """A, B and C bound; an edit opens a block over ``more a`` in A and closes it after
    a ``# install`` it types below (no heading HEAD holds): ``forest restore 'f.md#A'``
    is refused as a heading that may be new, and said "close that code fence where its
    lines end (before line 6 if `# install` begins a new section) or take it out", its
    own closing line (line 7) unsaid: a line written before line 6, or the block's
    first line taken out, left that line to open a fence (or stand as a stray ``-->``)
    over B and C. The refusal takes that line out first (one holding words stays, said
    so); followed as written (either way), the restore goes through, B and C clean,
    ``# install`` kept (and the words on that line)."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", NEW)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md", "--headings", "--words", "kept", "--yes")
    commit_all(repo, "adopt")
    typed = f"more a\n# install\n{closed}"
    edited = NEW.replace("text a\n", f"text a\n{opened}").replace("more a\n", typed)
    write(repo, "f.md", edited)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    (line,) = got.stderr.splitlines()
    assert "hides `# install` at line 6, a heading neither" in line, line
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    out = re.search(r"take out line (\d+) \(", line)
    if out is not None:
        del lines[int(out.group(1)) - 1]
    if way == "close":
        (before,) = re.findall(r"before line (\d+)", line)
        said = ADVICE.search(line)
        count, marks, end = said.groups()[1:] if said is not None else (None, None, None)
        closer = ("`" * int(count) if marks == "backticks" else end) if said else closed.strip()
        lines.insert(int(before) - 1, f"{closer}\n")
    else:
        lines.remove(opened)
    write(repo, "f.md", "".join(lines))
    ok(repo, "restore", "f.md#A")
    assert [f["kind"] for f in findings(repo)] == ["clean", "clean", "clean"], findings(repo)
    words = "" if closed.strip() in ("```", "-->") else closed
    assert (repo / "f.md").read_text() == NEW.replace("# B", f"# install\n{words}\n# B")


# ``check``'s route for a heading that may be new: the line to close the block before,
# the line that closes it, the restore to paste after
ROUTE = re.compile(
    r"before line (\d+) if `[^`]+` begins a new section\) or take it out: (?:a line of "
    r"just (\d+) (?:backticks|tildes)|the line (\S+)) closes it; then `([^`]+)`"
)


@pytest.mark.parametrize("opener", ["```", "~~~~", "```md", "<!--", "```sh"])
def test_restore_open_block_over_a_heading_typed_twice_refused(tmp_path: Path, opener: str) -> None:
    """``# B`` typed a second time in A with words under it, a block opened before it
    and left open (no closing line), the committed ``# B`` after A: the block runs on
    over both, and a restore writing ground over A's lines from the block's first line
    would keep the typed ``# B`` only as a hidden section read alone. The file written
    so would hold two ``# B`` where HEAD's holds one (restore_swallowed.py's count):
    ``forest restore 'f.md#A'`` is refused in one line, nothing written, with the close
    advice; ``forest check``'s route followed as written (the block closed before the
    typed ``# B``), then its restore pasted, keeps the words and makes A ground. (The
    same case with the block closed: test_restore_closed.py's typed-twice test.)"""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    text = "# A\n\ntext a\n\n# B\n\nb\n"
    write(repo, "f.md", text)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A", "--words", "kept")
    commit_all(repo, "adopt")
    edited = f"# A\n\ntext a\n{opener}\n# B\n\nmy typed words\n\n# B\n\nb\n"
    write(repo, "f.md", edited)
    (a,) = findings(repo)
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    assert (repo / "f.md").read_text() == edited
    assert state(repo) == before
    (line,) = got.stderr.strip().splitlines()
    assert line.startswith("forest: f.md#A: an edit in it") and "opened at line 4" in line, line
    assert "hides `# B` at line 5, one more `# B` than the file at HEAD holds" in line, line
    assert "nothing was written" in line and "before line 5" in line, line
    first = a["routes"][0]
    assert first["label"] == "close the block" and first["command"] is None, a["routes"]
    said = ROUTE.search(first["note"])
    assert said is not None, first["note"]
    at, count, end, then = said.groups()
    lines = edited.splitlines(keepends=True)
    lines.insert(int(at) - 1, f"{end or opener[0] * int(count)}\n")
    write(repo, "f.md", "".join(lines))
    got = pasted(repo, then)
    assert got.returncode == 0, (then, got.stderr)
    now = (repo / "f.md").read_text()
    assert now.startswith("# A\n\ntext a\n") and now.count("my typed words") == 1, now
    assert now.endswith("# B\n\nb\n"), now
    assert [f["kind"] for f in findings(repo)] == ["clean"]
