"""Progress on stderr: drawn only on a terminal, throttled, erased at the end; never
on a pipe or a file, with -q, or with TERM=dumb; a real pty shows it for rebuild."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from forest_files.kernel import progress, verbosity
from forest_files.kernel.progress import Progress, tracked
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git_env, make_repo, write


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def _normal_voice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("TERM", raising=False)
    verbosity.set_level(verbosity.NORMAL)
    yield
    verbosity.set_level(verbosity.NORMAL)


def test_progress_terminal_drawn_and_erased_accepted() -> None:
    tty = Tty()
    with Progress("replaying acts", 3, tty) as bar:
        bar.advance(3)
    assert "replaying acts 3/3" in tty.getvalue()
    assert tty.getvalue().endswith("\r\x1b[K")


def test_progress_not_a_terminal_refused() -> None:
    plain = io.StringIO()
    with Progress("replaying acts", 1000, plain) as bar:
        for _ in range(1000):
            bar.step()
    assert plain.getvalue() == ""


def test_progress_throttled_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile: 10,000 steps in a tight loop redraw a handful of times, not 10,000."""
    monkeypatch.setattr(progress, "INTERVAL", 3600.0)
    tty = Tty()
    with Progress("adopting", 10_000, tty) as bar:
        for _ in range(10_000):
            bar.step()
    assert tty.getvalue().count("adopting") == 1


@pytest.mark.parametrize("how", ["quiet", "dumb"])
def test_progress_quiet_or_dumb_terminal_refused(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    if how == "quiet":
        verbosity.set_level(verbosity.QUIET)
    else:
        monkeypatch.setenv("TERM", "dumb")
    tty = Tty()
    assert list(tracked(range(50), "verifying segments", 50)) == list(range(50))
    with Progress("x", 50, tty) as bar:
        bar.advance(50)
    assert tty.getvalue() == ""


def test_progress_closed_terminal_recovers() -> None:
    """Hostile: the terminal goes away mid-loop; the loop finishes without an error."""
    tty = Tty()
    bar = Progress("judging commits", 10, tty)
    tty.close()
    for _ in range(10):
        bar.step()
    bar.close()


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    for n in range(3):
        write(root, f"f{n}.md", f"# F{n}\n\ntext {n}\n")
    commit_all(root, "files")
    ok(root, "init")
    for n in range(3):
        ok(root, "adopt", f"f{n}.md", "--words", "first words", "--as", "Ada <ada@example.org>")
    commit_all(root, "custody")
    return root


def test_progress_rebuild_captured_stderr_refused(tmp_path: Path) -> None:
    """Captured stderr (a test, a CI log) never sees progress."""
    root = _repo(tmp_path)
    for args in (["rebuild"], ["verify"], ["ci"]):
        result = forest(root, *args)
        assert result.exit_code == 0, result.output
        assert result.stderr == "", (args, result.stderr)


def test_progress_rebuild_on_a_pty_detected(tmp_path: Path) -> None:
    """A real pseudo-terminal as stderr: the progress line is drawn, then erased."""
    root = _repo(tmp_path)
    main, secondary = pty.openpty()
    env = {**os.environ, **git_env(), "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    child = subprocess.Popen(
        [sys.executable, "-P", "-m", "forest_files", "rebuild"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=secondary,
    )
    os.close(secondary)
    seen = b""
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(main, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(main)
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 0
    assert b"replaying acts 3/3" in seen, seen
    assert seen.endswith(b"\r\x1b[K"), seen
    assert b"index rebuilt" in out
