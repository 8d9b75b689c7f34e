"""``forest ci``: a ledger segment the range added that the gate refuses gets a route.

A segment committed past the hooks (hand-written: not JSON, an old format, its name
not the hash of its bytes) was a ``ledger-fault`` with no route in every format, and
the server hook's refusal sent the pusher to ``forest ci``, which named none. No
parent holds it (``git checkout PARENT -- PATH`` names nothing) and a ``git rm``
committed on top leaves the commit that added it in the range; the route takes it
out of that commit (gate/added_segment.py): pasted, the gate passes.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from forest_files.check.findings import Route
from forest_files.gate.ci import run_gate
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git, pasted, write
from tests.helpers.ledger import committed_segment

OLD_FORMAT = b'{"v":1}\n'  # well named, of a format no reader reads: bad-version
SEGMENTS = ".forest/ledger/segments"
FORMATS = ("text", "json", "sarif", "junit", "github")


def _branch(tmp_path: Path) -> Path:
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    git(root, "checkout", "-q", "-b", "feature")
    return root


def _route(root: Path, rel: str) -> Route:
    """The one route every finding at ``rel`` carries."""
    report = run_gate(root, "main")
    assert report.exit_code == 3
    at = [f for f in report.check.extra if f.finding.path == rel]
    assert at and all(f.kind == "ledger-fault" for f in at), report.check.extra
    (route,) = {r for f in at for r in f.routes}
    return route


def _paste(root: Path, command: str) -> None:
    done = pasted(root, command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)


@pytest.mark.parametrize(
    ("data", "name"),
    [(OLD_FORMAT, None), (b"not json\n", None), (b'{"v":1}\n', "0" * 64)],
    ids=["old-format", "not-json", "misnamed"],
)
def test_ci_segment_added_by_head_refused_take_out_route_recovers(
    tmp_path: Path, data: bytes, name: str | None
) -> None:
    root = _branch(tmp_path)
    rel = committed_segment(root, data, name)
    route = _route(root, rel)
    assert route.label == "take the segment out of HEAD"
    assert route.steps == (
        ("git", "rm", "-q", "--", rel),
        ("git", "commit", "--amend", "--no-edit", "--allow-empty"),
    )
    assert "any act it holds goes with it" in route.note
    _paste(root, route.command)
    assert run_gate(root, "main").ok


def test_ci_segment_added_earlier_refused_rewrite_route_recovers(tmp_path: Path) -> None:
    """Added by a commit before HEAD: a ``git rm`` on top would leave that commit in
    the range, so the route rewrites the branch there; pasted as its note says, the
    gate passes. Two such segments of one commit are taken out by one route."""
    root = _branch(tmp_path)
    other = f"{SEGMENTS}/{hashlib.sha256(b'{}').hexdigest()}.jsonl"
    write(root, other, b"{}\n")
    git(root, "add", "--", other)
    rel = committed_segment(root, OLD_FORMAT)
    bad = git(root, "rev-parse", "HEAD")
    write(root, "b.md", "later\n")
    commit_all(root, "later")
    route = _route(root, rel)
    assert route == _route(root, other)
    assert route.label == f"rewrite the branch: take the segment out of {bad[:12]}"
    assert route.steps == (("git", "rebase", "-i", git(root, "merge-base", "main", "HEAD")),)
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    _paste(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route.command}")
    assert git(root, "rev-parse", "HEAD") == bad  # stopped there
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", route.note) if c.startswith("git rm")]
    assert rel in at_stop and other in at_stop
    _paste(root, at_stop)
    assert not (root / ".git" / "rebase-merge").exists()
    assert run_gate(root, "main").ok
    assert git(root, "show", "-s", "--format=%s", "HEAD") == "later"


def test_ci_segment_added_refused_route_in_every_format_detected(tmp_path: Path) -> None:
    """Text, JSON, SARIF, JUnit and GitHub come from the one finding: each names the
    route; typed in a subdirectory, its git steps reach the top from there."""
    root = _branch(tmp_path)
    rel = committed_segment(root, OLD_FORMAT)
    (root / "docs").mkdir()
    out = tmp_path / "reports"
    specs = [a for f in FORMATS for a in ("--report", f"{f}={out}/r.{f}")]
    done = pasted(root / "docs", f"forest ci --base main {' '.join(specs)}")
    assert done.returncode == 3, done.stdout + done.stderr
    command = f"git -C .. rm -q -- {rel} && git -C .. commit --amend --no-edit --allow-empty"
    (found,) = json.loads((out / "r.json").read_text())["findings"]
    assert found["routes"][0]["command"] == command
    for fmt in FORMATS:
        text = (out / f"r.{fmt}").read_text(encoding="utf-8")
        assert "take the segment out of HEAD" in text and f"rm -q -- {rel}" in text, fmt
    assert command in (out / "r.text").read_text(encoding="utf-8")
    ET.parse(out / "r.junit")
    _paste(root / "docs", command)
    assert forest(root, "ci", "--base", "main").exit_code == 0


def test_ci_segment_on_the_base_refused_no_take_out_route_detected(tmp_path: Path) -> None:
    """A damaged segment the merge-base already holds is not the range's: no route
    takes it out of a commit of the range (it is not there to take)."""
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    rel = committed_segment(root, OLD_FORMAT)
    git(root, "checkout", "-q", "-b", "feature")
    write(root, "b.md", "later\n")
    commit_all(root, "later")
    report = run_gate(root, "main")
    at = [f for f in report.check.extra if f.finding.path == rel]
    assert at and not any("git rm" in (r.command or r.note) for f in at for r in f.routes)


def test_ci_segment_added_then_deleted_in_range_one_take_out_route_recovers(
    tmp_path: Path,
) -> None:
    """Added by one commit of the range and deleted by a later one: the deletion was a
    ``ledger-deleted`` whose route put the segment back (a fault again, in HEAD this
    time). Both findings carry the one take-out from the commit that added it; the
    later commit, empty after it, is skipped as the note says; the gate passes."""
    root = _branch(tmp_path)
    rel = committed_segment(root, OLD_FORMAT)
    bad = git(root, "rev-parse", "HEAD")
    git(root, "rm", "-q", "--", rel)
    git(root, "commit", "-q", "--no-verify", "-m", "the segment deleted")
    report = run_gate(root, "main")
    assert report.exit_code == 3
    at = [f for f in report.check.extra if f.finding.path == rel]
    assert {f.kind for f in at} == {"ledger-fault", "ledger-deleted"}, at
    (route,) = {r for f in at for r in f.routes}
    assert route.label == f"rewrite the branch: take the segment out of {bad[:12]}"
    assert "git checkout" not in route.command + route.note  # nothing put back
    skip = "a later commit that deleted it is then empty: `git rebase --skip`"
    assert skip in route.note, route.note
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    _paste(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route.command}")
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", route.note) if c.startswith("git rm")]
    stopped = pasted(root, at_stop)  # the deletion, empty now, stops the rebase
    assert stopped.returncode != 0 and (root / ".git" / "rebase-merge").exists()
    _paste(root, "git rebase --skip")
    assert not (root / ".git" / "rebase-merge").exists()
    assert run_gate(root, "main").ok
