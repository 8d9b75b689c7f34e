"""``python -m forest_files``, ``forest-hook --version`` and ``NO_COLOR``, as people meet them.

``python -m forest_files`` is the ``forest`` console script's light entry run by this
interpreter; ``forest-hook --version`` answers without loading the check; colour
appears only on a terminal and never when ``NO_COLOR`` is set (no-color.org).

Stores: temporary repositories only.
Refuses: nothing; fails when a door drifts from the ``forest`` command.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files import __version__
from tests.helpers.cli import FOREST
from tests.helpers.git import commit_all, git_env, make_repo, write

BIN = Path(sys.executable).parent
HOOK = str(BIN / "forest-hook")
WORDS = "Adopted for the entry tests"
DOC = "# Canon\n\n## Rules\n\nThe first rule stands.\n"
ESC = "\x1b["


def run(cwd: Path, *cmd: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(cmd),
        cwd=cwd,
        env={**os.environ, **git_env(), **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture(scope="module")
def drifted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository whose bound section was edited in the working tree (read only)."""
    repo = make_repo(tmp_path_factory.mktemp("entry"))
    assert run(repo, FOREST, "init").returncode == 0
    write(repo, "canon.md", DOC)
    commit_all(repo, "canon")
    done = run(repo, FOREST, "adopt", "canon.md#Rules", "--words", WORDS)
    assert done.returncode == 0, done.stderr
    commit_all(repo, "adopt")
    write(repo, "canon.md", DOC.replace("stands", "bends"))
    return repo


def test_module_version_matches_console_script_accepted(tmp_path: Path) -> None:
    module = run(tmp_path, sys.executable, "-m", "forest_files", "--version")
    script = run(tmp_path, FOREST, "--version")
    assert module.returncode == script.returncode == 0, module.stderr
    assert module.stdout == script.stdout == f"forest-files {__version__}\n"


def test_module_check_same_verdict_as_forest_detected(drifted: Path) -> None:
    module = run(drifted, sys.executable, "-m", "forest_files", "check")
    script = run(drifted, FOREST, "check")
    assert module.returncode == script.returncode == 1, module.stderr
    assert module.stdout == script.stdout
    assert "drifted canon.md#Canon/Rules" in module.stdout


def test_module_full_cli_help_accepted(tmp_path: Path) -> None:
    done = run(tmp_path, sys.executable, "-m", "forest_files", "ci", "--help")
    assert done.returncode == 0, done.stderr
    assert "Usage: forest ci" in done.stdout


def test_module_planted_modules_in_cwd_refused(tmp_path: Path, drifted: Path) -> None:
    """A ``typer.py``, ``json.py`` or ``shlex.py`` in the directory it runs from never runs."""
    for name in ("typer.py", "json.py", "shlex.py", "sqlite3.py"):
        write(tmp_path, name, "raise SystemExit('PWNED-7c1')\n")
    for args in (["ci", "--help"], ["-C", str(drifted), "check", "--json"], ["status"]):
        done = run(tmp_path, sys.executable, "-m", "forest_files", *args)
        assert "PWNED-7c1" not in done.stdout + done.stderr, args
        assert done.returncode in (0, 1), (args, done.stderr)


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_hook_version_accepted(tmp_path: Path, flag: str) -> None:
    done = run(tmp_path, HOOK, flag)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"forest-files {__version__}\n" and done.stderr == ""


def test_hook_version_loads_no_check_accepted(tmp_path: Path) -> None:
    """``forest-hook --version`` stays on the light path: no store, CLI or check."""
    code = (
        "import sys\n"
        "from forest_files.doors.hooks import run\n"
        "assert run.main(['--version']) == 0\n"
        "heavy = {'sqlite3', 'typer', 'click', 'pydantic', 'watchdog', 'forest_files.check'}\n"
        "sys.stderr.write(repr(sorted(heavy & set(sys.modules))))\n"
    )
    done = run(tmp_path, sys.executable, "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"forest-files {__version__}\n"
    assert done.stderr == "[]"


def test_hook_unknown_argument_still_refused(drifted: Path) -> None:
    done = run(drifted, HOOK, "--versions")
    assert done.returncode != 0
    assert __version__ not in done.stdout


def on_terminal(cwd: Path, *cmd: str, **env: str) -> tuple[int, str]:
    """Run with stdout on a pseudo-terminal; what it printed there."""
    leader, follower = pty.openpty()
    try:
        environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        proc = subprocess.run(
            list(cmd),
            cwd=cwd,
            env={**environ, **git_env(), "TERM": "xterm", **env},
            stdout=follower,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            timeout=120,
            check=False,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the other end is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    return proc.returncode, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("args", [["check"], ["diff", "canon.md#Rules"]])
def test_colour_on_terminal_accepted(drifted: Path, args: list[str]) -> None:
    _, out = on_terminal(drifted, FOREST, *args)
    assert ESC in out, out


@pytest.mark.parametrize("args", [["check"], ["diff", "canon.md#Rules"]])
@pytest.mark.parametrize("value", ["1", "yes"])
def test_no_color_set_terminal_plain_refused(drifted: Path, args: list[str], value: str) -> None:
    """NO_COLOR set to anything non-empty: no escape sequence even on a terminal."""
    code, out = on_terminal(drifted, FOREST, *args, NO_COLOR=value)
    assert ESC not in out, out
    assert "bends" in out or "drifted" in out
    assert code in (0, 1)


def test_no_color_module_entry_plain_refused(drifted: Path) -> None:
    _, out = on_terminal(drifted, sys.executable, "-m", "forest_files", "check", NO_COLOR="1")
    assert ESC not in out and "drifted canon.md#Canon/Rules" in out


@pytest.mark.parametrize("custody", [True, False], ids=["under-custody", "plain-repo"])
def test_hook_help_and_unknown_hook_said_everywhere_refused(
    drifted: Path, tmp_path: Path, custody: bool
) -> None:
    """``forest-hook --help`` prints its usage (it printed nothing, exit 0); an unknown
    hook name is refused with the usage, exit 2, in a repository under custody or not
    (outside custody it passed silently, exit 0: a typo in a hand-written hook went
    unseen)."""
    where = drifted if custody else make_repo(tmp_path)
    for flag in ("--help", "-h"):
        done = run(where, HOOK, flag)
        assert done.returncode == 0 and done.stdout.startswith("usage: forest-hook "), done
    done = run(where, HOOK, "pre-comit")
    assert done.returncode == 2, done
    assert "unknown hook 'pre-comit'" in done.stderr and "usage: forest-hook" in done.stderr
