"""The step a door prints after it recorded an act: what to stage and commit.

One line, ready to paste where the command was typed: ``commit it: git add --
.forest/ledger && git commit``, naming beside the ledger the files a commit would
miss (``gitio.to_stage``: new or edited; ``with the file`` / ``with the N files``),
and forest init's own files (forest.toml, ``.gitattributes``, ``.forest/.gitignore``)
while git does not track them or holds an older copy (``forest init`` appends the
ledger's line to a ``.gitattributes`` git already tracks: left out of the act's
commit, that line never reaches a clone). A custody file an ignore rule hides (``git add``
refuses it) gets a second line naming the rule (check/uncommitted.py).
While git holds files in conflict (a merge, rebase or cherry-pick stopped), git
refuses any commit: the step then stages alone and says what is left
(``stage it: … (then resolve the N file(s) still in conflict, …, and commit)``).
A word spelled ``$'\\ooo'`` (a folder reached by ``forest -C`` whose name is not UTF-8)
has the line say it is for bash, zsh or ksh (kernel/shellword.py ``for_bash``).

Stores: nothing.
Refuses: nothing.
Returns: the line (``commit_step``).
Test: tests/doors/test_act_commit_steps.py, tests/custody/test_resolve.py,
tests/doors/test_act_hints_for_bash.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forest_files.kernel.shellword import (
    command_text,
    commit_ledger_with,
    for_bash,
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
    from forest_files.check.uncommitted import SETUP, ignored_custody

    # forest init's own files, new or edited since committed (its .gitattributes line):
    # the act's commit carries them too. One git call for them and the act's files.
    waiting = gitio.to_stage(root, [*SETUP, *paths])
    many = f" with the {len(waiting)} files"
    files = "" if not waiting else " with the file" if len(waiting) == 1 else many
    unmerged = unmerged_stages(root, "worktree")
    hidden = ignored_custody(root)  # then git add refuses the ledger: the rule is named
    after = "" if hidden is None else f"\n{hidden}"
    if not unmerged:
        return for_bash(f"commit it{files}: {commit_ledger_with(waiting)}") + after
    steps = in_batches(("add", "--", ".forest/ledger"), list(waiting)) if waiting else ()
    stage = " && ".join(command_text(git_step(*step)) for step in steps) or stage_ledger()
    then = f"then resolve the {len(unmerged)} file(s) still in conflict, `{forest_text('check')}`"
    return for_bash(f"stage it{files}: {stage}  ({then} names them, and commit)") + after


__all__ = ["commit_step"]
