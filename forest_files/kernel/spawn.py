"""Child Python processes of forest-files' own: one way to start them, one to hear them.

Every child interpreter forest-files starts (the parallel reader, the body
writer, the detached watcher) is started by ``spawn``: the same
executable in isolated mode (``-I``: no current directory on its path, no
``PYTHON*`` variables, no user site), so a file such as ``json.py`` or a package
``forest_files/`` at the root of the repository being worked on is never
imported. A short bootstrap loads ``forest_files`` from this very installation's
directory (whatever comes first on the child's path: a test run from a source
tree, say, beside an installed copy), adds the user site this process has on its
path (a ``pip install --user`` keeps its dependencies there), and exits with
``WRONG_PACKAGE`` when the package cannot be loaded from there.

A job child reads its whole job from its stdin, an inherited pipe (no file by
name anywhere a watcher of a shared directory could swap it), and ``serve`` (its
side) prints the SHA-256 of the job it read before its answer. ``Child.answer``
hands back the answer only when the child exited 0 and echoed the digest of the
very job sent; the caller then checks the answer's shape and counts, and treats
None as "do the work yourself".

Stores: nothing.
Refuses: nothing; ``spawn`` returns None when this process has no interpreter
to start (an embedded or frozen Python) or the system refuses a process.
Returns: a ``Child`` (its answer, or its ``Popen`` for a detached one); the
CPUs this process may use.
Test: tests/kernel/test_spawn.py, tests/ledger/test_early_bodies.py,
      tests/custody/test_parallel_read.py, tests/doors/test_watch_daemon.py
"""

from __future__ import annotations

import hashlib
import os
import site
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NoReturn

if TYPE_CHECKING:
    import subprocess

    from forest_files.kernel.background import Background

WRONG_PACKAGE = 97  # the child could not load its parent's forest_files

_BOOT = (
    "import importlib.util, os, runpy, site, sys\n"
    "here, user_site, module = sys.argv[1:4]\n"
    "if user_site:\n"
    "    site.addsitedir(user_site)\n"
    "package = os.path.join(here, 'forest_files')\n"
    "try:\n"
    "    spec = importlib.util.spec_from_file_location('forest_files',"
    " os.path.join(package, '__init__.py'), submodule_search_locations=[package])\n"
    "    found = importlib.util.module_from_spec(spec)\n"
    "    sys.modules['forest_files'] = found\n"
    "    spec.loader.exec_module(found)\n"
    "except Exception:\n"
    f"    sys.exit({WRONG_PACKAGE})\n"
    "sys.argv = [module, *sys.argv[4:]]\n"
    "runpy.run_module(module, run_name='__main__', alter_sys=True)\n"
)


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system says)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return os.cpu_count() or 1


def _user_site() -> str:
    """This process's user site directory when it is on its path, else ''."""
    user_site = site.USER_SITE if site.ENABLE_USER_SITE else None
    return user_site if user_site and user_site in sys.path else ""


def command(module: str, *args: str) -> list[str] | None:
    """The argv ``spawn`` runs: ``module`` of this installation as ``__main__`` with
    ``args``, in an isolated child interpreter; None when there is none to start."""
    if not sys.executable:
        return None
    here = str(Path(__file__).resolve().parents[2])
    return [sys.executable, "-I", "-c", _BOOT, here, _user_site(), module, *args]


def digest(job: bytes) -> bytes:
    """What a child echoes for ``job``: its SHA-256, as ASCII hex."""
    return hashlib.sha256(job).hexdigest().encode("ascii")


class Child:
    """One child process. A job child's answer is read by ``answer``; a detached one
    (no job) is the caller's through ``proc``."""

    def __init__(self, proc: subprocess.Popen[bytes], job: bytes | None) -> None:
        self.proc = proc
        self._out: bytes | None = None
        self._sent = b""
        self._talk: Background | None = None
        if job is not None:
            from forest_files.kernel.background import Background

            # Hashing, feeding the pipe and draining the answer go on beside the
            # caller's own work (hashlib and pipe I/O let go of the GIL).
            self._talk = Background(lambda: self._converse(job))
            try:
                self._talk.start()
            except BaseException:
                self.stop()
                raise

    def _converse(self, job: bytes) -> None:
        self._sent = digest(job)
        try:
            self._out, _ = self.proc.communicate(job)
        except (OSError, ValueError):
            self._out = None

    def answer(self) -> bytes | None:
        """Wait for the child; what it answered after echoing the job's digest, or
        None for any other exit or output."""
        if self._talk is None:
            return None
        self._talk.wait()
        out = self._out
        if self.proc.wait() != 0 or out is None or not self._sent:
            return None
        head, newline, body = out.partition(b"\n")
        return body if newline and head == self._sent else None

    def stop(self) -> None:
        """Kill the child unless it was reaped already, and wait for it."""
        if self.proc.returncode is None:
            self.proc.kill()  # one that exited meanwhile is no error (Popen checks)
        if self._talk is not None:
            self._talk.wait()
        self.proc.wait()


def spawn(
    module: str,
    *args: str,
    job: bytes | None = None,
    log: BinaryIO | None = None,
    cwd: Path | None = None,
) -> Child | None:
    """Start ``module`` of this installation in an isolated child interpreter.

    With ``job``: it goes to the child's stdin, and its stdout is read for
    ``Child.answer`` (stderr nowhere). Without: a detached child in its own session
    (a closed terminal's SIGHUP does not reach it), stdin and stdout nowhere, stderr
    to ``log``. None when no child can be started."""
    import subprocess

    argv = command(module, *args)
    if argv is None:
        return None
    detached = job is None
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL if detached else subprocess.PIPE,
            stdout=subprocess.DEVNULL if detached else subprocess.PIPE,
            stderr=log if log is not None else subprocess.DEVNULL,
            start_new_session=detached,
            cwd=cwd,
        )
    except OSError:
        return None
    return Child(proc, job)


PARENT_POLL_SECONDS = 0.01


def _end_with_parent() -> None:
    """Exit as soon as the parent is gone (killed: SIGKILL runs no clean-up there),
    so a job child never goes on writing what the dead parent will never record: a
    killed bulk adoption's body writer wrote every body of the corpus, text nobody
    adopted, into the ledger. A daemon thread asks every ``PARENT_POLL_SECONDS``
    (portable; an orphan is handed to another parent)."""
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def serve(work: Callable[[bytes], bytes | None]) -> NoReturn:
    """The child's side: read the whole job from stdin, answer ``work(job)`` after
    the job's digest and exit 0; exit 1 when ``work`` gives None. SIGINT is
    ignored: Ctrl-C reaches the whole foreground group, and the parent decides."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_parent()
    job = sys.stdin.buffer.read()
    answer = work(job)
    if answer is None:
        os._exit(1)
    out = sys.stdout.buffer
    out.write(digest(job) + b"\n")
    out.write(answer)
    out.flush()
    os._exit(0)  # nothing to tear down: no interpreter shutdown pass
