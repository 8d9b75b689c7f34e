"""Root's commands in a repository whose git directory another user owns.

git opens such a repository for root when ``safe.directory`` names it, or under
``sudo`` when the ``SUDO_UID`` sudo exported owns it. forest's full door then wrote
root's files into the owner's ``.git/forest`` (the folder itself ``0700``,
``mac.key``, the index, the binding map, ``cache/``, ``audit.db``): the owner's every
later command was refused ("another user owns it"), or lost its caches. Now each file
and folder root makes there is given to the git directory's owner as it is made
(kernel/handover.py ``hand_over``), and a hard link planted there is never given away.
So is what the rarer doors make there: a crash log, the watcher's lock and its log
(each file a rotation starts), a migration's target and an old layout's ``legacy/<n>``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.face.test_migrate import build_forest04
from tests.helpers.git import pasted
from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    NOBODY,
    as_root,
    hand_over,
    handed_copy,
    run_as_user,
)

FILES = {"doc.md": "# Doc\n\nThe sky is blue.\n", "notes.md": "# Notes\n\nKept.\n"}
ROOT_RUNS = "forest check && forest check --staged && forest status"


place = module_place(
    FILES, "doc.md", only_root="only root can run forest in a repository another user owns"
)


def _roots_own(state: Path) -> list[str]:
    """Every file and folder under ``state`` (itself too) root owns."""
    return [str(p) for p in [state, *state.rglob("*")] if p.lstat().st_uid == 0]


@pytest.mark.parametrize("let_in", ["safe.directory", "sudo"])
def test_state_root_in_repo_of_another_user_accepted(
    place: tuple[Path, Path], tmp_path: Path, let_in: str
) -> None:
    """Root's commands in ``nobody``'s repository, trusted by ``safe.directory`` (no
    state made yet) or run under ``sudo`` by ``nobody`` (its state warm): every file
    and folder they leave in ``.git/forest`` is ``nobody``'s, whose own check, adopt
    and check again then work, the last answered from its remembered verdict."""
    base, bin_dir = place
    repo = handed_copy(base, f"nobody's, {let_in}")
    state = repo / ".git" / "forest"
    if let_in == "sudo":
        assert run_as_user(repo, "forest check", bin_dir).returncode == 0
        env = {"SUDO_UID": str(NOBODY)}
    else:
        shutil.rmtree(state)
        config = tmp_path / "gitconfig"
        config.write_text(f"[safe]\n\tdirectory = {repo}\n", encoding="utf-8")
        env = {"GIT_CONFIG_GLOBAL": str(config)}
    done = pasted(repo, ROOT_RUNS, env=env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert _roots_own(state) == []
    trace = repo / ".git" / "trace"
    for command in ["forest check", "forest adopt notes.md --words notes", "forest check"]:
        mine = run_as_user(repo, command, bin_dir)
        assert mine.returncode == 0 and mine.stderr == "", (command, mine.stderr)
    warm = run_as_user(repo, 'GIT_TRACE="$PWD/.git/trace" forest check', bin_dir)
    assert warm.returncode == 0 and warm.stderr == "", warm.stderr
    assert not trace.exists() or "rev-parse" not in trace.read_text(encoding="utf-8")


def test_state_hard_link_in_repo_of_another_user_refused(tmp_path: Path) -> None:
    """A hard link to a file of root's planted in ``nobody``'s ``.git/forest`` where
    root appends (a log) is written to, as before, but never given to ``nobody``."""
    if not as_root():
        pytest.skip("only root gives files away")
    from forest_files.kernel.state import open_append

    git_dir = tmp_path / "repo" / ".git"
    (git_dir / "forest").mkdir(parents=True)
    (git_dir / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    for path in (git_dir.parent, git_dir, git_dir / "forest"):
        os.chown(path, NOBODY, NOBODY)
    roots = tmp_path / "roots"
    roots.write_text("root's own\n", encoding="utf-8")
    os.link(roots, git_dir / "forest" / "watch.log")
    os.close(open_append(git_dir / "forest" / "watch.log", "watch.log"))
    made = open_append(git_dir / "forest" / "crash.log", "crash.log")
    os.close(made)
    assert roots.stat().st_uid == 0
    assert (git_dir / "forest" / "crash.log").stat().st_uid == NOBODY


def _crash_log(repo: Path, env: dict[str, str]) -> None:
    """An internal error's crash log, as the boundary writes it (doors/crashlog.py)."""
    from forest_files.doors.crashlog import write_crash_log

    write_crash_log(RuntimeError("a bug"), repo, "check", ["check"])


def _watcher(repo: Path, env: dict[str, str]) -> None:
    """The watcher started and stopped, its log left full by the owner's own watcher:
    the first line it logs starts a new ``watch.log`` (a rotation)."""
    log = repo / ".git" / "forest" / "watch.log"
    log.write_bytes(b"x" * (1 << 20))
    os.chown(log, NOBODY, NOBODY)
    done = pasted(repo, "forest watch --detach --quiet 0.1 && forest watch stop", env=env)
    assert done.returncode == 0, done.stderr
    assert (repo / ".git" / "forest" / "watch.log.1").exists()  # it did rotate


def _migration(repo: Path, env: dict[str, str]) -> None:
    """A Forest 0.4 store converted into a file in the owner's ``.git/forest``."""
    from forest_files.migrate import migrate_to_latest

    old = repo.parent / f"{repo.name}-forest04" / "old.db"
    old.parent.mkdir()
    build_forest04(old)
    migrate_to_latest(old, repo / ".git" / "forest" / "converted.db")


def _relocation(repo: Path, env: dict[str, str]) -> None:
    """An old layout's ``.forest/audit.db`` whose new place is taken: kept under
    ``legacy/1``, moved there by root's first command."""
    (repo / ".forest" / "audit.db").write_bytes(b"an older log")
    hand_over(repo / ".forest")
    done = pasted(repo, "forest status", env=env)
    assert done.returncode == 0, done.stderr
    assert (repo / ".git" / "forest" / "legacy" / "1" / "audit.db").is_file()


@pytest.mark.parametrize(
    "made", [_crash_log, _watcher, _migration, _relocation], ids=lambda f: f.__name__[1:]
)
def test_state_rarer_files_in_repo_of_another_user_accepted(
    place: tuple[Path, Path], made: Callable[[Path, dict[str, str]], None]
) -> None:
    """Root, under ``sudo`` by ``nobody``, making what only some doors make in
    ``nobody``'s ``.git/forest``: a crash log, the watcher's lock and a new log file, a
    migration's target, an old layout's ``legacy/<n>``; all of it is ``nobody``'s, and
    ``nobody``'s own watcher starts and stops."""
    base, bin_dir = place
    repo = handed_copy(base, f"nobody's, {made.__name__}")
    env = {"SUDO_UID": str(NOBODY)}
    made(repo, env)
    assert _roots_own(repo / ".git" / "forest") == []
    mine = run_as_user(repo, "forest watch --detach --quiet 0.1 && forest watch stop", bin_dir)
    assert mine.returncode == 0 and mine.stderr == "", mine.stderr
