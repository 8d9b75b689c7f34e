"""Local state git tracks under ``.forest/``: a ``tracked-local-state`` finding at every door.

Only the ledger, ``.forest/.gitignore``, ``.forest/.gitattributes`` (and the signing
keyring forest.toml names) belong in git. A committed index, a cached view or a
symlink is reported by the hook (what the git index tracks), ``forest check`` (git
ls-files), ``check --staged``, ``check --rev``, ``forest verify`` and ``forest ci``
(the commit's tree), exit 1, with a route that pasted into a shell stops tracking
it. Nothing reads such a path: a tracked symlink to ``/dev/zero`` would hang any
reader, and a committed index's bytes never appear in any output.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from forest_files.doors import hooks as githooks
from tests.helpers.cli import FOREST, forest
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.template import reused

CANON = "# Canon\n\n## Rules\n\nThe rule stands.\n"
SENTINEL = "LOCAL-STATE-SENTINEL-5e1f"
KIND = "tracked-local-state"


def run(root: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        list(args), cwd=root, env=env, capture_output=True, text=True, timeout=timeout
    )


def sh(root: Path, command: str) -> subprocess.CompletedProcess[str]:
    return run(root, "bash", "-c", command)


def door(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """One ``forest`` door: ``check`` through the console entry (its light path, a
    process of its own); the typer doors (status, verify, ci) in process."""
    if args[0] == "check":
        return run(root, FOREST, *args)
    result = forest(root, *args)
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


DOORS = (["check"], ["check", "--staged"], ["check", "--rev", "HEAD"], ["verify"], ["ci"])


def _build_repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "canon.md", CANON)
    init_and_adopt(root, ["canon.md#Canon/Rules"])
    commit_all(root, "adopt")
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def _plant(root: Path, what: str) -> str:
    """Stage one piece of local state under .forest (past its .gitignore); its path."""
    if what == "index":
        path = ".forest/woods.db"  # a copy of the real index, at an old layout's place
        run(root, FOREST, "sync")
        (root / path).write_bytes((root / ".git" / "forest" / "woods.db").read_bytes())
    elif what == "view":
        path = ".forest/cache/views/x.db"
        write(root, path, f"{SENTINEL}\n")
    elif what == "symlink":
        path = ".forest/it's a link"  # a reader would never return from /dev/zero
        os.symlink("/dev/zero", root / path)
    else:
        raise AssertionError(what)
    git(root, "add", "-f", "--", path)
    return path


def _found(doc: dict[str, Any], path: str) -> dict[str, Any]:
    found = [f for f in doc["findings"] if f["kind"] != "clean"]
    assert [(f["kind"], f["path"]) for f in found] == [(KIND, path)], found
    (finding,) = found
    (route,) = finding["routes"]
    assert route["argv"] == [["git", "rm", "--cached", "-r", "--", path]]
    assert doc.get("schema_version") != 1 or doc["ok"] is False  # verify's ok: the ledger's
    return finding


WHAT = ["index", "view", "symlink"]


@pytest.mark.parametrize("what", WHAT)
def test_hook_tracked_local_state_refused_route_pasted_recovers(repo: Path, what: str) -> None:
    githooks.install(repo)
    path = _plant(repo, what)
    head = git(repo, "rev-parse", "HEAD")
    proc = run(repo, "git", "commit", "-m", "local state")
    assert proc.returncode == 1 and git(repo, "rev-parse", "HEAD") == head, proc.stderr
    assert f"{KIND} {path}" in proc.stderr and "finding(s) not clean" in proc.stderr
    assert SENTINEL not in proc.stdout + proc.stderr
    staged = run(repo, FOREST, "check", "--staged", "--json")
    assert staged.returncode == 1
    route = str(_found(json.loads(staged.stdout), path)["routes"][0]["command"])
    assert route in proc.stderr  # the hook printed the very command
    assert sh(repo, route).returncode == 0
    assert run(repo, "git", "commit", "-q", "--allow-empty", "-m", "nothing local").returncode == 0
    assert os.path.lexists(repo / path)  # untracked, not deleted


@pytest.mark.parametrize("what", WHAT)
def test_every_door_committed_local_state_detected(repo: Path, what: str) -> None:
    path = _plant(repo, what)
    git(repo, "commit", "-q", "--no-verify", "-m", "local state, hook bypassed")
    for args in (["check"], ["check", "--staged"], ["check", "--rev", "HEAD"]):
        proc = run(repo, FOREST, *args, "--json")
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        _found(json.loads(proc.stdout), path)
    _found(json.loads(door(repo, "status", "--json").stdout), path)
    verify = door(repo, "verify", "--json")
    assert verify.returncode == 1, verify.stderr
    _found(json.loads(verify.stdout), path)
    ci = door(repo, "ci", "--format", "json")
    assert ci.returncode == 1, ci.stdout + ci.stderr
    finding = _found(json.loads(ci.stdout), path)
    for fmt in ("text", "sarif", "junit", "github"):
        out = door(repo, "ci", "--format", fmt)
        assert out.returncode == 1 and KIND in out.stdout and SENTINEL not in out.stdout, fmt
    route = str(finding["routes"][0]["command"])
    assert sh(repo, route).returncode == 0
    git(repo, "commit", "-q", "-m", "stop tracking local state")
    for args in (["check"], ["check", "--staged"], ["check", "--rev", "HEAD"], ["verify"], ["ci"]):
        assert door(repo, *args).returncode == 0, args


def test_hook_unrelated_commit_local_state_tracked_since_head_refused(repo: Path) -> None:
    """The hook judges what the git index tracks, not only the staged change: state
    committed past the hook refuses the next commit too, until it is untracked."""
    path = _plant(repo, "view")
    git(repo, "commit", "-q", "--no-verify", "-m", "bypassed")
    githooks.install(repo)
    write(repo, "notes.txt", "unrelated\n")
    git(repo, "add", "notes.txt")
    proc = run(repo, "git", "commit", "-m", "unrelated")
    assert proc.returncode == 1 and f"{KIND} {path}" in proc.stderr, proc.stderr
    git(repo, "rm", "-q", "--cached", "-r", "--", ".forest/cache")
    assert run(repo, "git", "commit", "-m", "unrelated, untracked").returncode == 0


def test_warm_check_after_git_add_of_local_state_detected(repo: Path) -> None:
    """A remembered clean verdict (verdict.py) stands on the ledger and the bound
    files, which ``git add -f .forest/woods.db`` leaves unchanged: the git index's
    change must still be seen."""
    assert run(repo, FOREST, "check").returncode == 0
    assert run(repo, FOREST, "check").returncode == 0  # warm: answered from the verdict
    path = _plant(repo, "index")
    proc = run(repo, FOREST, "check")
    assert proc.returncode == 1 and f"{KIND} {path}" in proc.stdout, proc.stdout
    status = json.loads(door(repo, "status", "--json").stdout)
    _found(status, path)


def test_named_signing_keyring_under_forest_accepted(repo: Path) -> None:
    """The keyring docs/signing.md keeps at .forest/allowed_signers is committed on
    purpose: spared while forest.toml names it, local state once it does not."""
    write(repo, ".forest/allowed_signers", "ada@example.org ssh-ed25519 AAAA\n")
    git(repo, "add", "-f", ".forest/allowed_signers")
    git(repo, "commit", "-q", "--no-verify", "-m", "a keyring nobody names")
    doc = json.loads(run(repo, FOREST, "check", "--json").stdout)
    _found(doc, ".forest/allowed_signers")
    toml = (repo / "forest.toml").read_text(encoding="utf-8")
    named = toml.replace("[policy]", '[policy]\nallowed_signers = ".forest/allowed_signers"')
    assert named != toml, toml
    write(repo, "forest.toml", named)
    commit_all(repo, "name the keyring")
    for args in DOORS:
        proc = door(repo, *args)
        assert proc.returncode == 0, (args, proc.stdout, proc.stderr)


def test_ledger_and_dotfiles_alone_accepted(repo: Path) -> None:
    listed = git(repo, "ls-files", "--", ".forest").split()
    assert ".forest/.gitignore" in listed and all(
        p == ".forest/.gitignore" or p.startswith(".forest/ledger/") for p in listed
    )
    write(repo, ".forest/.gitattributes", "* -text\n")
    commit_all(repo, "a .forest/.gitattributes")
    for args in DOORS:
        assert door(repo, *args).returncode == 0, args
