"""A recording command run to its end or killed at one of its state changes, and the
commands typed after it: the crash matrix's runs (tests/helpers/crash.py judges them).

``events`` runs ``forest ARGV`` once, uncrashed, through ``crash_runner.py`` and lists
its state changes; ``crashed`` runs it again in a copy (``copy``), killed with SIGKILL
at one of them. The killed run and ``events``' run are processes of their own (as is
``forest``); the command typed again (``typed``) runs the console entry in this
process, and the readers (``judge``) the full CLI: the same code a typed command runs,
without an interpreter start and imports of its own at each kill point (about 30% of
the matrix's CPU).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.git import git_env
from tests.helpers.typed import TIMEOUT, light, typed_here

RUNNER = str(Path(__file__).with_name("crash_runner.py"))
NEVER = -1  # crash_runner's KILL_AT for a run that is not killed


def run(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | git_env()
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        argv, cwd=root, env=env, capture_output=True, text=True, check=False, timeout=TIMEOUT
    )


@dataclass(frozen=True)
class Said:
    """What a ``forest`` command said, and its exit code."""

    returncode: int
    stdout: str
    stderr: str


def forest(root: Path, *args: str) -> Said:
    """``forest ARGS`` typed in ``root``: the console entry, in a process of its own."""
    done = run(root, sys.executable, "-c", CONSOLE, *args)
    return Said(done.returncode, done.stdout, done.stderr)


CONSOLE = "import sys; sys.argv[0] = 'forest'; from forest_files.doors.entry import main; main()"


def typed(root: Path, *args: str) -> Said:
    """``forest ARGS`` typed in ``root`` as ``forest`` runs it, in this process
    (tests/helpers/typed.py: the console entry, ``run``'s git and timeout, its and its
    children's output captured); a light door's command through ``forest``."""
    if light(args):
        return forest(root, *args)
    here = os.getcwd()
    os.chdir(root)
    try:
        code, out, err = typed_here(args)
    finally:
        os.chdir(here)
    return Said(code, out, err)


def judge(root: Path, *args: str) -> Said:
    """A read-only ``forest ARGS`` (verify, fsck, check) on ``root``, in this process:
    the same CLI and error boundary, without a start of its own for each of the many."""
    from tests.helpers.cli import forest as in_process

    done = in_process(root, *args)
    return Said(done.exit_code, done.stdout, done.stderr)


def copy(template: Path, dest: Path) -> Path:
    return Path(shutil.copytree(template, dest, symlinks=True))


def events(root: Path, argv: tuple[str, ...]) -> list[list[object]]:
    """The state changes of ``forest ARGV`` in ``root`` (run there, to the end)."""
    log = root.parent / f"{root.name}.events"
    done = run(root, sys.executable, RUNNER, str(NEVER), str(log), *argv)
    assert done.returncode == 0, (argv, done.stdout, done.stderr)
    return [json.loads(line) for line in log.read_text().splitlines()]


def crashed(root: Path, argv: tuple[str, ...], at: int | str) -> list[list[object]]:
    """``forest ARGV`` in ``root`` killed at its change number ``at`` (or at the first
    change ``EVENT@PART`` names: crash_runner.py); the changes made before it."""
    log = root.parent / f"{root.name}.events"
    done = run(root, sys.executable, RUNNER, str(at), str(log), *argv)
    assert done.returncode == -signal.SIGKILL, (at, done.returncode, done.stdout, done.stderr)
    passed = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    assert isinstance(at, str) or len(passed) == at, (at, passed[-1:])  # the count's run
    return passed
