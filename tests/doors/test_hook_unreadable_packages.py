"""The installed hook, committed through by a user whose interpreter runs but who may
not read the packages it imports forest-files from (a venv under another user's
``0700`` home reached through a shared interpreter, a ``pip install`` left at mode
``0700`` by ``sudo``), as a user who is not root (tests/helpers/unprivileged.py): the
commit is refused, and the line names what is closed to that user, with the fix;
"reinstall" is kept for a forest-files that is not there."""

from __future__ import annotations

import os
import sysconfig
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from forest_files.doors import hooks as githooks
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.unprivileged import (
    hand_over,
    open_folder,
    run_as_user,
    unprivileged_bin,
    venv_at,
)

DOC = "# Doc\n\nThe sky is blue.\n"


@pytest.fixture
def shared(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path, Path]]:
    """(repo with doc.md adopted, the site-packages of the venv its hook names (this
    venv's, by a symlink), the unprivileged user's bin folder)."""
    del monkeypatch  # the autouse isolation has run: git is the fixed test git
    with open_folder() as folder:
        bin_dir = unprivileged_bin(folder)
        base = Path(os.path.realpath(bin_dir / "python3"))
        venv = folder / "installed"
        venv_at(venv, base, Path(sysconfig.get_paths()["purelib"]))
        [site] = (venv / "lib").glob("python*/site-packages")
        repo = make_repo(folder, "repo")
        write(repo, "doc.md", DOC)
        init_and_adopt(repo, ["doc.md"])
        commit_all(repo, "adopt")
        githooks.install(repo, python=str(venv / "bin" / "python3"))
        hand_over(repo)
        try:
            yield repo, site, bin_dir
        finally:
            for top, dirs, files in os.walk(venv):
                for name in [*dirs, *files]:
                    path = os.path.join(top, name)
                    if not os.path.islink(path):
                        os.chmod(path, 0o755)
            (venv / "lib").chmod(0o755)


def _commit(repo: Path, bin_dir: Path, text: str) -> tuple[int, str]:
    done = run_as_user(
        repo, f"printf '{text}' > doc.md && git add doc.md && git commit -q -m edit", bin_dir
    )
    return done.returncode, done.stderr


def _stub(site: Path) -> Path:
    """A site-packages of its own holding a ``forest_files`` folder (not this venv's)."""
    site.unlink()
    (site / "forest_files").mkdir(parents=True)
    site.chmod(0o755)
    return site / "forest_files"


def _close_lib(site: Path) -> Path:
    site.parent.parent.chmod(0)  # the venv's lib/: closed to every user but root
    return site


def _close_package(site: Path) -> Path:
    package = _stub(site)
    package.chmod(0)
    return package


def _close_init(site: Path) -> Path:
    init = _stub(site) / "__init__.py"
    init.write_text("")
    init.chmod(0)
    return init


CLOSED: dict[str, Callable[[Path], Path]] = {
    "lib-folder": _close_lib,
    "package-folder": _close_package,
    "package-file": _close_init,
}


def test_hook_packages_in_reach_judges_refused(shared: tuple[Path, Path, Path]) -> None:
    """The setting itself: with its packages open the hook runs forest and refuses drift."""
    repo, _site, bin_dir = shared
    code, said = _commit(repo, bin_dir, DOC.replace("blue", "green"))
    assert code == 1 and "drift" in said, said


@pytest.mark.parametrize("case", sorted(CLOSED))
def test_hook_packages_out_of_reach_says_so_refused(
    shared: tuple[Path, Path, Path], case: str
) -> None:
    """The interpreter runs, what it imports forest_files from is closed to this user:
    refused (even a clean commit: forest could not run), and not "reinstall": the line
    names the closed path and the fix the unreachable interpreter's line gives."""
    repo, site, bin_dir = shared
    closed = CLOSED[case](site)
    code, said = _commit(repo, bin_dir, DOC)
    assert code == 1, said
    [line] = said.strip().splitlines()
    assert "reinstall" not in line, line
    assert f"may not read {closed} " in line, line
    assert "the user who installed forest-files" in line, line
    assert line.endswith("forest hooks install"), line


def test_hook_package_missing_says_reinstall_refused(shared: tuple[Path, Path, Path]) -> None:
    """forest-files not installed for that interpreter at all (an empty site-packages):
    "not importable", with the reinstall."""
    repo, site, bin_dir = shared
    _stub(site).rmdir()
    code, said = _commit(repo, bin_dir, DOC)
    assert code == 1, said
    assert "is not importable" in said and "reinstall forest-files" in said, said
    assert "may not read" not in said, said
