"""A repository another user owns: git refuses it ("detected dubious ownership") until
``safe.directory`` names it.

Every door said git's three lines run together, ``git rev-parse failed: fatal: …
call: git config --global --add safe.directory PATH``; for a path holding a newline or
a byte that is not UTF-8 the command came out naming another path (a space, the four
characters ``\\xe9``), and pasted it trusted a directory that is not this one: git still
refused. Now one ``forest:`` line names the repository and the command, its path quoted
as every route's is (gitio/ownership.py); pasted, git opens the repository. Run as
``nobody`` on a repository root made (tests/helpers/unprivileged.py), and as root on
one ``nobody`` owns; the refusal writes nothing.

A repository whose work tree the user owns but whose git directory another user
(root, after a ``sudo git clone`` into the user's folder) does, or the reverse, was
told the same ``safe.directory``: trusting one's own repository, with root's files
still in ``.git``. Now the line names the repair first, ``sudo chown -R "$(id -un)"``
of the part another user owns, and ``safe.directory`` only for a repository that
really is another user's.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from forest_files.gitio.ownership import dubious_ownership
from tests.helpers.git import pasted
from tests.helpers.lanes import lanes
from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    NOBODY,
    handed_copy,
    run_as_user,
)

NAMES = {"quote": "my repo's", "not-utf8": "caf\udce9", "newline": "nl\nrepo"}


place = module_place(
    {"doc.md": "# Doc\n\nThe sky is blue.\n"},
    "doc.md",
    only_root="only root can make a repository another user owns",
)


def _files(root: Path) -> dict[str, tuple[int, bytes]]:
    """Every file and folder under ``root`` (``.git`` too): its mode and bytes."""
    out = {}
    for path in sorted([root, *root.rglob("*")]):
        st = path.lstat()
        out[str(path)] = (st.st_mode, path.read_bytes() if path.is_file() else b"")
    return out


def _config_home(base: Path) -> Path:
    """A global git config file the unprivileged user may write (none yet)."""
    home = base.parent / "home"
    home.mkdir(exist_ok=True)
    os.chown(home, NOBODY, NOBODY)
    config = home / "gitconfig"
    config.unlink(missing_ok=True)
    return config


def _command(said: str) -> str:
    """The command the refusal names, between its backticks."""
    assert said.count("`") == 2, said
    return said.split("`")[1]


@pytest.mark.parametrize("case", lanes(sorted(NAMES), fast={"newline"}))
def test_repo_of_another_user_refused_trust_pasted_recovers(
    place: tuple[Path, Path], case: str
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, NAMES[case], hand=False)  # root's: another user's to nobody
    config = _config_home(base)
    before = _files(repo)
    done = run_as_user(repo, f"GIT_CONFIG_GLOBAL={config} forest check", bin_dir)
    said = done.stderr + done.stdout
    assert done.returncode == 1, said
    assert said.count("\n") == 1 and said.startswith("forest: git refuses the repository"), said
    assert "safe.directory" in said and "Traceback" not in said, said
    assert "chown" not in said, said  # both parts another user's: no repair of ours
    assert _files(repo) == before and not config.exists()
    trust = _command(said)
    assert trust.startswith("git config --global --add safe.directory "), trust
    typed = f"GIT_CONFIG_GLOBAL={config} bash -c {shlex.quote(trust)}"
    assert run_as_user(repo, typed, bin_dir).returncode == 0
    opened = run_as_user(repo, f"GIT_CONFIG_GLOBAL={config} git rev-parse --git-dir", bin_dir)
    assert opened.returncode == 0, opened.stderr


def test_repo_of_unprivileged_user_as_root_refused_trust_pasted_recovers(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """The reverse: root's ``forest check --staged`` in a repository ``nobody`` owns."""
    base, _ = place
    repo = handed_copy(base, "nobody's repo")
    env = {"GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig")}
    before = _files(repo)
    done = pasted(repo, "forest check --staged", env=env)
    said = done.stderr + done.stdout
    assert done.returncode == 1 and said.startswith("forest: git refuses the repository"), said
    assert said.count("\n") == 1 and _files(repo) == before, said
    assert pasted(repo, _command(said), env=env).returncode == 0
    assert pasted(repo, "forest check --staged", env=env).returncode == 0


# the part root owns, the shell the repair is pasted into, the repository's name (a
# newline only for bash: sh has no one-line spelling of it)
SPLIT = {
    "git-dir-sh": (".git", "sh", "ada's repo"),
    "git-dir-bash": (".git", "bash", "ada\nrepo"),
    "work-tree-sh": (".", "sh", "bo's repo"),
    "work-tree-bash": (".", "bash", "bo\nrepo"),
}


def _commands(said: str) -> list[str]:
    """Each command the refusal names, between backticks."""
    assert said.count("`") % 2 == 0, said
    return said.split("`")[1::2]


def _as_typed_by_nobody(
    command: str, shell: str, sudo: str = '"$@"'
) -> subprocess.CompletedProcess[str]:
    """``command`` pasted into ``shell`` (bash, sh) as ``nobody`` would, its ``sudo``
    granted: run as root, the function ``sudo`` runs ``sudo`` (by default the words
    after it) and ``id`` answers for ``nobody`` (whose shell expands ``$(id -un)``
    before ``sudo`` starts)."""
    granted = f'sudo() {{ {sudo}; }}; id() {{ command id "$@" nobody; }}; '
    return subprocess.run(
        [shell, "-c", granted + command], capture_output=True, text=True, check=False
    )


def _sudo_words(command: str, shell: str) -> list[str]:
    """The words ``shell`` hands ``sudo`` for ``command`` typed by ``nobody``."""
    done = _as_typed_by_nobody(command, shell, sudo="printf '%s\\0' \"$@\"")
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\0")[:-1]


@pytest.mark.parametrize("case", lanes(sorted(SPLIT), fast={"git-dir-sh", "git-dir-bash"}))
def test_repo_split_between_users_refused_chown_pasted_recovers(
    place: tuple[Path, Path], case: str
) -> None:
    """``nobody``'s work tree with root's ``.git`` (a ``sudo git clone`` into the user's
    folder), and the reverse: ``forest check`` as ``nobody`` names the ``sudo chown``
    of root's part first, ``safe.directory`` after it only as the alternative; the
    chown pasted (bash, sh), git opens the repository and ``forest check`` passes."""
    base, bin_dir = place
    part, shell, name = SPLIT[case]
    repo = handed_copy(base, name)
    owned = repo / part  # the work tree: its folder alone; .git: all of it, as a sudo
    for each in [owned, *(owned.rglob("*") if part == ".git" else ())]:  # git clone does
        os.lchown(each, 0, 0)
    config = _config_home(base)
    before = _files(repo)
    done = run_as_user(repo, f"GIT_CONFIG_GLOBAL={config} forest check", bin_dir)
    said = done.stderr + done.stdout
    assert done.returncode == 1 and said.count("\n") == 1, said
    assert said.startswith("forest: git refuses the repository"), said
    assert _files(repo) == before and not config.exists()
    repair, trust = _commands(said)
    assert _sudo_words(repair, shell) == ["chown", "-R", "nobody", str(owned)], said
    assert trust.startswith("git config --global --add safe.directory "), said
    assert said.index(repair) < said.index(trust), said
    assert _as_typed_by_nobody(repair, shell).returncode == 0
    assert all(p.lstat().st_uid == NOBODY for p in [repo, *repo.rglob("*")])
    checked = run_as_user(repo, f"GIT_CONFIG_GLOBAL={config} forest check", bin_dir)
    assert checked.returncode == 0, checked.stderr
    assert not config.exists()


def test_dubious_ownership_owners_report_detected() -> None:
    """git 2.40 and later put the owners between the first line and the advice: the
    path is still read whole (here one holding ``'`` and a newline), and the command
    names it, pasted into bash."""
    path = "/srv/a'\nb"
    err = (
        f"fatal: detected dubious ownership in repository at '{path}'\n"
        f"'{path}' is owned by:\n\troot (0)\nbut the current user is:\n\tada (1000)\n"
        "To add an exception for this directory, call:\n\n"
        "\tgit config --global --add safe.directory '/srv/a'\\''\nb'\n"
    )
    said = dubious_ownership(err)
    assert said is not None and "repository at /srv/a'\\x0ab: another user" in said, said
    word = _command(said).removeprefix("git config --global --add safe.directory ")
    echoed = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, check=True)
    assert echoed.stdout.decode() == path
    assert dubious_ownership("fatal: not a git repository (or any of the parent") is None
