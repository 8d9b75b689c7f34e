"""The hooks that run after git acted: post-commit and post-applypatch say what a
commit made without the pre-commit check removed; post-merge, post-checkout and
post-rewrite bring the local index in step with the checked-out ledger. Imported only
by those hooks: the pre-commit path never loads this.
Stores: the local index (sync_index), nothing else.
Refuses: nothing (a failed sync is said with the `forest sync` that redoes it).
Returns: the hook's exit code.
Test: tests/check/test_after_commit.py, tests/doors/test_hooks_custody.py
"""

from __future__ import annotations

import sys
from pathlib import Path


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")


def sync_index(root: Path) -> int:
    from forest_files.custody.left_out import CustodyLeftOut
    from forest_files.custody.repository import Repository
    from forest_files.kernel.errors import ForestError

    try:
        with Repository(root) as repo:
            repo.sync()
    except CustodyLeftOut:
        raise  # its own way in: `forest sync` would be refused the same
    except ForestError as exc:  # the boundary says it, and a sync hook exits 0
        from forest_files.kernel.shellword import forest_text
        from forest_files.ledger.fault import LINKED

        sync = forest_text("sync")  # `forest` finds the top from any folder of the work tree
        then = "then " if getattr(exc, "cause", None) == LINKED else ""  # its removal first
        raise ForestError(f"index not in step with the ledger ({exc}); {then}run `{sync}`") from exc
    return 0


def after_commit(root: Path, *, applied: bool = False) -> int:
    """The post-commit hook: a commit git made without the pre-commit check (a revert,
    a cherry-pick, ``--no-verify``) that removed acts from the ledger is said at once,
    with the ways back (check/after_commit.py); whether forest.toml is still there or
    not (a revert of the commit that made custody removes it too). Exit 1 when it says
    so: git ignores it (the commit is made), and the pre-commit framework shows a
    hook's output only when it fails. ``applied``: the post-applypatch hook, after
    each patch ``git am`` commits (the same check, worded for a patch); a pick of
    ``git rebase`` is worded as one, and a step that others follow is undone by its
    id (check/after_commit.py ``sequence_at``)."""
    from forest_files.check.after_commit import removed_custody, sequence_at
    from forest_files.kernel.standing import stand_at
    from forest_files.kernel.state import git_dir_paths

    stand_at(root)  # git's GIT_PREFIX: the ways back, from where git was typed
    hook = "post-applypatch" if applied else "post-commit"
    sequence = sequence_at(Path(git_dir_paths(root)[0]), hook)
    said = removed_custody(root, sequence=sequence).lines()
    for line in said:
        _say(line)
    return 1 if said else 0


__all__ = ["after_commit", "sync_index"]
