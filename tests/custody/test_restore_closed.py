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
    # its closing line, left, would open a fence over # B (an HTML block's: stay, `-->`)
    what = "HTML comment or block" if opener == "<!--" else "code fence"
    assert f"take out line 9 (that {what}'s closing line" in line, line
    assert state(repo) == before


# the route's advice: the closing line to take out first, the line to close before,
# the line that closes it, the restore to run after
ADVICE = re.compile(
    r"before line (\d+) \(or take it out\): (?:a line of just (\d+) (?:backticks|tildes)"
    r"|the line (\S+)) closes it(?: \(line \d+, which closes it now, stays: the words on it "
    r"are yours\))?; then `([^`]+)`"
)
TAKE_OUT = re.compile(
    r"take out line (\d+) \(the (?:code fence|HTML comment or block)'s closing line"
)


@pytest.mark.parametrize("opener", ["```", "<!--"])
@pytest.mark.parametrize(("text", "adopt", "head"), CASES, ids=["excluded", "next"])
def test_check_closed_block_advice_followed_then_pasted_restores_accepted(
    tmp_path: Path, text: str, adopt: tuple[str, ...], head: str, opener: str
) -> None:
    """``forest check`` routed A to ``forest restore 'f.md#A'``, which dropped the hidden
    section; now its first route is the close advice: followed literally, the restore
    it names pasted brings A back and keeps the section, every binding clean (an HTML
    block's ``-->`` line, left by the advice, stayed in the part's text)."""
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
    assert taken is not None, first["note"]
    del lines[int(taken.group(1)) - 1]
    lines.insert(int(at) - 1, f"{'`' * int(count) if count else end}\n")
    write(repo, "f.md", "".join(lines))
    got = pasted(repo, then)
    assert got.returncode == 0, (then, got.stderr)
    assert (repo / "f.md").read_text() == text
    assert [f["kind"] for f in findings(repo)] == ["clean"]


@pytest.mark.parametrize(("text", "adopt", "head"), CASES, ids=["excluded", "next"])
def test_closed_html_block_ending_on_words_advice_keeps_them(
    tmp_path: Path, text: str, adopt: tuple[str, ...], head: str
) -> None:
    """An HTML comment opened in A and ended on a line of the user's words (``my words
    -->``): the refusal and the route say that line stays (the advice said nothing of
    it), and neither says to take it out; followed literally, then the restore the
    route names pasted, A is restored, every binding clean, the words in the file."""
    repo = bound(tmp_path, text, *adopt)
    edited = text.replace("text a\n", "text a\n<!--\n")
    edited = edited.replace("\n\n# B", "\nmy words -->\n\n# B")
    write(repo, "f.md", edited)
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    stays = "(line 9, which closes it now, stays: the words on it are yours)"
    assert f"`{head}` at line 6" in line and stays in line and "take out line" not in line
    assert state(repo) == before
    (a,) = findings(repo)
    first = a["routes"][0]
    assert stays in first["note"] and "take out line" not in first["note"], first["note"]
    said = ADVICE.search(first["note"])
    assert said is not None, first["note"]
    at, _count, end, then = said.groups()
    lines = edited.splitlines(keepends=True)
    lines.insert(int(at) - 1, f"{end}\n")
    write(repo, "f.md", "".join(lines))
    got = pasted(repo, then)
    assert got.returncode == 0, (then, got.stderr)
    assert (repo / "f.md").read_text() == text.replace("\n\n# B", "\nmy words -->\n\n# B")
    assert [f["kind"] for f in findings(repo)] == ["clean"]


@pytest.mark.parametrize(
    "sample",
    [
        "```sh\n# install\n```\n",
        "```\n# B\n```\n",
        "~~~\n## sub\n~~~\n",
        "```sh\n# B\n\nmy typed words\n```\n",
    ],
)
@pytest.mark.parametrize(
    ("text", "adopt"), [(CUT, ("--exclude", "#sub")), (NEXT, ())], ids=["excluded", "next"]
)
def test_restore_typed_code_sample_hiding_no_heading_accepted(
    tmp_path: Path, text: str, adopt: tuple[str, ...], sample: str
) -> None:
    """A code sample typed into A, closed, whose lines read alone as a heading the file
    still holds where it stood (``# B`` after A, ``## sub`` after the sample; in a
    ``sh`` fence with words under it too) or never held (``# install``): it is A's edit;
    the restore drops it, as before."""
    repo = bound(tmp_path, text, *adopt)
    write(repo, "f.md", text.replace("text a\n", f"text a\n{sample}"))
    out = ok(repo, "restore", "f.md#A").stdout
    assert out.startswith("restored f.md#A")
    assert (repo / "f.md").read_text() == text


NEVER = "\n# Y\n\nmy new words\n"  # a section typed after A, never committed


@pytest.mark.parametrize("opener", ["```", "~~~~", "<!--"])
def test_restore_closed_block_over_a_never_committed_section_refused(
    tmp_path: Path, opener: str
) -> None:
    """A section ``# Y`` typed after A and never committed, then a block opened in A
    and closed before ``# B`` over it: HEAD's file holds no ``# Y``, so the judge read
    it as A's edit, and the restore exited 0 with ``# Y`` and its words gone from the
    file (only the capture held them). Now the restore is refused, nothing written;
    ``forest check`` routes the close advice, which followed literally, then the
    restore it names pasted, restores A and keeps ``# Y`` and its words in the file."""
    closer = {"```": "```", "~~~~": "~~~~", "<!--": "-->"}[opener]
    _never_committed_refused_then_followed(tmp_path, opener, closer)


@pytest.mark.parametrize("opener", ["```md", "```markdown", "~~~ Markdown"])
def test_restore_markdown_fence_over_a_never_committed_section_refused(
    tmp_path: Path, opener: str
) -> None:
    """The same under a fence labelled Markdown (```` ```md ````): read as a code sample
    (it names a language), ``# Y`` was the sample's line and the restore exited 0 with
    ``# Y`` and its words gone from the file. A Markdown fence's lines are most likely a
    section typed over, so it is judged as a bare fence: refused, then the close
    advice followed keeps them (a ```` ```sh ```` sample still restores:
    ``test_restore_typed_code_sample_hiding_no_heading_accepted``)."""
    _never_committed_refused_then_followed(tmp_path, opener, opener[:3])


def _never_committed_refused_then_followed(tmp_path: Path, opener: str, closer: str) -> None:
    """``# Y`` (never committed) typed after A, a block ``opener`` .. ``closer`` over it:
    the restore of A refused, nothing written; the route followed keeps ``# Y``."""
    repo = bound(tmp_path, NEXT.replace("\n# X\n\nx\n", ""))
    edited = f"# A\n\ntext a\n{opener}\n{NEVER}{closer}\n\n# B\n\nb\n"
    write(repo, "f.md", edited)
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0 and "`# Y` at line 6" in line, line
    assert "nothing was written" in line and "before line 6" in line, line
    assert state(repo) == before
    (a,) = findings(repo)
    first = a["routes"][0]
    assert first["label"] == "close the block" and first["command"] is None, a["routes"]
    said = ADVICE.search(first["note"])
    assert said is not None, first["note"]
    at, count, end, then = said.groups()
    lines = edited.splitlines(keepends=True)
    taken = TAKE_OUT.search(first["note"])
    assert taken is not None, first["note"]
    del lines[int(taken.group(1)) - 1]
    lines.insert(int(at) - 1, f"{end or closer[0] * int(count)}\n")
    write(repo, "f.md", "".join(lines))
    got = pasted(repo, then)
    assert got.returncode == 0, (then, got.stderr)
    assert "my new words" in (repo / "f.md").read_text()
    assert (repo / "f.md").read_text().startswith("# A\n\ntext a\n")


def test_restore_bare_sample_ground_holds_accepted(tmp_path: Path) -> None:
    """A bare fence ground holds itself, whose line reads as ``# note`` (HEAD holds no
    such heading): a word changed in A, the restore puts ground back, as before."""
    text = "# A\n\ntext a\n```\n# note\n```\n\n# B\n\nb\n"
    repo = bound(tmp_path, text)
    write(repo, "f.md", text.replace("text a", "text A"))
    assert ok(repo, "restore", "f.md#A").stdout.startswith("restored f.md#A")
    assert (repo / "f.md").read_text() == text


TWICE = "\n# B\n\nmy typed words\n"  # ``# B`` typed a second time in A, words under it


@pytest.mark.parametrize("opener", ["```", "~~~~", "```md", "<!--"])
def test_restore_closed_block_over_a_heading_typed_twice_refused(
    tmp_path: Path, opener: str
) -> None:
    """``# B`` typed in A with words under it, a block opened before it and closed after
    it, while the real ``# B`` (committed) follows A: HEAD's file and the file as the
    restore writes it hold one ``# B`` each, so the judge read the typed one as a line
    of A's edit, and ``forest check``'s route, ``forest restore 'f.md#A'``, exited 0
    with the typed ``# B`` and its words gone from the file. Read with the block's first
    line out, the file holds two: the restore is refused, nothing written, with the
    close advice; followed literally, the restore it names pasted keeps the words and
    makes A ground."""
    closer = {"```": "```", "~~~~": "~~~~", "```md": "```", "<!--": "-->"}[opener]
    text = NEXT.replace("\n# X\n\nx\n", "")
    repo = bound(tmp_path, text)
    edited = f"# A\n\ntext a\n{opener}\n{TWICE}{closer}\n\n# B\n\nb\n"
    write(repo, "f.md", edited)
    (a,) = findings(repo)
    before = state(repo)
    got = forest(repo, "restore", "f.md#A")
    assert "my typed words" in (repo / "f.md").read_text(), got.stdout
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0 and "`# B` at line 6" in line, line
    assert "nothing was written" in line and "before line 6" in line, line
    assert state(repo) == before
    first = a["routes"][0]
    assert first["label"] == "close the block" and first["command"] is None, a["routes"]
    said = ADVICE.search(first["note"])
    assert said is not None, first["note"]
    at, count, end, then = said.groups()
    lines = edited.splitlines(keepends=True)
    taken = TAKE_OUT.search(first["note"])
    assert taken is not None, first["note"]
    del lines[int(taken.group(1)) - 1]
    lines.insert(int(at) - 1, f"{end or closer[0] * int(count)}\n")
    write(repo, "f.md", "".join(lines))
    got = pasted(repo, then)
    assert got.returncode == 0, (then, got.stderr)
    now = (repo / "f.md").read_text()
    assert now.startswith("# A\n\ntext a\n") and now.count("my typed words") == 1, now
    assert now.endswith("# B\n\nb\n"), now
    assert [f["kind"] for f in findings(repo)] == ["clean"]
