"""What a user's shell or CI image exports that names a repository, an index, where
git looks for one, its home, or its language, changes no door's verdict.

The repository and doors of tests/gitio/user_config_repo.py (and test_user_config.py's
byte-identical comparison), with one variable exported in the shell each door runs
from. Wanted of each door: the outputs of a run without the variable, or a refusal
in one ``forest:`` line that names the variable to unset; never a verdict about
another repository, never a traceback. The hook's ``git commit`` is git's own run:
under a variable git itself obeys (a repository, an index, an object directory) it
commits elsewhere than ``root``, so only its lack of a traceback is asked.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.gitio.user_config_repo import Run, built, doors
from tests.helpers.git import git
from tests.helpers.template import isolated, reused

# Variables git itself obeys in the user's ``git commit`` (the hook door).
GIT_OBEYS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR")


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Run:
    with isolated():
        root = reused(("user_config",), tmp_path_factory.mktemp("clean") / "repo", built)
        return doors(root, {})


def _dotfiles(tmp: Path) -> Path:
    """A bare repository elsewhere, as a dotfiles setup keeps (``git init --bare``)."""
    bare = tmp / "dotfiles.git"
    git(tmp, "init", "-q", "--bare", str(bare))
    return bare


def _other_objects(tmp: Path) -> Path:
    other = tmp / "other"
    git(tmp, "init", "-q", str(other))
    return other / ".git"


# name → what it exports, given the test's directory and the repository's root.
Exports = Callable[[Path, Path], dict[str, str]]
CASES: dict[str, Exports] = {
    "GIT_DIR GIT_WORK_TREE (dotfiles)": lambda t, r: {
        "GIT_DIR": str(_dotfiles(t)),
        "GIT_WORK_TREE": str(t),
    },
    "GIT_DIR": lambda t, r: {"GIT_DIR": str(_dotfiles(t))},
    "GIT_INDEX_FILE (missing)": lambda t, r: {"GIT_INDEX_FILE": str(t / "shell-index")},
    "GIT_CEILING_DIRECTORIES (parent)": lambda t, r: {"GIT_CEILING_DIRECTORIES": str(r.parent)},
    "GIT_CEILING_DIRECTORIES (top)": lambda t, r: {"GIT_CEILING_DIRECTORIES": str(r)},
    "GIT_DISCOVERY_ACROSS_FILESYSTEM": lambda t, r: {"GIT_DISCOVERY_ACROSS_FILESYSTEM": "1"},
    "GIT_NAMESPACE": lambda t, r: {"GIT_NAMESPACE": "other"},
    "GIT_OBJECT_DIRECTORY": lambda t, r: {
        "GIT_OBJECT_DIRECTORY": str(_other_objects(t) / "objects")
    },
    "GIT_ALTERNATE_OBJECT_DIRECTORIES": lambda t, r: {
        "GIT_ALTERNATE_OBJECT_DIRECTORIES": str(_other_objects(t) / "objects")
    },
    "GIT_COMMON_DIR": lambda t, r: {"GIT_COMMON_DIR": str(_other_objects(t))},
    "HOME (no such directory)": lambda t, r: {"HOME": str(t / "nobody")},
    "LANG=C": lambda t, r: {"LANG": "C"},
    # C.UTF-8 is not "C" to gettext: LANGUAGE then translates git's messages.
    "LANGUAGE=de LC_ALL=C.UTF-8": lambda t, r: {"LANGUAGE": "de", "LC_ALL": "C.UTF-8"},
}
# The cases that once failed here run in the fast lane; every door runs per case.
FAST = {"GIT_INDEX_FILE (missing)", "GIT_CEILING_DIRECTORIES (top)"}


def judged_or_refused(got: Run, clean: Run, names: set[str]) -> list[str]:
    """Each door's departures from ``clean`` that are not a one-line ``forest:``
    refusal naming one of ``names`` (stdout may hold ``--format json``'s record)."""
    wanted = {door: rest for door, *rest in clean}
    faults = []
    obeyed = names & set(GIT_OBEYS)
    for door, code, out, err in got:
        if "Traceback" in out + err:
            faults.append(f"{door}: a traceback")
        elif (door == "git commit" and obeyed) or wanted.get(door) == [code, out, err]:
            continue
        elif code == 0 or len(err.splitlines()) != 1 or not err.startswith("forest:"):
            faults.append(f"{door}: {code} {out[-300:]!r} {err[-300:]!r}")
        elif not any(name in err for name in names):
            faults.append(f"{door}: refused without naming {sorted(names)}: {err!r}")
    return faults


def _cases() -> list[object]:
    return [
        pytest.param(name, id=name, marks=() if name in FAST else pytest.mark.slow)
        for name in CASES
    ]


@pytest.mark.parametrize("name", _cases())
def test_user_exported_repository_variable_judged_or_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean: Run, name: str
) -> None:
    """Before: ``GIT_INDEX_FILE`` exported in a shell and naming no file made ``forest
    check --staged`` judge an empty index ("forest.toml at the git index: missing; not
    a forest-files repository there (`forest init`)"); ``GIT_CEILING_DIRECTORIES``
    naming the work tree's top made ``forest ci --repo docs`` say "not inside a git
    repository (run `git init` first)"."""
    root = reused(("user_config",), tmp_path / "repo", built)
    exported = CASES[name](tmp_path, root)
    for key, value in exported.items():
        monkeypatch.setenv(key, value)
    assert judged_or_refused(doors(root, exported), clean, set(exported)) == []


@pytest.mark.slow
def test_user_home_unset_judged_as_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean: Run
) -> None:
    root = reused(("user_config",), tmp_path / "repo", built)
    monkeypatch.delenv("HOME", raising=False)
    assert judged_or_refused(doors(root, {}), clean, {"HOME"}) == []


@pytest.mark.slow
def test_user_xdg_config_settings_same_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean: Run
) -> None:
    """Round 2's settings in ``$XDG_CONFIG_HOME/git/config``, which git reads as the
    user's global config when ``GIT_CONFIG_GLOBAL`` is unset."""
    from tests.gitio.test_user_config import SETTINGS

    root = reused(("user_config",), tmp_path / "repo", built)
    cfg = tmp_path / "xdg" / "git" / "config"
    cfg.parent.mkdir(parents=True)
    cfg.touch()
    for key, value in SETTINGS:
        git(tmp_path, "config", "--file", str(cfg), "--add", key, value)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GIT_CONFIG_GLOBAL")
    listed = subprocess.run(
        ["git", "config", "--global", "--get", "log.follow"], capture_output=True, text=True
    )
    assert listed.stdout.strip() == "true"  # git reads it
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path / "home")}
    assert doors(root, env, drop=("GIT_CONFIG_GLOBAL",)) == clean
