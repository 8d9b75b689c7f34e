"""What lets ``forest mcp`` end when told to (SIGTERM, SIGHUP, Ctrl-C) whatever its
client does: each blocking read or write of the stdio streams runs on a daemon
thread the session awaits and leaves behind when cancelled, and the signals cancel
the session at its next await.

Stores: nothing.
Refuses: nothing; a blocking call's own exception is raised where it is awaited.
Returns: ``Blocking`` (``await run(fn, *args)``; ``stranded``: a call that still runs,
so its thread holds the stream's lock); ``watch_stops`` (a task: at the first stop
signal, the signal noted and the scope given cancelled); ``stopped(signum)``, the
exception a stop signal ends the session with (``Terminated``, or KeyboardInterrupt
for Ctrl-C, as the boundary words and codes them); ``is_terminal`` and ``hang_up``:
whether a read's error is its terminal hanging up, a stop as SIGHUP is.
Test: tests/doors/test_mcp_terminated.py, tests/doors/test_mcp_hangup.py

Why: a write into a pipe the client stopped reading, or a read of a client that
sends nothing, never returns. Awaited on the SDK's worker threads (not daemons, and
waited for when cancelled), either kept the process alive for ever after
``forest: terminated``; and the boundary's SIGTERM handler raised where the server
stood, in the middle of a tool call. Here a call already running finishes and is
recorded, as the cancellation lands at an await.
"""

from __future__ import annotations

import errno
import signal
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any, BinaryIO, TypeVar

import anyio
import anyio.abc

# Imported here, on the thread that loads this module: anyio imports ``from_thread`` on
# first use, and a call's thread that imported it itself could fail there (an import
# hook's error, a full disk), and never tell the awaiting session, which then waited
# for ever (tests/doors/test_mcp_blocking_import.py).
from anyio.from_thread import run_sync as run_in_loop
from anyio.lowlevel import current_token

from forest_files.kernel.background import Background

T = TypeVar("T")


class Blocking:
    """The blocking calls of one session, counted until their threads return."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0

    @property
    def stranded(self) -> bool:
        """True while a call's thread still runs (it was left behind: its stream's
        lock is held, so a flush of it, or the interpreter's teardown, would wait)."""
        with self._lock:
            return self._running > 0

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a daemon thread; its result, or its exception raised here.
        Cancelled, the await ends at once and the thread is left to finish alone."""
        token = current_token()
        done = anyio.Event()
        got: list[tuple[Any, BaseException | None]] = []

        def job() -> None:
            try:
                got.append((fn(*args), None))
            except BaseException as exc:  # handed to the awaiting task
                got.append((None, exc))
            finally:
                with self._lock:
                    self._running -= 1
                with suppress(RuntimeError):  # the event loop has closed: nobody waits
                    run_in_loop(done.set, token=token)

        with self._lock:
            self._running += 1
        try:
            Background(job).start()
        except RuntimeError:  # no thread: nothing runs
            with self._lock:
                self._running -= 1
            raise
        await done.wait()
        value, exc = got[0]
        if exc is not None:
            raise exc
        return value  # type: ignore[no-any-return]  # fn's own result


def _stops() -> list[signal.Signals]:
    """SIGTERM, SIGHUP and SIGINT, each unless this process was started ignoring it
    (``nohup``, a shell's background job)."""
    names = ("SIGTERM", "SIGHUP", "SIGINT")
    found = [getattr(signal, n) for n in names if hasattr(signal, n)]
    return [s for s in found if signal.getsignal(s) is not signal.SIG_IGN]


async def watch_stops(
    scope: anyio.CancelScope,
    caught: list[int],
    *,
    task_status: anyio.abc.TaskStatus[anyio.CancelScope] = anyio.TASK_STATUS_IGNORED,
) -> None:
    """Until cancelled through the scope it starts with: at the first stop signal,
    note it in ``caught`` and cancel ``scope``. Off the main thread (where signals
    cannot be received) it only waits."""
    with anyio.CancelScope() as own:
        if threading.current_thread() is not threading.main_thread():
            task_status.started(own)
            await anyio.sleep_forever()
        with anyio.open_signal_receiver(*_stops()) as signals:
            task_status.started(own)
            async for signum in signals:
                caught.append(int(signum))
                scope.cancel()
                return


def stopped(signum: int) -> KeyboardInterrupt:
    """What a stop signal ends the session with: Ctrl-C's KeyboardInterrupt (exit 130),
    else ``Terminated`` (128 + the signal)."""
    if signum == signal.SIGINT:
        return KeyboardInterrupt()
    from forest_files.kernel.errors import Terminated

    return Terminated(signum)


def is_terminal(stream: BinaryIO) -> bool:
    """Whether ``stream`` is a terminal; asked before it can hang up (one hung up
    answers that it is none)."""
    try:
        return stream.isatty()
    except (OSError, ValueError):  # closed, or no descriptor
        return False


def hang_up(exc: BaseException, terminal: bool) -> bool:
    """Whether ``exc``, raised reading ``terminal``, is that terminal hanging up (its
    window closed, an ssh session dropped: EIO, with or without the SIGHUP the
    kernel sends beside it): the environment, a stop as SIGHUP is, never a bug."""
    return terminal and isinstance(exc, OSError) and exc.errno == errno.EIO
