"""Every route every door prints works when pasted into a real shell.

For each finding kind a door reports, the test builds the situation in a scratch
repository, reads the routes the door printed (``forest check --json``,
``forest check --staged --json``, the pre-commit hook's text, ``forest ci --format
json``), and pastes each route through ``bash -c`` — first as printed (a route that
needs the user's words must be refused, naming what to write), then with the words
filled in (it must succeed and leave that binding clean for that door).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.doors.cli import app
from tests.helpers.custody import BY, supersede_as_it_stands
from tests.helpers.git import commit_all, git, git_env, make_repo, write

DOC = "# Canon\n\n## Rules\n\nfirst rule stands\n\n## Other\n\nother\n"
WORDS = "Checked by hand and right"
# a Nygard ADR adopted whole with its Status section left out of the hash
ADR = "# 1. Decide\n\n## Status\n\nAccepted\n\n## Decision\n\nwe decide\n"
runner = CliRunner()


def _shim(tmp: Path) -> dict[str, str]:
    """PATH with ``forest`` and ``forest-hook`` running this checkout's code."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, module in (
        ("forest", "forest_files.doors.entry"),
        ("forest-hook", "forest_files.doors.hooks.run"),
    ):
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m {module} "$@"\n')
        script.chmod(0o755)
    return {**os.environ, **git_env(), "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def sh(root: Path, env: dict[str, str], command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def _base(tmp: Path, name: str) -> Path:
    root = make_repo(tmp)
    write(root, name, DOC)
    write(root, "whole.md", "# Whole\n\nall of it\n")
    write(root, "adr.md", ADR)
    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_section

    with Repository.init(root, project_id="p") as repo:
        sections = [
            read_section(root, t, (), max_bytes=1 << 20) for t in (f"{name}#Rules", "whole.md")
        ]
        sections.append(read_section(root, "adr.md", ("#Status",), max_bytes=1 << 20))
        adopt_sections(repo, sections, words="adopt", by=BY)
    commit_all(root, "adopt")
    return root


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path, str], Path]:
    """``base(dest, name)``: a copy (its own ``.git``, nothing shared) of the adopted
    repository ``_base`` builds, built once per name for the whole module."""
    built: dict[str, Path] = {}

    def _copy(dest: Path, name: str) -> Path:
        if name not in built:
            built[name] = _base(tmp_path_factory.mktemp("base"), name)
        dest.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copytree(built[name], dest / "repo", symlinks=True))

    return _copy


# -- situations: each returns the door that reports it ------------------------------


def drifted(root: Path, name: str) -> str:
    text = (root / name).read_text().replace("first rule stands", "first rule bends")
    write(root, name, text)
    return "check"


def drifted_staged(root: Path, name: str) -> str:
    drifted(root, name)
    git(root, "add", "--", name)
    return "hook"


def missing_uncommitted(root: Path, name: str) -> str:
    (root / name).unlink()
    return "check"


def missing_committed(root: Path, name: str) -> str:
    git(root, "rm", "-q", "--", name)
    git(root, "commit", "-q", "--no-verify", "-m", "deleted")
    return "check"


def whole_missing_committed(root: Path, name: str) -> str:
    del name
    git(root, "rm", "-q", "--", "whole.md")
    git(root, "commit", "-q", "--no-verify", "-m", "deleted")
    return "ci"


def excluded_missing_committed(root: Path, name: str) -> str:
    """A whole-file binding with an exclusion, its file deleted in a commit: restore
    cannot write back the parts ground leaves out, so the route is git's copy."""
    del name
    git(root, "rm", "-q", "--", "adr.md")
    git(root, "commit", "-q", "--no-verify", "-m", "deleted")
    return "ci"


def moved(root: Path, name: str) -> str:
    git(root, "mv", "--", name, f"moved-{name}")
    return "check"


def symlinked(root: Path, name: str) -> str:
    write(root, "copy.md", (root / name).read_text())
    (root / name).unlink()
    os.symlink("copy.md", root / name)
    return "check"


def drifted_in_ci(root: Path, name: str) -> str:
    drifted(root, name)
    git(root, "commit", "-q", "--no-verify", "-am", "silent edit")
    return "ci"


SITUATIONS: dict[str, Callable[[Path, str], str]] = {
    "drifted": drifted,
    "drifted-staged": drifted_staged,
    "missing-uncommitted": missing_uncommitted,
    "missing-committed": missing_committed,
    "whole-missing-committed": whole_missing_committed,
    "excluded-missing-committed": excluded_missing_committed,
    "moved": moved,
    "symlink": symlinked,
    "drifted-ci": drifted_in_ci,
}
NAMES = ["canon.md", "it's ŝpace $(touch pwned) `touch pwned2`.md", "-dash.md"]


def _routes(root: Path, env: dict[str, str], door: str) -> list[str]:
    """The commands of every failing finding's routes, as the door printed them."""
    if door == "check":
        proc = sh(root, env, "forest check --json")
        doc = json.loads(proc.stdout)
        return [r["command"] for f in doc["findings"] for r in f["routes"] if r["command"]]
    if door == "hook":
        proc = sh(root, env, "forest-hook pre-commit")
        assert proc.returncode == 1, proc.stderr
        commands = []
        for line in proc.stderr.splitlines():
            label, sep, rest = line.strip().partition(": ")
            if (sep and line.startswith("  ") and " " in label) or label in (
                "restore ground",
                "adopt the change",
            ):
                commands.append(rest.split("  (")[0])
        return [c for c in commands if c.startswith(("forest ", "git ", "rm "))]
    proc = _ci(root, "--format", "json")
    doc = json.loads(proc.stdout)  # the same schema and routes as forest check --json
    return [r["command"] for f in doc["findings"] for r in f["routes"] if r["command"]]


def _ci(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``forest ci ARGS`` in ``root``, in this process: the gate's verdict and the routes
    it prints are the subject, not its process (the routes themselves go through bash)."""
    with contextlib.chdir(root):
        result = runner.invoke(app, ["ci", *args])
    return subprocess.CompletedProcess(
        ["ci", *args], result.exit_code, result.stdout, result.stderr
    )


def _clean(root: Path, env: dict[str, str], door: str) -> bool:
    if door == "hook":
        return sh(root, env, "forest-hook pre-commit").returncode == 0
    if door == "ci":
        if sh(root, env, "forest check --rev HEAD").returncode == 0:
            return True
        committed = sh(root, env, "git add -A && git commit -q --no-verify -m route")
        return committed.returncode == 0 and _ci(root).returncode == 0
    return sh(root, env, "forest check").returncode == 0


# The plain name's routes need no quoting and no ``--``: the hostile name (quoted) covers
# the quoting in the fast lane; the plain and dash names (bare, after ``--``) run in the
# slow lane (.ci/run runs every one).
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(NAMES[0], marks=pytest.mark.slow),
        NAMES[1],
        pytest.param(NAMES[2], marks=pytest.mark.slow),
    ],
    ids=["plain", "hostile", "dash"],
)
@pytest.mark.parametrize("situation", list(SITUATIONS))
def test_every_printed_route_pasted_works(
    tmp_path: Path, base: Callable[[Path, str], Path], situation: str, name: str
) -> None:
    env = _shim(tmp_path)
    probe = base(tmp_path / "probe", name)
    door = SITUATIONS[situation](probe, name)
    routes = _routes(probe, env, door)
    assert routes, f"{situation}: the {door} door printed no route"
    for n, command in enumerate(routes):
        root = base(tmp_path / f"r{n}", name)
        assert SITUATIONS[situation](root, name) == door
        if shlex.quote(WORDS_PLACEHOLDER) in command:
            as_printed = sh(root, env, command)
            assert as_printed.returncode == 1, (command, as_printed.stderr)
            assert "say why this text is right" in as_printed.stderr
            command = command.replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote(WORDS))
        pasted = sh(root, env, command)
        assert pasted.returncode == 0, (situation, command, pasted.stdout, pasted.stderr)
        assert _clean(root, env, door), (situation, command)
        assert not (root / "pwned").exists() and not (root / "pwned2").exists()


def test_contested_resolve_route_pasted_works(tmp_path: Path) -> None:
    env = _shim(tmp_path)
    root = _base(tmp_path, "canon.md")
    for branch, old, new in (
        ("b", "first rule stands", "first rule bends"),
        ("c", "## Rules\n", "## Rules\n\nadded\n"),
    ):
        git(root, "checkout", "-q", "-b", branch, "main")
        write(root, "canon.md", (root / "canon.md").read_text().replace(old, new))
        supersede_as_it_stands(root, "canon.md#Rules")
        commit_all(root, branch)
    git(root, "checkout", "-q", "b")
    merge = sh(root, env, "git merge -q --no-ff --no-edit --no-verify c")
    if merge.returncode != 0:  # the two edits touch one section: take both texts by hand
        write(root, "canon.md", DOC.replace("first rule stands", "first rule bends"))
        git(root, "add", "-A")
        git(root, "commit", "-q", "--no-verify", "-m", "merge c")
    routes = _routes(root, env, "check")
    resolve = [c for c in routes if c.startswith("forest resolve ")]
    assert len(resolve) == 2, routes
    pasted = sh(root, env, resolve[0].replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote(WORDS)))
    assert pasted.returncode == 0, pasted.stderr
    assert "contested" not in sh(root, env, "forest check").stdout


def test_bring_back_note_names_the_deleting_commit_accepted(
    tmp_path: Path, base: Callable[[Path, str], Path]
) -> None:
    """The note of the route that checks the file out of the deleting commit's parent
    names that commit as the one that deleted it (it said ``commit X^ deleted it``:
    the parent, which still holds the file)."""
    root = base(tmp_path, "canon.md")
    excluded_missing_committed(root, "canon.md")
    deleter = git(root, "rev-parse", "HEAD")
    doc = json.loads(sh(root, _shim(tmp_path), "forest check --json").stdout)
    (back,) = [
        r for f in doc["findings"] for r in f["routes"] if r["label"] == "bring the file back"
    ]
    assert back["argv"] == [["git", "checkout", f"{deleter}^", "--", "adr.md"]]
    assert back["note"] == f"the file as it stood before commit {deleter[:12]} deleted it"
