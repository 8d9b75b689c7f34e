"""Shared fixtures: one fixed git environment for every test (autouse), a fresh
custody store on disk, a real scroll, a pair maker; the Hypothesis profile; what
``-n auto`` means; typer's test runner with each app's click command built once.

Property tests draw the same examples on every run (``derandomize``), so a CI
run never fails on a draw no earlier run made; ``FOREST_HYPOTHESIS=explore``
draws fresh ones each run (use it when changing the code under them).
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import typer.main
import typer.testing
from hypothesis import settings

from forest_files import ForestStore, Scroll
from tests.helpers.git import isolate
from tests.helpers.store import make_pair
from tests.helpers.walked import count_walked


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the CPUs. The tests wait on git, on fsync
    and on the processes they start; with one worker per CPU about a fifth of the
    CPU time went idle (measured: the fast lane took 375 s with three workers on two
    cores, 443 s with two)."""
    return (os.cpu_count() or 1) + 1


# pytest caches each test module's assertion-rewritten code as a .pyc (tests/**/__pycache__,
# git-ignored, kept out of the sdist) unless bytecode writing is off. Where
# PYTHONDONTWRITEBYTECODE is set, every worker of every run rewrote all 150 modules again
# (about 10 s of CPU each, a third of collection); a run writes them once.
sys.dont_write_bytecode = False

# A suite started in the background by a shell without job control (`cmd &` in a script)
# inherits SIGINT ignored, and so would every process a test starts: the tests that press
# Ctrl-C (review in a pty, the tour) hung or failed there. A terminal's foreground job
# has the default, so the suite restores it.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("FOREST_HYPOTHESIS", "repeatable"))


@pytest.fixture(autouse=True, scope="session")
def _cli_built_once() -> Iterator[None]:
    """typer's ``CliRunner.invoke`` turns every signature of the app into click
    parameters again on each call (string annotations evaluated, options made): a
    third of the CPU the in-process CLI tests spent (cProfile of five CLI test files:
    ``get_params_from_function`` 20.7 s of 56 s). Each app's command is built once per
    worker here; the command a test runs is the one it ran before, built from the
    same definitions (tests/doors/test_cli_lazy.py still patches in its own group)."""
    patch = pytest.MonkeyPatch()
    patch.setattr(typer.testing, "_get_command", functools.cache(typer.main.get_command))
    yield
    patch.undo()


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test sees one fixed git: author, committer, no global or system config;
    and a door run in this process (the hook sets a short lock budget, a door run
    in a subdirectory notes where it stands) leaves both as it found them."""
    from forest_files.kernel.standing import stand_at
    from forest_files.store import connection

    isolate(monkeypatch)
    yield
    connection.set_busy_budget(connection.BUSY_TIMEOUT_MS)
    stand_at(None)  # a door run from a subdirectory: the next test's routes from the top


@pytest.fixture
def walked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The spans ``difflib``'s longest-match searches walk from here on: a cost test's
    count, not a timing (tests/helpers/walked.py)."""
    return count_walked(monkeypatch)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "woods.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[ForestStore]:
    s = ForestStore(db_path)
    s.init_schema()
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def scroll(tmp_path: Path) -> Scroll:
    return Scroll(tmp_path / "session.scroll")


@pytest.fixture
def pair(store: ForestStore, scroll: Scroll) -> Callable[..., int]:
    """``pair(user, assistant, previous=None)`` commits one turn and returns the pair id."""

    def _pair(
        user: str = "what do bees eat",
        assistant: str = "nectar and pollen",
        *,
        previous: int | None = None,
    ) -> int:
        return make_pair(store, scroll, user, assistant, previous=previous)

    return _pair
