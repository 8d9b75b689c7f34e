"""Body files written meanwhile, while the index records the acts that cite them.

A bulk adoption knows every body (the section texts and the adopting words)
before it records anything. Creating ten thousand files is system-call and
journal work, so it overlaps the Python and SQLite work of recording instead of
following it. Up to ``PROCESS_MIN`` bodies a thread writes them. From there on
a child process does (``body_writer``): a thread's every system call must take
the GIL back from the recorder, and a bulk adoption measured 7.2 s of recording
with the thread against 5.2 s with the child (bench/adopt_bench.py). A child
that cannot be started, or dies without saying why, leaves the writing to
``finish``, here.

Stores: ``<ledger>/bodies/…`` through ``segment_write.write_bodies`` (temp file in
``.git/forest/tmp``, rename; bodies before the segment that cites them, as
always); the child's batch goes through its stdin (``kernel.spawn``).
Refuses: nothing itself; the writer's error (a body under a hash not its own, an
``OSError``) is raised again by ``finish``.
Returns: the hashes written, so the segment write skips them. ``discard``
removes the files this writer created, and the prefix directories that
leaves empty, so a refused adoption (or a write that failed halfway) leaves no
body and no empty directory behind (verify would name it a stray); files that
were already there, intact or repaired, are never removed.
Test: tests/ledger/test_early_bodies.py, tests/custody/test_file_custody.py,
      tests/ledger/test_ledger_strays.py
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from forest_files.kernel import spawn as childproc
from forest_files.kernel.background import Background
from forest_files.kernel.errors import ForestError
from forest_files.ledger.acts import is_hex64
from forest_files.ledger.segment_write import take_back, write_bodies
from forest_files.ledger.segments import BODIES_DIR, body_path

# Below this many bodies the child's start-up (~60 ms) costs more than it saves.
PROCESS_MIN = 1000


class EarlyBodies:
    """One background ``write_bodies`` call: on a thread, or in a child process."""

    def __init__(self, ledger_dir: Path, bodies: Mapping[str, str]) -> None:
        self.hashes = frozenset(bodies)
        self._ledger = Path(ledger_dir)
        self._bodies = dict(bodies)
        self._created: list[Path] = []
        self._error: BaseException | None = None
        self._thread: Background | None = None
        self._child: _Child | None = None
        if len(self._bodies) >= PROCESS_MIN:
            self._child = _Child.start(self._ledger, self._bodies)
        if self._child is None:
            self._start_thread()

    def _start_thread(self) -> None:
        self._thread = Background(self._run)
        try:
            self._thread.start()  # waits for the thread: Ctrl-C can land here
        except BaseException:
            self.discard()  # the caller never holds this writer to discard it
            raise

    def _run(self) -> None:
        try:
            write_bodies(self._ledger, self._bodies, self._created)  # filled as files land
        except BaseException as exc:  # handed to the recording thread by finish()
            self._error = exc

    def finish(self) -> frozenset[str]:
        """Wait for the writes; the hashes now on disk (or the writer's error)."""
        if self._child is not None:
            if not self._child.finish():  # it died without a word: write them here
                write_bodies(self._ledger, self._bodies, self._created)
            return self.hashes
        if self._thread is not None:
            self._thread.wait()
        if self._error is not None:
            raise self._error
        return self.hashes

    def discard(self) -> None:
        """Stop or wait, then remove every file this writer created and each
        directory that leaves empty."""
        if self._child is not None:
            self._child.stop()
            self._created += self._child.created()
        if self._thread is not None:  # on its event: a join Ctrl-C broke may not wait
            self._thread.wait()
        take_back(self._created)


class _Child:
    """``forest_files.ledger.body_writer`` over one batch, fed through its stdin."""

    def __init__(
        self,
        child: childproc.Child,
        ledger: Path,
        before: dict[str, frozenset[str]],
        bodies: Mapping[str, str],
    ) -> None:
        self.child, self.proc, self.ledger = child, child.proc, ledger
        self.before, self.bodies = before, bodies

    @classmethod
    def start(cls, ledger: Path, bodies: Mapping[str, str]) -> _Child | None:
        """The running child, or None when none can be started (the caller uses a thread)."""
        from forest_files.ledger.body_writer import encode_batch

        # What is on disk now: whatever else is there later was written by this batch
        # (recording holds the write lock, so no other recorder writes bodies meanwhile).
        before: dict[str, frozenset[str]] = {}
        for body_hash in filter(is_hex64, bodies):  # the child refuses any other
            folder = _folder(ledger, body_hash)
            if folder not in before:
                try:
                    before[folder] = frozenset(os.listdir(folder))
                except (FileNotFoundError, NotADirectoryError):
                    before[folder] = frozenset()
        job = encode_batch(bodies)
        child = childproc.spawn("forest_files.ledger.body_writer", str(ledger), job=job)
        return None if child is None else cls(child, ledger, before, bodies)

    def finish(self) -> bool:
        """Wait; True when every body is written, False when the child died without
        a report (the caller writes them). A report of an error is raised."""
        answer = self.child.answer()
        try:
            doc = json.loads(answer) if answer is not None else None
        except ValueError:
            return False
        if not isinstance(doc, dict):
            return False
        if doc.get("ok") is True:
            return True
        if doc.get("error") == "refused":
            raise ForestError(str(doc.get("message")))
        if doc.get("error") == "os":
            errno = doc.get("errno")
            raise OSError(errno if isinstance(errno, int) else 0, str(doc.get("message")))
        return False

    def stop(self) -> None:
        """Kill the child and wait for it (a rename is atomic: it lands whole or not)."""
        self.child.stop()  # unless finish() reaped it

    def created(self) -> list[Path]:
        """The body files of the batch that were not on disk when it started."""
        made: list[Path] = []
        for body_hash in filter(is_hex64, self.bodies):  # the child wrote no other
            where = body_path(self.ledger, body_hash)
            held = self.before.get(_folder(self.ledger, body_hash), frozenset())
            if where.name not in held and where.exists():
                made.append(where)
        return made


def _folder(ledger: Path, body_hash: str) -> str:
    """The prefix directory of a body (``segments.body_path``'s parent), as a string."""
    return os.path.join(ledger, BODIES_DIR, body_hash[:2])
