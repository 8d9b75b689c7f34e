"""A missing bound file git keeps out of the work tree (skip-worktree): what a restore says.

A sparse checkout leaves the file out; ``git checkout -- PATH`` cannot bring it back
("did not match any file(s) known to git"), and a file restore wrote there would
stand outside the sparse set (``git sparse-checkout reapply`` removes it again; with
``sparse.expectFilesOutsideOfPatterns`` git never sees it). So restore writes
nothing and names the way in: ``git sparse-checkout add -- DIR`` (cone mode; the
file's own ``/PATH`` pattern otherwise), or, for the flag set by hand without a
sparse checkout, ``git update-index --no-skip-worktree`` and a checkout; then the
restore again.

Stores: nothing.
Refuses (``ForestError``, one line, nothing written): a bound file that is not in
the work tree and that the index marks skip-worktree.
Returns: nothing (``refuse_left_out``).
Test: tests/custody/test_restore_sparse.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import command_text, forest_step, git_step


def refuse_left_out(root: Path, path: str, selector: str) -> None:
    """Refuse to restore ``selector`` when its file ``path`` (not in the work tree)
    is one git skips there; asked only for a missing file (one ``git ls-files``)."""
    from forest_files import gitio

    if gitio.taken_as_unchanged(root, [path]).get(path) != "skip-worktree":
        return
    again = command_text(forest_step("restore", selector))
    folder = path.rpartition("/")[0]
    if gitio.config_get(root, "core.sparseCheckout", as_type="bool") == "true":
        # cone mode (git's default) takes directories; a top-level file is always in it
        pattern = gitio.config_get(root, "core.sparseCheckoutCone", as_type="bool") == "false"
        if pattern or folder:
            wanted = "/" + path if pattern else folder
            bring = command_text(("git", "sparse-checkout", "add", "--", wanted))
            raise ForestError(
                f"{path}: this sparse checkout leaves the file out (git still holds it); "
                f"nothing was written — bring it in, then restore: `{bring} && {again}`"
            )
    clear = command_text(git_step("update-index", "--no-skip-worktree", "--", path))
    back = command_text(git_step("checkout", "--", path))
    raise ForestError(
        f"{path}: git is told to skip it in the work tree (skip-worktree) and it is not "
        f"there; nothing was written — clear the flag and bring it back, then restore: "
        f"`{clear} && {back} && {again}`"
    )
