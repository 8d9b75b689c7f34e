"""One way into custody (check/opening.py): which evidence each source is opened from,
and that no other module chooses it.

Every door (check, status, the hook's branches, ci, the watcher, review) opens
custody through ``open_custody``; a test of the package's source keeps it so.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from forest_files.check import opened, opening, opening_git
from forest_files.check.opening import (
    ABSENT,
    MAP,
    PATHS,
    REPLAY,
    open_custody,
    remembered_count,
)
from forest_files.custody import bindmap
from tests.helpers.cli import forest
from tests.helpers.custody import age_files, two_bound_files
from tests.helpers.git import commit_all, git, git_env, write

PACKAGE = Path(__file__).resolve().parents[2] / "forest_files"
# The calls that choose evidence: a remembered verdict, a saved or derived binding
# map, a view built by replay. Only the opening module, the paths it takes (the
# working tree's, a git source's view) and the index proof it calls may make them.
CHOOSERS = re.compile(
    r"\b(build_view|bindmap\.load|bindmap\.derive|bindmap\.status_rows|verdict\.recall)\("
)
ALLOWED = {
    "check/opening.py",
    "check/opening_worktree.py",
    "check/opening_views.py",
    "custody/indexproof.py",
}


def test_worktree_opened_by_replay_then_map_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    bindmap.forget(bindmap.worktree_record(str(root)))
    age_files(root)
    with open_custody(root, "worktree") as first:
        assert first.via == REPLAY
        assert len(first.bindings) == 2
    with open_custody(root, "worktree") as second:
        assert second.via == MAP
        assert second.bindings == first.bindings and second.grounds == first.grounds


def test_worktree_remembered_verdict_after_clean_check_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    age_files(root)
    assert forest(root, "check").exit_code == 0
    assert remembered_count(str(root)) == 2  # every binding clean, nothing opened
    write(root, "a.md", "# Title\n\nchanged\n")
    assert remembered_count(str(root)) is None  # a bound file changed: judge it
    with open_custody(root, "worktree") as custody:
        assert custody.via in (MAP, REPLAY)


def test_index_touching_no_bound_path_opens_nothing_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    commit_all(root, "custody")
    write(root, "notes.txt", "unbound\n")
    git(root, "add", "notes.txt")
    with open_custody(root, "index", touched={"notes.txt"}) as custody:
        assert custody.via == PATHS
        assert custody.bindings == []
    with open_custody(root, "index", touched={"a.md"}) as custody:
        assert custody.via != PATHS
        assert [b.path for b in custody.bindings] == ["a.md"]


def test_commit_replayed_once_then_map_and_absent_without_replay(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    commit_all(root, "custody")
    with open_custody(root, "HEAD", replay=False) as custody:
        assert custody.via == ABSENT and custody.bindings == []
    with open_custody(root, "HEAD") as custody:
        assert custody.via == REPLAY
        assert len(custody.bindings) == 2
        assert custody.store().conn.execute("SELECT count(*) FROM entries").fetchone()[0] > 0
    with open_custody(root, "HEAD", replay=False) as custody:
        assert custody.via == MAP
        assert len(custody.bindings) == 2


def test_only_the_opening_module_chooses_evidence_refused_elsewhere() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ALLOWED:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CHOOSERS.search(line) and not line.lstrip().startswith(("#", "def ")):
                offenders.append(f"{rel}:{number}: {line.strip()}")
    assert offenders == [], "open custody through check/opening.py:\n" + "\n".join(offenders)


# The modules the opening paths were split into (moves only): a remembered verdict
# (fastcheck's warm check and status) asks opening.py and must load none of them.
PATH_MODULES = {
    "forest_files.check.opened",
    "forest_files.check.opening_git",
    "forest_files.check.opening_views",
    "forest_files.check.opening_worktree",
}


def test_remembered_verdict_loads_no_opening_path_refused(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert forest(root, "check").exit_code == 0  # judges, and remembers the clean verdict
    code = (
        "import sys; from forest_files.check.opening import remembered_rows; "
        "rows = remembered_rows(sys.argv[1]); "
        "print(len(rows or ()), ' '.join(m for m in sys.modules if m.startswith('forest_files')))"
    )
    env = {**os.environ, **git_env()}
    proc = subprocess.run(
        [sys.executable, "-c", code, str(root)], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    count, *loaded = proc.stdout.split()
    assert count == "2"  # remembered, not judged
    assert "forest_files.check.opening" in loaded
    assert not PATH_MODULES & set(loaded), PATH_MODULES & set(loaded)


def test_opening_exports_resolve_to_the_moved_names_accepted() -> None:
    assert opening.Custody is opened.Custody
    assert opening.index_fingerprint is opening_git.index_fingerprint
    names = ("ABSENT", "MAP", "PATHS", "REPLAY", "VIEW", "WORKTREE", "INDEX")
    assert [getattr(opening, n) for n in names] == [getattr(opened, n) for n in names]
    assert set(opening.__all__) <= set(dir(opening))
    assert all(getattr(opening, n) is not None for n in opening.__all__)
