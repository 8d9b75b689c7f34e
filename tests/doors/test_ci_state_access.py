"""``forest ci`` on a ``.git/forest`` the user may not write, as a user who is not root
meets it (tests/helpers/unprivileged.py): a read-only one the user owns, and one left by
``sudo forest ci`` in a fresh clone handed to the user. One refusal, whose fix pasted is
all it takes: the next ``forest ci`` passes with nothing more to say (before: a refusal
for ``views``, then one for ``.git/forest``'s temporary files, then a warning for the
audit log; the root-owned one told a ``chmod`` of a folder the user cannot even look
into, again and again)."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.helpers.git import git_env
from tests.helpers.places import module_place
from tests.helpers.unprivileged import as_root, hand_over, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"


place = module_place({"doc.md": DOC}, "doc.md")


def _clone(base: Path, name: str, *, hand: bool = True) -> tuple[Path, Path]:
    """A fresh clone of ``base`` beside it (no ``.git/forest`` yet), handed to the user
    unless ``hand`` is False, and its state folder's path."""
    repo = base.with_name(name)
    subprocess.run(["git", "clone", "-q", str(base), str(repo)], check=True, env=git_env())
    if hand:
        hand_over(repo)
    return repo, repo / ".git" / "forest"


def _one_refusal(repo: Path, bin_dir: Path) -> str:
    done = run_as_user(repo, "forest ci", bin_dir)
    assert done.returncode == 1, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("forest: cannot "), line
    return line


def _fix(line: str) -> str:
    """The command after the last ``; `` (or ``: ``) and before ``, then run``."""
    return line.split(", then run")[0].rsplit("; ", 1)[-1].rsplit(": ", 1)[-1]


def _passes(repo: Path, bin_dir: Path) -> None:
    done = run_as_user(repo, "forest ci", bin_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == "", done.stderr  # no second refusal, no audit warning


def test_ci_read_only_state_one_chmod_pasted_recovers(place: tuple[Path, Path]) -> None:
    """A state folder the user owns, made ``0555``/``0444`` after a first run: one line
    naming ``chmod -R u+rwX .git/forest``, which pasted lets ``forest ci`` pass."""
    base, bin_dir = place
    repo, state = _clone(base, "ci-read-only")
    first = run_as_user(repo, "forest ci", bin_dir)
    assert first.returncode == 0, first.stdout + first.stderr
    for path in [state, *state.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    line = _one_refusal(repo, bin_dir)
    assert shlex.split(_fix(line)) == ["chmod", "-R", "u+rwX", str(state)], line
    fixed = run_as_user(repo, _fix(line), bin_dir)
    assert fixed.returncode == 0, fixed.stderr
    _passes(repo, bin_dir)


def test_ci_root_owned_state_one_chown_recovers(place: tuple[Path, Path]) -> None:
    """``sudo forest ci`` once in a fresh clone handed to the user: its ``.git/forest``
    (``0700``, root's) refused in one line naming ``sudo chown -R "$(id -un)"
    .git/forest``; that chown (done here as root for the user) lets ``forest ci`` pass."""
    if not as_root():
        pytest.skip("only root can leave .git/forest to root")
    base, bin_dir = place
    repo, state = _clone(base, "ci-root-owned", hand=False)
    env = {**os.environ, **git_env(), "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    by_root = subprocess.run(["forest", "ci"], cwd=repo, env=env, capture_output=True, text=True)
    assert by_root.returncode == 0, by_root.stdout + by_root.stderr
    made = [state, *state.rglob("*")]
    hand_over(repo)  # the clone the user's, the state folder root's as the run left it
    for path in made:
        os.lchown(path, 0, 0)
    line = _one_refusal(repo, bin_dir)
    assert shlex.split(_fix(line)) == ["sudo", "chown", "-R", "$(id -un)", str(state)], line
    for top, dirs, files in os.walk(state):  # the chown, as root for the user
        for name in [top, *(os.path.join(top, n) for n in dirs + files)]:
            os.lchown(name, 65534, 65534)
    _passes(repo, bin_dir)
