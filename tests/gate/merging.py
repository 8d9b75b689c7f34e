"""A merge that resolves a conflict by hand and does more in it, and the rebase a
route's note says to run over it (a ``break`` line after its ``merge -C`` line), for
the gate's rewrite-route tests."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

from tests.helpers.git import commit_all, git, pasted, write


def evil_merge(root: Path, more: Callable[[], None], *, later: bool = True) -> str:
    """The current branch and a new ``side`` change notes.txt each their own way; the
    merge of ``side`` resolves the conflict and runs ``more`` (the silent part) before
    it is committed; ``later``: a commit on top. Returns the merge's id."""
    here = git(root, "branch", "--show-current")
    write(root, "notes.txt", "base\n")
    commit_all(root, "notes")
    git(root, "checkout", "-q", "-b", "side")
    write(root, "notes.txt", "side\n")
    commit_all(root, "side notes")
    git(root, "checkout", "-q", here)
    write(root, "notes.txt", f"{here}\n")
    commit_all(root, f"{here} notes")
    assert pasted(root, "git merge -q side").returncode != 0  # a conflict on notes.txt
    write(root, "notes.txt", "both\n")
    more()
    merge = commit_all(root, "merge side")
    if later:
        write(root, "later.txt", "later\n")
        commit_all(root, "later")
    return merge


def break_after_merge(root: Path, command: str, note: str, merge: str, *, again: bool) -> None:
    """Paste ``command`` (a route's rebase) with a ``break`` line after the merge, as
    ``note`` says. ``again``: the first commit is reworded too, so every commit after
    it is made anew and git merges again, stopping on the conflict, resolved as it was
    (the merge's own tree); else the rebase keeps the merge as it is. Returns with the
    rebase stopped at the break."""
    assert f"add a line `break` right after the line `merge -C {merge[:7]}…`" in note
    todo = root.parent / "todo-editor.sh"
    lines = ["#!/bin/sh", f"sed -i -e '/^merge -C {merge[:7]}/a break' \"$1\""]
    if again:
        lines.append("sed -i -e '0,/^pick /s//reword /' \"$1\"")
    todo.write_text("\n".join(lines) + "\n", encoding="utf-8")
    todo.chmod(0o755)
    editors = f"GIT_SEQUENCE_EDITOR={shlex.quote(str(todo))} GIT_EDITOR='sed -i 1s/$/!/'"
    done = pasted(root, f"{editors} {command}")
    if again:
        assert done.returncode != 0 and "CONFLICT" in done.stdout + done.stderr
        git(root, "read-tree", "--reset", "-u", merge)  # resolved as it was
        done = pasted(root, "git add -A && GIT_EDITOR=true git rebase --continue")
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(root, "rev-parse", "HEAD^{tree}") == git(root, "rev-parse", f"{merge}^{{tree}}")
    assert len(git(root, "rev-parse", "HEAD^@").split()) == 2  # stopped at the merge
