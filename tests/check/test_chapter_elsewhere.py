"""A chapter moved to another file with one of its subsections renamed.

The chapter's text changed (a subsection's heading is part of it) and the renamed
subsection's did too, so neither is unchanged text the moved search finds by hash;
the renamed search looked in the binding's own file only, so both were unresolved
with no place in the file they went to (the same move inside one file offered
them). Now the heading outlines of the change's other files are searched too
(moves.py ``renamed``, move_elsewhere.py): the chapter's name there, and the
subsection under its chapter's new place; each route, pasted, leaves the check
clean. With the chapter's route pasted first, the renamed subsection is offered the
headings under the place the chapter's own binding holds now (move_rebound.py).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.check.staged import judge_staged
from tests.helpers.chapter import BOOK, CHAPTER, LEFT, MOVED, SUB_A
from tests.helpers.cli import findings, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import copied_from


def _build(base: Path) -> Path:
    root = make_repo(base)
    ok(root, "init")
    write(root, "a.md", BOOK)
    write(root, "notes.md", "# Notes\n\n## Chapter\n\nan unrelated chapter\n")
    commit_all(root, "files")
    ok(root, "adopt", CHAPTER, SUB_A, "a.md#Book/Chapter/Sub B", "--words", "as it stands")
    commit_all(root, "adopt")
    return root


repo = copied_from(_build)


def _of(found: list[dict[str, Any]], selector: str) -> dict[str, Any]:
    (one,) = [f for f in found if f["selector"] == selector]
    return one


def test_chapter_moved_elsewhere_subsection_renamed_candidates_detected(repo: Path) -> None:
    write(repo, "a.md", LEFT)
    write(repo, "b.md", MOVED)
    found = findings(repo)
    chapter, sub = _of(found, CHAPTER), _of(found, SUB_A)
    assert chapter["kind"] == sub["kind"] == "unresolved"
    assert chapter["candidates"][0] == "b.md#Vol/Chapter", chapter
    assert "notes.md#Notes/Chapter" not in chapter["candidates"]  # not in the change
    assert sub["candidates"] == ["b.md#Vol/Chapter/Sub Alpha"], sub  # Sub B: moved there
    assert _of(found, "a.md#Book/Chapter/Sub B")["kind"] == "moved"


def test_chapter_moved_elsewhere_routes_pasted_clean_recovers(repo: Path) -> None:
    write(repo, "a.md", LEFT)
    write(repo, "b.md", MOVED)
    words = shlex.quote("moved to b.md, Sub A renamed")
    # the subsection first (the chapter first: test_chapter_rebound_first_...)
    for selector in (SUB_A, CHAPTER):
        finding = _of(findings(repo), selector)
        route = next(r["command"] for r in finding["routes"] if "rebind" in (r["command"] or ""))
        done = pasted(repo, route.replace(shlex.quote(WORDS_PLACEHOLDER), words))
        assert done.returncode == 0, (route, done.stdout, done.stderr)
    checked = pasted(repo, "forest check")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_chapter_moved_elsewhere_staged_and_committed_candidates_detected(repo: Path) -> None:
    """The hook's staged change and a commit's own change are searched alike."""
    write(repo, "a.md", LEFT)
    write(repo, "b.md", MOVED)
    git(repo, "add", "-A")
    hook = {r.finding.selector: r.finding.candidates for r in judge_staged(repo).failed}
    assert hook[CHAPTER][0] == "b.md#Vol/Chapter" and hook[SUB_A] == ("b.md#Vol/Chapter/Sub Alpha",)
    git(repo, "commit", "-q", "--no-verify", "-m", "chapter moved")
    ran = pasted(repo, "forest check --rev HEAD --json")
    found = json.loads(ran.stdout)["findings"]
    assert _of(found, CHAPTER)["candidates"][0] == "b.md#Vol/Chapter", ran.stdout
    assert _of(found, SUB_A)["candidates"] == ["b.md#Vol/Chapter/Sub Alpha"], ran.stdout


def _rebind(repo: Path, selector: str, words: str) -> str:
    """The finding's first rebind route, pasted with ``words``; the place it rebinds to."""
    finding = _of(findings(repo), selector)
    route = next(r for r in finding["routes"] if "rebind" in (r["command"] or ""))
    command = route["command"].replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote(words))
    done = pasted(repo, command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return str(route["argv"][0][3])


@pytest.mark.parametrize("committed", [False, True], ids=["uncommitted", "committed"])
def test_chapter_rebound_first_renamed_subsection_candidate_pasted_clean_recovers(
    repo: Path, committed: bool
) -> None:
    """The route order a user follows: the chapter first. Its rebind carries Sub B and
    leaves the renamed Sub A; Sub A's parent is gone from a.md and its new place is now
    bound (by the chapter's own binding, rebound there), so the subsection had no
    candidate and a dead-end route. The binding that held its old parent is found by
    its history (move_rebound.py) and the subsection is offered under its place, also
    once the chapter's rebind is committed (b.md no longer in the change)."""
    write(repo, "a.md", LEFT)
    write(repo, "b.md", MOVED)
    assert _rebind(repo, CHAPTER, "moved to b.md") == "b.md#Vol/Chapter"
    if committed:
        commit_all(repo, "chapter moved")
    sub = _of(findings(repo), SUB_A)
    assert sub["kind"] == "unresolved" and sub["candidates"] == ["b.md#Vol/Chapter/Sub Alpha"], sub
    assert _rebind(repo, SUB_A, "Sub A renamed") == "b.md#Vol/Chapter/Sub Alpha"
    checked = pasted(repo, "forest check")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_chapter_renamed_in_its_file_rebound_first_subsection_candidate_detected(
    repo: Path,
) -> None:
    """The same in one file: the chapter renamed (Chapter -> Part) with Sub A renamed,
    the chapter's route pasted first; Sub A is offered under Part (its chapter's own
    binding), not under an unbound sibling chapter's subsections."""
    write(repo, "a.md", BOOK.replace("## Chapter", "## Part").replace("### Sub A", "### Sub Alpha"))
    assert _rebind(repo, CHAPTER, "renamed Part") == "a.md#Book/Part"
    sub = _of(findings(repo), SUB_A)
    assert sub["candidates"] == ["a.md#Book/Part/Sub Alpha"], sub
    assert _rebind(repo, SUB_A, "Sub A renamed") == "a.md#Book/Part/Sub Alpha"
    checked = pasted(repo, "forest check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
