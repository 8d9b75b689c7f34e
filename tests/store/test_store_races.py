"""Races on one target: exactly one writer wins, every loser gets a ForestError.

Each contender has its own ForestStore on the same file (a connection belongs
to one thread) and waits on a barrier so the calls start together. Threads and
real processes (spawn) both run, because WAL locking between processes is not
the same code path as between connections of one process. After every race,
``current_ground`` holds exactly one entry of the chain.
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files import ForestError, ForestStore, Scroll, root_to_ground
from tests.helpers.state import local_state
from tests.helpers.store import (
    AUTHOR,
    adoption_record_ids,
    body_hash_of,
    ground_in_chain,
    make_entry,
    make_pair,
    rooted_entry,
)

CONTENDERS = 4
ROUNDS = 3
JOIN_TIMEOUT = 60.0


def _root(store: ForestStore, target: int, index: int) -> int:
    return root_to_ground(
        store,
        entry_id=target,
        adopting_words=f"contender {index} adopts this",
        adopting_signature=AUTHOR,
        expected_body_hash=body_hash_of(store, target),
    )


def _supersede(store: ForestStore, target: int, index: int) -> int:
    return store.supersede(
        old_id=target,
        new_body=f"bees eat pollen, says contender {index}",
        adopting_words=f"contender {index} replaces it",
    )


def _seal(store: ForestStore, target: int, index: int) -> int:
    return store.seal(entry_id=target, quote=f"contender {index} withdraws it", signature=AUTHOR)


ACTS: dict[str, Callable[[ForestStore, int, int], int]] = {
    "root": _root,
    "supersede": _supersede,
    "seal": _seal,
}
LOSER_MESSAGE = {
    "root": "already current ground",
    "supersede": "not current ground",
    "seal": "already sealed",
}


def _outcome(act: str, db_path: str, target: int, index: int, wait: Callable[[], Any]) -> tuple:
    try:
        with ForestStore(db_path) as store:
            wait()
            return ("won", ACTS[act](store, target, index))
    except ForestError as err:
        return ("refused", type(err).__name__, str(err), isinstance(err, sqlite3.Error))
    except BaseException as err:
        return ("error", type(err).__name__, repr(err))


def _race_threads(db_path: Path, act: str, target: int) -> list[tuple]:
    barrier = threading.Barrier(CONTENDERS)
    results: list[tuple | None] = [None] * CONTENDERS

    def run(index: int) -> None:
        results[index] = _outcome(
            act, str(db_path), target, index, lambda: barrier.wait(timeout=JOIN_TIMEOUT)
        )

    threads = [threading.Thread(target=run, args=(i,)) for i in range(CONTENDERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=JOIN_TIMEOUT)
    assert not any(t.is_alive() for t in threads), "a contender hung"
    return [r for r in results if r is not None]


def _process_main(act: str, db_path: str, target: int, index: int, barrier: Any, queue: Any):
    queue.put(_outcome(act, db_path, target, index, lambda: barrier.wait(timeout=JOIN_TIMEOUT)))


def _race_processes(db_path: Path, act: str, target: int, contenders: int = 2) -> list[tuple]:
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(contenders)
    queue = ctx.Queue()
    procs = [
        ctx.Process(target=_process_main, args=(act, str(db_path), target, i, barrier, queue))
        for i in range(contenders)
    ]
    for p in procs:
        p.start()
    results: list[tuple] = []
    try:
        for _ in procs:
            try:
                results.append(queue.get(timeout=JOIN_TIMEOUT))
            except queue_module.Empty:
                codes = [p.exitcode for p in procs]
                pytest.fail(f"a contender died before reporting (exit codes {codes}): {results}")
    finally:
        for p in procs:
            p.join(timeout=JOIN_TIMEOUT)
            if p.is_alive():
                p.kill()
    return results


def _assert_one_winner(results: list[tuple], act: str, contenders: int) -> int:
    assert len(results) == contenders, results
    errors = [r for r in results if r[0] == "error"]
    assert not errors, f"raw errors escaped: {errors}"
    winners = [r[1] for r in results if r[0] == "won"]
    losers = [r for r in results if r[0] == "refused"]
    assert len(winners) == 1, f"expected one winner, got {results}"
    for _, name, message, _is_sqlite in losers:
        assert LOSER_MESSAGE[act] in message, f"{name}: {message}"
        assert name not in ("StoreBusy",), f"loser timed out instead of being refused: {message}"
    return winners[0]


def _check_root(store: ForestStore, target: int) -> None:
    assert len(adoption_record_ids(store, target)) == 1
    assert ground_in_chain(store.conn, target) == [target]


def _check_supersede(store: ForestStore, target: int, winner: int) -> None:
    assert ground_in_chain(store.conn, target) == [winner]
    successors = store.conn.execute(
        "SELECT from_id FROM edges WHERE to_id = ? AND kind = 'supersedes'", (target,)
    ).fetchall()
    assert [r[0] for r in successors] == [winner]


def _check_seal(store: ForestStore, target: int) -> None:
    seals = store.conn.execute(
        "SELECT COUNT(*) FROM edges WHERE to_id = ? AND kind = 'seals'", (target,)
    ).fetchone()[0]
    assert seals == 1
    assert store.is_sealed(target)


# --- threads --------------------------------------------------------------------------


def test_root_concurrent_threads_one_winner_refused(store, scroll, db_path):
    for _ in range(ROUNDS):
        target = make_entry(store, make_pair(store, scroll), "bees eat nectar")
        winner = _assert_one_winner(_race_threads(db_path, "root", target), "root", CONTENDERS)
        assert winner == target
        _check_root(store, target)


def test_supersede_concurrent_threads_one_winner_refused(store, scroll, db_path):
    for _ in range(ROUNDS):
        target = rooted_entry(store, scroll, "bees eat nectar")
        results = _race_threads(db_path, "supersede", target)
        winner = _assert_one_winner(results, "supersede", CONTENDERS)
        _check_supersede(store, target, winner)


def test_seal_concurrent_threads_one_winner_refused(store, scroll, db_path):
    for _ in range(ROUNDS):
        target = make_entry(store, make_pair(store, scroll), "bees eat nectar")
        _assert_one_winner(_race_threads(db_path, "seal", target), "seal", CONTENDERS)
        _check_seal(store, target)


# --- processes ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.serial  # times processes, signals or lock waits: one at a time
def test_root_concurrent_processes_one_winner_refused(tmp_path):
    db_path = tmp_path / "woods.db"
    with ForestStore(db_path) as store:
        store.init_schema()
        target = make_entry(
            store, make_pair(store, Scroll(tmp_path / "s.scroll")), "bees eat nectar"
        )
    results = _race_processes(db_path, "root", target)
    assert _assert_one_winner(results, "root", 2) == target
    with ForestStore(db_path) as store:
        _check_root(store, target)


@pytest.mark.slow
@pytest.mark.serial  # times processes, signals or lock waits: one at a time
def test_supersede_concurrent_processes_one_winner_refused(tmp_path):
    db_path = tmp_path / "woods.db"
    with ForestStore(db_path) as store:
        store.init_schema()
        target = rooted_entry(store, Scroll(tmp_path / "s.scroll"), "bees eat nectar")
    results = _race_processes(db_path, "supersede", target)
    winner = _assert_one_winner(results, "supersede", 2)
    with ForestStore(db_path) as store:
        _check_supersede(store, target, winner)


def test_writer_waits_out_a_short_lock_with_backoff_accepted(store, scroll, db_path):
    """Another writer holds the lock for a moment: the write takes it once freed
    (jittered retries within the busy timeout), nothing refused."""
    import threading
    import time

    pair_id = make_pair(store, scroll)
    lock = sqlite3.connect(db_path, isolation_level=None, timeout=0, check_same_thread=False)
    lock.execute("BEGIN IMMEDIATE")
    threading.Timer(0.3, lambda: lock.execute("ROLLBACK")).start()
    start = time.monotonic()
    try:
        made = make_entry(store, pair_id, "bees dance")
    finally:
        time.sleep(0.05)
        lock.close()
    assert time.monotonic() - start >= 0.25
    assert store.get(made) is not None
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000  # put back


def test_door_budget_past_the_lock_store_busy_exit_75_refused(tmp_path, monkeypatch):
    """A door's budget (the hook gives 2 s; here 150 ms) runs out while another
    writer holds the index: ``StoreBusy``, exit 75, nothing recorded."""
    import time

    from forest_files.custody.repository import Repository
    from forest_files.kernel.exits import EXIT_BUSY
    from forest_files.store import connection
    from tests.helpers.cli import forest
    from tests.helpers.git import isolate, make_repo, write

    isolate(monkeypatch)
    root = make_repo(tmp_path)
    write(root, "a.md", "# A\n\nwords\n")
    Repository.init(root, project_id="busy").close()
    with Repository(root) as r:
        r.sync()
    ledger = root / ".forest" / "ledger"
    before = sorted(p.name for p in ledger.rglob("*"))
    lock = sqlite3.connect(local_state(root) / "woods.db", isolation_level=None, timeout=0)
    lock.execute("BEGIN IMMEDIATE")
    monkeypatch.setattr(connection, "_budget_ms", 150)
    try:
        start = time.monotonic()
        result = forest(root, "adopt", "a.md", "--words", "Adopted as it stands")
        waited = time.monotonic() - start
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert result.exit_code == EXIT_BUSY, result.output
    assert "locked" in result.stderr and "retry" in result.stderr
    assert waited < 5  # the door's budget, not SQLite's 5 s default
    assert sorted(p.name for p in ledger.rglob("*")) == before
