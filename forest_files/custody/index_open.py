"""The working tree's index opened: a file too damaged to open dropped and built anew,
an index of another project started over.

Stores: ``.git/forest/woods.db`` (its schema made, the project's anchor ensured); an
index dropped (too damaged to open, or of another project) deleted with its journal
files, and one line on stderr saying a damaged one was dropped.
Refuses: a link or folder at the index (kernel/state.py ``refuse_linked_file``);
forest.toml's project id that is not its ledger's, before the index is dropped
(``ConfigBroken``, naming the committed forest.toml and the id to set).
Returns: the open ``ForestStore`` (``open_index``, ``dropped``).
Test: tests/custody/test_repository.py, tests/custody/test_lost_config.py,
tests/custody/test_index_tables_lost.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from forest_files.custody import lost_config
from forest_files.custody.config import CONFIG_NAME, ConfigBroken
from forest_files.kernel.errors import StoreCorruption
from forest_files.kernel.handover import create_for_owner
from forest_files.kernel.paths import INDEX_NAME, through_folder
from forest_files.kernel.state import refuse_linked_file, refuse_unopened
from forest_files.store.anchor import anchor_body
from forest_files.store.forest import ForestStore


def open_index(root: Path, project_id: str, index_path: Path) -> ForestStore:
    """The index at ``index_path`` of the project ``project_id`` (forest.toml's), open."""
    refuse_linked_file(index_path, INDEX_NAME, sqlite=True)
    create_for_owner(str(index_path))  # root's, in another user's git directory: theirs
    try:
        store = ForestStore(index_path, derived=True)  # woods.db: rebuildable
        store.init_schema()
    except StoreCorruption as exc:  # derived from the ledger: dropped and rebuilt
        return dropped(root, project_id, index_path, exc)
    foreign = store.conn.execute(
        "SELECT COUNT(*) FROM entries WHERE bucket = 'anchor' AND body != ?",
        (anchor_body(project_id),),
    ).fetchone()[0]
    if foreign:  # forest.toml names another project now: start over
        store.close()
        _refuse_other_project(root, project_id)  # unless the ledger is not that project's
        delete_index(index_path)
        return open_index(root, project_id, index_path)
    store.ensure_anchor(project_id)
    return store


def _refuse_other_project(root: Path, ours: str) -> None:
    """forest.toml's project id is not its ledger's (an edited id): refused before the
    index is dropped, since no replay under that id could rebuild it."""
    ledger = lost_config.ledger_project(root)
    if ledger is None or ledger == ours:
        return
    raise ConfigBroken(
        f"{CONFIG_NAME} [project] id {ours!r} is not its ledger's {ledger!r}; every act "
        f"would be refused: put the committed one back (git checkout HEAD -- {CONFIG_NAME})"
        f" or set id = {ledger!r} under [project]"
    )


def dropped(root: Path, project_id: str, index_path: Path, exc: StoreCorruption) -> ForestStore:
    """Drop an index too damaged to open (and its journal files), say so, open anew."""
    delete_index(index_path)
    why = str(exc).splitlines()[0].split("; ")[0][:160]
    sys.stderr.write(
        f"forest: the index could not be read ({why}); dropped it, rebuilding from the ledger\n"
    )
    return open_index(root, project_id, index_path)


def delete_index(index_path: Path) -> None:
    """The index file and its journal files deleted (it is closed): as root, by their
    names in the folder opened from the git directory with no link followed
    (kernel/paths.py ``through_folder``), never in one a link swapped in leads to."""
    try:
        name, fd = through_folder(str(index_path))
    except OSError as exc:
        raise refuse_unopened(str(index_path), exc) from exc
    try:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{name}{suffix}").unlink(missing_ok=True)
    finally:
        if fd is not None:
            os.close(fd)


__all__ = ["delete_index", "dropped", "open_index"]
