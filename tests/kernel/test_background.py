"""``Background.wait`` still waits after a wait that a signal handler's exception
interrupted (Ctrl-C while a bulk adoption waits for its body writer): the clean-up's
second wait must not return while the thread still writes."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator

import pytest

from forest_files.kernel.background import Background


class Interrupted(Exception):
    """What the test's signal handler raises, as Ctrl-C raises KeyboardInterrupt."""


@pytest.fixture
def alarm() -> Iterator[None]:
    def handler(signum: int, frame: object) -> None:
        raise Interrupted

    before = signal.signal(signal.SIGALRM, handler)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def test_wait_interrupted_then_waited_again_returns_after_the_target_detected(
    alarm: None,
) -> None:
    release = threading.Event()
    finished: list[float] = []

    def work() -> None:
        release.wait(30)
        time.sleep(0.05)
        finished.append(time.monotonic())

    task = Background(work)
    task.start()
    signal.setitimer(signal.ITIMER_REAL, 0.05)  # the "Ctrl-C" while the caller waits
    with pytest.raises(Interrupted):
        task.wait()
    assert not finished  # the thread still runs
    threading.Timer(0.1, release.set).start()
    task.wait()  # the clean-up's wait: a Thread.join here returned at once
    assert finished, "wait returned while the target still ran"


def test_wait_never_started_returns_at_once() -> None:
    task = Background(lambda: None)
    assert not task.started
    task.wait()


def test_target_error_still_ends_the_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[type[BaseException]] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(args.exc_type))

    def fail() -> None:
        raise RuntimeError("boom")

    task = Background(fail)
    task.start()
    task.wait()  # the event is set as the target leaves; threading reports it just after
    deadline = time.monotonic() + 10
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
    assert task.started and seen == [RuntimeError]  # reported as any thread's, and waited
