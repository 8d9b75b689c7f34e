"""The one error boundary (doors/boundary.py, doors/crashlog.py): every door maps an
exception to one line and its exit code, and an internal error leaves a crash log in
the git directory that holds the traceback and never a bound file's text.

In process: ``run_guarded`` with functions that raise. End to end, each door on a
real repository put in a real broken state: the typer group, the light ``forest
check``, the installed hook through ``git commit``, and the watcher's entry.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files.doors import crashlog
from forest_files.doors.boundary import run_guarded
from forest_files.kernel.errors import ForestError, StoreBusy, StoreCorruption
from forest_files.ledger.acts import LedgerError
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.state import local_state

SENTINEL = "SENTINEL-7f3a-never-in-a-crash-log"
DOC = f"# Title\n\n## Keep\n\n{SENTINEL} kept words\n\n## Other\n\nother words\n"
DETAILS = re.compile(r"details in (.+); please report it$")


def _bound(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#Keep"])
    commit_all(root, "adopt")
    return root


def _crash_path(line: str) -> Path:
    found = DETAILS.search(line)
    assert found is not None, line
    (path,) = shlex.split(found.group(1))
    return Path(path)


def _one_line(err: str, prefix: str = "forest") -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{prefix}: "), err
    return lines[0]


# -- in process: run_guarded with a function that raises -----------------------------
@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (ForestError("no such binding"), 1),
        (StoreBusy("locked; retry"), 75),
        (StoreCorruption("damaged"), 3),
        (LedgerError("forged line"), 3),
        (KeyboardInterrupt(), 130),
    ],
)
def test_boundary_typed_error_one_line_and_its_code_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], exc: BaseException, code: int
) -> None:
    def fail() -> int:
        raise exc

    assert run_guarded("t", fail, ["forest", "t"], repo=tmp_path) == code
    line = _one_line(capsys.readouterr().err)
    assert ("interrupted" if code == 130 else str(exc)) in line
    assert "internal error" not in line


def test_boundary_success_returns_the_code_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_guarded("t", lambda: None, []) == 0
    assert run_guarded("t", lambda: 1, []) == 1
    assert capsys.readouterr().err == ""


def test_boundary_internal_error_crash_log_holds_traceback_never_locals_detected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A local holding a file's text is in the raising frame: the log has the
    traceback (file, function, line) and never that value."""
    root = make_repo(tmp_path)

    def judge_section() -> int:
        body = SENTINEL  # what a frame holds when it reads a bound file
        return {"x": 1}[body[:0] + "missing"]

    argv = ["forest", "adopt", "a.md#Keep", "--words", "my secret words", "--words=more"]
    assert run_guarded("adopt", judge_section, argv, repo=root) == 3
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("forest: internal error (KeyError); details in ")
    path = _crash_path(line)
    assert path.parent == root / ".git" / "forest" / "crash"
    assert path.stat().st_mode & 0o777 == 0o600
    text = path.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "judge_section" in text
    assert "KeyError: 'missing'" in text
    assert "forest-files: " in text and "python: " in text and "command: adopt" in text
    assert "a.md#Keep" in text and "<15 characters>" in text and "--words=<4 characters>" in text
    assert SENTINEL not in text and "secret" not in text and "more" not in text


def test_boundary_internal_error_outside_git_no_log_says_so_detected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()

    def fail() -> int:
        raise RuntimeError("unexpected state")

    assert run_guarded("check", fail, [], repo=plain) == 3
    line = _one_line(capsys.readouterr().err)
    assert "RuntimeError: unexpected state" in line  # the traceback's last line
    assert "no crash log written (not inside a git repository)" in line
    assert line.endswith("please report it")
    assert list(tmp_path.rglob("*.log")) == []


def test_boundary_crash_dir_symlink_never_followed_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A symlink planted where the crash directory belongs: nothing written through
    it; the line still names the error and says why there is no log."""
    root = make_repo(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".git" / "forest").mkdir()
    (root / ".git" / "forest" / "crash").symlink_to(elsewhere)

    def fail() -> int:
        raise ValueError("bug")

    assert run_guarded("sync", fail, [], repo=root) == 3
    line = _one_line(capsys.readouterr().err)
    assert "ValueError: bug" in line and "no crash log written" in line and "symlink" in line
    assert list(elsewhere.iterdir()) == []


def test_boundary_crash_logs_bounded_newest_kept_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    written = [crashlog.write_crash_log(RuntimeError(str(i)), root, "t", []) for i in range(25)]
    kept = sorted((root / ".git" / "forest" / "crash").iterdir())
    assert len(kept) == crashlog.KEEP
    assert written[-1] in kept


def test_boundary_crash_log_from_a_subdirectory_goes_to_the_common_git_dir_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """From a linked worktree's subdirectory: the log lands in the clone's common git
    directory (kernel/state.py), found without running git."""
    root = make_repo(tmp_path)
    commit_all(root, "first")
    git(root, "worktree", "add", "-q", str(tmp_path / "wt"))
    sub = tmp_path / "wt" / "deep" / "er"
    sub.mkdir(parents=True)

    def fail() -> int:
        raise AttributeError("bug")

    assert run_guarded("check", fail, [], repo=sub) == 3
    path = _crash_path(_one_line(capsys.readouterr().err))
    assert path.parent == root / ".git" / "forest" / "crash" and path.is_file()


def test_boundary_lenient_door_forest_error_exits_0_internal_still_3_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse() -> int:
        raise ForestError("index not in step")

    def crash() -> int:
        raise TypeError("bug")

    assert run_guarded("hook", refuse, [], repo=tmp_path, prefix="forest-files", lenient=True) == 0
    assert _one_line(capsys.readouterr().err, "forest-files") == "forest-files: index not in step"
    assert run_guarded("hook", crash, [], repo=tmp_path, lenient=True) == 3
    assert "internal error" in _one_line(capsys.readouterr().err)


def test_boundary_passthrough_and_usage_reraised_accepted(tmp_path: Path) -> None:
    class Signal(Exception):
        pass

    def signal() -> int:
        raise Signal

    with pytest.raises(Signal):
        run_guarded("t", signal, [], repo=tmp_path, passthrough=(Signal,))
    with pytest.raises(Signal):
        run_guarded("t", signal, [], repo=tmp_path, usage=(Signal,))


# -- end to end: each door on a real broken state --------------------------------------
def _index_a_directory(root: Path) -> None:  # a refusal: the store cannot be opened
    for leftover in local_state(root).glob("woods.db*"):
        leftover.unlink()
    (local_state(root) / "woods.db").mkdir()


def _segment_damaged(root: Path) -> None:  # corruption: a ledger segment edited
    """One byte appended to a committed segment (its name no longer its hash); an
    index that is not a SQLite file is no longer this state: every door drops it and
    rebuilds it from the ledger (tests/custody/test_fsck.py)."""
    (segment,) = (root / ".forest" / "ledger" / "segments").iterdir()
    with segment.open("ab") as fh:
        fh.write(b" ")


def _body_folder_a_file(root: Path) -> None:  # internal: a state nothing maps
    """A body's two-digit folder made a file, the index gone: the rebuild's read of
    that body fails with ENOTDIR. (A linked or non-directory ``segments`` is a
    refusal now: custody/ledger_dirs.py.)"""
    folder = next(p for p in (root / ".forest" / "ledger" / "bodies").iterdir() if p.is_dir())
    shutil.rmtree(folder)
    folder.write_bytes(b"")
    for leftover in local_state(root).glob("woods.db*"):
        leftover.unlink()


STATES: dict[str, tuple[Callable[[Path], None], int]] = {
    "refusal": (_index_a_directory, 1),
    "corruption": (_segment_damaged, 3),
    "internal": (_body_folder_a_file, 3),
}
DOORS: dict[str, tuple[str, list[str]]] = {
    "typer": ("forest", ["-c", "from forest_files.doors.cli import main; main()", "sync"]),
    "light": ("forest", ["-c", "from forest_files.doors.entry import main; main()", "check"]),
    "watch": ("forest watch", ["-m", "forest_files.doors.watch", "--repo", "."]),
}


def _python(root: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def _assert_crash_log(line: str, root: Path) -> None:
    path = _crash_path(line)
    assert path.is_absolute() and path.is_file(), line
    assert path.parent == root / ".git" / "forest" / "crash"
    text = path.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text, text
    assert SENTINEL not in text


@pytest.mark.parametrize("state", sorted(STATES))
@pytest.mark.parametrize("door", sorted(DOORS))
def test_boundary_door_broken_state_one_line_and_code_detected(
    tmp_path: Path, door: str, state: str
) -> None:
    root = _bound(tmp_path)
    breaks, code = STATES[state]
    breaks(root)
    prefix, args = DOORS[door]
    proc = _python(root, args)
    line = _one_line(proc.stderr, prefix)
    assert proc.returncode == code, proc.stderr
    assert SENTINEL not in proc.stderr + proc.stdout
    if state == "internal":
        assert line.startswith(f"{prefix}: internal error (NotADirectoryError); details in ")
        _assert_crash_log(line, root)
    else:
        assert "internal error" not in line and not (root / ".git" / "forest" / "crash").exists()


def _hook_repo(tmp_path: Path) -> Path:
    """Hooks installed; a drifted ``a.md`` staged and refused once (the staged
    ledger's view is cached by that first hook)."""
    from forest_files.doors import hooks as githooks

    root = _bound(tmp_path)
    githooks.install(root)  # in process: the hook's run is the subject, not its install
    write(root, "a.md", DOC.replace("kept words", "drifted words"))
    git(root, "add", "a.md")
    first = _commit(root)
    assert first.returncode != 0 and "commit refused" in first.stderr, first.stderr
    return root


def _commit(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        ["git", "commit", "-q", "-m", "x"], cwd=root, env=env, capture_output=True, text=True
    )


def _view_a_directory(root: Path) -> None:  # a refusal: the cached view cannot be opened
    for view in (local_state(root) / "views").glob("*.db"):
        for leftover in view.parent.glob(view.name + "*"):
            leftover.unlink()
        view.mkdir()


def _segment_damaged_and_staged(root: Path) -> None:  # corruption of the staged ledger
    for segment in (root / ".forest" / "ledger" / "segments").iterdir():
        with segment.open("ab") as out:
            out.write(b'{"damaged": true}\n')
    git(root, "add", ".forest/ledger")


def _cache_a_file(root: Path) -> None:  # a refusal with its fix: a file where a state dir was
    shutil.rmtree(local_state(root) / "cache")
    (local_state(root) / "cache").write_bytes(b"")


HOOK_STATES: dict[str, tuple[Callable[[Path], None], int]] = {
    "refusal": (_view_a_directory, 1),
    "corruption": (_segment_damaged_and_staged, 3),
    "state-file": (_cache_a_file, 1),
}


@pytest.mark.parametrize("state", sorted(HOOK_STATES))
def test_boundary_hook_git_commit_broken_state_refused_one_line_detected(
    tmp_path: Path, state: str
) -> None:
    """Through a real ``git commit`` (git exits 1 whatever the hook's code), then the
    installed hook script itself for its exit code."""
    root = _hook_repo(tmp_path)
    breaks, code = HOOK_STATES[state]
    breaks(root)
    before = git(root, "rev-parse", "HEAD")
    proc = _commit(root)
    assert proc.returncode != 0 and git(root, "rev-parse", "HEAD") == before
    line = _one_line(proc.stderr, "forest-files")
    assert SENTINEL not in proc.stderr and "drifted words" not in proc.stderr
    env = {**os.environ, **git_env()}
    hook = subprocess.run(
        [str(root / ".git" / "hooks" / "pre-commit")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    assert hook.returncode == code, hook.stderr
    assert "internal error" not in line
    if state == "state-file":  # the fix is on the line, pasteable
        assert "rm -- " in line


def test_boundary_watcher_loop_bug_crash_log_named_once_detected(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The watcher's loop goes on after an error (CONVENTIONS): a bug there (not a
    refusal, not a file's OSError) leaves one crash log, named in the watch log;
    the same error again writes none."""
    from tests.helpers.watch import bound_repo, watching

    root = bound_repo(tmp_path)
    crash = root / ".git" / "forest" / "crash"
    with watching(root) as w, caplog.at_level("WARNING", logger="forest_files.doors.watch"):
        for _ in range(2):
            try:
                {"a": 1}["b"]
            except KeyError as exc:
                w._error(exc)  # what the loop does with an exception of a batch
        assert w._thread is not None and w._thread.is_alive()
    said = [r.getMessage() for r in caplog.records if "KeyError" in r.getMessage()]
    assert len(said) == 1 and "details in " in said[0], said
    (log,) = crash.iterdir()
    assert str(log) in said[0]
    assert "Traceback (most recent call last)" in log.read_text(encoding="utf-8")


_TERMINATED = """
import os, sys, time
from forest_files.doors.boundary import run_guarded
marker = sys.argv[1]

def work():
    try:
        open(marker + ".started", "w").close()
        time.sleep(60)
    finally:
        open(marker + ".cleaned", "w").close()  # a command's clean-up, as on Ctrl-C

sys.exit(run_guarded("probe", work, sys.argv, audit=None))
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_boundary_terminated_cleans_up_and_exits_128_plus_signal_recovers(
    tmp_path: Path, sig: str
) -> None:
    """SIGTERM and SIGHUP (a cancelled CI job, a closed terminal) ended a command at
    once, its clean-up never run: a bulk adoption killed so left every body it had
    written ahead of its segment in the ledger. The boundary raises them where the
    command stands, so its ``finally`` runs as for Ctrl-C; the exit code is the
    shell's, 128 + the signal."""
    import signal
    import time

    marker = tmp_path / "probe"
    proc = subprocess.Popen(
        [sys.executable, "-c", _TERMINATED, str(marker)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not Path(f"{marker}.started").exists():
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(getattr(signal, sig))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + getattr(signal, sig), err
    assert Path(f"{marker}.cleaned").exists()
    assert err.strip() == "forest: terminated"
