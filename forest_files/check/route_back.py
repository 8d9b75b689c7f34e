"""The route that brings a bound file back: from where git still holds it (the
index, a sparse checkout's set, HEAD, or the parent of the commit that deleted it),
or written again by ``forest restore`` when ground is the whole file.

Stores: nothing. Refuses: nothing. Returns: one ``Route``.
Test: tests/doors/test_doors.py, tests/check/test_routes_paste.py
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Route
from forest_files.check.route_steps import Step, forest, stage_steps, written_back_steps
from forest_files.kernel.shellword import git_step

if TYPE_CHECKING:
    from forest_files.check.engine import Finding


def bring_back(
    f: Finding, root: Path, source: str, *, removed: bool = False, staged: Collection[str] = ()
) -> Route:
    """Where git still holds the file: the index, HEAD, or before its deletion.
    ``removed``: the route removes what stands at the path first (a symlink), so the
    work tree needs the file as much as the index does. ``staged``: files whose change
    the index holds (a restore stages them again: route_steps.py)."""
    from forest_files import gitio

    path = f.path
    # restore writes a whole file again only when ground holds all of it (recreate_allowed)
    whole = f.selector == path and not f.excludes
    if source != "index" and gitio.ls_files_stage(root, path):
        sparse = _outside_sparse(root, path)
        if sparse is not None:
            return sparse
        return Route("bring the file back", (git_step("checkout", "--", path),))
    if gitio.head_commit(root) is not None and _in_commit(root, "HEAD", path):
        if source == "index" and not removed and os.path.lexists(root / path):
            # Only the index lost it (``git rm --cached``): put HEAD's entry back
            # there; a checkout would overwrite the work tree's own edits.
            return Route(
                "put the file back in the index", (git_step("reset", "-q", "HEAD", "--", path),)
            )
        return Route("bring the file back", (git_step("checkout", "HEAD", "--", path),))
    if whole:  # the ground text is the whole file: restore writes it again
        folder = path.rpartition("/")[0]
        make: tuple[Step, ...] = ()
        if folder and not (root / folder).is_dir():  # restore refuses a gone directory
            make = (("mkdir", "-p", *(("--",) if folder.startswith("-") else ()), folder),)
        restore = forest("restore", path)
        back = written_back_steps(source, root, path, staged=staged)
        return Route("bring the file back", (*make, restore, *back))
    before = _before_deletion(root, path)
    if before is not None:
        return Route(
            "bring the file back",
            (git_step("checkout", before, "--", path), *stage_steps(source, path)),
            f"the file as it stood before commit {before[:12]} deleted it",
        )
    return Route("bring the file back", note=f"no commit holds {path}; write it again")


def _outside_sparse(root: Path, path: str) -> Route | None:
    """For a file git keeps out of this sparse checkout (skip-worktree): the route
    that brings it into the sparse set (``git checkout`` cannot)."""
    from forest_files import gitio

    out = gitio.run_git(root, ["ls-files", "-t", "-z", "--", path], ok_codes=(0, 128))
    if not out.stdout.startswith(b"S "):
        return None
    cone = gitio.run_git(root, ["config", "--bool", "core.sparseCheckoutCone"], ok_codes=(0, 1))
    # patterns: the file itself, anchored; cone mode (git's default) takes directories
    # (a top-level file is always in the cone)
    pattern = cone.stdout.strip() == b"false"
    wanted = "/" + path if pattern else path.rpartition("/")[0]
    return Route(
        "bring it into the sparse checkout",
        (("git", "sparse-checkout", "add", "--", wanted),),
        "this sparse checkout leaves the file out; git still holds it",
    )


def _in_commit(root: Path, rev: str, path: str) -> bool:
    from forest_files import gitio

    return any(e.path == path for e in gitio.ls_tree(root, rev, path))


def _before_deletion(root: Path, path: str) -> str | None:
    """The parent of the last commit that deleted ``path`` (it still holds the file)."""
    from forest_files import gitio

    commit = gitio.last_deleted_by(root, path)
    return f"{commit}^" if commit is not None else None
