"""A ``GIT_DIR`` naming another repository than the one a work tree's ``.git`` leads to.

git exports ``GIT_DIR`` to every hook, and vcsh and yadm export it to run git on a
work tree kept apart from its repository; forest-files follows a work tree's ``.git``
only, so a ``GIT_DIR`` that names another repository is refused with the fix that
gives the work tree a ``.git`` of its own (or unsets both variables).

Stores: nothing.
Refuses: a ``GIT_DIR`` naming another repository than the work tree's (StateError),
with its fix in one line (a ``printf`` of the ``.git`` file and ``core.bare false``
where ``GIT_WORK_TREE`` has no ``.git``, else ``unset GIT_DIR GIT_WORK_TREE``).
Returns: nothing (``refuse_foreign_git_dir`` returns when ``GIT_DIR`` is unset or
names the work tree's own repository).
Test: tests/kernel/test_separate_git_dir.py, tests/doors/test_hooks_gitdir.py

It imports ``os`` alone until it refuses, as kernel/state.py does (the warm
``forest check`` loads neither pathlib nor the error module's sqlite3).
"""

from __future__ import annotations

import os


def refuse_foreign_git_dir(git_dir: str | None, here: str | None = None) -> None:
    """Refuse when ``GIT_DIR`` (git exports it to every hook) names another repository
    than ``git_dir``, the one the work tree's ``.git`` leads to (None: none found), as
    vcsh and yadm run git: forest-files follows a work tree's ``.git`` only. Its fix
    gives ``GIT_WORK_TREE`` a ``.git`` where it has none and holds ``here`` (no ``.git``
    found) or lies in ``here`` (an outer repository's tree); else it unsets both."""
    named = os.environ.get("GIT_DIR")
    if not named or (git_dir is not None and _same(named, git_dir)):
        return
    from forest_files.kernel.shellword import shell_word

    wanted = os.path.realpath(named)
    tree = os.environ.get("GIT_WORK_TREE")
    fix = "run `unset GIT_DIR GIT_WORK_TREE`, then the command again"
    if (
        tree
        and not os.path.lexists(os.path.join(tree, ".git"))
        and (here is None or (_within(here, tree) if git_dir is None else _within(tree, here)))
    ):
        dotgit = shell_word(os.path.join(os.path.realpath(tree), ".git"))
        named_dir = shell_word(wanted)
        printf = f"printf 'gitdir: %s\\n' {named_dir} > {dotgit}"
        # a bare repository (a dotfile setup's `git init --bare`) serves no work tree
        # through a .git file until it is told it is not bare
        unbare = f"git --git-dir={named_dir} config core.bare false"
        fix = f"give the work tree a .git file naming it: {printf} && {unbare}"
    found = "no repository" if git_dir is None else git_dir
    from forest_files.kernel.errors import StateError  # loads sqlite3: only to refuse

    raise StateError(
        f"git names the repository {wanted} (GIT_DIR), but the work tree here leads to "
        f"{found}; forest-files judges only the repository a work tree's .git names: {fix}"
    )


def _same(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _within(path: str, folder: str) -> bool:
    return os.path.commonpath([os.path.realpath(path), outer := os.path.realpath(folder)]) == outer
