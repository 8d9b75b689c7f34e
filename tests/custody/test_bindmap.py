"""The binding map (files/bindmap.py): bindings and grounds kept beside the index,
answering exactly what the index answers, and never outliving a ledger change."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files.check.engine import check_all
from forest_files.check.opening import open_custody
from forest_files.custody import bindmap, verdict
from forest_files.custody.repository import Repository
from tests.helpers.custody import (
    DOC,
    age_files,
    retire,
    supersede_as_it_stands,
    two_bound_files,
)
from tests.helpers.git import write


def _opened(root: Path) -> bindmap.BindMap:
    with open_custody(root, "worktree") as custody:
        return bindmap.BindMap(custody.bindings, custody.grounds)


def _kinds(root: Path) -> dict[str, str]:
    with open_custody(root, "worktree") as custody:
        found = check_all(None, custody.bindings, custody.content, grounds=custody.grounds)
    return {f.selector: f.kind for f in found}


def _record(root: Path) -> str:
    return bindmap.worktree_record(str(root))


def test_saved_map_equals_what_the_index_derives(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    first = _opened(root)
    assert Path(_record(root)).exists()
    ledger = verdict.ledger_key(str(root))
    assert ledger is not None
    loaded = bindmap.load(_record(root), ledger)
    with Repository(root) as repo:
        derived = bindmap.derive(repo.synced())
    assert loaded == derived == first
    assert len(derived.bindings) == 2


def test_supersede_makes_the_map_stale_and_the_check_judges_new_ground(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert set(_kinds(root).values()) == {"clean"}
    write(root, "a.md", DOC.replace("kept words", "amended words"))
    assert _kinds(root)["a.md#Title/Keep"] == "drifted"
    supersede_as_it_stands(root, "a.md#Keep")
    age_files(root)
    assert _kinds(root) == {"a.md#Title/Keep": "clean", "b.md#Title/Keep": "clean"}
    # and the old text is now the drift
    write(root, "a.md", DOC)
    assert _kinds(root)["a.md#Title/Keep"] == "drifted"


def test_retire_makes_the_map_stale(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert len(_kinds(root)) == 2
    retire(root, "b.md#Keep")
    assert list(_kinds(root)) == ["a.md#Title/Keep"]


@pytest.mark.parametrize("junk", [b"", b"\x00\x01junk", b"not marshal"])
def test_corrupt_map_is_a_miss_and_rewritten(tmp_path: Path, junk: bytes) -> None:
    root = two_bound_files(tmp_path)
    _opened(root)
    Path(_record(root)).write_bytes(junk)
    ledger = verdict.ledger_key(str(root))
    assert ledger is not None
    assert bindmap.load(_record(root), ledger) is None
    assert set(_kinds(root).values()) == {"clean"}
    assert bindmap.load(_record(root), ledger) is not None


def test_map_is_not_saved_while_a_segment_is_racily_clean(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    segments = root / ".forest" / "ledger" / "segments"
    future = 10**9 * 3600  # an mtime at or after any stamp taken now
    for seg in segments.iterdir():
        st = seg.stat()
        os.utime(seg, ns=(st.st_atime_ns, st.st_mtime_ns + future))
    assert set(_kinds(root).values()) == {"clean"}
    assert not Path(_record(root)).exists()


def test_saved_fields_are_binding_field_order_accepted() -> None:
    """load() builds bindings positionally: the saved field list is Binding's order."""
    from dataclasses import fields

    from forest_files.custody import bindmap
    from forest_files.custody.bindings import Binding

    assert tuple(f.name for f in fields(Binding)) == bindmap._FIELDS


def test_status_rows_are_the_maps_rows_and_none_without_single_ground(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    found = _opened(root)
    ledger = verdict.ledger_key(str(root))
    assert ledger is not None
    rows = bindmap.status_rows(_record(root), ledger)
    selectors = tuple(b.selector for b in found.bindings)
    assert rows == (selectors, tuple(found.grounds[b.entry_id][0] for b in found.bindings))
    assert bindmap.status_rows(_record(root), "another key") is None
    # a contested ground (two live heads) has no single ground: status must judge it
    first = found.bindings[0].entry_id
    cid, body_hash, _ = found.grounds[first]
    contested = {**found.grounds, first: (cid, body_hash, ("f" * 64,))}
    bindmap.save(_record(root), ledger, bindmap.BindMap(found.bindings, contested))
    assert bindmap.status_rows(_record(root), ledger) is None
    assert bindmap.load(_record(root), ledger) is not None  # the map itself still loads


@pytest.mark.parametrize("cut", [1, -1])
def test_map_row_of_another_length_is_a_miss_refused(tmp_path: Path, cut: int) -> None:
    """load() builds each binding from its row's fields without Binding's __init__: a
    row one field short or long (another version's layout under this one's MAC) is a
    miss, never a binding with a field shifted or missing; the check derives again."""
    import marshal

    from forest_files.kernel import cache

    root = two_bound_files(tmp_path)
    _opened(root)
    ledger = verdict.ledger_key(str(root))
    assert ledger is not None
    doc = cache.read(_record(root), "bindmap")
    assert isinstance(doc, tuple)
    packed = dict(doc[5])
    path = doc[4][0]
    rows = marshal.loads(packed[path])
    row = rows[0][:-2] + rows[0][-1:] if cut == 1 else (*rows[0][:-1], "extra", rows[0][-1])
    packed[path] = marshal.dumps((row, *rows[1:]))
    assert cache.write(_record(root), "bindmap", (*doc[:5], packed, doc[6]))
    assert bindmap.load(_record(root), ledger) is None
    assert set(_kinds(root).values()) == {"clean"}
    assert bindmap.load(_record(root), ledger) is not None
