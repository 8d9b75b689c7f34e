"""The step ``forest hooks status`` prints to move a work-tree ``core.hooksPath`` away
removes the value from the config file that sets it (doors/hooks/hooks_path.py).

Before, it printed ``git config --unset core.hooksPath``, which edits the repository's
own config alone: with the value in the global config, a file included from the
repository's config or the worktree's ``config.worktree``, the pasted step exited 5 and
removed nothing. Each case runs as typed beside the repository (``forest -C ../repo``),
with a global config of its own (``GIT_CONFIG_GLOBAL``): the machine's is never read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import forest, typed_beside
from tests.helpers.git import commit_all, git, make_repo, pasted, write

LEAD = "to keep hooks out of commits: `"


def _set(root: Path, place: str, global_config: Path) -> str:
    """``core.hooksPath = .githooks`` in ``place``; the option the removal needs."""
    if place == "local":
        git(root, "config", "core.hooksPath", ".githooks")
        return ""
    if place == "global":
        global_config.write_text("[core]\n\thooksPath = .githooks\n")
        return f"--file {global_config}"
    if place == "included":
        write(root, ".git/hooks-path.conf", "[core]\n\thooksPath = .githooks\n")
        git(root, "config", "include.path", "hooks-path.conf")
        return "--file .git/hooks-path.conf"
    git(root, "config", "extensions.worktreeConfig", "true")
    git(root, "config", "--worktree", "core.hooksPath", ".githooks")
    return "--worktree"


@pytest.mark.parametrize("place", ["local", "global", "included", "worktree"])
def test_hooks_path_unset_step_where_set_pasted_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, place: str
) -> None:
    global_config = tmp_path / "global.gitconfig"
    global_config.write_text("")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(global_config))
    root = make_repo(tmp_path)
    commit_all(root, "start")
    option = _set(root, place, global_config)
    with typed_beside(root) as beside:
        monkeypatch.chdir(beside)
        shown = forest(Path("../repo"), "hooks", "status")
    assert shown.exit_code == 0, shown.stderr
    step = shown.stderr.split(LEAD, 1)[1].split("`", 1)[0]
    removal = " ".join(["git -C ../repo config", *option.split(), "--unset-all core.hooksPath"])
    assert step.startswith(f"{removal} && "), step
    assert step.endswith("forest -C ../repo hooks install")
    own = {"GIT_CONFIG_GLOBAL": str(global_config)}
    done = pasted(beside, step, env=own)
    assert done.returncode == 0, (step, done.stdout, done.stderr)
    assert "lies in the work tree" not in done.stderr
    assert pasted(root, "git config --get-all core.hooksPath", env=own).returncode == 1
    assert (root / ".git" / "hooks" / "pre-commit").exists()


def test_hooks_path_set_on_git_command_line_no_step_detected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A value set for git's process alone (``GIT_CONFIG_COUNT``) is in no file: no
    ``git config`` step would remove it, so none is printed, and the place is named."""
    root = make_repo(tmp_path)
    commit_all(root, "start")
    monkeypatch.setenv("GIT_CONFIG_COUNT", "3")
    monkeypatch.setenv("GIT_CONFIG_KEY_2", "core.hooksPath")
    monkeypatch.setenv("GIT_CONFIG_VALUE_2", ".githooks")
    shown = forest(root, "hooks", "status")
    assert shown.exit_code == 0, shown.stderr
    assert "remove core.hooksPath where it is set (command line: `git -c`" in shown.stderr
    assert "git config" not in shown.stderr
