"""A view a replay just built: its binding map said of the store the replay wrote.

``view_map`` (check/opening_views.py) derived the map, and whether the view holds a
contest, by opening the view again after ``build_view`` (custody/viewbuild.py) had
closed, renamed and sealed it. Now ``build_view`` derives both on its still-open
store, after the replay wrote and verified every row and before the seal: the same
rows the sealed view holds, so the same map as one derived from the reopened view
(ledgers with a superseded and erased ground, a sealed one, a two-headed chain, a
binding rebound twice); and on a fresh clone's ``forest ci`` the view's file is
opened once, by the gate's judgement: the build's own connection left it in WAL mode,
so no open before the seal is needed, and the seal still names the file every reader
finds (the next run trusts it; a view changed since is not believed, but rebuilt).
Opens are counted by Python's audit event ``sqlite3.connect``, in the command's own
process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files.check.contests import found as contests_found
from forest_files.check.opened import REPLAY
from forest_files.check.opening import open_custody
from forest_files.custody import bindmap
from forest_files.custody.repository import Repository
from forest_files.custody.viewkey import bound_paths
from forest_files.store.forest import ForestStore
from tests.doors.test_hook_contest_later import _ground_contest, _rebound_twice
from tests.helpers import tokens
from tests.helpers.git import commit_all, git, git_env
from tests.helpers.sqlite_opens import RECORD_OPENS

BY = "Ada Lovelace <ada@example.org>"


def _superseded_sealed_erased(tmp_path: Path) -> tuple[Path, Path]:
    """A bound section superseded and its first ground erased (tokens.py), then a text
    ground adopted and sealed."""
    root = tokens.build(tmp_path)
    with Repository(root) as repo:
        ground = repo.adopt_text("A ground to seal.", words="ok", by=BY)
        repo.seal(ground, words="settled", by=BY)
    commit_all(root, "seal")
    return root, root


def _fresh(tmp_path: Path, origin: Path) -> Path:
    clone = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    return clone


@pytest.mark.parametrize(
    "build",
    [_superseded_sealed_erased, _ground_contest, _rebound_twice],
    ids=["superseded-sealed-erased", "two-headed", "rebound-twice"],
)
def test_view_map_of_built_store_equals_reopened_view_accepted(
    tmp_path: Path, build: Callable[[Path], tuple[Path, Path]]
) -> None:
    """The map a replay returns (built on its open store) is the one derived from the
    sealed view reopened, grounds included, and so is what it says of contests."""
    origin, _ = build(tmp_path)
    clone = _fresh(tmp_path, origin)
    with open_custody(clone, "HEAD") as built:
        assert built.via == REPLAY
        view = built.view
        bindings, grounds = list(built.bindings), dict(built.grounds)
    assert view is not None
    remembered = bound_paths(view)
    assert remembered is not None
    store = ForestStore(view)
    try:
        again = bindmap.derive(store)
        free = contests_found(store.conn) == ([], [])
    finally:
        store.close()
    assert bindings == again.bindings
    assert grounds == again.grounds
    assert remembered[1] == free
    if build is _superseded_sealed_erased:
        assert bindings and free
    else:
        assert not free  # a contest each: what the open store said is what the view says


COUNTED = (
    RECORD_OPENS
    + """
from forest_files.doors.gatecmd import run_ci
from pathlib import Path
try:
    run_ci(Path("."), None, "text", [])
finally:
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        out.write("\\n".join(opened))
"""
)


def _ci_opens(clone: Path, record: Path) -> tuple[list[str], list[str]]:
    """(the built views' files, the replay's private files) a ``forest ci`` opened."""
    env = {**os.environ, **git_env()}
    cmd = [sys.executable, "-c", COUNTED, str(record)]
    done = subprocess.run(cmd, cwd=clone, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    views = [p for p in record.read_text(encoding="utf-8").splitlines() if "/views/" in p]
    private = [p for p in views if Path(p).name.startswith(".view-")]
    return [p for p in views if p not in private], private


def test_fresh_clone_ci_opens_its_built_view_once_accepted(tmp_path: Path) -> None:
    """A fresh clone's ``forest ci``: the replay's private file once, the view it
    became once, for the gate's judgement (the custody's store, judged_range.py). An
    open before the seal only to leave it in WAL mode (viewbuild.py) was a second."""
    origin, _ = _superseded_sealed_erased(tmp_path)
    clone = _fresh(tmp_path, origin)
    built, private = _ci_opens(clone, tmp_path / "opened.txt")
    assert len(private) == 1, private
    assert len(built) == 1, built


def test_built_view_sealed_without_a_reopen_trusted_then_changed_refused(
    tmp_path: Path,
) -> None:
    """The view a fresh clone's ``forest ci`` built and sealed is still the file its
    seal names after the gate read it: the next run trusts it (no replay), in WAL
    mode, whole. Changed since (one header field written), it is not believed: the
    next run replays the ledger again and says what the first said."""
    import sqlite3

    from forest_files.custody.viewkey import view_ready

    origin, _ = _superseded_sealed_erased(tmp_path)
    clone = _fresh(tmp_path, origin)
    built, _ = _ci_opens(clone, tmp_path / "first.txt")
    view = Path(built[0])
    assert view_ready(view)
    conn = sqlite3.connect(f"{view.as_uri()}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    again, private = _ci_opens(clone, tmp_path / "second.txt")
    assert private == [] and again == [str(view)]  # trusted: judged, not rebuilt
    assert view_ready(view)
    conn = sqlite3.connect(view, isolation_level=None)
    try:
        conn.execute("PRAGMA user_version = 7")  # anyone's write to the file
    finally:
        conn.close()
    assert not view_ready(view)
    rebuilt, private = _ci_opens(clone, tmp_path / "third.txt")
    assert len(private) == 1 and set(rebuilt) == {str(view)}, (private, rebuilt)
    assert view_ready(view)
    store = ForestStore(view)
    try:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == 0
    finally:
        store.close()
