"""Whose a proposal is: `forest proposals` and `forest watch status` name the worktree
that captured another worktree's proposal by its path (printable, as `forest check`
spells names), and ``--json`` carries it as ``worktree_path``; this worktree's own
proposals carry no label."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from forest_files.doors.watch import judge
from forest_files.doors.watch.renames import propose_rebind
from tests.helpers.cli import ok
from tests.helpers.git import git
from tests.helpers.template import copied_from
from tests.helpers.watch import EDITED, bound_repo

root = copied_from(bound_repo)


def _capture(where: Path) -> str:
    (where / "a.md").write_text(EDITED, encoding="utf-8")
    (item,) = judge.check(where, ("a.md",), threading.Event())
    done = judge.capture(where, item, (), 1 << 20)
    assert done is not None
    return done.split(" ")[0]


def _rename(where: Path) -> str:
    text = (where / "a.md").read_text(encoding="utf-8").replace("## Keep", "## Keep it")
    (where / "a.md").write_text(text, encoding="utf-8")
    (item,) = judge.check(where, ("a.md",), threading.Event())
    done = propose_rebind(where, item, (), frozenset())
    assert done is not None
    return done[0]


def _line(out: str, pid: str) -> str:
    (found,) = [line for line in out.splitlines() if pid in line]
    return found


def test_proposal_of_another_worktree_labelled_accepted(root: Path, tmp_path: Path) -> None:
    """Before: the main worktree listed the linked worktree's proposal as if its own,
    with nothing saying whose it was (nor that only that worktree closes it)."""
    other = tmp_path / "other"
    git(root, "worktree", "add", "-q", "-b", "side", str(other))
    theirs, mine = _capture(other), _rename(root)
    listed = ok(root, "proposals").stdout
    assert _line(listed, theirs).endswith(f", in worktree {other})"), listed
    assert "in worktree" not in _line(listed, mine)
    status = ok(root, "watch", "status").stdout
    assert f"proposal {theirs} a.md#Title/Keep (in worktree {other}): " in status, status
    assert "in worktree" not in _line(status, mine)
    there = ok(other, "proposals").stdout  # seen from the other side: the main one named
    assert _line(there, mine).endswith(f", in worktree {root})"), there
    assert "in worktree" not in _line(there, theirs)
    rows = {r["id"]: r for r in json.loads(ok(root, "proposals", "--json").stdout)}
    assert (rows[theirs]["worktree"], rows[theirs]["worktree_path"]) == (
        "worktrees/other",
        str(other),
    )
    assert (rows[mine]["worktree"], rows[mine]["worktree_path"]) == (".", str(root))
    shown = {p["id"]: p for p in json.loads(ok(root, "watch", "status", "--json").stdout)[
        "proposals"
    ]}  # fmt: skip
    assert (shown[theirs]["here"], shown[theirs]["worktree_path"]) == (False, str(other))
    assert shown[mine]["here"] is True


def test_proposal_worktree_path_not_utf8_escaped_accepted(root: Path, tmp_path: Path) -> None:
    """A worktree whose path holds an escape and a byte that is not UTF-8: its proposal
    is kept (before: the store refused the worktree's name, surrogates and all, and no
    text was ever captured there) and named as `forest check` names such paths
    (``\\x1b``, ``\\xe9``), never raw; once git keeps no path for the worktree, by
    its key (git made its name ``o-th\\xe9r``)."""
    other = tmp_path / os.fsdecode(b"o\x1bth\xe9r")
    git(root, "worktree", "add", "-q", "-b", "side", str(other))
    pid = _capture(other)
    listed = ok(root, "proposals").stdout
    assert "\x1b" not in listed and "\udce9" not in listed
    assert _line(listed, pid).endswith(f", in worktree {tmp_path}/o\\x1bth\\xe9r)"), listed
    status = ok(root, "watch", "status").stdout
    assert f"(in worktree {tmp_path}/o\\x1bth\\xe9r)" in _line(status, pid), status
    git(root, "worktree", "remove", "--force", str(other))
    listed = ok(root, "proposals").stdout
    assert _line(listed, pid).endswith(", in worktree worktrees/o-th\\xe9r (its path unknown))")
