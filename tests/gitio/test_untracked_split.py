"""``gitio.untracked_split``: the files git does not track, split into those ``git add``
would stage and those an ignore rule hides, as ``gitio.untracked`` gives each list
(one listing of them all; the ignored ones asked of the listed files alone, or of the
paths again past ``to_stage``'s limit of named paths)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files import gitio
from tests.helpers.git import commit_all, make_repo, write

PATHS = ("forest.toml", ".forest/.gitignore", ".forest/ledger")


@pytest.mark.parametrize("many", [False, True], ids=["few", "past-the-named-limit"])
def test_untracked_split_same_as_two_listings_accepted(tmp_path: Path, many: bool) -> None:
    root = make_repo(tmp_path)
    write(root, "forest.toml", "x\n")
    write(root, ".forest/ledger/kept.jsonl", "{}\n")
    commit_all(root, "custody")
    write(root, ".forest/.gitignore", "ledger/hid/\n*.tmp\n!ledger/back.tmp\n")
    names = ["new.jsonl", "a b\nc.jsonl", "*.jsonl", ":magic.jsonl", "hid/x.jsonl"]
    names += ["scratch.tmp", "back.tmp", "sub/deep.jsonl", "caf\u00e9.jsonl"]
    names += [f"bulk/{n:04d}.tmp" for n in range(600 if many else 0)]
    for name in names:
        write(root, f".forest/ledger/{name}", "{}\n")
    write(root, "outside.md", "not custody\n")
    added, ignored = gitio.untracked_split(root, PATHS)
    assert added == gitio.untracked(root, PATHS, which="added")
    assert ignored == gitio.untracked(root, PATHS, which="ignored")
    assert ".forest/ledger/a b\nc.jsonl" in added and ".forest/ledger/back.tmp" in added
    assert ".forest/ledger/hid/x.jsonl" in ignored and ".forest/ledger/scratch.tmp" in ignored
    assert len(added) + len(ignored) == len(names) + 1  # .forest/.gitignore itself


def test_untracked_split_nothing_untracked_one_listing_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "forest.toml", "x\n")
    commit_all(root, "custody")
    assert gitio.untracked_split(root, PATHS) == ([], [])
    assert gitio.untracked_split(root, ()) == ([], [])
