"""A contest HEAD holds, judged by the first pre-commit hooks of a clone that has no
view of the staged ledger yet.

Before any view is built (a fresh clone whose hooks were installed after it, or a
clone whose hooks did not see the pull that brought the contest, its working tree's
index left stale), the hook used to ask the working tree's index for contests: it
had none, or an old one, and a commit touching no bound path was accepted while
``forest check --staged`` exited 1. Now the segments the hook decodes anyway say
whether any act's predecessor is claimed by two acts (custody/path_scan.py
``forked``); if so, the view is built and asked. A clean first hook after a clone
still builds no view, and the flag covers every contest the view reports.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.check import contests
from forest_files.custody import path_scan
from forest_files.custody.sources import segment_bytes_at
from forest_files.doors import hooks as githooks
from forest_files.store.forest import ForestStore
from tests.doors.test_hook_contest_later import _ground_contest, _rebound_twice, _run
from tests.helpers import rebound
from tests.helpers.cli import FOREST, ok
from tests.helpers.git import git, write
from tests.helpers.state import local_state


def _views(repo: Path) -> list[str]:
    """The views this clone built (the replays its doors made)."""
    return sorted(p.name for p in (local_state(repo) / "views").glob("*.db"))


def _staged_unbound(repo: Path) -> None:
    write(repo, "notes.txt", "an unbound file\n")
    git(repo, "add", "notes.txt")


def _refused_as_staged_check_says(repo: Path) -> None:
    """The installed hook refuses the commit (run first: ``check --staged`` builds the
    view), with the finding and every route ``forest check --staged`` then gives."""
    head = git(repo, "rev-parse", "HEAD")
    proc = _run(repo, "git", "commit", "-m", "notes")
    assert proc.returncode != 0 and git(repo, "rev-parse", "HEAD") == head, proc.stderr
    staged = _run(repo, FOREST, "check", "--staged", "--json")
    assert staged.returncode == 1, staged.stdout + staged.stderr
    (said,) = [f for f in json.loads(staged.stdout)["findings"] if f["kind"] == "contested"]
    assert f"contested {said['selector']}" in proc.stderr, proc.stderr
    for route in said["routes"]:
        assert route["command"] in proc.stderr, proc.stderr


@pytest.mark.parametrize("build", [_rebound_twice, _ground_contest], ids=["rebound", "ground"])
def test_first_hook_of_a_fresh_clone_over_a_contest_head_holds_refused(
    tmp_path: Path, build: object
) -> None:
    assert callable(build)
    contested, plain = build(tmp_path)
    clones = {}
    for name, origin in (("fresh", contested), ("fresh-plain", plain)):
        clone = tmp_path / name
        git(tmp_path, "clone", "-q", str(origin), str(clone))
        githooks.install(clone)  # after the clone: no post-checkout ran, no index, no view
        _staged_unbound(clone)
        clones[name] = clone
    assert not _views(clones["fresh"])
    _refused_as_staged_check_says(clones["fresh"])
    # The clean first hook of a clone of a ledger with no contest replays nothing.
    proc = _run(clones["fresh-plain"], "git", "commit", "-q", "-m", "notes")
    assert proc.returncode == 0, proc.stderr
    assert _views(clones["fresh-plain"]) == []


def test_first_hook_after_a_pull_the_hooks_did_not_see_refused(tmp_path: Path) -> None:
    """A clone whose working tree's index was synced before a pull it did not see
    (its hooks installed after): the index says no contest; the staged ledger has one."""
    rebound.origin(tmp_path)
    b = rebound.rebound_clone(tmp_path, "B.md", "b")
    c = rebound.rebound_clone(tmp_path, "C.md", "c")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", "--no-verify", str(c), "HEAD")
    stale = tmp_path / "stale"
    git(tmp_path, "clone", "-q", str(c), str(stale))
    ok(stale, "check")  # the working tree's index synced with c's ledger: no contest
    git(stale, "pull", "-q", "--ff-only", str(b), "HEAD")  # no hook saw it
    githooks.install(stale)
    _staged_unbound(stale)
    _refused_as_staged_check_says(stale)


def _scanned(repo: Path) -> path_scan.Scanned:
    return path_scan.scan(segment_bytes_at(repo, "HEAD"))


def _reported(repo: Path) -> bool:
    _run(repo, FOREST, "check", "--staged")  # builds the staged ledger's view (HEAD's)
    (view,) = _views(repo)
    store = ForestStore(local_state(repo) / "views" / view)
    try:
        heads, twice = contests.found(store.conn)
    finally:
        store.close()
    return bool(heads or twice)


def test_the_scan_flags_every_contest_the_view_reports_accepted(tmp_path: Path) -> None:
    """Over the contest fixtures (a binding rebound on two and on three merged branches,
    two live heads bound to no file) ``forked`` is set wherever ``contests.found`` reports
    one; a ledger with one history of rebinds and supersessions is not flagged."""
    for name in ("twice", "thrice", "ground"):
        (tmp_path / name).mkdir()
    fixtures = {
        "twice": rebound.merged_clones(tmp_path / "twice")[0],
        "thrice": rebound.three_merged(tmp_path / "thrice"),
        "ground": _ground_contest(tmp_path / "ground")[0],
    }
    one = rebound.rebound_clone(tmp_path / "twice", "B.md", "one")  # rebound once...
    write(one, "D.md", rebound.BODY)
    write(one, "B.md", "# T\n")
    ok(one, "rebind", "B.md#X", "D.md#X")  # ... and again, in one history
    git(one, "add", "-A")
    git(one, "commit", "-q", "--no-verify", "-m", "again")
    fixtures["one-history"] = one
    for name, repo in fixtures.items():
        found = _reported(repo)
        assert found == (name != "one-history"), name
        assert _scanned(repo).forked == found, name


def test_first_hook_over_a_contest_with_paths_left_beside_no_view_refused(tmp_path: Path) -> None:
    """A contest HEAD holds, its view once built and then gone while what was said of it
    stayed (a crash while pruning: the bound-path record and the binding map beside no
    view), or a bound-path record of the older kind (paths alone, written before a
    record said whether the segments ruled contests out): neither is taken to say no
    contest is possible; the hook builds the view again and refuses."""
    from forest_files.kernel import cache

    contested, _ = _rebound_twice(tmp_path)
    clone = tmp_path / "pruned"
    git(tmp_path, "clone", "-q", str(contested), str(clone))
    githooks.install(clone)
    _staged_unbound(clone)
    _refused_as_staged_check_says(clone)  # builds the staged ledger's view
    views = local_state(clone) / "views"
    (built,) = views.glob("*.db")
    assert built.with_suffix(".bound").exists()
    assert list(views.glob("*.db.bindmap-*"))
    for leftover in (*views.glob("*.db*"), built.with_suffix(".seal")):
        if leftover.suffix != ".bound" and "bindmap" not in leftover.name:
            leftover.unlink(missing_ok=True)  # the view gone, its records left
    assert not built.exists()
    _refused_as_staged_check_says(clone)
    # A record of the older kind: the same paths, no word on contests.
    (built,) = views.glob("*.db")
    for leftover in views.iterdir():
        leftover.unlink()
    cache.write(built.with_suffix(".bound"), "bound-paths", ("A.md", "B.md", "C.md"))
    _refused_as_staged_check_says(clone)
