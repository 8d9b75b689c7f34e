"""Views built from the nearest earlier view (files/viewbuild.py) equal views built
from scratch, and an unusable earlier view is never the starting point."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from forest_files.custody import bindmap
from forest_files.custody.viewbuild import build_view
from forest_files.custody.viewkey import ledger_fingerprint, view_path
from forest_files.custody.viewmanifest import built_from
from forest_files.ledger.acts import LedgerError
from forest_files.store.forest import ForestStore
from tests.helpers.custody import DOC, init_and_adopt, supersede_as_it_stands
from tests.helpers.git import commit_all, git, make_repo, write


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    for name in ("a.md", "b.md", "c.md"):
        write(root, name, DOC.replace("kept", name))
    init_and_adopt(root, ["a.md#Keep", "b.md#Keep", "c.md#Keep"])
    commit_all(root, "adopt")
    return root


def _build_staged(root: Path) -> tuple[str, Path]:
    fingerprint = ledger_fingerprint(root, "index")
    target = view_path(root, fingerprint)
    return build_view(root, "index", False, target), target


def _supersede_a(root: Path) -> None:
    write(root, "a.md", DOC.replace("kept", "amended"))
    supersede_as_it_stands(root, "a.md#Keep")
    git(root, "add", "-A")


def _custody(view: Path) -> list[tuple[str, str, str | None, tuple[str, ...]]]:
    """Each binding's path, selector, ground content id and contest heads."""
    store = ForestStore(view)
    try:
        found = bindmap.derive(store)
    finally:
        store.close()
    return sorted((b.path, b.selector, *found.grounds[b.entry_id][::2]) for b in found.bindings)


def test_next_view_starts_from_the_earlier_one_and_equals_a_full_build(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    how, first = _build_staged(root)
    assert how == "full"
    before = _custody(first)
    _supersede_a(root)  # the staged ledger is the first one plus one segment
    how, second = _build_staged(root)
    assert how == "incremental"
    incremental = _custody(second)
    views = second.parent
    shutil.rmtree(views)
    how, rebuilt = _build_staged(root)
    assert how == "full"
    assert _custody(rebuilt) == incremental
    assert incremental[1:] == before[1:]  # b.md, c.md unchanged
    assert incremental[0][2] != before[0][2]  # a.md: the superseding ground


def test_a_view_holding_acts_the_ledger_lacks_is_not_the_start(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _supersede_a(root)
    how, _ = _build_staged(root)  # a view of the longer ledger
    assert how == "full"
    git(root, "stash", "-q")  # back to the shorter ledger: the cached view has an extra act
    how, target = _build_staged(root)
    assert how == "full"
    assert [p for p, *_ in _custody(target)] == ["a.md", "b.md", "c.md"]


def test_another_forest_toml_is_not_the_start(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _build_staged(root)
    with open(root / "forest.toml", "a", encoding="utf-8") as fh:
        fh.write("\n# a comment changes the text\n")
    git(root, "add", "forest.toml")
    how, _ = _build_staged(root)
    assert how == "full"


def test_a_damaged_earlier_view_falls_back_to_the_full_replay(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _how, first = _build_staged(root)
    first.write_bytes(b"not a database at all" * 100)
    _supersede_a(root)
    how, second = _build_staged(root)
    assert how == "full"
    assert len(_custody(second)) == 3


def test_a_view_whose_segment_changed_in_place_is_not_the_start(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _build_staged(root)
    [segment] = (root / ".forest" / "ledger" / "segments").glob("*.jsonl")
    lines = segment.read_bytes().splitlines(keepends=True)
    segment.write_bytes(b"".join(reversed(lines)))  # same name, same acts, other bytes
    git(root, "add", "-A")
    with pytest.raises(LedgerError, match="SHA-256"):
        _build_staged(root)  # the full replay, which refuses the damaged segment


def test_a_view_whose_bodies_are_gone_is_not_the_start(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _supersede_a(root)
    _build_staged(root)  # a view that read the new bodies
    added = git(root, "diff", "--cached", "--name-only", "--diff-filter=A", "HEAD")
    bodies = [p for p in added.splitlines() if "/bodies/" in p]
    git(root, "rm", "-q", "--cached", *bodies)
    with pytest.raises(LedgerError, match="missing"):
        _build_staged(root)


def test_a_view_of_an_older_format_is_not_the_start(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _how, first = _build_staged(root)
    from forest_files.custody.viewkey import seal_view, view_detail

    sealed = view_detail(first)
    assert isinstance(sealed, tuple)
    rows = ("manifest-v0", *sealed[1][1:])  # a seal of an older manifest format
    seal_view(first, (sealed[0], rows))
    _supersede_a(root)
    how, second = _build_staged(root)
    assert how == "full" and built_from(second) is None
    write(root, "b.md", DOC.replace("kept", "again"))
    supersede_as_it_stands(root, "b.md#Keep")
    git(root, "add", "-A")
    how, third = _build_staged(root)
    assert how == "incremental" and built_from(third) == second.stem


def _leftovers(views: Path) -> list[str]:
    return sorted(p.name for p in views.iterdir() if ".db" in p.name or p.name.startswith(".view-"))


def test_a_refused_full_build_leaves_no_view_and_no_journal_refused(tmp_path: Path) -> None:
    """A view is built as a private file (rollback journal in memory, no fsync): an act
    refused half-way leaves nothing under the views folder that a reader could find."""
    root = _repo(tmp_path)
    _supersede_a(root)
    added = git(root, "diff", "--cached", "--name-only", "--diff-filter=A", "HEAD")
    bodies = [p for p in added.splitlines() if "/bodies/" in p]
    git(root, "rm", "-q", "--cached", *bodies)  # the supersede's body is missing
    target = view_path(root, ledger_fingerprint(root, "index"))
    with pytest.raises(LedgerError, match="missing"):
        build_view(root, "index", False, target)
    assert _leftovers(target.parent) == []


def test_a_view_built_privately_is_sound_and_opens_in_wal_accepted(tmp_path: Path) -> None:
    """The private build leaves a whole database (integrity check), no journal beside
    it, and readers find it in WAL mode, the mode every store opens."""
    import sqlite3

    root = _repo(tmp_path)
    _how, view = _build_staged(root)
    assert _leftovers(view.parent) == [view.name]
    conn = sqlite3.connect(f"{view.as_uri()}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()
    assert len(_custody(view)) == 3


def test_a_view_keeps_no_text_index_and_a_search_there_is_refused(tmp_path: Path) -> None:
    """A view is judged, never searched: it keeps no full-text index (indexing every
    body was a seventh of a fresh clone's gate), and a search of it fails loudly
    rather than answering nothing. A seal applied to a copy of such a view (the
    incremental path) is the same custody as a full build."""
    import sqlite3

    from forest_files.kernel.errors import ForestError
    from tests.helpers.cli import ok

    root = _repo(tmp_path)
    _how, first = _build_staged(root)
    conn = sqlite3.connect(f"{first.as_uri()}?mode=ro", uri=True)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    assert "entries" in names
    assert not {n for n in names if "fts" in n}
    store = ForestStore(first)
    try:
        with pytest.raises(ForestError, match="FTS query failed"):
            store.recall_similar("kept")
    finally:
        store.close()
    before_seal = _custody(first)
    ok(root, "seal", "b.md#Keep", "--words", "a key was pasted")
    git(root, "add", "-A")
    how, second = _build_staged(root)
    assert how == "incremental"
    incremental = _custody(second)
    shutil.rmtree(second.parent)
    how, rebuilt = _build_staged(root)
    assert how == "full"
    assert _custody(rebuilt) == incremental
    assert incremental[0] == before_seal[0] and incremental[2] == before_seal[2]
    assert before_seal[1][2] is not None and incremental[1][2] is None  # b.md: sealed
