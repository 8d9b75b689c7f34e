"""``find_binding``: the binding a target names, and a refusal that tells the truth
about the file's bindings when it names none (custody/lookup.py)."""

from __future__ import annotations

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
