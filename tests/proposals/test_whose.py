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
    gone = ", in worktree worktrees/o-th\\xe9r (no longer a work tree of this clone))"
    assert _line(listed, pid).endswith(gone), listed


def test_proposal_of_a_worktree_whose_directory_is_gone_labelled_detected(
    root: Path, tmp_path: Path
) -> None:
    """A linked worktree's directory deleted by hand (git lists it as prunable, at the
    path it last knew): its proposal is named by its key, as no longer a work tree of
    the clone, never by the path git lists for it; its JSON path is null."""
    import shutil

    other = tmp_path / "other"
    git(root, "worktree", "add", "-q", "-b", "side", str(other))
    pid = _capture(other)
    shutil.rmtree(other)
    assert "prunable" in git(root, "worktree", "list", "--porcelain")
    listed = ok(root, "proposals").stdout
    gone = ", in worktree worktrees/other (no longer a work tree of this clone))"
    assert _line(listed, pid).endswith(gone), listed
    rows = {r["id"]: r for r in json.loads(ok(root, "proposals", "--json").stdout)}
    assert (rows[pid]["worktree"], rows[pid]["worktree_path"]) == ("worktrees/other", None)


def test_proposal_of_a_main_worktree_apart_from_its_git_dir_labelled_detected(
    root: Path, tmp_path: Path
) -> None:
    """``git init --separate-git-dir``: git lists the git directory where the main
    work tree belongs (it keeps no path for a work tree apart from it). Seen from a
    linked worktree, the main one's proposal is the main worktree's, its path unknown:
    never the git directory's path."""
    apart = tmp_path / "apart.git"
    git(root, "init", "-q", "--separate-git-dir", str(apart))
    other = tmp_path / "other"
    git(root, "worktree", "add", "-q", "-b", "side", str(other))
    assert git(other, "worktree", "list", "--porcelain").startswith(f"worktree {apart}\n")
    mine = _capture(root)
    there = ok(other, "proposals").stdout
    assert _line(there, mine).endswith(", in the main worktree (its path unknown))"), there
    assert str(apart) not in there
    rows = {r["id"]: r for r in json.loads(ok(other, "proposals", "--json").stdout)}
    assert (rows[mine]["worktree"], rows[mine]["worktree_path"]) == (".", None)
    # Another text for the section, captured in the linked worktree: now its proposal,
    # and from the main one that worktree is named by the path git lists for it.
    (other / "a.md").write_text(EDITED.replace("edited", "edited there"), encoding="utf-8")
    (item,) = judge.check(other, ("a.md",), threading.Event())
    assert judge.capture(other, item, (), 1 << 20) is not None
    listed = ok(root, "proposals").stdout
    assert _line(listed, mine).endswith(f", in worktree {other})"), listed
