"""Custody the working tree holds and git does not: forest.toml never committed,
ledger files an act wrote that were never staged, or custody files an ignore rule
hides from every commit.

Every clone, and ``forest ci``, judges the custody git holds. An adoption whose
ledger files were never committed binds nothing anywhere else, while ``forest
check`` and ``forest status`` in this working tree judge it as held. The hook (on a
commit it lets through), ``forest init`` and every act's commit step say so, with
the step that commits it (or, for an ignored file, the ``git check-ignore`` that
names the rule to remove); none refuses (committing other files first is allowed).
``forest status`` does not ask: its warm answer runs no git at all.

Stores: nothing.
Refuses: nothing.
Returns: the one line to print, or None when git tracks every file of the working
tree's custody (one ``git ls-files``; a second only when one is untracked).
Test: tests/check/test_uncommitted_custody.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files.kernel.paths import CONFIG_NAME, FOREST_DIR, LEDGER_DIR, LEDGER_PREFIX
from forest_files.kernel.shellword import command_text, git_step, printable

# What ``forest init`` writes for git to carry: its settings, the ledger's git
# attributes and the ignore rules that keep local state out.
SETUP = (CONFIG_NAME, ".gitattributes", f"{FOREST_DIR}/.gitignore")
_CUSTODY = (*SETUP, LEDGER_DIR)


def uncommitted_custody(
    root: Path, *, keep_index_file: bool = False, in_commit: bool = False
) -> str | None:
    """The line naming the custody files git does not track, with the step that
    commits them (``in_commit``: said by the hook, about the commit being made)."""
    if not (root / CONFIG_NAME).is_file():
        return None  # no custody here, or only git knows it (a bare view of a commit)
    from forest_files import gitio

    listed = gitio.untracked(root, _CUSTODY, keep_index_file=keep_index_file, which="all")
    if not listed:
        return None
    hidden = ignored_custody(root, keep_index_file=keep_index_file, in_commit=in_commit)
    if hidden is not None:
        return hidden
    setup = [p for p in SETUP if p in listed]
    ledger = [p for p in listed if p.startswith(LEDGER_PREFIX)]
    left_out = "this commit leaves them out, and " if in_commit else ""
    if CONFIG_NAME in setup:
        tops = [p for p in setup if not p.startswith(f"{FOREST_DIR}/")]
        add = git_step("add", "--", *tops, FOREST_DIR)
        what = f"custody is not in git yet ({CONFIG_NAME} and the ledger are untracked)"
        left_out = "this commit leaves it out, and " if in_commit else ""
        seen = "every clone and forest ci see no custody"
    else:
        add = git_step("add", "--", *setup, *([LEDGER_DIR] if ledger else []))
        count = [f"{len(ledger)} ledger file(s)"] if ledger else []
        what = f"{', '.join([*(printable(p) for p in setup), *count])} not in git (never committed)"
        seen = "every clone and forest ci judge without them"
    step = f"{command_text(add)} && {command_text(git_step('commit'))}"
    return f"forest: {what}: {left_out}{seen}; commit: {step}"


def ignored_custody(
    root: Path, *, keep_index_file: bool = False, in_commit: bool = False
) -> str | None:
    """The line naming the custody files an ignore rule hides from git (no commit
    carries them, and ``git add`` refuses them), with the step that names the rule."""
    from forest_files import gitio

    hidden = gitio.untracked(root, _CUSTODY, keep_index_file=keep_index_file, which="ignored")
    if not hidden:
        return None
    first = hidden[0]
    see = command_text(git_step("check-ignore", "-v", "--", first))
    more = f" and {len(hidden) - 1} more" if len(hidden) > 1 else ""
    left_out = "this commit leaves them out, and " if in_commit else ""
    return (
        f"forest: git ignores custody files ({printable(first)}{more}): {left_out}no commit "
        f"can carry them, so every clone and forest ci judge without them; `{see}` names "
        "the ignore rule: remove it (or exclude forest's files from it), then commit them"
    )


__all__ = ["SETUP", "ignored_custody", "uncommitted_custody"]
