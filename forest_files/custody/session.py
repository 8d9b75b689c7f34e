"""The custody a check judges against: the ledger of the same content source.

Stores: for ``index``/commit sources, the replayed custody view in
``.git/forest/views/<fingerprint>.db`` (local, git-ignored; the fingerprint
covers every ledger blob id and forest.toml), so a hook or CI run whose
ledger did not change reuses it instead of replaying, and a new one starts
from the nearest earlier view whose segments and bodies are there with the
same blob ids (viewbuild.py). The working tree's own index is never touched
by those sources.
Refuses: whatever replay refuses (a forged or damaged ledger at that source).
Returns: a context manager yielding (store, live bindings, content source).
Test: tests/check/test_check.py
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody import bindmap, verdict
from forest_files.custody.bindings import Binding, all_bindings
from forest_files.custody.bindmap import BindMap
from forest_files.custody.content import ContentSource, GitTreeSource, WorktreeSource
from forest_files.custody.verdict import LedgerKey

if TYPE_CHECKING:
    from forest_files.store.forest import ForestStore

VerdictInputs = tuple[LedgerKey | None, int]


def verdict_inputs(root: Path) -> VerdictInputs:
    """What a working-tree verdict depends on, taken before the check starts."""
    ledger = verdict.ledger_key(str(root))
    if ledger is None:  # no custody here (yet): nothing to remember, nothing created
        return None, 0
    return ledger, verdict.stamp(str(root))


def worktree_custody(
    root: Path, within: tuple[str, ...] = ()
) -> tuple[BindMap, WorktreeSource, VerdictInputs]:
    """The working tree's live bindings and their grounds, with the content source and
    the verdict inputs: from the binding map (bindmap.py) while the ledger is
    unchanged since the map was saved, else from the synced index (saving the map).
    ``within``: only the bindings at or under these paths are unpacked from a saved
    map (a watcher judging one saved file); all of them otherwise."""
    before = verdict_inputs(root)
    ledger, stamp = before
    record = bindmap.worktree_record(str(root))
    found = bindmap.load(record, ledger, under=within) if ledger is not None else None
    if found is None:
        with custody_at(root, "worktree") as (store, bindings, _content):
            found = bindmap.of_bindings(store, bindings)
        if ledger is not None and verdict.ledger_trusted(ledger, stamp):
            bindmap.save(record, ledger, found)
    return found, WorktreeSource(root), before


def remember_verdict(
    root: Path,
    before: VerdictInputs,
    content: ContentSource,
    bindings: list[Binding],
    failed: bool,
) -> None:
    """After a whole working-tree check: remember a clean verdict, or drop the old one."""
    keys = None
    if not failed and isinstance(content, WorktreeSource):
        keys = content.trusted_keys({b.path for b in bindings})
    if keys is None:
        verdict.forget(str(root))
        return
    ledger, stamp = before
    verdict.remember(str(root), ledger, stamp, keys, len(bindings))


@contextmanager
def custody_at(
    root: Path,
    source: str,
    *,
    keep_index_file: bool = False,
    paths: Iterable[str] | None = None,
    fingerprint: str | None = None,
) -> Iterator[tuple[ForestStore, list[Binding], ContentSource]]:
    """``source``: "worktree", "index" (the staged ledger and staged files) or a commit.
    ``paths`` limits the bindings (and listed files) to those paths (a hook's staged set)."""
    if source == "worktree":
        from forest_files.custody.repository import Repository

        with Repository(root) as repo:
            store = repo.synced()
            yield store, all_bindings(store), WorktreeSource(repo.root)
        return
    # Imported here: a working-tree check (the common case) needs neither git nor a
    # view, and its start-up is part of its cost.
    from forest_files import gitio
    from forest_files.custody.viewbuild import build_view
    from forest_files.custody.viewkey import (
        bound_paths,
        commit_fingerprint,
        ledger_fingerprint,
        view_path,
        view_ready,
        write_bound_paths,
    )
    from forest_files.store.forest import ForestStore

    if source != "index":
        source = gitio.resolve_commit(root, source)
    if fingerprint is not None:
        key = fingerprint
    elif source == "index":
        key = ledger_fingerprint(root, source, keep_index_file=keep_index_file)
    else:
        key = commit_fingerprint(root, source)
    view = view_path(root, key)
    if not view_ready(view):
        build_view(root, source, keep_index_file, view)
    only = tuple(sorted(set(paths))) if paths is not None else ()
    content: ContentSource = GitTreeSource(
        root,
        rev=None if source == "index" else source,
        keep_index_file=keep_index_file,
        only=only,
    )
    store = ForestStore(view)
    try:
        bindings = all_bindings(store, paths=paths)
        if bound_paths(view) is None:
            every = store.conn.execute(
                "SELECT DISTINCT path FROM binding_events WHERE path IS NOT NULL"
            ).fetchall()
            write_bound_paths(view, {str(r[0]) for r in every})
        yield store, bindings, content
    finally:
        store.close()
