"""What ``forest watch status`` reports: whether a watcher runs, what it last saw (its
state file, daemon.py), and the open proposals, never their text.

Stores: with no watcher running, where the proposals files may be written, closes the
proposals the text left behind (doors/review/closing.py), as a watcher would; where
they may not (proposals/settle.py ``writable``: a read-only state folder, another
user's clone) they are read read-only and nothing is closed, each listed as recorded
(the text door says which are settled: doors/cli/watch_cmd.py). Nothing is created.
Refuses: nothing of its own (a closing that fails is passed over: a status never
fails for it).
Returns: ``status`` (a dict without text; each proposal with the worktree that
captured it: proposals/whose.py; the state file's ``error_count``, every error since
start, repeats included).
Test: tests/doors/test_watch_daemon.py, tests/doors/test_watch_status_error_count.py,
tests/proposals/test_show_status_read_only.py
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.doors.watch.lock import running
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import LOCAL_DB_NAME, WATCH_LOG, WATCH_STATE
from forest_files.kernel.state import shared_dir, worktree_dir

if TYPE_CHECKING:
    from forest_files.custody.proposals import Proposal
    from forest_files.proposals.rebinds import Rebind


def status(root: Path) -> dict[str, object]:
    """Whether a watcher runs, what it last saw, and the open proposals (no text)."""
    from forest_files.custody.repository import find_root

    root = find_root(root)
    pid = running(root)
    state: dict[str, object] = {}
    if pid is not None and (worktree_dir(root, create=False) / WATCH_STATE).exists():
        from forest_files.kernel.cache import open_record

        try:  # never through a link, nor waiting on a FIFO put at its name
            with open_record(worktree_dir(root) / WATCH_STATE) as fh:
                state = json.loads(fh.read())
        except (OSError, ValueError):
            state = {}
    return {
        "running": pid is not None,
        "pid": pid,
        "mode": state.get("mode"),
        "fallback": state.get("fallback") or "",
        "open": state.get("open", []),
        "errors": state.get("errors", []),
        "problem": state.get("problem") or "",
        "error_count": _count(state.get("error_count")),
        "held": state.get("held") or "",
        "proposals": _proposals(root, pid),
        "log": str(worktree_dir(root, create=False) / WATCH_LOG),
    }


def _proposals(root: Path, pid: int | None) -> list[dict[str, object]]:
    """The open proposals and rebind proposals, each with whose it is."""
    from forest_files.proposals.rebinds import Rebind
    from forest_files.proposals.whose import Worktrees, here

    found = _open(root, pid)
    proposals: list[dict[str, object]] = [
        {"id": r.id, "selector": r.old_selector, "rebind_to": r.new_selector}
        if isinstance(r, Rebind)
        else {"id": r.id, "selector": r.selector, "text_hash": r.text_hash}
        for r in found
    ]
    for p, r in zip(proposals, found, strict=True):
        p["worktree"] = r.worktree  # whose it is: the worktree that captured it
    trees = Worktrees(root)  # git asked once, if any proposal is another worktree's
    for p in proposals:  # whose each is: the worktree that captured it (proposals/whose.py)
        key = p["worktree"] if isinstance(p["worktree"], str) else None
        p["worktree_path"], p["here"] = trees.place(key), here(root, key)
    return proposals


def _open(root: Path, pid: int | None) -> list[Proposal | Rebind]:
    from forest_files.custody.proposals import ProposalStore
    from forest_files.proposals.rebinds import open_rebinds
    from forest_files.proposals.settle import open_read_only, writable

    if not writable(root):  # a status is a read: read-only files, nothing closed
        return open_read_only(root)
    if pid is None:  # no watcher closes what the text left behind: close it here
        from forest_files.doors.review.closing import close_left_behind

        with contextlib.suppress(ForestError):  # a status never fails for it
            close_left_behind(root)
    found: list[Proposal | Rebind] = []
    if (shared_dir(root, create=False) / LOCAL_DB_NAME).exists():  # a status creates nothing
        with ProposalStore(root) as store:
            found += store.open_proposals()
    return found + open_rebinds(root)


def _count(value: object) -> int:
    """The state file's ``error_count`` (every error since the watcher started, repeats
    included: ``errors`` lists each once); 0 when there is none or it is no count."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
