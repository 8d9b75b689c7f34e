"""Counting the git index listings a check makes, and the two-note repository the
listing tests judge (tests/check/test_staged_listed_once.py,
test_staged_check_listed_once.py, test_explain_reads_listing.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files import gitio
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, make_repo, write

NOTE = "# A\n\nwords of a\n\n# B\n\nwords of b\n"


def two_notes(where: Path) -> Path:
    """A repository of f.md and g.md (NOTE each), f.md#A and g.md#B adopted, committed."""
    root = make_repo(where)
    write(root, "f.md", NOTE)
    write(root, "g.md", NOTE)
    commit_all(root, "notes")
    ok(root, "init")
    ok(root, "adopt", "f.md#A", "g.md#B", "--words", "as written")
    commit_all(root, "custody")
    return root


def counted_listings(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Each ``git ls-files -s`` the process runs from now on (flags asked with it or
    not: ``ls_files_flagged``), by the paths (or the prefix) it names; the real
    ``gitio.ls_files_stage`` / ``ls_files_flagged`` answers every one."""
    calls: list[tuple[str, ...]] = []
    real = gitio.ls_files_stage
    real_flagged = gitio.ls_files_flagged

    def listed(
        where: Path | str,
        prefix: str = "",
        *,
        keep_index_file: bool = False,
        paths: tuple[str, ...] | list[str] = (),
    ) -> list[gitio.TreeEntry]:
        calls.append(tuple(paths) or (prefix,))
        return real(where, prefix, keep_index_file=keep_index_file, paths=paths)

    def flagged(
        where: Path | str,
        prefix: str = "",
        *,
        keep_index_file: bool = False,
        paths: tuple[str, ...] | list[str] = (),
    ) -> tuple[list[gitio.TreeEntry], dict[str, str]]:
        calls.append(tuple(paths) or (prefix,))
        return real_flagged(where, prefix, keep_index_file=keep_index_file, paths=paths)

    monkeypatch.setattr(gitio, "ls_files_stage", listed)
    monkeypatch.setattr(gitio, "ls_files_flagged", flagged)
    return calls
