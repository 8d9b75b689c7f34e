"""A binding map's grounds (custody/ground.py ``ground_map``) over more bindings than
a few chains: the live heads are listed once with their own entry ids, so a binding
made for a head finds its chain there. Before, each binding's entry was asked for its
chain first, 500 ids a query (20 queries at 10,000 bindings: a fresh clone's ``forest
ci``). Only a binding made for an entry since superseded or sealed is asked for. No
timing is asserted: SQLite's statements are counted, and each ground is the one the
per-binding reading (``ground_of``) gives."""

from __future__ import annotations

from pathlib import Path

from forest_files.custody import bindmap
from forest_files.custody.ground import _FEW_CHAINS, ground_of
from forest_files.custody.repository import Repository
from tests.helpers.custody import init_and_adopt, supersede_as_it_stands
from tests.helpers.git import commit_all, make_repo, write

_N = _FEW_CHAINS + 5  # more bindings than a few chains: every live head listed


def _bound(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    names = [f"d{i:03d}.md" for i in range(_N)]
    for name in names:
        write(root, name, f"# {name}\n\nwords of {name}\n")
    init_and_adopt(root, names)
    commit_all(root, "adopt")
    return root


def _derived(root: Path) -> tuple[bindmap.BindMap, list[str]]:
    """The map ``derive`` reads from the index, and the statements it asked."""
    with Repository(root) as repo:
        store = repo.synced()
        asked: list[str] = []
        store.conn.set_trace_callback(asked.append)
        try:
            found = bindmap.derive(store)
        finally:
            store.conn.set_trace_callback(None)
        for b in found.bindings:  # each ground as the per-binding reading gives it
            assert found.grounds[b.entry_id] == ground_of(store, b)
    return found, asked


def _chain_lookups(asked: list[str]) -> int:
    return sum("FROM entries WHERE id IN" in sql for sql in asked)


def test_ground_map_of_many_bindings_asks_no_chain_per_binding_accepted(tmp_path: Path) -> None:
    root = _bound(tmp_path)
    found, asked = _derived(root)
    assert len(found.bindings) == _N
    assert _chain_lookups(asked) == 0  # was one query per 500 bindings
    reads = [sql for sql in asked if sql.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 3  # the binding events, the live heads, any erasure


def test_ground_map_asks_chains_only_of_superseded_entries_accepted(tmp_path: Path) -> None:
    root = _bound(tmp_path)
    write(root, "d007.md", "# d007.md\n\namended words\n")
    supersede_as_it_stands(root, "d007.md")
    found, asked = _derived(root)
    amended = next(b for b in found.bindings if b.path == "d007.md")
    ground = found.grounds[amended.entry_id]
    assert ground[0] is not None and ground[2] == ()  # the new head, met by its chain
    assert _chain_lookups(asked) == 1  # the one binding made for a superseded entry
