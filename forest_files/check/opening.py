"""One way into custody: the bindings, grounds and content of a source, and how they were known.

Every door opens custody here: ``forest check`` and ``forest status`` (the
working tree), ``check --staged`` and every branch of the pre-commit hook (the
git index), ``check --rev``, ``verify`` and ``forest ci`` (HEAD and every commit
of a range), the watcher and ``forest review``. This module alone chooses the
evidence, cheapest first. Before anything is opened, the light doors ask
``remembered_count``/``remembered_rows``: the working tree's remembered clean
verdict still holds (verdict.py: the ledger and every bound file stat the same)
and git's index tracks no local state, so every binding is clean and nothing is
read. Otherwise ``open_custody`` says which evidence it took (``Custody.via``):

* ``paths``: a staged change touches none of the paths the staged ledger binds
  (known beside its view, or decoded from its segments after a clone): no
  binding can have moved (and, before its view exists, the segments showed no
  contest possible: one that may be there has the view built to judge it);
* ``map``: the binding map saved beside the index or the view (bindmap.py);
* ``view``: a cached view this machine built and sealed (viewkey.py), its map
  derived once;
* ``replay``: the working tree's index synced from the ledger, or a view built
  by replaying the source's ledger (viewbuild.py).

Room by room: the working tree's path is opening_worktree.py; a git source's is
opening_git.py (its view key), whose evidence from a view is opening_views.py
(its binding map, its bound paths); what they return is opened.py's ``Custody``.
Callers import all of it from here.

A binding map derived from the working tree's index is derived from rows
proven against the ledger first (indexproof.py): a forged row is a rebuilt
index, never a verdict.

Stores: the binding maps, bound-path sets and view aliases it derives (through
kernel/cache.py), the views it builds, the index a sync brings in step.
Refuses: what a sync or a replay refuses (a forged or damaged ledger), an
unknown revision.
Returns: a ``Custody`` (close it, or use it as a context manager).
Test: tests/check/test_opening.py, tests/check/test_check_evidence.py,
tests/gate/test_ci_git_calls.py
"""

from __future__ import annotations

from forest_files.custody import bindmap, verdict
from forest_files.kernel.lazy import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # the light doors (fastcheck, the hook) load none of this
    from pathlib import Path

    from forest_files.custody.content import GitTreeSource
    from forest_files.custody.source_config import SourceConfig

# Loaded on first use: a remembered verdict (fastcheck) opens none of these.
_OPENED = ("ABSENT", "INDEX", "MAP", "PATHS", "REPLAY", "VIEW", "WORKTREE", "Custody")
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(_OPENED, "forest_files.check.opened"),
    "index_fingerprint": "forest_files.check.opening_git",
}


def open_custody(
    root: Path | str,
    source: str,
    *,
    within: tuple[str, ...] = (),
    touched: set[str] | None = None,
    keep_index_file: bool = False,
    fingerprint: str | None = None,
    replay: bool = True,
    key: tuple[str, str] | None = None,
    config: SourceConfig | None = None,
    bound: dict[Path, set[str]] | None = None,
    listing: GitTreeSource | None = None,
) -> Custody:
    """The custody of ``source``: ``worktree``, ``index`` (the staged ledger and
    files) or a commit.

    ``within``: only bindings at or under these paths (a check of some paths, the
    watcher's saved files). ``touched``: a staged change's paths: only their
    bindings, and none at all when the ledger binds none of them.
    ``fingerprint``: the view's key when the caller knows it already.
    ``replay`` False (a git source): what this machine holds, or ``via`` ABSENT.
    ``key``: a commit's ``viewkey.heads_custody`` entry, asked of git for a whole
    range at once (its commit id and ledger tree key). ``config``: forest.toml at a
    git source as the caller read it (custody/source_config.py): a view built here
    does not read it again. ``bound``: the paths the ledgers of views this caller
    opened bind, by view, filled in here (a range judges its commits of one ledger
    with one read of that view's remembered paths). ``listing``: the git index as the
    caller listed it whole (check/staged_listing.py), taken as the content source."""
    from forest_files.check.opened import WORKTREE

    if source == WORKTREE:
        from forest_files.check.opening_worktree import open_worktree

        return open_worktree(str(root), within)
    from pathlib import Path

    from forest_files.check.opening_git import open_git

    where = (touched, keep_index_file, fingerprint, replay, key, config, bound, listing)
    return open_git(Path(root), source, within, *where)


def remembered_count(root: str) -> int | None:
    """Bindings of the remembered clean verdict of the working tree, or None (judge)."""
    count = verdict.recall(root)
    if count is None:
        return None
    from forest_files.check.localstate import worktree_clean

    return count if worktree_clean(root) else None


def remembered_rows(root: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The selectors and the ground content ids of every binding of the remembered
    clean verdict, two columns from the binding map's packed rows (nothing unpacked);
    None: judge."""
    held = _remembered_key(root)
    rows = None if held is None else bindmap.status_rows(bindmap.worktree_record(root), held[1])
    return rows if rows is not None and held is not None and len(rows[0]) == held[0] else None


def remembered_grounds(root: str) -> list[tuple[str, ...]] | None:
    """(path, selector, bind act, ground content id, ground section hash) of every
    binding of the remembered clean verdict (``forest status --json``), unpacked from
    the binding map's rows, no ``Binding`` made; None: judge."""
    held = _remembered_key(root)
    rows = None if held is None else bindmap.clean_rows(bindmap.worktree_record(root), held[1])
    return rows if rows is not None and held is not None and len(rows) == held[0] else None


def _remembered_key(root: str) -> tuple[int, verdict.LedgerKey] | None:
    """The remembered clean verdict's binding count and the ledger's key, or None."""
    count = remembered_count(root)
    ledger = verdict.ledger_key(root) if count is not None else None
    return None if count is None or ledger is None else (count, ledger)


__all__ = [
    "ABSENT",
    "MAP",
    "PATHS",
    "REPLAY",
    "VIEW",
    "Custody",
    "index_fingerprint",
    "open_custody",
    "remembered_count",
    "remembered_grounds",
    "remembered_rows",
]

__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)

if TYPE_CHECKING:
    from forest_files.check.opened import (
        ABSENT,
        MAP,
        PATHS,
        REPLAY,
        VIEW,
        Custody,
    )
    from forest_files.check.opening_git import index_fingerprint
