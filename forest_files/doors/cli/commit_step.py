"""The step a door prints after it recorded an act: what to stage and commit.

One line, ready to paste where the command was typed: ``commit it: git add --
.forest/ledger && git commit``, naming beside the ledger the files a commit would
miss (``gitio.to_stage``: new or edited; ``with the file`` / ``with the N files``).
While git holds files in conflict (a merge, rebase or cherry-pick stopped), git
refuses any commit: the step then stages alone and says what is left
(``stage it: … (then resolve the N file(s) still in conflict, …, and commit)``).

Stores: nothing.
Refuses: nothing.
Returns: the line (``commit_step``).
Test: tests/doors/test_act_commit_steps.py, tests/custody/test_resolve.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forest_files.kernel.shellword import (
    command_text,
    commit_ledger_with,
    forest_text,
    git_step,
    in_batches,
    stage_ledger,
)


def commit_step(root: Path, paths: Sequence[str] = ()) -> str:
    """The step after an act whose text is in ``paths`` (from the top; the ledger
    alone when empty)."""
    from forest_files import gitio
    from forest_files.check.conflicts import unmerged_stages

    waiting = gitio.to_stage(root, paths) if paths else []
    many = f" with the {len(waiting)} files"
    files = "" if not waiting else " with the file" if len(waiting) == 1 else many
    unmerged = unmerged_stages(root, "worktree")
    if not unmerged:
        return f"commit it{files}: {commit_ledger_with(waiting)}"
    steps = in_batches(("add", "--", ".forest/ledger"), list(waiting)) if waiting else ()
    stage = " && ".join(command_text(git_step(*step)) for step in steps) or stage_ledger()
    return (
        f"stage it{files}: {stage}  (then resolve the {len(unmerged)} file(s) still in "
        f"conflict, `{forest_text('check')}` names them, and commit)"
    )


__all__ = ["commit_step"]
