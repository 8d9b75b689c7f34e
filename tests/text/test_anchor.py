"""The repository anchor: deterministic, the same on every clone, never writable by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files import ForestError, ForestStore


def _store(path: Path) -> ForestStore:
    s = ForestStore(path)
    s.init_schema()
    return s


def test_anchor_same_content_id_on_two_clones_accepted(tmp_path: Path) -> None:
    with _store(tmp_path / "a.db") as a, _store(tmp_path / "b.db") as b:
        b.write_pair("noise first", scroll_ptr={"path": "s", "offset": 0})
        ida, idb = a.ensure_anchor("proj-1"), b.ensure_anchor("proj-1")
        assert a.content_id(ida) == b.content_id(idb)
        assert a.ensure_anchor("proj-1") == ida  # idempotent
        assert a.content_id(a.ensure_anchor("proj-2")) != a.content_id(ida)


def test_anchor_written_by_hand_refused(store: ForestStore) -> None:
    p = store.write_pair("x", scroll_ptr={"path": "s", "offset": 0})
    with pytest.raises(ForestError, match="ceremony"):
        store.write(body="fake anchor", bucket="anchor", signature="me", origins=[(p, "cites")])


def test_anchor_blank_project_id_refused(store: ForestStore) -> None:
    with pytest.raises(ForestError, match="project id"):
        store.ensure_anchor("  ")


def test_anchor_serves_as_origin_for_imports_accepted(store: ForestStore) -> None:
    anchor = store.ensure_anchor("proj")
    entry = store.write(
        body="# Canon",
        bucket="import",
        signature="jo",
        origins=[(anchor, "derived_from")],
        scrub=None,
    )
    assert store.get(entry)["body"] == "# Canon"
