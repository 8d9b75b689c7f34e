"""The one way forest-files starts a child interpreter (``kernel.spawn``): the job goes
through the child's stdin, never a file by name; the answer counts only when the
child exited 0 and echoed the digest of the very job it was sent; the child runs
isolated from the current directory and from ``PYTHON*`` variables."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from forest_files.kernel import spawn as childproc
from tests.helpers.git import make_repo

SCAN = "forest_files.custody.read_part"  # a served child: the parallel reader's


def empty_part(tmp_path: Path) -> bytes:
    """A parallel reader's job of no targets, in a repository of its own."""
    root = make_repo(tmp_path / "repo")
    return json.dumps({"root": str(root), "specs": [], "max_bytes": 1}).encode()


def _hostile(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    """Every spawned child runs ``code`` instead (same interpreter, isolated)."""
    monkeypatch.setattr(
        childproc, "command", lambda module, *args: [sys.executable, "-I", "-c", code, *args]
    )


def test_spawn_job_through_stdin_answer_checked_accepted(tmp_path: Path) -> None:
    child = childproc.spawn(SCAN, job=empty_part(tmp_path))
    assert child is not None
    assert json.loads(child.answer() or b"") == {"sections": []}
    child.stop()  # after the answer: nothing left to do, no error


@pytest.mark.parametrize(
    ("code", "trusted"),
    [
        # Reads its job, echoes its digest: the one answer taken.
        (
            "import sys, hashlib; job = sys.stdin.buffer.read();"
            " sys.stdout.write(hashlib.sha256(job).hexdigest() + '\\nforged')",
            True,
        ),
        # Answers for another job (one it read elsewhere, say a swapped file).
        (
            "import sys, hashlib; sys.stdin.buffer.read();"
            " sys.stdout.write(hashlib.sha256(b'[]\\n').hexdigest() + '\\nforged')",
            False,
        ),
        # Answers without reading its job at all.
        ("import sys; sys.stdout.write('forged')", False),
        # The right echo, then a failing exit.
        (
            "import sys, hashlib; job = sys.stdin.buffer.read();"
            " sys.stdout.write(hashlib.sha256(job).hexdigest() + '\\nforged'); sys.exit(1)",
            False,
        ),
    ],
)
def test_spawn_answer_without_the_jobs_digest_refused(
    monkeypatch: pytest.MonkeyPatch, code: str, trusted: bool
) -> None:
    _hostile(monkeypatch, code)
    child = childproc.spawn(SCAN, job=b"the real job\n" * 10_000)
    assert child is not None
    assert child.answer() == (b"forged" if trusted else None)


def test_spawn_job_never_touches_tmpdir_accepted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A large job (far past a pipe's buffer) and a killed child: nothing ever
    appears in TMPDIR, so nothing there can be swapped."""
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    big = b"[]\n" + b"x" * (4 << 20)  # not a valid job: the child says no
    child = childproc.spawn(SCAN, job=big)
    assert child is not None and child.answer() is None
    stopped = childproc.spawn(SCAN, job=big)
    assert stopped is not None
    stopped.stop()
    assert stopped.proc.returncode is not None and stopped.answer() is None
    assert list(tmp_path.iterdir()) == []


def test_spawn_child_ignores_cwd_and_python_variables_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``json.py`` and ``forest_files/`` in the current directory and on
    ``PYTHONPATH``, a ``PYTHONSTARTUP`` file: none of it runs in a child."""
    trap, marker = tmp_path / "trap", tmp_path / "imported"
    (trap / "forest_files").mkdir(parents=True)
    plant = f"open({str(marker)!r}, 'a').write('x')\n"
    for name in ("json.py", "forest_files/__init__.py", "startup.py", "hashlib.py"):
        (trap / name).write_text(plant, encoding="utf-8")
    monkeypatch.chdir(trap)
    monkeypatch.setenv("PYTHONPATH", str(trap))
    monkeypatch.setenv("PYTHONSTARTUP", str(trap / "startup.py"))
    child = childproc.spawn(SCAN, job=empty_part(tmp_path))
    assert child is not None and child.answer() is not None
    assert not marker.exists()


def test_spawn_no_interpreter_gives_no_child_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", "")
    assert childproc.spawn(SCAN, job=b"{}") is None


def test_spawn_child_finds_the_parents_user_site_accepted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A parent with a user site on its path (a ``pip install --user``, whose
    dependencies live there) hands it to its isolated child."""
    import site

    user_site = tmp_path / "user-site"
    user_site.mkdir()
    serve = "from forest_files.kernel.spawn import serve\nserve(lambda job: job[::-1])\n"
    (user_site / "probe_in_user_site.py").write_text(serve, encoding="utf-8")
    monkeypatch.setattr(site, "ENABLE_USER_SITE", True)
    monkeypatch.setattr(site, "USER_SITE", str(user_site))
    monkeypatch.setattr(sys, "path", [*sys.path, str(user_site)])
    child = childproc.spawn("probe_in_user_site", job=b"abc")
    assert child is not None and child.answer() == b"cba"
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(user_site)])
    child = childproc.spawn("probe_in_user_site", job=b"abc")  # not on the parent's path
    assert child is not None and child.answer() is None


_ORPHANED = """
import sys
from forest_files.kernel import spawn as childproc
slow = (
    "import time\\nfrom forest_files.kernel.spawn import serve\\n"
    "def work(job):\\n    time.sleep(60)\\n    return job\\nserve(work)\\n"
)
childproc.command = lambda module, *args: [sys.executable, "-c", slow]
child = childproc.spawn("a slow job", job=b"x")
print(child.proc.pid, flush=True)
child.answer()
"""


def test_spawn_child_ends_with_its_killed_parent_recovers() -> None:
    """A job child whose parent is killed (SIGKILL: no clean-up runs there) exits
    within a moment instead of going on with its job: a killed bulk adoption's body
    writer went on writing every body of the corpus, text nobody adopted, into the
    ledger."""
    import os
    import signal
    import subprocess
    import time

    parent = subprocess.Popen([sys.executable, "-c", _ORPHANED], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child_pid = int(parent.stdout.readline())
    time.sleep(0.5)  # the child is in its job
    assert not _zombie(child_pid)
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(child_pid, 0)
        except ProcessLookupError:
            return  # gone (reaped by whoever adopted it)
        if _zombie(child_pid):
            return
        time.sleep(0.05)
    os.kill(child_pid, signal.SIGKILL)
    raise AssertionError("the job child outlived its killed parent by 10 s")


def _zombie(pid: int) -> bool:
    """True when ``pid`` has exited and waits to be reaped (Linux ``/proc``)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] == "Z"
