"""Views built from the nearest earlier view (files/viewbuild.py) equal views built
from scratch, and an unusable earlier view is never the starting point."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from forest_files.files import bindmap
from forest_files.files.lookup import find_binding
from forest_files.files.record import adopt_sections, supersede_section
from forest_files.files.targets import read_section
from forest_files.files.viewbuild import build_view
from forest_files.files.viewkey import ledger_fingerprint, view_path
from forest_files.hashing import hash_body
from forest_files.ledger.bindings import all_bindings
from forest_files.repository import Repository
from forest_files.store.forest import ForestStore
from tests.helpers.git import commit_all, git, isolate, make_repo, write

DOC = "# Title\n\n## Keep\n\nkept words\n\n## Other\n\nother words\n"
BY = "t <t@example.org>"


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate(monkeypatch)


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    for name in ("a.md", "b.md", "c.md"):
        write(root, name, DOC.replace("kept", name))
    with Repository.init(root, project_id="p") as repo:
        targets = ("a.md#Keep", "b.md#Keep", "c.md#Keep")
        sections = [read_section(root, t, (), max_bytes=1 << 20) for t in targets]
        adopt_sections(repo, sections, words="adopt", by=BY)
    commit_all(root, "adopt")
    return root


def _build_staged(root: Path) -> tuple[str, Path]:
    fingerprint = ledger_fingerprint(root, "index")
    target = view_path(root, fingerprint)
    return build_view(root, "index", False, target), target


def _supersede_a(root: Path) -> None:
    write(root, "a.md", DOC.replace("kept", "amended"))
    with Repository(root) as repo:
        binding = find_binding(all_bindings(repo._synced()), "a.md#Keep")
        section = read_section(root, "a.md#Keep", (), max_bytes=1 << 20)
        supersede_section(
            repo,
            binding,
            section,
            words="amend",
            by=BY,
            expected_body_hash=hash_body(section.text),
        )
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
