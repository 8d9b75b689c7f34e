"""``forest restore`` of a section whose heading an edit hid (an unclosed fence or
``<!--`` put into the section above it) names what hides it and the route that
works: the section holding that block restored with it, or the block closed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_files.custody.restore import Bound, restore_section
from forest_files.kernel.errors import ForestError
from tests.custody.test_restore_swallowed import WORDS, state
from tests.helpers.cli import forest, kinds, ok
from tests.helpers.git import commit_all, make_repo, pasted, write

BOOK = "# A\n\ntext a\nmore a\n\n# B\n\nb\n\n# C\n\nc\n"
BY_ID = BOOK.replace("# A", "# A {#a}")  # f.md#{a} sorts after f.md#B and f.md#C


def bound_book(tmp_path: Path, *targets: str, text: str = BOOK) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", text)
    commit_all(repo, "init")
    for target in targets:
        ok(repo, "adopt", target, "--words", WORDS)
    commit_all(repo, "adopt")
    return repo


@pytest.mark.parametrize(
    ("opener", "kind"), [("```", "code fence"), ("<!--", "HTML comment or block")]
)
def test_restore_section_hidden_by_a_block_in_a_bound_section_refused(
    tmp_path: Path, opener: str, kind: str
) -> None:
    """``forest restore 'f.md#B'`` alone, B hidden by a fence opened in bound A: one
    line naming the block, its line, B's heading and line, and the route restoring A
    with B, which recovers B pasted (before: "no heading matches; nearby headings: #A",
    the fence never named)."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#B", "f.md#C")
    (repo / "f.md").write_text(BOOK.replace("text a", f"{opener}\ntext a"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#B")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0
    assert line.startswith(
        f"forest: f.md#B: its heading `# B` (line 7) is hidden by the {kind} opened at "
        "line 3 in f.md#A"
    ), line
    assert "nothing was written" in line
    assert state(repo) == before
    route = re.findall(r"`(forest restore [^`]*)`", line)
    assert route == ["forest restore 'f.md#A' 'f.md#B'"], line
    done = pasted(repo, route[0])
    assert done.returncode == 0, done.stderr
    assert (repo / "f.md").read_text() == BOOK
    assert kinds(repo) == ["clean", "clean", "clean"]


def test_restore_section_hidden_by_a_fence_in_unbound_text_refused(tmp_path: Path) -> None:
    """A not bound: no restore brings B's heading back, so the refusal names the fence
    and its line, and says to close it before B's heading or take it out."""
    repo = bound_book(tmp_path, "f.md#B")
    (repo / "f.md").write_text(BOOK.replace("more a", "more a\n~~~"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#B")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0
    assert line.startswith(
        "forest: f.md#B: its heading `# B` (line 7) is hidden by the code fence opened at "
        "line 5 in #A"
    ), line
    assert "close that code fence before line 7 (or take it out)" in line
    assert "forest restore 'f.md#A'" not in line
    assert state(repo) == before


def test_restore_section_hidden_by_a_fence_closed_further_on_refused(tmp_path: Path) -> None:
    """The fence opened in bound A closed inside B: a restore of A would be refused too
    (C would be hidden by the closing line), so the refusal names no restore of A."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#B", "f.md#C")
    (repo / "f.md").write_text(BOOK.replace("text a", "```\ntext a").replace("\nb\n", "\nb\n```\n"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#B")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert "hidden by the code fence opened at line 3 in f.md#A" in line, line
    assert "close that code fence before line 7 (or take it out)" in line
    assert "forest restore 'f.md#A'" not in line
    assert state(repo) == before


def test_restore_whole_file_prints_in_the_order_the_work_was_done_accepted(
    tmp_path: Path,
) -> None:
    """``forest restore f.md``, a fence opened in A (bound by its id: f.md#{a} sorts after
    B and C) hiding B and C: A is restored first, and B and C hold ground only once it is, so
    the lines say so in that order (before: "f.md#B already holds its ground" first,
    then "restored f.md#{a}", in selector order)."""
    repo = bound_book(tmp_path, "f.md#{a}", "f.md#B", "f.md#C", text=BY_ID)
    (repo / "f.md").write_text(BY_ID.replace("text a", "```\ntext a"))
    out = ok(repo, "restore", "f.md").stdout.splitlines()
    assert [x.split(";")[0] for x in out] == [
        "restored f.md#{a}",
        "f.md#B already holds its ground",
        "f.md#C already holds its ground",
    ], out
    assert (repo / "f.md").read_text() == BY_ID


def test_restore_section_of_a_hidden_heading_refused(tmp_path: Path) -> None:
    """``restore_section`` (the watcher's, one section) of B hidden by a fence opened in
    bound A: restore_hidden.py's refusal, naming the fence and the restore of A with B
    (before: "no heading matches; nearby headings: #A"); nothing written."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#B")
    (repo / "f.md").write_text(BOOK.replace("text a", "```\ntext a"))
    before = state(repo)
    bound = [Bound("f.md#A", ()), Bound("f.md#B", ())]
    with pytest.raises(ForestError) as got:
        restore_section(repo, "f.md", "f.md#B", (), "# B\n\nb\n\n", bound=bound)
    said = str(got.value)
    assert said.startswith("f.md#B: its heading `# B` (line 7) is hidden by the code fence")
    assert "`forest restore 'f.md#A' 'f.md#B'`" in said, said
    assert state(repo) == before


def test_restore_drop_nested_section_hidden_by_a_block_in_a_bound_section_refused(
    tmp_path: Path,
) -> None:
    """``forest restore 'f.md#B' --drop-nested``, B hidden by a fence opened in bound A:
    the refusal names bound A and the restore of A with B, ``--drop-nested`` kept, which
    pasted recovers B (before: no bindings were passed under ``--drop-nested``, so it
    said "in #A" and only to close the fence)."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#B", "f.md#C")
    (repo / "f.md").write_text(BOOK.replace("text a", "```\ntext a"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#B", "--drop-nested")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0
    assert "hidden by the code fence opened at line 3 in f.md#A," in line, line
    route = re.findall(r"`(forest restore [^`]*)`", line)
    assert route == ["forest restore 'f.md#A' 'f.md#B' --drop-nested"], line
    assert state(repo) == before
    done = pasted(repo, route[0])
    assert done.returncode == 0, done.stderr
    assert (repo / "f.md").read_text() == BOOK
    assert kinds(repo) == ["clean", "clean", "clean"]


def test_restore_section_hidden_by_a_fence_committed_refused(tmp_path: Path) -> None:
    """The fence opened in bound A committed (past the hooks): HEAD's file hides B's
    heading too, so the restore of A with B is refused as well (restore_swallowed.py:
    ``# B`` may be a line of the fence). ``forest restore 'f.md#B'``, and
    ``restore_section`` (the watcher's), route to close the fence, as ``forest check``
    does, and its ``git diff`` step works pasted (before: they named ``forest restore
    'f.md#A' 'f.md#B'``, which pasted was refused)."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#B", "f.md#C")
    write(repo, "f.md", BOOK.replace("text a", "```\ntext a"))
    commit_all(repo, "fence opened")
    before = state(repo)
    got = forest(repo, "restore", "f.md#B")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0
    assert "hidden by the code fence opened at line 3 in f.md#A" in line, line
    assert "close that code fence before line 7 (or take it out)" in line, line
    assert "forest restore 'f.md#A'" not in line, line
    assert state(repo) == before
    steps = re.findall(r"`([^`]*)`", line)
    assert steps[-1] == "git diff -- f.md", steps
    assert pasted(repo, steps[-1]).returncode == 0
    bound = [Bound("f.md#A", ()), Bound("f.md#B", ())]
    with pytest.raises(ForestError) as watched:
        restore_section(repo, "f.md", "f.md#B", (), "# B\n\nb\n\n", bound=bound)
    assert "close that code fence before line 7" in str(watched.value), watched.value
    assert "forest restore 'f.md#A'" not in str(watched.value), watched.value
    assert state(repo) == before
    write(repo, "f.md", BOOK)  # the fence taken out, as the refusal says
    ok(repo, "restore", "f.md#B")
    assert kinds(repo) == ["clean", "clean", "clean"]


TWO = "# T\n\n## A\n\na\n\n## install\n\nreal\n\n# U\n\n## install\n\nu\n"


def test_restore_section_hidden_by_a_fence_holding_its_heading_text_refused(
    tmp_path: Path,
) -> None:
    """HEAD holds ``## install`` twice (T's, U's); a ``sh`` fence opened in bound T/A
    holding ``## install`` hides U/install: HEAD holds its heading, but restoring T/A
    with it would write one more ``## install`` than HEAD holds, which that restore
    refuses (restore_swallowed.py). So ``forest restore 'f.md#U/install'`` routes to
    close the fence, as ``forest check`` does (before: it named ``forest restore
    'f.md#T/A' 'f.md#U/install'``, which pasted was refused); nothing written."""
    repo = bound_book(tmp_path, "f.md#T/A", "f.md#U/install", text=TWO)
    (repo / "f.md").write_text(
        TWO.replace("a\n\n## install", "a\n```sh\n## install\npip x\n\n## install", 1)
    )
    before = state(repo)
    got = forest(repo, "restore", "f.md#U/install")
    assert got.exit_code == 1, got.stdout
    line = got.stderr.strip()
    assert line.count("\n") == 0
    assert "hidden by the code fence opened at line 6 in f.md#T/A" in line, line
    assert "forest restore 'f.md#T/A'" not in line, line
    assert "close that code fence before line" in line, line
    assert state(repo) == before
    steps = re.findall(r"`([^`]*)`", line)
    assert steps[-1] == "git diff -- f.md", steps
    assert pasted(repo, steps[-1]).returncode == 0
    both = forest(repo, "restore", "f.md#T/A", "f.md#U/install")
    assert both.exit_code == 1, both.stdout  # the route it named before: refused
    assert state(repo) == before


# the refusal's close advice: the closing line to take out first, the line to close
# before, the mark that closes it
REFUSED_TAKE_OUT = re.compile(r"take out line (\d+) \(that code fence's closing line")
REFUSED_CLOSE = re.compile(
    r"close that code fence before line (\d+) \(or take it out\): a line of just (\d+) "
    r"backticks closes it, then restore again"
)


def test_restore_heading_hidden_by_a_fence_closed_further_on_refusal_followed_clean(
    tmp_path: Path,
) -> None:
    """A fence opened in A (no binding) and closed after B's text, B and C bound:
    ``forest restore 'f.md#B'`` said to close the fence before B and restore again,
    nothing of its own closing line, so followed literally that line opened a fence over
    C (C hidden). The refusal words the close as the check's route does now: that line
    taken out first, then the fence closed before B; followed literally and restored
    again, B and C are clean."""
    text = "# A\n\ntext a\n\n# B\n\nb\n\n# C\n\nc\n"
    repo = bound_book(tmp_path, "f.md#B", "f.md#C", text=text)
    write(repo, "f.md", text.replace("text a\n", "text a\n```\n").replace("b\n", "b\n```\n"))
    before = state(repo)
    got = forest(repo, "restore", "f.md#B")
    assert got.exit_code == 1 and state(repo) == before, got.stdout
    line = got.stderr.strip()
    taken, close = REFUSED_TAKE_OUT.search(line), REFUSED_CLOSE.search(line)
    assert taken is not None and close is not None, line
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    del lines[int(taken.group(1)) - 1]
    lines.insert(int(close.group(1)) - 1, "`" * int(close.group(2)) + "\n")
    write(repo, "f.md", "".join(lines))
    ok(repo, "restore", "f.md#B")
    assert kinds(repo) == ["clean", "clean"], (line, (repo / "f.md").read_text())
