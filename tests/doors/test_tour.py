"""``forest tour``: every step runs for real through the installed command, its key lines
show, its commands are pasteable, and nothing is left behind unless ``--keep``."""

from __future__ import annotations

import io
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

import forest_files.doors.tour as tour
from forest_files.doors.tour import steps
from forest_files.doors.tour.session import forest_argv
from forest_files.doors.tour.steps import STEPS, adopt

FOREST = forest_argv()


def _env(tmp: Path) -> dict[str, str]:
    """The caller's environment with its temporary directory in ``tmp`` (watched for leftovers)
    and a HOME with no git identity."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    tmp.mkdir(exist_ok=True)
    home = tmp.parent / "home"
    home.mkdir(exist_ok=True)
    return {**env, "TMPDIR": str(tmp), "HOME": str(home)}


@pytest.mark.slow  # the whole tour, watcher included: 10-40 s on a shared 2-core machine
def test_tour_whole_walk_accepted(tmp_path: Path) -> None:
    """The Quick start's tour: adopt, check, refused commit, restore, supersede, the
    watcher's proposal adopted, ci failing a --no-verify branch; exit 0, nothing left."""
    tmp = tmp_path / "tmp"
    done = subprocess.run(
        [*FOREST, "tour"],
        cwd=tmp_path,
        env=_env(tmp),
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    for expected in (
        "bound characters.md#Canon/Family/Elias",
        "drifted characters.md#Canon/Family/Elias",
        "forest-files: commit refused",
        "restored characters.md#Canon/Family/Elias",
        "superseded characters.md#Canon/Family/Elias",
        "watching in the background",
        "stopped the watcher",
        "1 open proposal(s)",
        "adopted proposal ",
        "$ git commit -q --no-verify -am 'A quiet edit, past the hook'",
        "forest ci: 1 binding(s); range ",
        "forest: push refused — 1 ref: refs/heads/quiet-edit",
        "tour complete",
    ):
        assert expected in out, f"{expected!r} not in tour output:\n{out}"
    assert f"{len(STEPS)}/{len(STEPS)}  " in out
    assert list(tmp.iterdir()) == [], "the tour must remove its repository"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "tmp"]


def test_tour_steps_but_watcher_key_lines_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast lane's tour: every step but the watcher's two, through the installed
    command, in a temporary directory that is gone afterwards; the caller's git
    (a HOME config with no identity and a global hooksPath, a stray GIT_DIR) is never used."""
    home = tmp_path / "home"
    home.mkdir()
    outside = tmp_path / "outside-hooks"
    (home / ".gitconfig").write_text(f"[core]\n\thooksPath = {outside}\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_CONFIG_GLOBAL"):
        monkeypatch.delenv(name, raising=False)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # TMPDIR is read again
    skipped = (steps.watch, steps.adopt_proposal)
    monkeypatch.setattr(tour, "STEPS", tuple(x for x in STEPS if x[1] not in skipped))
    out = io.StringIO()
    tour.run_tour(None, out)
    text = out.getvalue()
    for expected in (
        "drifted characters.md#Canon/Family/Elias",
        "$ git commit -q -m 'Elias leaves in spring'\n    forest-files: commit refused",
        "restored characters.md#Canon/Family/Elias",
        "superseded characters.md#Canon/Family/Elias",
        "$ git commit -q --no-verify -am 'A quiet edit, past the hook'",
        "forest ci: 1 binding(s); range ",
        "$ forest hooks install --server --repo ../shared.git",
        "forest: push refused — 1 ref: refs/heads/quiet-edit",
        "    [exit 1]\n\ntour complete",
    ):
        assert expected in text, f"{expected!r} not in tour output:\n{text}"
    assert list(tmp.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "tmp"]


def test_tour_printed_commands_pasteable_accepted(tmp_path: Path) -> None:
    """Every ``$`` line splits back with shlex into a relative command: ``forest`` or
    ``git`` by name, never the console script's path or the temporary directory."""
    out = io.StringIO()
    session = tour.Session(tmp_path, out)
    adopt(session)
    commands = [line[2:] for line in out.getvalue().splitlines() if line.startswith("$ ")]
    assert commands
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] in ("forest", "git"), command
        assert str(tmp_path) not in command and sys.executable not in command


def test_tour_keep_repository_kept_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keep = tmp_path / "my tour"
    monkeypatch.setattr(tour, "STEPS", STEPS[:1])
    out = io.StringIO()
    tour.run_tour(keep, out)
    text = out.getvalue()
    assert (keep / "canon" / ".forest" / "ledger").is_dir()
    assert f"look around: cd {shlex.quote(str(keep / 'canon'))}" in text
    assert "  forest status" in text


def test_tour_keep_nonempty_directory_refused(tmp_path: Path) -> None:
    keep = tmp_path / "busy"
    keep.mkdir()
    (keep / "notes.md").write_text("mine\n", encoding="utf-8")
    done = subprocess.run(
        [*FOREST, "tour", "--keep", str(keep)],
        cwd=tmp_path,
        env=_env(tmp_path / "tmp"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("forest: --keep ") and done.stderr.count("\n") == 1
    assert "forest tour --keep DIR" in done.stderr
    assert [p.name for p in keep.iterdir()] == ["notes.md"]


# A tour of two steps whose second starts the watcher and then waits to be interrupted.
_INTERRUPTIBLE = textwrap.dedent(
    """
    import sys, time
    import forest_files.doors.tour as tour
    from forest_files.doors.tour.steps import adopt

    def wait(s):
        s.run("forest", "watch", "--detach")
        s.watching = True
        s.say("READY")
        time.sleep(120)

    tour.STEPS = (("adopt", adopt), ("wait", wait))
    try:
        tour.run_tour()
    except KeyboardInterrupt:
        sys.exit(130)
    """
)


@pytest.mark.parametrize(
    "sig", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)]
)
def test_tour_interrupted_with_watcher_leaves_nothing_recovers(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """Ctrl-C or SIGTERM while the watcher runs: it is stopped and the directory removed."""
    tmp = tmp_path / "tmp"
    child = subprocess.Popen(
        [sys.executable, "-c", _INTERRUPTIBLE],
        cwd=tmp_path,
        env=_env(tmp),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert child.stdout is not None
    seen = []
    for line in child.stdout:
        seen.append(line)
        if line.strip() == "READY":
            break
    started = next(x for x in seen if "watching in the background" in x)
    match = re.search(r"\(pid (\d+)\)", started)
    assert match, started
    pid = int(match.group(1))
    child.send_signal(sig)
    assert child.wait(60) == 130, "".join(seen) + child.stdout.read()
    assert list(tmp.iterdir()) == []
    assert not _alive(pid), "the tour must stop the watcher it started"


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for init to reap it has stopped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


def test_tour_without_git_refused(tmp_path: Path) -> None:
    """No git on PATH: one ``forest:`` line naming it, exit 1, the directory removed."""
    tmp = tmp_path / "tmp"
    env = {**_env(tmp), "PATH": str(tmp_path / "nothing-here")}
    done = subprocess.run(
        [*FOREST, "tour"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr == "forest: tour: `git` is not installed here; install it\n"
    assert list(tmp.iterdir()) == []
