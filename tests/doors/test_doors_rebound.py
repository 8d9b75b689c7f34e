"""Differential: a renamed subsection whose chapter was rebound first, at every door.

A chapter cut into another file with one subsection renamed; the chapter's route is
pasted first, so its rebind carries the subsection that kept its name and leaves the
renamed one, whose parent is gone from its file. The place the chapter's own binding
holds now is found in the binding history (check/move_rebound.py) and the
subsection is offered the heading under it. Every door says the same: the working
tree, the index (``check --staged``, the installed hook), the commit (``check
--rev``), and ``forest ci`` in a fresh clone, both for HEAD and for a commit of the
range before HEAD (gate/history.py). The binding history is read only when the
search meets such a parent: a reorganisation whose sections all moved unchanged, or
a subsection renamed under a parent still in place, never asks it.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from forest_files.check.engine import check_all
from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.check.opening import open_custody
from forest_files.doors import hooks as githooks
from tests.helpers.chapter import BOOK, CHAPTER, LEFT, MOVED, SUB_A
from tests.helpers.cli import console, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import copied_from

PLACE = "b.md#Vol/Chapter/Sub Alpha"


def _build(base: Path) -> Path:
    root = make_repo(base)
    ok(root, "init")
    write(root, "a.md", BOOK)
    commit_all(root, "files")
    ok(root, "adopt", CHAPTER, SUB_A, "a.md#Book/Chapter/Sub B", "--words", "as it stands")
    commit_all(root, "adopt")
    return root


repo = copied_from(_build)


def _found(proc: Any, selector: str) -> tuple[str, tuple[str, ...]]:
    """(kind, candidates) of ``selector``'s finding in a door's JSON output."""
    doc = json.loads(proc.stdout)
    (one,) = [f for f in doc["findings"] if f["selector"] == selector]
    return one["kind"], tuple(one["candidates"])


def _chapter_rebound(root: Path) -> None:
    """The chapter moved to b.md with Sub A renamed, the chapter's route pasted."""
    write(root, "a.md", LEFT)
    write(root, "b.md", MOVED)
    doc = json.loads(console(root, "check", "--json").stdout)
    (chapter,) = [f for f in doc["findings"] if f["selector"] == CHAPTER]
    route = next(r["command"] for r in chapter["routes"] if "rebind" in (r["command"] or ""))
    done = pasted(root, route.replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote("moved")))
    assert done.returncode == 0, (route, done.stdout, done.stderr)


def test_chapter_rebound_first_subsection_place_every_door_agrees_detected(
    repo: Path, tmp_path: Path
) -> None:
    _chapter_rebound(repo)
    want = ("unresolved", (PLACE,))
    assert _found(console(repo, "check", "--json"), SUB_A) == want
    git(repo, "add", "-A")
    assert _found(console(repo, "check", "--staged", "--json"), SUB_A) == want
    githooks.install(repo)
    hook = pasted(repo, "git commit -q -m 'chapter moved'")
    assert hook.returncode != 0 and PLACE in hook.stdout + hook.stderr, hook.stdout + hook.stderr
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "commit", "-q", "--no-verify", "-m", "chapter moved")
    assert _found(console(repo, "check", "--rev", "HEAD", "--json"), SUB_A) == want
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    ci = console(clone, "ci", "--base", base, "--format", "json")
    assert ci.returncode == 1 and _found(ci, SUB_A) == want, ci.stdout + ci.stderr


def test_chapter_rebound_first_subsection_place_ci_history_agrees_detected(
    repo: Path, tmp_path: Path
) -> None:
    """A commit of the range before HEAD (gate/history.py) leaves the subsection
    unresolved; HEAD rebinds it, so the finding stays at that commit: ci says what
    ``forest check --rev`` of that commit says (its place)."""
    base = git(repo, "rev-parse", "HEAD")
    _chapter_rebound(repo)
    moved = commit_all(repo, "chapter moved")
    ok(repo, "rebind", SUB_A, PLACE, "--words", "renamed")
    commit_all(repo, "subsection rebound")
    at = _found(console(repo, "check", "--rev", moved, "--json"), SUB_A)
    assert at == ("unresolved", (PLACE,)), at
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    ci = console(clone, "ci", "--base", base, "--format", "json")
    doc = json.loads(ci.stdout)
    mine = [f for f in doc["findings"] if f["selector"] == SUB_A]
    assert {(f["kind"], tuple(f["candidates"])) for f in mine if f.get("commit") == moved} == {
        at
    }, ci.stdout


def test_chapter_rebound_committed_then_own_file_edited_every_door_agrees_detected(
    repo: Path, tmp_path: Path
) -> None:
    """The chapter's rebind committed, then only a.md edited: the hook and a ci
    commit of the range judge a.md's bindings only and list a.md only (the chapter's
    binding and its place are b.md's), and still offer the subsection that place."""
    _chapter_rebound(repo)
    base = commit_all(repo, "chapter moved")
    write(repo, "a.md", LEFT + "\nmore\n")
    git(repo, "add", "-A")
    want = ("unresolved", (PLACE,))
    assert _found(console(repo, "check", "--json"), SUB_A) == want
    assert _found(console(repo, "check", "--staged", "--json"), SUB_A) == want
    githooks.install(repo)
    hook = pasted(repo, "git commit -q -m 'a.md edited'")
    said = hook.stdout + hook.stderr
    assert hook.returncode != 0 and PLACE in said and "Sub B" not in said, said
    git(repo, "commit", "-q", "--no-verify", "-m", "a.md edited")
    ok(repo, "rebind", SUB_A, PLACE, "--words", "renamed")
    commit_all(repo, "subsection rebound")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    ci = console(clone, "ci", "--base", base, "--format", "json")
    mine = [f for f in json.loads(ci.stdout)["findings"] if f["selector"] == SUB_A]
    assert {(f["kind"], tuple(f["candidates"])) for f in mine} == {want}, ci.stdout


class _Asked:
    """A binding history that answers as the custody's and counts what it is asked."""

    def __init__(self, custody: Any) -> None:
        self.custody, self.asked = custody, 0

    def held_before(self, path: str, selector: str) -> tuple[str, ...]:
        self.asked += 1
        return tuple(self.custody.held_before(path, selector))

    def bound_in(self, path: str) -> tuple[str, ...]:
        self.asked += 1
        return tuple(self.custody.bound_in(path))


def _asked(root: Path) -> tuple[int, dict[str, tuple[str, tuple[str, ...]]]]:
    """How often the working tree's check asked the binding history, and its findings
    not clean (kind, candidates) by selector."""
    with open_custody(root, "worktree") as custody:
        history = _Asked(custody)
        found = check_all(
            None, custody.bindings, custody.content, grounds=custody.grounds, history=history
        )
    return history.asked, {f.selector: (f.kind, f.candidates) for f in found if f.failed}


def test_reorganisation_without_rebound_parent_history_not_asked_accepted(repo: Path) -> None:
    """The chapter cut whole into b.md (every section moved unchanged), then Sub B
    renamed under its chapter still standing: the history is never read."""
    write(repo, "a.md", LEFT)
    write(repo, "b.md", MOVED.replace("Sub Alpha", "Sub A"))
    asked, found = _asked(repo)
    assert asked == 0 and {k for k, _ in found.values()} == {"moved"}, found
    write(repo, "a.md", BOOK.replace("### Sub B", "### Sub Beta"))
    (repo / "b.md").unlink()
    asked, found = _asked(repo)
    assert asked == 0, found
    assert found["a.md#Book/Chapter/Sub B"] == ("unresolved", ("a.md#Book/Chapter/Sub Beta",))


def test_chapter_rebound_first_history_asked_once_detected(repo: Path) -> None:
    _chapter_rebound(repo)
    asked, found = _asked(repo)
    assert asked == 2 and found[SUB_A] == ("unresolved", (PLACE,)), found  # where, then who
