"""A sound segment of the base overwritten on a branch past the hooks, then deleted
under them (the pre-commit hook lets a segment go whose bytes at HEAD do not verify).

``forest ci --base`` and ``forest verify --base`` refuse the range: the overwrite is
``ledger-rewritten`` at its commit, the deletion ``ledger-deleted`` at the later one.
The deletion's put-back from its own parent brought the damaged bytes back (the hook
refused the amend, and the overwrite still failed the gate); both now carry the one
route that puts the sound bytes back where they were first overwritten, whose note
resolves the conflict the rebase then stops on at the deletion
(gate/rewritten_deleted.py). Pasted with the hooks installed, custody of the bound
file is back: a drift committed while the segment was gone is refused again.

Real repositories, the hooks installed by ``forest hooks install``, routes pasted.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from forest_files.check.findings import Reported, Route
from forest_files.gate.ci import run_gate
from tests.helpers.cli import forest, ok
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git, pasted, write

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

SEGMENTS = ".forest/ledger/segments"
DAMAGE = {
    "garbage": lambda data: b"not json\n",
    "truncated": lambda data: data[: len(data) // 2],
}


def _overwritten_then_deleted(tmp_path: Path, damage: str) -> tuple[Path, str, bytes, str]:
    """main: a.md and b.md adopted (two segments); ``feature``: a.md's segment
    overwritten in place (``--no-verify``), then ``git rm``'d in a commit the hooks
    accept. Returns the root, the segment, its sound bytes and the overwriting commit."""
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    (seg,) = git(root, "ls-tree", "-r", "--name-only", "HEAD", SEGMENTS).splitlines()
    write(root, "b.md", "# B\n\nsecond\n")
    ok(root, "adopt", "b.md", "--words", "b canon")
    commit_all(root, "adopt b")
    ok(root, "hooks", "install")
    git(root, "checkout", "-q", "-b", "feature")
    sound = (root / seg).read_bytes()
    write(root, seg, DAMAGE[damage](sound))
    git(root, "add", "--", seg)
    git(root, "commit", "-q", "--no-verify", "-m", "overwrite a segment")
    overwrote = git(root, "rev-parse", "HEAD")
    _paste(root, f"git rm -q -- {seg} && git commit -q -m 'drop the damaged segment'")
    return root, seg, sound, overwrote


def _paste(root: Path, command: str) -> None:
    done = pasted(root, command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert "commit refused" not in done.stderr


def _at(found: tuple[Reported, ...], kind: str, seg: str) -> Reported:
    (one,) = [f for f in found if f.kind == kind and f.finding.path == seg]
    return one


def _route(root: Path, seg: str, overwrote: str) -> Route:
    report = run_gate(root, "main")
    assert report.exit_code == 3
    rewritten = _at(report.check.extra, "ledger-rewritten", seg)
    deleted = _at(report.check.extra, "ledger-deleted", seg)
    assert rewritten.commit == overwrote
    assert deleted.commit == git(root, "rev-list", "-1", "HEAD", "--", seg)
    (route,) = rewritten.routes
    assert deleted.routes == (route,)  # never the put-back of the damaged bytes
    return route


def _rebase_pasted(root: Path, route: Route, overwrote: str) -> subprocess.CompletedProcess[str]:
    """The route's rebase stopped at the overwrite, its put-back there (the rebase
    then stops on the deletion's conflict), and the note's command for that conflict."""
    editor = f"sed -i 's/^pick {overwrote[:7]}/edit {overwrote[:7]}/'"
    _paste(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route.command}")
    at_stop, at_conflict = [
        c for c in re.findall(r"`([^`]+)`", route.note) if c.startswith("git checkout")
    ]
    assert pasted(root, at_stop).returncode != 0  # the conflict at the deletion
    return pasted(root, at_conflict)


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_ci_sound_segment_overwritten_then_deleted_refused(tmp_path: Path, damage: str) -> None:
    root, seg, _, overwrote = _overwritten_then_deleted(tmp_path, damage)
    route = _route(root, seg, overwrote)
    assert route.label == f"rewrite the branch: put them back in {overwrote[:12]}"
    verified = forest(root, "verify", "--base", "main")
    assert verified.exit_code == 3, verified.stdout
    assert "ledger-deleted" in verified.stdout + verified.stderr


def test_ci_segment_overwritten_then_deleted_route_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root, seg, sound, overwrote = _overwritten_then_deleted(tmp_path, "truncated")
    route = _route(root, seg, overwrote)
    done = _rebase_pasted(root, route, overwrote)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert not (root / ".git" / "rebase-merge").exists()
    assert git(root, "status", "--porcelain") == ""
    assert (root / seg).read_bytes() == sound
    report = run_gate(root, "main")
    assert report.ok, [(f.kind, f.path) for f in report.findings]
    assert {r.path for r in report.check.items} >= {"a.md", "b.md"}


def test_ci_segment_overwritten_deleted_and_its_text_drifted_refused(tmp_path: Path) -> None:
    """The deletion let a drift of a.md past the hook (no binding left); the gate
    refuses the range, and the route brings custody back: the drift is then refused."""
    root, seg, _, overwrote = _overwritten_then_deleted(tmp_path, "garbage")
    write(root, "a.md", "# A\n\nchanged behind custody's back\n")
    _paste(root, "git commit -q -am 'edit a'")  # the hook sees no binding of a.md
    route = _route(root, seg, overwrote)
    done = _rebase_pasted(root, route, overwrote)
    assert done.returncode == 0, (done.stdout, done.stderr)
    report = run_gate(root, "main")
    assert not report.ok
    assert [f.path for f in report.findings if f.kind == "drifted"] == ["a.md"]
