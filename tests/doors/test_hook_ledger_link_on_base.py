"""A branch forked from a main whose ledger holds a symlink (committed there past the
hooks), with forest's hooks installed: the hooks name the link and give the one route
out that ``forest verify`` gives it, and pasted, the work commits under the hooks.

Before, the post-checkout hook said the index was not in step and to "restore the
segment's file" (there is none: the link is the fault), naming a ``forest sync`` refused
the same; the pre-commit hook refused every commit saying to ``git rm --cached`` it
and "restore the ledger's file", which left the link in the work tree, untracked, every
door still refusing it and ``git add -- .forest/ledger`` bringing it back. A link
outside the segments (at the ledger's root, in a stray folder, among the bodies) was
let through: the hook listed the staged segments alone; and the post-checkout hook
and every door's sync said nothing of one (they listed the segments alone), while
``forest verify`` refused it.

Real repositories, the hooks installed by ``forest hooks install``, git and the routes
run in bash.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from forest_files.gate.ci import run_gate
from tests.helpers.git import git, pasted, pasted_under_hooks, write
from tests.helpers.ledger import hooked_repo

pytestmark = pytest.mark.slow  # git runs the installed hooks on every step

LEDGER = ".forest/ledger"
SECRET = "words-outside-the-repository"
NAMES = ["segments/" + "a" * 64 + ".jsonl", "segments/link.jsonl"]
# Outside the segments: the hook listed the staged segments alone and let these by.
BESIDE = ["link.jsonl", "other/link", "bodies/link"]


def _main_with_link(tmp_path: Path, name: str) -> Path:
    """main holding a link ``name`` under the ledger, committed past the hooks."""
    root = hooked_repo(tmp_path, branch=None)
    outside = tmp_path / "outside.txt"
    outside.write_text(f"{SECRET}\n")
    (root / LEDGER / name).parent.mkdir(exist_ok=True)
    os.symlink(outside, root / LEDGER / name)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "someone's link in the ledger")
    (root / "notes").mkdir()
    return root


def _route(said: str, rel: str) -> str:
    """The one ``forest`` line's route: it names the link and nothing to restore."""
    (line,) = [ln for ln in said.splitlines() if ln.startswith("forest")]
    assert rel in line and SECRET not in line, line
    assert "restore" not in line, line  # no file was ever there to put back
    (route,) = [c for c in re.findall(r"`([^`]+)`", line) if c.startswith("git ")]
    return route


def _branch_clean(root: Path, tmp_path: Path) -> None:
    """The branch's work committed, no commit of it holding the link, every door clean."""
    assert run_gate(root, "main").ok
    for commit in git(root, "rev-list", "main..HEAD").splitlines():
        assert "120000" not in git(root, "ls-tree", "-r", commit, "--", LEDGER), commit
    assert git(root, "show", "HEAD:notes/work.md") == "work"
    for command in ("forest verify", "forest sync", "forest check"):
        done = pasted(root, command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert (tmp_path / "outside.txt").read_text() == f"{SECRET}\n"  # the target untouched


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("where", ["", "notes"])
def test_hook_ledger_link_on_base_commit_refused_route_pasted_recovers(
    tmp_path: Path, name: str, where: str
) -> None:
    """``git commit`` typed at the top or in a subfolder: refused once, with the
    removal; pasted there, the same commit goes through the hooks."""
    root = _main_with_link(tmp_path, name)
    pasted_under_hooks(root, "git checkout -q -b feature")
    write(root, "notes/work.md", "work\n")
    here = root / where
    refused = pasted(here, "git add -- . && git commit -q -m work")
    assert refused.returncode != 0 and "commit refused" not in refused.stdout
    route = _route(refused.stderr, f"{LEDGER}/{name}")
    assert ("-C .. " in route) == bool(where), route
    pasted_under_hooks(here, route)
    pasted_under_hooks(here, "git commit -q -m work")
    _branch_clean(root, tmp_path)


@pytest.mark.parametrize("name", BESIDE)
def test_hook_ledger_link_beside_segments_commit_refused_route_pasted_recovers(
    tmp_path: Path, name: str
) -> None:
    """A link at the ledger's root, in a folder it has no use for, or among its bodies:
    the commit is refused with verify's removal, as a segment's link is; pasted in a
    subfolder, the same commit goes through the hooks."""
    root = _main_with_link(tmp_path, name)
    pasted_under_hooks(root, "git checkout -q -b feature")
    write(root, "notes/work.md", "work\n")
    here = root / "notes"
    refused = pasted(here, "git add -- .. && git commit -q -m work")
    assert refused.returncode != 0 and "commit refused" not in refused.stdout
    route = _route(refused.stderr, f"{LEDGER}/{name}")
    assert route == f"git -C .. rm -q -f -- {LEDGER}/{name}", route
    pasted_under_hooks(here, route)
    pasted_under_hooks(here, "git commit -q -m work")
    _branch_clean(root, tmp_path)


@pytest.mark.parametrize("name", NAMES)
def test_hook_ledger_link_on_base_checkout_route_pasted_recovers(tmp_path: Path, name: str) -> None:
    """The post-checkout hook that forks the branch names the link and its removal (git
    goes on); pasted, then the work committed, the hooks accept it."""
    root = _main_with_link(tmp_path, name)
    checkout = pasted(root, "git checkout -q -b feature")
    assert checkout.returncode == 0, checkout.stderr  # a sync hook never blocks git
    route = _route(checkout.stderr, f"{LEDGER}/{name}")
    pasted_under_hooks(root, route)
    write(root, "notes/work.md", "work\n")
    pasted_under_hooks(root, "git add -- notes && git commit -q -m work")
    _branch_clean(root, tmp_path)


@pytest.mark.parametrize("name", BESIDE)
def test_hook_ledger_link_beside_segments_checkout_route_pasted_recovers(
    tmp_path: Path, name: str
) -> None:
    """A link at the ledger's root, in a stray folder or among its bodies: the
    post-checkout hook names it and its removal, as a segment's link; pasted, then the
    work committed, the hooks accept it."""
    root = _main_with_link(tmp_path, name)
    checkout = pasted(root, "git checkout -q -b feature")
    assert checkout.returncode == 0, checkout.stderr  # a sync hook never blocks git
    route = _route(checkout.stderr, f"{LEDGER}/{name}")
    assert route == f"git rm -q -f -- {LEDGER}/{name}", route
    pasted_under_hooks(root, route)
    write(root, "notes/work.md", "work\n")
    pasted_under_hooks(root, "git add -- notes && git commit -q -m work")
    _branch_clean(root, tmp_path)


@pytest.mark.parametrize("name", BESIDE)
def test_ledger_link_beside_segments_status_refused_route_pasted_recovers(
    tmp_path: Path, name: str
) -> None:
    """``forest status`` in a subfolder refuses a link outside the segments with its one
    line and the removal, as a segment's link, touching nothing; pasted there, then
    committed, every door is clean."""
    root = _main_with_link(tmp_path, name)
    pasted(root, "git checkout -q -b feature")
    here = root / "notes"
    before = git(root, "status", "--porcelain", "--ignored")
    refused = pasted(here, "forest status")
    assert refused.returncode == 3 and refused.stdout == "", (refused.stdout, refused.stderr)
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert git(root, "status", "--porcelain", "--ignored") == before
    route = _route(refused.stderr, f"{LEDGER}/{name}")
    assert route == f"git -C .. rm -q -f -- {LEDGER}/{name}", route
    pasted_under_hooks(here, route)
    write(root, "notes/work.md", "work\n")
    pasted_under_hooks(here, "git add -- . && git commit -q -m work")
    _branch_clean(root, tmp_path)
