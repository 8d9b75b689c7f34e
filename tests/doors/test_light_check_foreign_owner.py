"""The light ``forest check`` / ``forest status`` in a repository another user owns.

git refuses such a repository ("dubious ownership") unless ``safe.directory`` names it.
The light doors answered without git, from the caches in the git directory: root's
check in a repository ``nobody`` owns wrote root's ``.git/forest/cache`` (0700, with
``.stamp``, ``.verdict-stamp``, ``stat-*.bin``, ``parse-*.bin``) into ``nobody``'s
state before the full path refused through git; and a remembered clean verdict of the
owner's was repeated (exit 0) in a repository git would not open. Now the light doors
count owners as git does (kernel/owners.py, root's ``SUDO_UID`` too) and, when another
user owns the repository, leave it to git: refused with git's line and nothing
written, or, trusted by ``safe.directory``, answered through git.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.custody import DOC, init_and_adopt
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    NOBODY,
    handed_copy,
    run_as_user,
)

DOORS = ["forest check", "forest status"]
CLEAN = "1 binding(s) checked against the working tree: 0 not clean"


place = module_place(
    {"doc.md": "# Doc\n\nThe sky is blue.\n"},
    "doc.md",
    only_root="only root can run forest in a repository another user owns",
)


def _files(root: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file and folder under ``root`` (``.git`` too): its mode, owner and bytes."""
    out = {}
    for path in sorted([root, *root.rglob("*")]):
        st = path.lstat()
        out[str(path)] = (st.st_mode, st.st_uid, path.read_bytes() if path.is_file() else b"")
    return out


def _refused(done: subprocess.CompletedProcess[str]) -> None:
    said = done.stderr + done.stdout
    assert done.returncode == 1 and said.startswith("forest: git refuses the repository"), said


@pytest.mark.parametrize("door", DOORS)
def test_light_doors_repo_of_another_user_refused(
    place: tuple[Path, Path], tmp_path: Path, door: str
) -> None:
    """Root's command in ``nobody``'s repository, its caches not made yet."""
    base, _ = place
    repo = handed_copy(base, f"nobody's {door.split()[1]}")
    shutil.rmtree(repo / ".git" / "forest" / "cache", ignore_errors=True)
    before = _files(repo)
    _refused(pasted(repo, door, env={"GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig")}))
    assert _files(repo) == before


@pytest.mark.parametrize("door", DOORS)
def test_light_doors_warm_repo_of_root_as_another_user_refused(
    place: tuple[Path, Path], door: str
) -> None:
    """``nobody``'s command in root's repository shared with everyone (every folder
    ``a+rwX``), root's clean verdict remembered: not repeated, nothing written."""
    base, bin_dir = place
    repo = handed_copy(base, f"root's {door.split()[1]}", hand=False)
    assert pasted(repo, "forest check && forest check").returncode == 0  # root's, warm
    subprocess.run(["chmod", "-R", "a+rwX", str(repo)], check=True)
    before = _files(repo)
    _refused(run_as_user(repo, door, bin_dir))
    assert _files(repo) == before


def test_light_check_repo_of_another_user_trusted_accepted(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """``safe.directory`` names ``nobody``'s repository: root's check answers, asking git
    first (its trace), not from the owner's remembered verdict."""
    base, bin_dir = place
    repo = handed_copy(base, "nobody's trusted")
    assert run_as_user(repo, "forest check && forest check", bin_dir).returncode == 0
    config, trace = tmp_path / "gitconfig", tmp_path / "trace"
    config.write_text(f"[safe]\n\tdirectory = {repo}\n", encoding="utf-8")
    env = {"GIT_CONFIG_GLOBAL": str(config), "GIT_TRACE": str(trace)}
    done = pasted(repo, "forest check", env=env)
    assert done.returncode == 0 and done.stdout == f"{CLEAN}\n", done.stderr
    assert "rev-parse" in trace.read_text(encoding="utf-8")


@pytest.mark.parametrize(("sudo", "answered"), [(str(NOBODY), True), ("1234", False)])
def test_light_check_root_under_sudo_of_owner_accepted(
    place: tuple[Path, Path], tmp_path: Path, sudo: str, answered: bool
) -> None:
    """git's root exception: root under ``sudo`` (``SUDO_UID``) opens a repository the
    user who ran sudo owns, and the light door answers there too, from the owner's
    remembered verdict, without git; another ``SUDO_UID`` is refused as git refuses."""
    base, bin_dir = place
    repo = handed_copy(base, f"sudo {sudo}")
    assert run_as_user(repo, "forest check && forest check", bin_dir).returncode == 0
    env = {"GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig"), "SUDO_UID": sudo}
    _sudo_check(repo, env, tmp_path / "trace", answered)


def test_light_check_git_assumes_different_owner_refused(tmp_path: Path) -> None:
    """git's own test switch, ``GIT_TEST_ASSUME_DIFFERENT_OWNER``, counts every
    repository as another user's: the light door leaves its warm verdict to git (which
    refuses), for any user the suite runs as."""
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#Keep"])
    commit_all(root, "adopt")
    assert pasted(root, "forest check && forest check").returncode == 0  # warm
    before = _files(root)
    _refused(pasted(root, "forest check", env={"GIT_TEST_ASSUME_DIFFERENT_OWNER": "1"}))
    assert _files(root) == before


def test_light_check_linked_worktree_gitdir_of_another_user_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """Root's linked worktree whose git directory (``.git/worktrees/NAME``, named by
    its ``.git`` file) ``nobody`` owns: git refuses it, and so the light door leaves it
    to git, its ``.git`` file and folder root's own."""
    base, _ = place
    main = handed_copy(base, "root's main", hand=False)
    linked = main.parent / "linked"
    assert pasted(main, "git worktree add -q -b side ../linked").returncode == 0
    gitdir = main / ".git" / "worktrees" / "linked"
    for top, dirs, files in os.walk(gitdir):
        for name in [top, *(os.path.join(top, n) for n in dirs + files)]:
            os.lchown(name, NOBODY, NOBODY)
    before = _files(gitdir)
    _refused(pasted(linked, "forest check", env={"GIT_CONFIG_GLOBAL": str(tmp_path / "gc")}))
    assert _files(gitdir) == before


@pytest.mark.parametrize(
    ("sudo", "answered"),
    [
        (" 65534", True),
        ("\t+65534", True),
        ("4295032830", True),  # 2**32 + 65534: git's 32-bit uid_t
        ("-18446744073709486082", True),  # strtoul negates modulo 2**64
        ("65534 ", False),
        ("-65534", False),
        ("+ 65534", False),
    ],
)
def test_light_check_sudo_uid_as_git_reads_it_accepted(
    place: tuple[Path, Path], tmp_path: Path, sudo: str, answered: bool
) -> None:
    """Root under ``sudo``, ``SUDO_UID`` spelled as git's ``strtoul`` still reads the
    owner's uid: the light door answers without git where git opens the repository
    (before: only a bare decimal number did; the rest asked git each time), and leaves
    it to git's refusal where git refuses. git itself is asked first, so the cases
    follow the git installed here."""
    base, bin_dir = place
    repo = handed_copy(base, f"sudo {sudo.encode().hex()}")
    assert run_as_user(repo, "forest check && forest check", bin_dir).returncode == 0
    env = {"GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig"), "SUDO_UID": sudo}
    opened = pasted(repo, "git rev-parse --git-dir", env=env).returncode == 0
    assert opened == answered  # git reads SUDO_UID so
    _sudo_check(repo, env, tmp_path / "trace", answered)


def _sudo_check(repo: Path, env: dict[str, str], trace: Path, answered: bool) -> None:
    """Root's ``forest check`` under ``env``: answered clean without ``git rev-parse``
    where ``answered``, else git's refusal; either way nothing written."""
    before = _files(repo)
    done = pasted(repo, "forest check", env={**env, "GIT_TRACE": str(trace)})
    if answered:
        assert done.returncode == 0 and done.stdout == f"{CLEAN}\n", done.stderr
        assert not trace.exists() or "rev-parse" not in trace.read_text(encoding="utf-8")
    else:
        _refused(done)
    assert _files(repo) == before
