"""``forest verify``: a segment committed as it was written (never whole) gets a route.

A segment committed past the hooks in an old format, or not JSON, is at fault in
HEAD itself: ``git checkout HEAD`` brings back the same bytes, so no restore plan
covers it. ``forest check`` named ``forest verify``, which ended with "restore the
damaged files" (no command), and the codec's detail said "start custody afresh in a
new ledger": advice that throws away every other segment's custody for one
hand-written file. The route now takes the segment out of the commit that added it,
as ``forest ci`` does (gate/added_segment.py ``take_out``): an amend of HEAD when
HEAD added it, else the rewrite stopped there; pasted, verify passes.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from pathlib import Path

import pytest

from tests.helpers.cli import console
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git, pasted, write

SEGMENTS = ".forest/ledger/segments"


def _committed(root: Path, data: bytes) -> str:
    """``data`` committed past the hooks as a well-named segment; its path."""
    rel = f"{SEGMENTS}/{hashlib.sha256(data).hexdigest()}.jsonl"
    write(root, rel, data)
    git(root, "add", "--", rel)
    git(root, "commit", "-q", "--no-verify", "-m", "a hand-written segment")
    return rel


def _route(root: Path, rel: str) -> dict[str, object]:
    done = console(root, "verify", "--json")
    assert done.returncode == 3, done.stdout + done.stderr
    at = [f for f in json.loads(done.stdout)["faults"] if rel.endswith(f"{f['segment']}.jsonl")]
    assert at, done.stdout
    (route,) = {json.dumps(r, sort_keys=True) for f in at for r in f["routes"]}
    return dict(json.loads(route))


def _paste(root: Path, command: str) -> None:
    done = pasted(root, command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)


@pytest.mark.parametrize("data", [b'{"v":1}\n', b"not json\n"], ids=["old-format", "not-json"])
def test_verify_segment_committed_by_head_take_out_route_pasted_recovers(
    tmp_path: Path, data: bytes
) -> None:
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    rel = _committed(root, data)
    text = console(root, "verify")
    assert text.returncode == 3
    assert "start custody afresh" not in text.stdout + text.stderr
    assert "restore the damaged files" not in text.stderr, text.stderr
    route = _route(root, rel)
    assert route["label"] == "take the segment out of HEAD"
    assert route["argv"] == [
        ["git", "rm", "-q", "--", rel],
        ["git", "commit", "--amend", "--no-edit", "--allow-empty"],
    ]
    assert str(route["command"]) in text.stdout, text.stdout  # the text names it too
    _paste(root, str(route["command"]))
    assert console(root, "verify").returncode == 0
    assert console(root, "check").returncode == 0


def test_verify_segment_committed_earlier_rewrite_route_pasted_recovers(tmp_path: Path) -> None:
    """Added by a commit before HEAD: the rewrite stopped at it, as the gate's."""
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    rel = _committed(root, b'{"v":1}\n')
    bad = git(root, "rev-parse", "HEAD")
    write(root, "b.md", "later\n")
    commit_all(root, "later")
    route = _route(root, rel)
    assert route["label"] == f"rewrite the branch: take the segment out of {bad[:12]}"
    assert route["argv"] == [["git", "rebase", "-i", git(root, "rev-parse", f"{bad}^")]]
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    _paste(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route['command']}")
    assert git(root, "rev-parse", "HEAD") == bad  # stopped there
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", str(route["note"])) if "git rm" in c]
    _paste(root, at_stop)
    assert console(root, "verify").returncode == 0
    assert git(root, "show", "-s", "--format=%s", "HEAD") == "later"
