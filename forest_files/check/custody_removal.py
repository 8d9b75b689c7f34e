"""A staged change that takes custody away from what HEAD holds, refused: forest.toml
deleted or no longer a regular file, or every segment of the ledger deleted (the
pre-commit hook and ``forest check --staged``, staged.py).

Stores: nothing.
Refuses: such a change (``Refusal``: removing custody is a governance act, not a
commit's), in one line with the git command that puts HEAD's copy back.
Returns: nothing when custody stays.
Test: tests/doors/test_hooks_custody.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.kernel.paths import CONFIG_NAME

if TYPE_CHECKING:
    from forest_files.gitio import Change
    from forest_files.kernel.errors import Refusal


def refuse_custody_removal(root: Path, changes: list[Change]) -> None:
    """Refuse (``Refusal``, one line) a staged change that takes custody away from what
    HEAD holds: forest.toml deleted or no longer a regular file, or every segment of
    the ledger deleted. Read from the staged change against HEAD alone; the index is
    listed only when a segment's deletion is staged."""
    from forest_files.kernel.paths import LEDGER_PREFIX

    removed = {c.path: c.status for c in changes if c.status in ("D", "T")}
    if CONFIG_NAME in removed:
        raise _custody_removed(root, CONFIG_NAME, removed[CONFIG_NAME] == "T")
    segments = f"{LEDGER_PREFIX}segments"
    if any(p.startswith(f"{segments}/") and s == "D" for p, s in removed.items()):
        from forest_files import gitio

        if not gitio.ls_files_stage(root, segments, keep_index_file=True):
            raise _custody_removed(root, LEDGER_PREFIX.rstrip("/"), False)


def _custody_removed(root: Path, path: str, retyped: bool) -> Refusal:
    """The one-line refusal of a commit removing ``path`` (forest.toml or the ledger)
    that HEAD holds; its route puts HEAD's copy back in the index (and in the working
    tree when it is gone from there too), so the change is judged again."""
    from forest_files.check.findings import Route
    from forest_files.kernel.errors import Refusal

    # the ledger's files never change: HEAD's are the ones to have, new segments stay
    kept = path == CONFIG_NAME and (root / path).exists() and not retyped
    step = (
        ("git", "restore", "--staged", "--", path)
        if kept
        else ("git", "checkout", "HEAD", "--", path)
    )
    how = "changes the type of" if retyped else "removes"
    return Refusal(
        f"commit refused — the staged change {how} {path}, which HEAD holds: removing "
        f"custody is a governance act, not a commit's; put it back: {Route('', (step,)).command} "
        "(or commit with --no-verify, deliberately, and let forest ci judge it)"
    )
