"""A commit made without the pre-commit check that removes acts from the ledger
(check/after_commit.py), said by the installed post-commit hook.

Before, ``git revert`` of the commit that adopted a section deleted the act's
segment with no word from any local door: git asks no pre-commit hook for a
revert, a cherry-pick or ``--no-verify``, and ``forest check`` then judged
without the act (0 bindings, clean) until ``forest ci`` refused the branch.
Git runs post-commit after each of them; the hook says what the commit removed
and the ways back, and each way back, pasted, works.

Real repositories, the real hooks installed by ``forest hooks install``, real
``git revert``, ``git cherry-pick`` and ``git commit``; printed steps pasted
into bash.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import ok
from tests.helpers.forgetting import SENTINEL, forgotten_with_hooks
from tests.helpers.git import commit_all, git, make_repo, pasted, write

pytestmark = pytest.mark.slow  # each test runs git with the hooks several times

TEXT = "# Canon\n\n## Hero\n\nThe hero is brave.\n"
WARNED = "removes acts from the ledger"


def _adopted(tmp_path: Path) -> Path:
    """``canon.md#Canon/Hero`` adopted in its own commit, after the one that made
    custody; the hooks installed."""
    root = make_repo(tmp_path)
    write(root, "canon.md", TEXT)
    commit_all(root, "start")
    ok(root, "init")
    ok(root, "hooks", "install")
    commit_all(root, "custody")
    ok(root, "adopt", "canon.md#Canon/Hero", "--words", "The hero canon")
    commit_all(root, "adopt")
    return root


def _bindings(root: Path) -> str:
    return ok(root, "check").output


def _routes(stderr: str) -> dict[str, str]:
    """The ways back the warning prints, by the first word of their label."""
    out = {}
    for line in stderr.splitlines():
        label, _, command = line.strip().partition(": ")
        if label.startswith(("undo the commit", "or keep it")):
            out[label.split()[0]] = command.split("  (")[0]
    return out


def test_revert_of_an_adoption_said_and_put_back_hostile(tmp_path: Path) -> None:
    """``git revert`` of the adoption: the commit is made (git ignores post-commit's
    exit), the warning names the segment and the commit; pasting "keep it" puts the
    act back in a new commit that the pre-commit hook accepts."""
    root = _adopted(tmp_path)
    assert "1 binding(s)" in _bindings(root)
    done = pasted(root, "git revert --no-edit HEAD")
    assert done.returncode == 0, done.stderr
    head = git(root, "rev-parse", "HEAD")
    assert f"commit {head[:12]} was made without the pre-commit check" in done.stderr
    assert WARNED in done.stderr and "ledger-deleted .forest/ledger/segments/" in done.stderr
    assert "0 binding(s)" in _bindings(root)  # what every door judges until it is put back
    keep = _routes(done.stderr)["or"]
    assert keep.startswith(f"git checkout '{head[:12]}~1' -- .forest/ledger && git commit -m ")
    put_back = pasted(root, keep)
    assert put_back.returncode == 0, put_back.stderr
    assert WARNED not in put_back.stderr
    assert "1 binding(s)" in _bindings(root)
    assert git(root, "status", "--porcelain") == ""


def test_undo_route_hands_the_change_to_the_pre_commit_hook_hostile(tmp_path: Path) -> None:
    """ "undo the commit", pasted: the commit is gone, its deletion staged, and the next
    ``git commit`` is refused by the pre-commit hook; nothing is lost."""
    root = _adopted(tmp_path)
    adopt_commit = git(root, "rev-parse", "HEAD")
    done = pasted(root, "git revert --no-edit HEAD")
    undo = _routes(done.stderr)["undo"]
    assert undo == "git reset --soft 'HEAD~1'"
    assert pasted(root, undo).returncode == 0
    assert git(root, "rev-parse", "HEAD") == adopt_commit
    again = pasted(root, "git commit -q -m again")
    assert again.returncode != 0 and "commit refused" in again.stderr, again.stderr
    assert git(root, "rev-parse", "HEAD") == adopt_commit


def test_no_verify_and_cherry_pick_said_hostile(tmp_path: Path) -> None:
    """``git commit --no-verify`` deleting a segment, and a cherry-pick of that commit
    onto another branch: both said."""
    root = _adopted(tmp_path)
    git(root, "branch", "side", "HEAD")
    (segment,) = git(root, "ls-files", ".forest/ledger/segments").splitlines()
    git(root, "rm", "-q", "--", segment)
    done = pasted(root, "git commit -q --no-verify -m 'drop it'")
    assert done.returncode == 0 and WARNED in done.stderr, done.stderr
    dropped = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "side")
    picked = pasted(root, f"git cherry-pick {dropped}")
    assert picked.returncode == 0, picked.stderr
    assert WARNED in picked.stderr and segment in picked.stderr


def test_commits_that_keep_the_ledger_say_nothing_accepted(tmp_path: Path) -> None:
    """A commit that adds acts, one that edits other files, a merge and a root commit:
    no warning (the hook reads one diff and stops)."""
    root = _adopted(tmp_path)
    git(root, "checkout", "-q", "-b", "side")
    write(root, "notes.md", "side\n")
    side = pasted(root, "git add notes.md && git commit -q -m side")
    assert side.returncode == 0 and side.stderr == "", side.stderr
    git(root, "checkout", "-q", "-")
    write(root, "other.md", "main\n")
    ok(root, "adopt", "other.md", "--words", "Other canon")
    more = pasted(root, "git add -A && git commit -q -m more")
    assert more.returncode == 0 and more.stderr == "", more.stderr
    merged = pasted(root, "git merge -q --no-edit side")
    assert merged.returncode == 0 and WARNED not in merged.stderr, merged.stderr
    git(root, "checkout", "-q", "--orphan", "fresh")
    git(root, "rm", "-rq", "--cached", ".")
    write(root, "only.md", "x\n")
    rooted = pasted(root, "git add only.md && git commit -q --no-verify -m fresh")
    assert rooted.returncode == 0 and rooted.stderr == "", rooted.stderr


def test_revert_of_a_forget_says_the_erase_way_back_hostile(tmp_path: Path) -> None:
    """``git revert`` of a forget deletes the erase act's segment and brings the erased
    body back: the warning names the erase and the way back that deletes the body again
    (never the erased text)."""
    root, _segment, body = forgotten_with_hooks(tmp_path)
    done = pasted(root, "git revert --no-edit HEAD")
    assert done.returncode == 0, done.stderr
    assert WARNED in done.stderr and "erase act" in done.stderr
    assert SENTINEL not in done.stderr
    keep = _routes(done.stderr)["or"]
    assert "forest sync" in keep and "rotate the secret" in done.stderr
    put_back = pasted(root, keep)
    assert put_back.returncode == 0, put_back.stdout + put_back.stderr
    assert not (root / body).exists()
    shown = subprocess.run(
        ["git", "grep", "-q", SENTINEL, "HEAD"], cwd=root, capture_output=True, check=False
    )
    assert shown.returncode == 1  # HEAD's tree no longer holds the text


def _patches(root: Path, *extra: str) -> list[str]:
    """The revert of the adoption (then one commit per ``extra`` file) as patch files,
    and the branch put back on the adoption: ``git am`` of them deletes its segment."""
    adopted = git(root, "rev-parse", "HEAD")
    assert pasted(root, "git revert --no-edit HEAD").returncode == 0
    for name in extra:
        write(root, name, f"{name}\n")
        git(root, "add", name)
        git(root, "commit", "-q", "-m", name)
    out = root.parent / "patches"
    count = str(1 + len(extra))
    names = git(root, "format-patch", f"-{count}", "-o", str(out)).splitlines()
    git(root, "reset", "-q", "--hard", adopted)
    return names


def test_git_am_of_a_revert_said_and_both_ways_back_work_hostile(tmp_path: Path) -> None:
    """``git am`` of a revert of the adoption runs no post-commit hook: post-applypatch
    says it, worded for a patch; pasted once ``git am`` ends, "undo" leaves the adoption
    as HEAD with the deletion staged (refused by the next ``git commit``), and "keep it"
    (after a second ``git am``) puts the act back."""
    root = _adopted(tmp_path)
    adopted = git(root, "rev-parse", "HEAD")
    (patch,) = _patches(root)
    done = pasted(root, f"git am -q {patch}")
    assert done.returncode == 0, done.stderr
    head = git(root, "rev-parse", "HEAD")
    assert f"commit {head[:12]} was made without the pre-commit check" in done.stderr
    assert "git am" in done.stderr and "ledger-deleted .forest/ledger/segments/" in done.stderr
    routes = _routes(done.stderr)
    assert routes["undo"] == "git reset --soft 'HEAD~1'"
    assert pasted(root, routes["undo"]).returncode == 0
    assert git(root, "rev-parse", "HEAD") == adopted
    again = pasted(root, "git commit -q -m again")
    assert again.returncode != 0 and "commit refused" in again.stderr, again.stderr
    git(root, "reset", "-q", "--hard", adopted)
    assert pasted(root, f"git am -q {patch}").returncode == 0
    put_back = pasted(root, routes["or"].replace(head[:12], git(root, "rev-parse", "HEAD")[:12]))
    assert put_back.returncode == 0 and WARNED not in put_back.stderr, put_back.stderr
    assert "1 binding(s)" in _bindings(root)


def test_git_am_of_several_patches_undoes_by_the_commit_id_hostile(tmp_path: Path) -> None:
    """A revert then two more patches in one ``git am``: HEAD~1 would undo another
    commit, so the undo names the revert; pasted once ``git am`` ends, the adoption is
    HEAD again with every later change staged (nothing lost). "keep it" from a second
    run puts the act back with the later commits kept."""
    root = _adopted(tmp_path)
    adopted = git(root, "rev-parse", "HEAD")
    patches = _patches(root, "one.md", "two.md")
    done = pasted(root, "git am -q " + " ".join(patches))
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(WARNED) == 1, done.stderr
    reverted = git(root, "rev-parse", "HEAD~2")
    routes = _routes(done.stderr)
    assert routes["undo"] == f"git reset --soft '{reverted[:12]}~1'"
    assert pasted(root, routes["undo"]).returncode == 0
    assert git(root, "rev-parse", "HEAD") == adopted
    staged = git(root, "diff", "--cached", "--name-status").splitlines()
    assert {"A\tone.md", "A\ttwo.md"} <= set(staged)
    assert any(s.startswith("D\t.forest/ledger/segments/") for s in staged)
    git(root, "reset", "-q", "--hard", adopted)
    assert pasted(root, "git am -q " + " ".join(patches)).returncode == 0
    keep = routes["or"].replace(reverted[:12], git(root, "rev-parse", "HEAD~2")[:12])
    put_back = pasted(root, keep)
    assert put_back.returncode == 0 and WARNED not in put_back.stderr, put_back.stderr
    assert "1 binding(s)" in _bindings(root) and (root / "two.md").exists()


def _reverted_topic_behind_main(tmp_path: Path) -> Path:
    """An adopted repository with branch ``topic``: a revert of the adoption (made
    with ``--no-verify``) and two commits after it; ``main``, checked out, moved on
    by one commit, so rebasing ``topic`` onto it replays all three."""
    root = _adopted(tmp_path)
    git(root, "checkout", "-q", "-b", "topic")
    assert pasted(root, "git revert --no-edit HEAD").returncode == 0
    for name in ("one.md", "two.md"):
        write(root, name, f"{name}\n")
        git(root, "add", name)
        git(root, "commit", "-q", "-m", name)
    git(root, "checkout", "-q", "main")
    write(root, "new.md", "new work\n")
    git(root, "add", "new.md")
    git(root, "commit", "-q", "-m", "new work")
    return root


def test_rebase_pick_that_others_follow_undone_by_its_id_hostile(tmp_path: Path) -> None:
    """A branch whose revert of the adoption (made with ``--no-verify``) two commits
    follow, rebased onto new work: post-commit says the revert's pick as a pick of
    ``git rebase``, and its undo names the pick's id (HEAD~1 would undo the last
    commit once the rebase ends); pasted then, the adoption's act is staged back and
    every later change with it (nothing lost); "keep it" puts the act back in a new
    commit with the later commits kept."""
    root = _reverted_topic_behind_main(tmp_path)
    done = pasted(root, "git rebase -q main topic")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(WARNED) == 1, done.stderr
    assert "(a pick of git rebase)" in done.stderr, done.stderr
    picked = git(root, "rev-parse", "HEAD~2")
    routes = _routes(done.stderr)
    assert routes["undo"] == f"git reset --soft '{picked[:12]}~1'", routes
    assert "once git rebase has finished" in done.stderr
    rebased = git(root, "rev-parse", "HEAD")
    assert pasted(root, routes["undo"]).returncode == 0
    staged = git(root, "diff", "--cached", "--name-status").splitlines()
    assert {"A\tone.md", "A\ttwo.md"} <= set(staged)
    assert any(s.startswith("D\t.forest/ledger/segments/") for s in staged)
    git(root, "reset", "-q", "--hard", rebased)
    put_back = pasted(root, routes["or"])
    assert put_back.returncode == 0 and WARNED not in put_back.stderr, put_back.stderr
    assert "1 binding(s)" in _bindings(root) and (root / "two.md").exists()


def test_rebase_apply_patch_that_others_follow_named_as_the_rebase_hostile(
    tmp_path: Path,
) -> None:
    """``git rebase --apply`` applies its patches through ``git am`` (the same
    ``rebase-apply`` folder, post-applypatch after each): a revert of the adoption two
    patches follow is said as a patch of ``git rebase --apply``, and its undo waits for
    the rebase, not for a ``git am`` the user never ran; pasted then, it works."""
    root = _reverted_topic_behind_main(tmp_path)
    done = pasted(root, "git rebase --apply -q main topic")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(WARNED) == 1, done.stderr
    assert "(a patch applied by git rebase --apply)" in done.stderr, done.stderr
    assert "once git rebase has finished" in done.stderr and "git am" not in done.stderr
    picked = git(root, "rev-parse", "HEAD~2")
    routes = _routes(done.stderr)
    assert routes["undo"] == f"git reset --soft '{picked[:12]}~1'", routes
    assert pasted(root, routes["undo"]).returncode == 0
    staged = git(root, "diff", "--cached", "--name-status").splitlines()
    assert {"A\tone.md", "A\ttwo.md"} <= set(staged)
    assert any(s.startswith("D\t.forest/ledger/segments/") for s in staged)
