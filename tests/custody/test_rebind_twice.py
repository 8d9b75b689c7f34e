"""A binding rebound on two branches (or more), then merged, stands at one place in every
index.

``forest rebind A.md#X B.md#X`` on one branch and ``forest rebind A.md#X C.md#X`` on
another, merged: each index placed the binding where the rebind it applied last named,
so a clone that synced B's branch first said ``C.md#X`` and one that synced C's first
said ``B.md#X`` (both clean, both passing the index proof, ``forest fsck`` ok).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write

BODY = "# X\n\nkept words\n"


def _places(repo: Path) -> list[str]:
    """Where the binding stands: its finding's selector (the JSON lists one per
    binding; rebound twice, the ``contested`` one, which names where it stands:
    tests/check/test_rebound_twice_one_verdict.py)."""
    out = json.loads(forest(repo, "check", "--json").stdout)
    return [f["selector"] for f in out["findings"] if f["binding"]]


def _twice(repo: Path) -> list[tuple[str, ...]]:
    from forest_files.check.contests import found

    with Repository(repo) as r:
        return [places for _, _, places in found(r.store().conn)[1]]


@pytest.fixture
def merged(tmp_path: Path) -> tuple[Path, Path]:
    """Clones ``b`` (rebound to ``B.md#X``, then merged ``c``) and ``c`` (rebound to
    ``C.md#X``, then merged ``b``), each index synced before its merge."""
    origin = make_repo(tmp_path, "origin")
    ok(origin, "init")
    write(origin, "A.md", "# T\n\nintro\n\n" + BODY)
    commit_all(origin, "a")
    ok(origin, "adopt", "A.md#X", "--words", "one")
    commit_all(origin, "adopt")
    b, c = tmp_path / "b", tmp_path / "c"
    for repo, dest in ((b, "B.md"), (c, "C.md")):
        git(tmp_path, "clone", "-q", str(origin), str(repo))
        write(repo, "A.md", "# T\n\nintro\n")
        write(repo, dest, BODY)
        commit_all(repo, "move")
        ok(repo, "rebind", "A.md#X", f"{dest}#X")
        commit_all(repo, "rebind")
        assert _places(repo) == [f"{dest}#X"]
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(c), "HEAD")
    git(c, "pull", "-q", "--no-rebase", "--no-edit", str(b), "HEAD")
    return b, c


def test_rebind_on_two_merged_branches_every_clone_and_rebuild_agree_accepted(
    merged: tuple[Path, Path],
) -> None:
    b, c = merged
    seen = [_places(b), _places(c)]
    for repo in (b, c):
        ok(repo, "rebuild")
        seen.append(_places(repo))
    assert seen[0] in (["B.md#X"], ["C.md#X"])
    assert seen == [seen[0]] * 4
    assert _twice(b) == _twice(c) == [(seen[0][0], ({"B.md#X", "C.md#X"} - {seen[0][0]}).pop())]


@pytest.mark.parametrize("where", ["there", "other"])
def test_rebind_twice_settled_by_one_more_rebind_accepted(
    merged: tuple[Path, Path], where: str
) -> None:
    b, c = merged
    (stands,) = _places(b)
    other = ({"B.md#X", "C.md#X"} - {stands}).pop()
    pick = stands if where == "there" else other
    ok(b, "rebind", stands, pick)  # where it stands already: allowed, it settles
    commit_all(b, "settle")
    assert _twice(b) == []
    git(c, "pull", "-q", "--no-rebase", "--no-edit", str(b), "HEAD")
    assert _places(b) == _places(c) == [pick]
    assert _twice(c) == []
    ok(c, "rebuild")
    assert _places(c) == [pick]
    assert forest(c, "fsck").exit_code == 0
    done = forest(c, "rebind", pick, pick)  # settled: in place is refused again
    assert done.exit_code != 0 and "bound there already" in done.stderr


def _deps_of_retire(repo: Path) -> set[str]:
    with Repository(repo) as r:
        (row,) = r.store().conn.execute(
            "SELECT a.deps FROM ledger_applied a JOIN binding_events e ON e.act_id = a.act_id"
            " WHERE e.kind = 'retire'"
        )
        return set(str(row[0]).split())


def _rebinds(repo: Path) -> set[str]:
    with Repository(repo) as r:
        rows = r.store().conn.execute("SELECT act_id FROM binding_events WHERE kind = 'rebind'")
        return {str(a) for (a,) in rows}


def test_renormalise_of_binding_rebound_twice_settles_it_accepted(
    merged: tuple[Path, Path],
) -> None:
    """``forest renormalise`` records a rebind: it depends on both branches' rebinds,
    so it settles the place (before: on the one this index applied last, leaving two
    tips, the binding still rebound twice and the new rule maybe not the one read)."""
    b, c = merged
    (stands,) = _places(b)
    ok(b, "renormalise", stands, "--normalise", "trailing-whitespace")
    commit_all(b, "renormalise")
    assert _twice(b) == []
    git(c, "pull", "-q", "--no-rebase", "--no-edit", str(b), "HEAD")
    assert _twice(c) == [] and _places(c) == [stands]
    out = json.loads(forest(c, "check", "--json").stdout)
    assert out["ok"] is True


def test_retire_of_binding_rebound_twice_depends_on_both_rebinds_accepted(
    merged: tuple[Path, Path],
) -> None:
    """A retire names every tip among its deps, as a rebind does: the same act in every
    clone, whichever rebind its index applied last."""
    b, _ = merged
    (stands,) = _places(b)
    ok(b, "retire", stands, "--words", "gone")
    assert _rebinds(b) <= _deps_of_retire(b)
