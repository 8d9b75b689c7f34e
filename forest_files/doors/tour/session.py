"""The tour's shell: runs each step's commands for real and prints them as a user would type them.

Stores: files the steps write, in the tour's own repository only.
Refuses: a command that exits other than its step expects (``TourStepFailed``,
after its output is printed); no ``forest`` command next to this interpreter
(``ForestError`` naming how to install it).
Returns: ``Session`` (``run``, ``edit``, ``say``), ``forest_argv``, ``tour_env``.
Test: tests/doors/test_tour.py

Every command is shown relative to the tour's repository and quoted with
``shlex``, so each ``$`` line works pasted into a shell there (``forest``, not
the path of the console script that runs it). The commands run with a fixed
git identity and with no global or system git configuration, so the tour works
on a machine without one and never touches the user's hooks or settings.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import TextIO

from forest_files.kernel.errors import ForestError

AUTHOR = "Ada Author"
AUTHOR_EMAIL = "ada@example.org"
STEP_TIMEOUT = 120.0  # seconds any one command may take


class TourStepFailed(ForestError):
    """A tour command exited other than the tour expects."""


def forest_argv() -> list[str]:
    """How to run the ``forest`` installed with this interpreter: its console script
    (beside ``sys.executable``, or in this install's scripts directory), else
    ``python -m forest_files`` where that exists, else ``forest`` on PATH."""
    name = "forest.exe" if os.name == "nt" else "forest"
    places = [Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))]
    user_scheme = f"{os.name}_user"
    if user_scheme in sysconfig.get_scheme_names():
        places.append(Path(sysconfig.get_path("scripts", user_scheme)))
    for place in places:
        if (place / name).is_file():
            return [str(place / name)]
    if find_spec("forest_files.__main__") is not None:
        return [sys.executable, "-m", "forest_files"]
    found = shutil.which("forest")
    if found is None:
        raise ForestError(
            "the `forest` command is not installed beside this Python; "
            "reinstall the package: python -m pip install forest-files"
        )
    return [found]


def tour_env(forest: list[str]) -> dict[str, str]:
    """The environment of every tour command: no GIT_* variable of the caller, no
    global or system git config, a fixed author, no colour, ``forest`` on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME=AUTHOR,
        GIT_AUTHOR_EMAIL=AUTHOR_EMAIL,
        GIT_COMMITTER_NAME=AUTHOR,
        GIT_COMMITTER_EMAIL=AUTHOR_EMAIL,
        GIT_TERMINAL_PROMPT="0",
        NO_COLOR="1",
    )
    scripts = str(Path(forest[0]).parent) if len(forest) == 1 else None
    if scripts is not None:
        env["PATH"] = os.pathsep.join([scripts, env.get("PATH", os.defpath)])
    return env


@dataclass
class Session:
    """One tour: its workspace, its repository (``work/canon``) and where it prints."""

    work: Path
    out: TextIO
    forest: list[str] = field(default_factory=forest_argv)
    repo: Path = field(init=False)
    env: dict[str, str] = field(init=False)
    watching: bool = False  # a watcher was started and not yet stopped

    def __post_init__(self) -> None:
        self.repo = self.work / "canon"
        self.repo.mkdir(exist_ok=True)
        self.env = tour_env(self.forest)

    def say(self, line: str = "") -> None:
        print(line, file=self.out, flush=True)

    def run(self, *argv: str, expect: int = 0, show: bool = True) -> str:
        """Run ``argv`` in the repository (``forest`` stands for the installed
        command); print it and its output unless ``show`` is false."""
        real = [*self.forest, *argv[1:]] if argv[0] == "forest" else list(argv)
        if show:
            self.say(f"$ {shlex.join(argv)}")
        try:
            done = subprocess.run(
                real,
                cwd=self.repo,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
                timeout=STEP_TIMEOUT,
                check=False,
            )
        except FileNotFoundError:
            raise TourStepFailed(f"tour: `{argv[0]}` is not installed here; install it") from None
        except subprocess.TimeoutExpired:
            raise TourStepFailed(
                f"tour step `{shlex.join(argv)}` took over {STEP_TIMEOUT:.0f} s; stopped"
            ) from None
        text = done.stdout.rstrip()
        if show:
            for line in text.splitlines():
                self.say(f"    {line}")
            if done.returncode != 0:
                self.say(f"    [exit {done.returncode}]")
        if done.returncode != expect:
            raise TourStepFailed(
                f"tour step `{shlex.join(argv)}` exited {done.returncode}, expected {expect}"
                + ("; its output is above" if show else "")
            )
        return text

    def write(self, path: str, text: str) -> None:
        """Create a file in the repository, saying so in one line."""
        target = self.repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        self.say(f"# write {path} ({len(text.splitlines())} lines)")

    def edit(self, path: str, old: str, new: str) -> None:
        """Replace ``old`` by ``new`` in a file, as an editor would save it."""
        target = self.repo / path
        text = target.read_text(encoding="utf-8")
        if old not in text:
            raise TourStepFailed(f"tour: {path} no longer holds {old!r}")
        target.write_text(text.replace(old, new, 1), encoding="utf-8")
        self.say(f"# edit {path}: {old!r} -> {new!r}")
