"""``find_binding``: the binding a target names, and a refusal that tells the truth
about the file's bindings when it names none (custody/lookup.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import NoSuchBinding, find_binding
from forest_files.custody.repository import Repository
from tests.helpers.custody import adopted_repo


@pytest.fixture
def bound(tmp_path: Path) -> Path:
    return adopted_repo(tmp_path, "canon.md", "# Canon\n\n## Hero\n\nThe hero is brave.\n")


def test_find_binding_unknown_id_names_the_files_bindings_refused(bound: Path) -> None:
    with Repository(bound) as repo:
        bindings = all_bindings(repo.synced())
    (only,) = bindings
    with pytest.raises(NoSuchBinding) as caught:
        find_binding(bindings, "canon.md", "ffff")
    message = str(caught.value)
    assert "no binding with id ffff" in message
    assert f"canon.md ({only.bind_act[:12]})" in message  # it said "bindings of canon.md: none"
    assert find_binding(bindings, "canon.md", only.bind_act[:8]) == only


def test_find_binding_heading_by_its_id_or_its_path_either_way_accepted(tmp_path: Path) -> None:
    """One heading, two names: a binding recorded by path is found by the heading's id,
    and one recorded by id by its path (it said "no binding" and listed the other)."""
    text = "# Book\n\n## Status { #status }\n\nAccepted.\n\n## Other {#other}\n\nMore.\n"
    root = adopted_repo(tmp_path, "book.md", text, "book.md#Book/Status")
    with Repository(root) as repo:
        (by_path,) = all_bindings(repo.synced())
    assert find_binding([by_path], "book.md#{status}", root=root) == by_path
    with pytest.raises(NoSuchBinding, match="no binding"):
        find_binding([by_path], "book.md#{other}", root=root)  # another heading
    by_id = replace(by_path, selector="book.md#{status}")
    assert find_binding([by_id], "book.md#Book/Status", root=root) == by_id
