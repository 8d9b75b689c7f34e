"""Output that cannot be written, on real devices and limits: standard output on
/dev/full, closed (``>&-``) or over a file-size limit; standard error on /dev/full or
closed. Standard output's loss is one ``forest:`` line naming it and the fix, exit 1
(never 0, never the internal error and crash log it was); standard error's changes no
exit code: the hook's verdict is still its exit code."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.cli import FOREST
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, git_env, write

DOC = "# Doc\n\nThe sky is blue.\n"
CLIENT = {"name": "t", "version": "1"}
HOOK = str(Path(FOREST).with_name("forest-hook"))
FULL = "forest: cannot write standard output (No space left on device): free space"
LIMIT = 1 << 26  # far above every file of a small repository's state
CLOSED = "forest: cannot write standard output (it is closed, as `>&-` leaves it): give it"


def _run(
    root: Path,
    argv: list[str],
    *,
    stdout: int | None = None,
    stderr: int | None = subprocess.PIPE,
    before: Callable[[], None] | None = None,
    buffered: bool = True,
) -> subprocess.CompletedProcess[bytes]:
    """``argv`` run in ``root`` as a user's shell runs it; ``buffered``: without
    ``PYTHONUNBUFFERED`` (a user's default; a CI runner may set it)."""
    env = {**os.environ, **git_env()}
    if buffered:
        env.pop("PYTHONUNBUFFERED", None)
    else:
        env["PYTHONUNBUFFERED"] = "1"
    return subprocess.run(
        argv,
        cwd=root,
        env=env,
        stdout=stdout,
        stderr=stderr,
        preexec_fn=before,
        timeout=120,
        check=False,
    )


def _no_crash_log(root: Path) -> None:
    assert not (root / ".git" / "forest" / "crash").exists()


def _close(fd: int) -> Callable[[], None]:
    return lambda: os.close(fd)


@pytest.fixture
def drifted(tmp_path: Path) -> Path:
    root = adopted_repo(tmp_path, "doc.md", DOC)
    write(root, "doc.md", DOC.replace("blue", "green"))
    return root


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize(
    "args",
    [["check"], ["check", "--json"], ["status"], ["status", "--json"], ["log"], ["ci"]],
    ids=" ".join,
)
def test_output_stdout_full_one_line_exit_1_refused(
    tmp_path: Path, args: list[str], buffered: bool
) -> None:
    root = adopted_repo(tmp_path, "doc.md", DOC)
    with open("/dev/full", "wb") as full:
        done = _run(root, [FOREST, *args], stdout=full.fileno(), buffered=buffered)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err.splitlines()[-1].startswith(FULL), err
    assert "internal error" not in err
    _no_crash_log(root)


@pytest.mark.parametrize(
    "args", [["check"], ["status"], ["log"], ["ci", "--format", "json"]], ids=" ".join
)
def test_output_stdout_closed_one_line_exit_1_refused(tmp_path: Path, args: list[str]) -> None:
    root = adopted_repo(tmp_path, "doc.md", DOC)
    done = _run(root, [FOREST, *args], before=_close(1))
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err.splitlines()[-1].startswith(CLOSED), err
    _no_crash_log(root)


def limited(size: int = LIMIT) -> Callable[[], None]:
    """``ulimit -f`` at ``size`` bytes, SIGXFSZ ignored (as a shell that traps it): a
    write past it fails with EFBIG."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


def test_output_stdout_over_file_size_limit_one_line_exit_1_refused(tmp_path: Path) -> None:
    """``forest log --json >> FILE`` with FILE at the file-size limit already (sparse):
    the first write past it fails, while the state's own files stay far below it."""
    root = adopted_repo(tmp_path, "doc.md", DOC)
    log = tmp_path / "log.json"
    log.touch()
    os.truncate(log, LIMIT)
    with open(log, "ab") as out:
        done = _run(root, [FOREST, "log", "--json"], stdout=out.fileno(), before=limited())
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err.splitlines()[-1].startswith(
        "forest: cannot write standard output (File too large): raise the file-size limit"
    ), err
    _no_crash_log(root)


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("args", [["check"], ["check", "--json"]], ids=" ".join)
@pytest.mark.parametrize("how", ["full", "closed"])
def test_output_stdout_lost_drifted_check_points_at_no_routes_detected(
    drifted: Path, how: str, args: list[str], buffered: bool
) -> None:
    """A drifted ``forest check > /dev/full`` (or ``>&-``): the finding is said, with
    no pointer to routes that never arrived, then why standard output was lost; exit
    1, and the finding recorded in the audit log (buffered, it said 'see the routes
    above'; unbuffered, it said nothing of the finding and recorded none)."""
    with open("/dev/full", "wb") as full:
        where = {"stdout": full.fileno()} if how == "full" else {"before": _close(1)}
        done = _run(drifted, [FOREST, *args], buffered=buffered, **where)  # type: ignore[arg-type]
    err = done.stderr.decode().splitlines()
    assert done.returncode == 1, err
    assert err[0] == "forest: 1 finding(s) not clean", err
    assert len(err) == 2 and err[1].startswith(FULL if how == "full" else CLOSED), err
    from forest_files.custody.auditlog import AuditLog

    with AuditLog(drifted) as log:
        assert [r.reason for r in log.page() if r.action == "drift"] == ["check"]
    _no_crash_log(drifted)


@pytest.fixture
def tracked(tmp_path: Path) -> Path:
    """A commit tracking local state under .forest, past the hook: ``forest ci`` and
    ``forest verify`` each refuse it (the tracked-local-state finding)."""
    root = adopted_repo(tmp_path, "doc.md", DOC)
    write(root, ".forest/cache/views/x.db", "x\n")
    git(root, "add", "-f", "--", ".forest/cache/views/x.db")
    git(root, "commit", "-q", "--no-verify", "-m", "local state, hook bypassed")
    return root


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize(
    "args", [["ci"], ["ci", "--format", "json"], ["verify"], ["verify", "--json"]], ids=" ".join
)
@pytest.mark.parametrize("how", ["full", "closed"])
def test_output_stdout_lost_refusal_points_at_nothing_above_detected(
    tracked: Path, how: str, args: list[str], buffered: bool
) -> None:
    """``forest ci`` and ``forest verify`` refusing tracked local state with standard
    output on /dev/full or closed: exit 1, the refusal's line (when it is said) without
    its "see above" (what it pointed at never arrived), then why standard output was
    lost; no crash log (``forest ci >&-`` said "forest: 1 finding(s); see above")."""
    with open("/dev/full", "wb") as full:
        where = {"stdout": full.fileno()} if how == "full" else {"before": _close(1)}
        done = _run(tracked, [FOREST, *args], buffered=buffered, **where)  # type: ignore[arg-type]
    err = done.stderr.decode().splitlines()
    assert done.returncode == 1, err
    assert err and err[-1].startswith(FULL if how == "full" else CLOSED), err
    assert not [line for line in err if "above" in line], err
    if args[0] == "ci" and (buffered or how == "closed"):  # the verdict, then the loss
        assert err == ["forest: 1 finding(s)", err[-1]], err
    _no_crash_log(tracked)


@pytest.mark.parametrize("how", ["full", "closed"])
def test_output_stderr_lost_check_verdict_still_exit_code_detected(drifted: Path, how: str) -> None:
    """Drift: exit 1 with standard error on /dev/full or closed (it was 3 and a crash
    log, the 'see the routes above' line failing); clean: exit 0."""
    with open("/dev/full", "wb") as full:
        where = {"stderr": full.fileno()} if how == "full" else {"before": _close(2)}
        done = _run(drifted, [FOREST, "check"], stdout=subprocess.PIPE, **where)  # type: ignore[arg-type]
        assert done.returncode == 1
        assert b"drifted doc.md" in done.stdout
        git(drifted, "checkout", "--", "doc.md")
        clean = _run(drifted, [FOREST, "check"], stdout=subprocess.PIPE, **where)  # type: ignore[arg-type]
    assert clean.returncode == 0
    _no_crash_log(drifted)


@pytest.mark.parametrize("how", ["full", "closed"])
def test_output_stderr_lost_hook_verdict_still_exit_code_refused(drifted: Path, how: str) -> None:
    """``forest-hook pre-commit 2>/dev/full`` (or ``2>&-``) on a drifted staged file:
    exit 1, the refusal's verdict (it was 3, and a crash log); staged clean: exit 0."""
    git(drifted, "add", "doc.md")
    with open("/dev/full", "wb") as full:
        where = {"stderr": full.fileno()} if how == "full" else {"before": _close(2)}
        done = _run(drifted, [HOOK, "pre-commit"], **where)  # type: ignore[arg-type]
        assert done.returncode == 1
        git(drifted, "checkout", "HEAD", "--", "doc.md")
        clean = _run(drifted, [HOOK, "pre-commit"], **where)  # type: ignore[arg-type]
    assert clean.returncode == 0
    _no_crash_log(drifted)


def test_output_stdout_closed_never_lends_its_descriptor_accepted(tmp_path: Path) -> None:
    """``>&-``: the first file a command opens must not become its standard output (a
    child's output, or a stray write, would land in it); /dev/null holds it."""
    root = adopted_repo(tmp_path, "doc.md", DOC)
    code = (
        "import os, sys; from forest_files.doors.streams import named_streams; named_streams()\n"
        "fd = os.open('probe', os.O_WRONLY | os.O_CREAT); sys.stderr.write(str(fd))"
    )
    done = _run(root, [sys.executable, "-c", code], before=_close(1))
    assert int(done.stderr) > 2, done.stderr


@pytest.mark.parametrize("how", ["full", "closed"])
def test_output_mcp_answer_unwritable_one_line_exit_1_refused(tmp_path: Path, how: str) -> None:
    """``forest mcp > /dev/full`` (or ``>&-``): the first answer cannot be written; at
    the end of input the server ends with the one line, exit 1 (it was exit 3, an
    internal error of an ExceptionGroup, and a crash log)."""
    pytest.importorskip("mcp")
    root = adopted_repo(tmp_path, "doc.md", DOC)
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": CLIENT}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
    ]
    sent = "".join(json.dumps(line) + "\n" for line in lines).encode()
    with open("/dev/full", "wb") as full:
        where = {"stdout": full.fileno()} if how == "full" else {"before": _close(1)}
        env = {**os.environ, **git_env()}
        done = subprocess.run(
            [FOREST, "mcp"],
            cwd=root,
            env=env,
            input=sent,
            stdout=where.get("stdout"),
            stderr=subprocess.PIPE,
            preexec_fn=where.get("before"),  # type: ignore[arg-type]
            timeout=120,
            check=False,
        )
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err.splitlines()[-1].startswith(FULL if how == "full" else CLOSED), err
    _no_crash_log(root)
