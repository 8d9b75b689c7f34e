"""A chapter split (one file cut into several) shows one block and one rebind per chapter:
a moved heading's bound subsections that moved with it, to the places its rebind carries
them to, are named under it, not given a block and a rebind each (which, pasted in
order after the chapter's, were refused: the chapter's rebind had moved them already).
Every binding is still judged and fails; ``--json`` lists each one with its own routes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.git import pasted as bash
from tests.helpers.template import copied_from

BOOK = """# Book

The canon.

## One

Elias keeps the lighthouse.

### Storm

The storm came at night.

### Calm

Then the sea was still.

## Two

Mara sails at dawn.
"""
ONE = BOOK[BOOK.index("## One") : BOOK.index("## Two")]
REST = BOOK.replace(ONE, "")
CARRIED = "carried by the rebind above"


def _build(base: Path) -> Path:
    repo = make_repo(base)
    in_process.ok(repo, "init")
    write(repo, "book/book.md", BOOK)
    in_process.ok(repo, "adopt", "book/book.md", "--headings", "--yes", "--words", "canon")
    commit_all(repo, "canon")
    return repo


repo = copied_from(_build)


def _carried(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if CARRIED in line]


def _rebinds(out: str) -> list[str]:
    return [line.split(": ", 1)[1] for line in out.splitlines() if "forest rebind" in line]


def test_chapter_split_one_rebind_carries_subsections_detected(repo: Path) -> None:
    write(repo, "book/book.md", REST)
    write(repo, "book/one.md", ONE)
    out = in_process.forest(repo, "check").stdout
    assert _rebinds(out) == [
        "forest rebind 'book/book.md#Book/One' 'book/one.md#One' && git add -- .forest/ledger"
    ], out
    assert out.count("\nmoved ") + out.startswith("moved ") == 1, out
    assert _carried(out) == [
        f"{CARRIED}: book/book.md#Book/One/Calm, now at book/one.md#One/Calm lines 9-12",
        f"{CARRIED}: book/book.md#Book/One/Storm, now at book/one.md#One/Storm lines 5-8",
    ], out
    assert "4 not clean" in out  # display only: every binding is still judged
    doc = in_process.forest(repo, "check", "--json").stdout
    assert doc.count('"kind": "moved"') == 3
    pasted = bash(repo, _rebinds(out)[0])  # the one route printed moves all three
    assert pasted.returncode == 0, pasted.stderr
    assert in_process.kinds(repo).count("moved") == 0
    assert in_process.kinds(repo).count("drifted") == 1  # the H1 lost its chapter


def test_chapter_split_at_hook_one_block_detected(repo: Path) -> None:
    write(repo, "book/book.md", REST)
    write(repo, "book/one.md", ONE)
    git(repo, "add", "-A")
    out = in_process.forest(repo, "check", "--staged").stdout
    assert len(_rebinds(out)) == 1, out
    assert len(_carried(out)) == 2, out


def test_file_renamed_one_rebind_at_its_top_heading_detected(repo: Path) -> None:
    git(repo, "mv", "book/book.md", "book/novel.md")
    out = in_process.forest(repo, "check").stdout
    assert _rebinds(out) == [
        "forest rebind 'book/book.md#Book' 'book/novel.md#Book' && git add -- .forest/ledger"
    ], out
    assert len(_carried(out)) == 4, out
    assert bash(repo, _rebinds(out)[0]).returncode == 0
    assert set(in_process.kinds(repo)) == {"clean"}


def test_subsection_moved_elsewhere_keeps_its_route_detected(repo: Path) -> None:
    storm = ONE[ONE.index("### Storm") : ONE.index("### Calm")]
    write(repo, "book/book.md", REST)
    write(repo, "book/one.md", ONE.replace(storm, ""))
    write(repo, "book/storm.md", storm)
    out = in_process.forest(repo, "check").stdout
    assert "forest rebind 'book/book.md#Book/One/Storm' 'book/storm.md#Storm'" in out, out
    # the chapter, edited (Storm left it), is offered its one place in one.md (the
    # change's other files are searched: move_elsewhere.py), whose rebind carries Calm;
    # Storm, moved elsewhere, is not carried
    assert "forest rebind 'book/book.md#Book/One' 'book/one.md#One' --words" in out, out
    assert _carried(out) == [
        f"{CARRIED}: book/book.md#Book/One/Calm, now at book/one.md#One/Calm lines 5-8"
    ], out


def test_chapter_renamed_one_rebind_carries_subsections_detected(repo: Path) -> None:
    write(repo, "book/book.md", BOOK.replace("## One", "## Uno"))
    out = in_process.forest(repo, "check").stdout
    rebind = "forest rebind 'book/book.md#Book/One' 'book/book.md#Book/Uno' --words '…'"
    assert _rebinds(out) == [
        f"{rebind} && git add -- .forest/ledger  (replace … with why the new text is right)"
    ], out
    assert len(_carried(out)) == 2, out
    pasted = bash(repo, rebind.replace("'…'", "'Uno'") + " && git add -- .forest/ledger")
    assert pasted.returncode == 0, pasted.stderr
    assert set(in_process.kinds(repo)) == {"clean", "drifted"}  # the H1 holds the new name


def test_chapter_split_in_ci_text_one_block_as_check_detected(repo: Path) -> None:
    """``forest ci``'s text shows a chapter split committed on a branch as ``forest
    check`` does: one block and one rebind, the subsections carried under it."""
    base = git(repo, "rev-parse", "HEAD")
    write(repo, "book/book.md", REST)
    write(repo, "book/one.md", ONE)
    commit_all(repo, "split the book")
    ci = in_process.forest(repo, "ci", "--base", base)
    assert ci.exit_code == 1, ci.stderr
    assert len(_carried(ci.stdout)) == 2, ci.stdout
    head = ci.stdout.split("forest ci:", 1)[0]
    assert head.count("forest rebind 'book/book.md#Book/One/") == 0, ci.stdout
    assert "forest rebind 'book/book.md#Book/One' 'book/one.md#One'" in ci.stdout


def test_chapter_and_subsection_both_renamed_subsection_rebind_pasted_accepted(
    repo: Path,
) -> None:
    """``## One`` -> ``## Uno`` and ``### Storm`` -> ``### Tempest`` in one edit: the
    subsection is looked for under its chapter's new heading (its old one is gone),
    so its route is a real rebind, not the placeholder; pasted after the chapter's,
    both record and the book is clean but for the H1 holding the new names."""
    write(
        repo, "book/book.md", BOOK.replace("## One", "## Uno").replace("### Storm", "### Tempest")
    )
    doc = json.loads(in_process.forest(repo, "check", "--json").stdout)
    (storm,) = [f for f in doc["findings"] if f["selector"] == "book/book.md#Book/One/Storm"]
    assert storm["kind"] == "unresolved"
    assert storm["candidates"][0] == "book/book.md#Book/Uno/Tempest", storm
    out = in_process.forest(repo, "check").stdout
    assert "forest rebind with this selector" not in out, out
    rebinds = [r.replace("'…'", "'renamed'").split("  (", 1)[0] for r in _rebinds(out)]
    assert rebinds == [
        "forest rebind 'book/book.md#Book/One' 'book/book.md#Book/Uno' --words 'renamed' "
        "&& git add -- .forest/ledger",
        "forest rebind 'book/book.md#Book/One/Storm' 'book/book.md#Book/Uno/Tempest' "
        "--words 'renamed' && git add -- .forest/ledger",
    ], out
    for command in rebinds:
        pasted = bash(repo, command)
        assert pasted.returncode == 0, pasted.stderr
    assert sorted(in_process.kinds(repo)) == ["clean", "clean", "clean", "clean", "drifted"]


CH_ONE = (
    "# Chapter\n\nElias keeps the lighthouse.\n\n## Storm\n\nThe storm came.\n\n## Calm\n\nStill.\n"
)
CH_TWO = "# Chapter\n\nMara sails at dawn.\n\n## Storm\n\nThe wind rose.\n\n## Harbour\n\nHome.\n"


def test_chapters_merged_into_one_file_each_rebind_pasted_accepted(tmp_path: Path) -> None:
    """Two files, each ``# Chapter`` with subsections, merged into one: the chapters
    stand at ``#Chapter[1]`` and ``#Chapter[2]``, whose rebind carries no subsection
    (a child's selector does not follow an ``[n]``: ``#Chapter/Storm[2]``), so each
    subsection keeps a block and a rebind of its own; pasted in the order printed,
    every one records and the book is clean."""
    repo = make_repo(tmp_path)
    in_process.ok(repo, "init")
    write(repo, "book/one.md", CH_ONE)
    write(repo, "book/two.md", CH_TWO)
    in_process.ok(
        repo, "adopt", "book/one.md", "book/two.md", "--headings", "--yes", "--words", "c"
    )
    commit_all(repo, "canon")
    git(repo, "rm", "-q", "book/one.md", "book/two.md")
    write(repo, "book/book.md", CH_ONE + CH_TWO)
    out = in_process.forest(repo, "check").stdout
    assert _carried(out) == [], out
    ledger = " && git add -- .forest/ledger"
    assert _rebinds(out) == [
        f"forest rebind {old} {new}{ledger}"
        for old, new in (
            ("'book/one.md#Chapter'", "'book/book.md#Chapter[1]'"),
            ("'book/one.md#Chapter/Calm'", "'book/book.md#Chapter/Calm'"),
            ("'book/one.md#Chapter/Storm'", "'book/book.md#Chapter/Storm[1]'"),
            ("'book/two.md#Chapter'", "'book/book.md#Chapter[2]'"),
            ("'book/two.md#Chapter/Harbour'", "'book/book.md#Chapter/Harbour'"),
            ("'book/two.md#Chapter/Storm'", "'book/book.md#Chapter/Storm[2]'"),
        )
    ], out
    for command in _rebinds(out):
        pasted = bash(repo, command)
        assert pasted.returncode == 0, pasted.stderr
    assert set(in_process.kinds(repo)) == {"clean"}
