"""The installed hooks run only installed code: the interpreter starts with ``-E -P``,
so neither the repository it runs in (a committed ``forest_files/`` package, a
``json.py`` at its root) nor ``PYTHONPATH`` / ``PYTHONSTARTUP`` put code in front of
the installed package; a ``pip install --user`` still serves it (not ``-s``, not
``-I``). An older (v1) hook is ours: ``forest hooks install`` upgrades it,
``forest hooks status`` names it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.doors import hooks as githooks
from tests.helpers.cli import forest
from tests.helpers.custody import DOC, init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.source import source_copy

EDITED = DOC.replace("kept words", "edited words")


@pytest.fixture
def guarded(tmp_path: Path) -> Path:
    """``a.md#Keep`` bound and committed, the hooks installed for this interpreter."""
    root = make_repo(tmp_path, "repo")
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#Keep"])
    commit_all(root, "adopt")
    githooks.install(root)
    return root


def run_git(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args],
        cwd=root,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
    )


def plant(where: Path, marker: Path) -> None:
    """A ``forest_files`` package shadowing the hook's own module, and ``json.py``:
    each leaves ``marker`` when imported."""
    code = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    for name in (
        "json.py",
        "forest_files/__init__.py",
        "forest_files/doors/__init__.py",
        "forest_files/doors/hooks/__init__.py",
        "forest_files/doors/hooks/run.py",
        "startup.py",
    ):
        write(where, name, code)


def drift_refused(root: Path, env: dict[str, str] | None = None) -> None:
    write(root, "a.md", EDITED)
    refused = run_git(root, "commit", "-qam", "drift", env=env)
    assert refused.returncode == 1 and "drifted a.md#Title/Keep" in refused.stderr, refused.stderr
    write(root, "a.md", DOC)


def test_hook_repository_modules_never_imported_on_commit_and_checkout_refused(
    guarded: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "imported"
    plant(guarded, marker)
    added = run_git(guarded, "add", "-A")
    assert added.returncode == 0, added.stderr
    committed = run_git(guarded, "commit", "-qm", "a forest_files package and json.py")
    assert committed.returncode == 0, committed.stderr
    drift_refused(guarded)
    for args in (("checkout", "-q", "-b", "side"), ("checkout", "-q", "main")):
        moved = run_git(guarded, *args)  # post-checkout runs
        assert moved.returncode == 0 and "forest-files" not in moved.stderr, moved.stderr
    assert not marker.exists(), marker.read_text()


def test_hook_pythonpath_and_pythonstartup_ignored_refused(guarded: Path, tmp_path: Path) -> None:
    trap, marker = tmp_path / "trap", tmp_path / "imported"
    plant(trap, marker)
    env = {"PYTHONPATH": str(trap), "PYTHONSTARTUP": str(trap / "startup.py")}
    drift_refused(guarded, env)
    write(guarded, "b.md", "unbound\n")
    run_git(guarded, "add", "b.md")
    accepted = run_git(guarded, "commit", "-qm", "unbound", env=env)
    assert accepted.returncode == 0, accepted.stderr
    assert not marker.exists(), marker.read_text()


def _as_v1(script: Path) -> None:
    """The script as the v1 installer wrote it: its marker, no ``-E -P``."""
    text = script.read_text(encoding="utf-8")
    old = text.replace(githooks.MARKER, "forest-files-hook v1").replace(" -E -P -c", " -c")
    assert old != text
    script.write_text(old, encoding="utf-8")


def test_hook_v1_upgraded_by_install_and_named_by_status_accepted(guarded: Path) -> None:
    folder = Path(githooks.status(guarded)[0].path).parent
    for name in ("pre-commit", "post-checkout"):
        _as_v1(folder / name)
    states = {s.name: s for s in githooks.status(guarded)}
    assert states["pre-commit"].state == "ours" and states["pre-commit"].outdated
    assert states["pre-commit"].version == 1 and not states["post-merge"].outdated
    shown = forest(guarded, "hooks", "status")
    assert shown.exit_code == 0
    assert (
        "forest: older forest-files hooks: pre-commit (v1), post-checkout (v1); "
        "run: forest hooks install"
    ) in shown.stderr
    installed = forest(guarded, "hooks", "install")
    assert installed.exit_code == 0, installed.output
    assert not list(folder.glob("*.forest-chained"))  # a v1 hook is ours, not foreign
    assert all(s.state == "ours" and s.version == 2 for s in githooks.status(guarded))
    assert " -E -P -c " in (folder / "pre-commit").read_text(encoding="utf-8")
    assert "older" not in forest(guarded, "hooks", "status").stderr


def _user_python() -> str:
    """An interpreter with a user site: this one's base when it runs in a venv."""
    if sys.prefix == sys.base_prefix:
        return sys.executable
    name = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (
        Path(sys.base_prefix) / "bin" / name,
        Path(sys.base_prefix) / "bin" / "python3",
    ):
        if candidate.exists():
            return str(candidate)
    pytest.skip("no base interpreter beside this venv")


@pytest.mark.slow
def test_hook_from_a_user_site_install_accepted(guarded: Path, tmp_path: Path) -> None:
    """``pip install --user`` of forest-files (HOME pointed at a temp dir; the
    dependencies reached through a ``.pth`` in the user site, forest_files itself
    only from the user install): the ``-E -P`` hook still finds it."""
    python, home = _user_python(), tmp_path / "home"
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "VIRTUAL_ENV"
    } | {"HOME": str(home)}
    probe = [python, "-E", "-c", "import site; print(site.ENABLE_USER_SITE, site.USER_SITE)"]
    enabled, user_site = subprocess.run(
        probe, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    if enabled != "True":
        pytest.skip(f"{python} has no user site")
    src = source_copy(tmp_path / "src")  # a copy: pip builds in the tree it is given
    pip = [python, "-m", "pip", "install", "-q", "--user", "--no-deps", str(src)]
    built = subprocess.run(pip, env=env, capture_output=True, text=True, check=False)
    if built.returncode != 0:
        pytest.skip(f"pip install --user failed here: {built.stderr.strip()[-300:]}")
    deps = tmp_path / "deps"  # this venv's packages, without forest-files
    deps.mkdir()
    import pyromark

    site_packages = Path(pyromark.__file__).resolve().parents[1]
    for entry in site_packages.iterdir():
        if not entry.name.startswith(("forest_files", "__editable__", "_forest")):
            (deps / entry.name).symlink_to(entry)
    Path(user_site, "deps.pth").write_text(f"{deps}\n", encoding="utf-8")
    where = subprocess.run(
        [python, "-E", "-P", "-c", "import forest_files; print(forest_files.__file__)"],
        cwd=guarded,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert where.stdout.startswith(user_site), where.stderr
    githooks.install(guarded, python=python)
    drift_refused(guarded, {"HOME": str(home)})
    write(guarded, "b.md", "unbound\n")
    git(guarded, "add", "b.md")
    accepted = run_git(guarded, "commit", "-qm", "unbound", env={"HOME": str(home)})
    assert accepted.returncode == 0, accepted.stderr
