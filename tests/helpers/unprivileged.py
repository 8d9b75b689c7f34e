"""Commands run as a user who is not root, so a mode (``chmod 0555``, ``000``) binds.

The suite runs as root in CI containers, where permission bits change nothing. As
root, with ``setpriv`` on PATH, a command runs as ``nobody`` (uid and gid 65534, no
groups); not as root, it runs directly and the test's own ``chmod`` binds. The
interpreter must then be one that user can reach: the running one when it can, or
else a small venv made in a ``0755`` folder (its ``python3`` the system's interpreter
of the same version, its site-packages this venv's), since a venv whose base lives
under ``/root`` (pyenv) is out of ``nobody``'s reach. Where neither works, the test
is skipped with the reason, never passed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.git import git_env

NOBODY = 65534
SUDO = {"SUDO_UID": str(NOBODY)}  # root's commands as ``sudo forest`` by that user
_AS_NOBODY = ("--reuid=65534", "--regid=65534", "--clear-groups")


def as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _prefix() -> list[str]:
    if not as_root():
        return []
    tool = shutil.which("setpriv")
    if tool is None:
        pytest.skip("tests run as root and setpriv is missing: no unprivileged user to run as")
    return [tool, *_AS_NOBODY]


def _reaches(python: str) -> bool:
    """Whether the unprivileged user can run ``python`` through a shell (as a hook's
    ``#!`` line does) and import forest_files with it."""
    probe = f'"{python}" -c "import forest_files" 2>/dev/null'
    done = subprocess.run(
        [*_prefix(), "sh", "-c", probe], cwd="/", capture_output=True, check=False
    )
    return done.returncode == 0


def _shim(folder: Path) -> Path | None:
    """A venv at ``folder`` the unprivileged user can run: the system's interpreter of
    this version, this venv's site-packages (the editable forest-files in it)."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    base = shutil.which(f"python{version}", path="/usr/bin:/usr/local/bin:/bin")
    site = Path(sysconfig.get_paths()["purelib"])
    if base is None:
        return None
    python = venv_at(folder, Path(base), site) / "python3"
    script = folder / "bin" / "forest"
    script.write_text(
        f"#!{python}\nimport sys\nfrom forest_files.doors.entry import main\nsys.exit(main())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return folder / "bin"


def venv_at(folder: Path, base: Path, site: Path) -> Path:
    """A venv at ``folder`` (made here): ``base`` (an interpreter the unprivileged user
    runs, symlinks resolved) its ``python3``, ``site`` its site-packages (a symlink);
    every folder ``0755``. Returns its bin folder."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    (folder / "bin").mkdir(parents=True)
    (folder / "lib" / f"python{version}").mkdir(parents=True)
    (folder / "lib" / f"python{version}" / "site-packages").symlink_to(site)
    (folder / "bin" / "python3").symlink_to(base)
    (folder / "pyvenv.cfg").write_text(
        f"home = {base.parent}\ninclude-system-site-packages = false\n", encoding="utf-8"
    )
    for path in (folder, folder / "bin", folder / "lib", folder / "lib" / f"python{version}"):
        path.chmod(0o755)
    return folder / "bin"


@contextmanager
def open_folder() -> Iterator[Path]:
    """A new ``0755`` folder under the system's temporary directory, reachable by the
    unprivileged user (pytest's own temporary root is ``0700``); removed after."""
    folder = Path(tempfile.mkdtemp(prefix="forest-unprivileged-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for top, _dirs, _files in os.walk(folder):  # a test's 0555 folder: emptied too
            os.chmod(top, 0o755)
        shutil.rmtree(folder, ignore_errors=True)


def unprivileged_bin(folder: Path) -> Path:
    """The folder holding ``python3`` and ``forest`` the unprivileged user runs (this
    venv's when it can reach it, else a shim made under ``folder``); skips the test when
    there is none."""
    own = Path(sys.executable).parent
    if _reaches(str(own / "python3")):
        return own
    made = _shim(folder / "venv")
    if made is None or not _reaches(str(made / "python3")):
        pytest.skip(f"the unprivileged user can reach neither {own} nor a system python")
    return made


@contextmanager
def adopted_place(
    files: dict[str, str], *adopt: str, words: str = "the doc"
) -> Iterator[tuple[Path, Path]]:
    """A repository with ``files`` committed and ``adopt`` adopted and committed, in a
    folder the unprivileged user reaches (``open_folder``), and the bin folder that user
    runs forest from: a module's set-up, copied per test (``handed_copy``)."""
    from tests.helpers.cli import ok
    from tests.helpers.git import commit_all, isolate, make_repo, write

    with open_folder() as folder, pytest.MonkeyPatch.context() as patch:
        isolate(patch)  # the function-scoped autouse isolation comes after a module fixture
        bin_dir = unprivileged_bin(folder)
        repo = make_repo(folder, "base")
        ok(repo, "init")
        for name, text in files.items():
            write(repo, name, text)
        commit_all(repo, "init")
        ok(repo, "adopt", *adopt, "--words", words)
        commit_all(repo, "adopt")
        yield repo, bin_dir


def handed_copy(base: Path, name: str, *, hand: bool = True) -> Path:
    """A copy of ``base`` beside it named ``name``, handed to the unprivileged user
    (``hand_over``) unless ``hand`` is False."""
    repo = base.with_name(name)
    shutil.copytree(base, repo, symlinks=True)
    if hand:
        hand_over(repo)
    return repo


def hand_over(path: Path) -> None:
    """``path`` and everything under it owned by the unprivileged user (as root only)."""
    if not as_root():
        return
    for top, dirs, files in os.walk(path):
        for name in [top, *(os.path.join(top, n) for n in dirs + files)]:
            os.lchown(name, NOBODY, NOBODY)


def run_as_user(cwd: Path, command: str, bin_dir: Path) -> subprocess.CompletedProcess[str]:
    """``command`` typed into ``sh`` in ``cwd`` by the unprivileged user, with ``bin_dir``
    first on PATH and the fixed test git."""
    env = {
        **os.environ,
        **git_env(),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(cwd.parent),
    }
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "PYTHONPATH"):
        env.pop(name, None)
    return subprocess.run(
        [*_prefix(), "sh", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def script_beside(repo: Path, name: str, text: str) -> Path:
    """``text`` written as the script ``name`` beside ``repo`` (in the ``0755`` folder
    ``open_folder`` made), readable by the unprivileged user; its path."""
    script = repo.parent / name
    script.write_text(text, encoding="utf-8")
    script.chmod(0o644)
    return script


def as_root_with_owner(repo: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Root's ``forest`` run in ``repo`` under ``SUDO_UID`` as ``script`` (a child whose
    audit hook plays the repository's owner at the moment it names), to its end."""
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=repo,
        env={**os.environ, **git_env(), **SUDO},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
