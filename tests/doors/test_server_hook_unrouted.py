"""A server hook's refusal of a finding without a route names a command that works
where it is read (doors/hooks/unrouted.py): in the pusher's clone ``forest ci --base
SINCE`` for a fault the push brought; for damage the server's ledger held before the
push, that pushing again cannot fix it and the ``git -C BARE show`` its administrator
runs on the server. Before, the last line said "do what the detail of each finding
without a route says", naming no command. A segment the push added that the gate
refuses has its own route now (gate/added_segment.py: taken out of the commit that
added it), printed under the ref and pasted in the clone, so the push lands.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import pytest

from tests.doors.test_server_hook import forest, landed, push, refused, serve
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import built_once, copy_repo

CANON = "# Canon\n\nIntro line.\n\n## Rules\n\nThe first rule stands.\n"
OLD_FORMAT = b'{"v":1}\n'  # a well-named segment no reader reads: bad-version, no route
FORMER = "do what the detail of each finding without a route says"
CI = re.compile(r"in your clone `(forest ci[^`]*)` lists each finding")
TAKE_OUT = "take the segment out of HEAD: "


def _pair(directory: Path) -> Path:
    bare = serve(directory)
    clone = make_repo(directory, "clone")
    forest(clone, "init")
    write(clone, "canon.md", CANON)
    commit_all(clone, "files")
    forest(clone, "adopt", "canon.md#Rules", "--words", "I adopt these words as written")
    commit_all(clone, "adopt")
    git(clone, "remote", "add", "origin", str(bare))
    landed(clone, bare, "main")
    return directory


@pytest.fixture(scope="module")
def _template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _pair)


@pytest.fixture
def served(_template: Path, tmp_path: Path) -> tuple[Path, Path]:
    bare = copy_repo(_template / "server.git", tmp_path / "server.git")
    clone = copy_repo(_template / "clone", tmp_path / "clone")
    git(clone, "remote", "set-url", "origin", str(bare))
    return clone, bare


def _damage(clone: Path) -> str:
    """A segment of an old ledger format committed past the hooks; its path."""
    rel = f".forest/ledger/segments/{hashlib.sha256(OLD_FORMAT).hexdigest()}.jsonl"
    write(clone, rel, OLD_FORMAT)
    git(clone, "add", "--", rel)
    git(clone, "commit", "-q", "--no-verify", "-m", "an old segment")
    return rel


def _said(err: str) -> list[str]:
    return [line.removeprefix("remote:").strip() for line in err.splitlines()]


def _ci_named(err: str) -> str:
    found = CI.search(err)
    assert found, err
    return found[1]


def _take_out(err: str, rel: str) -> str:
    """The route the refusal prints for the segment ``rel`` the push added."""
    (line,) = [x for x in _said(err) if x.startswith(TAKE_OUT)]
    command = line.removeprefix(TAKE_OUT).split("  (", 1)[0]
    assert command == f"git rm -q -- {rel} && git commit --amend --no-edit --allow-empty"
    return command


def test_server_hook_segment_pushed_take_out_route_pasted_lands_recovers(
    served: tuple[Path, Path],
) -> None:
    """A segment of an old format the push added: the refusal prints its route under
    the ref (no `forest ci` to run first); pasted in the clone, the push lands."""
    clone, bare = served
    rel = _damage(clone)
    err = refused(clone, bare, "main")
    assert "bad-version" in err and FORMER not in err and CI.search(err) is None, err
    assert "in your clone follow the routes above, then push again" in _said(err)
    done = pasted(clone, _take_out(err, rel))
    assert done.returncode == 0, done.stderr
    landed(clone, bare, "main")


@pytest.mark.slow  # two pushes
def test_server_hook_segment_on_new_ref_take_out_route_pasted_lands_recovers(
    served: tuple[Path, Path],
) -> None:
    """A new ref judged from its merge-base with the default branch: the segment it
    added is taken out of its commit the same way."""
    clone, bare = served
    git(clone, "checkout", "-q", "-b", "wild")
    rel = _damage(clone)
    git(clone, "checkout", "-q", "main")
    write(clone, "other.md", "elsewhere\n")
    commit_all(clone, "elsewhere")
    landed(clone, bare, "main")
    err = refused(clone, bare, "wild")
    command = _take_out(err, rel)
    done = pasted(clone, f"git checkout -q wild && {command}")
    assert done.returncode == 0, done.stderr
    landed(clone, bare, "wild")


def test_server_hook_first_push_unrouted_fault_names_forest_ci_detected(tmp_path: Path) -> None:
    """A first push of one commit is judged alone: ``forest ci`` without a base."""
    bare = serve(tmp_path)
    clone = make_repo(tmp_path, "clone")
    forest(clone, "init")
    write(clone, "canon.md", CANON)
    rel = f".forest/ledger/segments/{hashlib.sha256(OLD_FORMAT).hexdigest()}.jsonl"
    write(clone, rel, OLD_FORMAT)
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--no-verify", "-m", "one commit")
    git(clone, "remote", "add", "origin", str(bare))
    err = refused(clone, bare, "main")
    assert _ci_named(err) == "forest ci"
    shown = pasted(clone, "forest ci")
    assert shown.returncode != 0 and "bad-version" in shown.stdout, shown


def test_server_hook_ledger_damaged_before_push_said_for_server_detected(
    served: tuple[Path, Path], tmp_path: Path
) -> None:
    """The server's ledger damaged before the push (fetched into it, no hook ran): a
    clean push on top, and a new branch from it, are refused saying so, that pushing
    again cannot fix it, and the command its administrator runs on the server."""
    clone, bare = served
    rel = _damage(clone)
    damaged = git(clone, "rev-parse", "HEAD")
    git(bare, "fetch", "-q", str(clone), "main:main")  # past the hook
    write(clone, "other.md", "elsewhere\n")
    commit_all(clone, "elsewhere")
    for ref in ("main", "main:topic"):
        err = refused(clone, bare, ref)
        said = _said(err)
        assert FORMER not in err and "forest ci --base" not in err, err
        assert any("already on the server before this push" in x for x in said), said
        assert "pushing again cannot" in err and "then push again" not in err
        show = f"git -C {bare} show {damaged}:{rel}"
        assert show in said, said
        shown = subprocess.run(show, shell=True, cwd=tmp_path, capture_output=True, check=False)
        assert shown.returncode == 0 and shown.stdout == OLD_FORMAT  # the damage itself


def test_server_hook_new_fault_beside_old_damage_names_both_detected(
    served: tuple[Path, Path],
) -> None:
    """A push adding a segment of its own the gate refuses to a server already damaged:
    each is said where it is fixed (the new one's route, the old one the server's)."""
    clone, bare = served
    _damage(clone)
    git(bare, "fetch", "-q", str(clone), "main:main")  # past the hook
    base = git(clone, "rev-parse", "HEAD")
    other = b'{"v":0}\n'
    rel = f".forest/ledger/segments/{hashlib.sha256(other).hexdigest()}.jsonl"
    write(clone, rel, other)
    git(clone, "add", "--", rel)
    git(clone, "commit", "-q", "--no-verify", "-m", "another old segment")
    err = refused(clone, bare, "main")
    _take_out(err, rel)
    assert "already on the server before this push" in err
    assert f"show {base}:{rel}" not in err  # the new fault is the pusher's, not the server's
    assert "pushing again cannot" in err


def test_server_hook_push_lands_after_damage_put_right_accepted(
    served: tuple[Path, Path],
) -> None:
    """What the pusher's command shows is theirs to fix: the segment taken out of the
    commit, the push lands."""
    clone, bare = served
    rel = _damage(clone)
    refused(clone, bare, "main")
    git(clone, "rm", "-q", "--", rel)
    git(clone, "commit", "-q", "--amend", "--no-edit", "--allow-empty")
    assert push(clone, "main").returncode == 0
