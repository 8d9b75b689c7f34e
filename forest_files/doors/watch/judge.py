"""Judging a batch: the one check path (check/path.py), then what changed.

Stores: through ``ProposalStore`` the divergent text of a drifted section as
its binding's open proposal (``derived_from`` its ground) — read again and
taken only if it still hashes to what the check judged. Nothing else: no
ledger segment, no ground, no index row the check would not write anyway.
Refuses: nothing; a busy index is retried with backoff (then ``StoreBusy``
goes up and the batch is held, never lost); a failure on one section is
logged and the rest go on. A bound file, or one ``[require]`` names, this user
may not read (the check raises its PermissionError rather than call it missing
or pass it by) is set aside and the rest judged without it (``check_readable``;
a full check asks the whole tree but it, check/apart.py): one unreadable file
does not hide every other file's drift, a ``[require]`` gap in another file, nor
a contest bound to no file.
Returns: ``Judged`` — the findings that changed since the last verdict and
the lines to show for them, rendered by check/text.py (the watcher words no
finding and no route itself); ``Readable`` — a check's findings, the paths it
judged (``()``: the whole tree but the unread), and the bound paths it could not
read.
Test: tests/doors/test_watch.py, tests/doors/test_watch_contests.py,
tests/doors/test_watch_unreadable.py, tests/doors/test_watch_unreadable_require.py,
tests/doors/test_watch_unreadable_contests.py
"""

from __future__ import annotations

import logging
import os
import random
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from forest_files.check.findings import Reported
from forest_files.check.path import run_check
from forest_files.check.text import block, headline
from forest_files.doors.watch.events import BoundSet
from forest_files.doors.watch.journal import Journal
from forest_files.kernel.errors import ForestError, StoreBusy
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.repopath import under

log = logging.getLogger("forest_files.doors.watch")
_BACKOFF = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6)


@dataclass(frozen=True)
class Judged:
    changed: tuple[Reported, ...] = ()
    lines: tuple[str, ...] = ()
    open: tuple[Reported, ...] = field(default=())  # every finding not clean, after this


def check(
    root: Path, paths: tuple[str, ...], stop: threading.Event, without: tuple[str, ...] = ()
) -> list[Reported]:
    """run_check, retried while the index is busy."""
    for delay in (*_BACKOFF, None):
        try:
            report = run_check(root, "worktree", paths, without=without)
            return [*report.items, *report.extra]
        except StoreBusy:
            # jittered, so a watcher and a hook that collide do not retry in step
            if delay is None or stop.wait(delay * random.uniform(0.5, 1.5)):
                raise
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Readable:
    items: list[Reported]
    paths: tuple[str, ...]  # what was judged: () for the whole tree but ``denied``
    denied: dict[str, PermissionError]  # watched path -> why this user may not read it
    judged: bool = True  # False: every path asked was unreadable, nothing judged


def check_readable(
    root: Path, paths: tuple[str, ...], stop: threading.Event, bound: BoundSet
) -> Readable:
    """``check``, judged again without each path ``bound`` wants (a bound file, one
    ``[require]`` names) this user may not read, until one passes: every other binding
    keeps its verdict. For ``paths`` ``()`` the check is of the whole tree but the
    unreadable paths (run_check ``without``), so ``[require]`` coverage judges every
    readable file and contests bound to no file are judged as ``forest check`` judges
    them; what needs an unreadable file (its own verdict, its coverage, a contest of
    its binding's chain) keeps its last verdict until it is read again. One more check
    per unreadable file."""
    denied: dict[str, PermissionError] = {}
    asked = paths
    while True:
        try:
            without = () if paths else tuple(sorted(denied))
            return Readable(check(root, asked, stop, without), asked, denied)
        except PermissionError as exc:
            path = _bound_path(root, exc, bound)
            if path is None or path in denied:
                raise  # not a watched file's (a state file's): the batch's error
            denied[path] = exc
            if paths:
                asked = tuple(sorted(set(paths) - denied.keys()))
                if not asked:
                    return Readable([], asked, denied, judged=False)


def _bound_path(root: Path, exc: OSError, bound: BoundSet) -> str | None:
    """The repository path of the file ``exc`` names, when ``bound`` wants it."""
    if not isinstance(exc.filename, (str, os.PathLike)):
        return None
    path = os.path.relpath(os.path.abspath(exc.filename), os.path.abspath(root))
    path = path.replace(os.sep, "/")
    return path if bound.wants(path) else None


def _key(r: Reported) -> str:
    """A binding's id; an unbound required file (no binding yet), or a contest bound to
    no file, by its target; a binding rebound on merged branches (check/contests.py)
    has a second verdict of its own: the check judges its section (clean, drifted …)
    and its contest apart, and keyed alike each would overwrite the other, saying
    ``clean`` then ``contested`` again at every check of it."""
    f = r.finding
    if f.reason is not None and f.reason.kind == "rebound-twice":
        return f"rebound:{f.binding}"
    return f.binding or f"unbound:{f.selector}"


def _erased(root: Path, text: str) -> bool:
    """``text`` holds a line a forget tombstoned: never kept as a proposal."""
    from forest_files.custody.repository import Repository
    from forest_files.custody.tombstone import refuse_erased

    with Repository(root) as repo:
        try:
            refuse_erased(repo.synced(), repo.config.project_id, text, "the text")
        except ForestError:
            return True
    return False


class Verdicts:
    """The last verdict of every binding the watcher judged, and what changed."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._last: dict[str, tuple[str, str | None]] = {}
        self._open: dict[str, Reported] = {}
        self._latest: dict[str, Reported] = {}  # every key's latest finding (folder routes)
        self._paths: dict[str, str] = {}  # the path each key was last reported at

    def apply(
        self,
        items: list[Reported],
        *,
        full: bool,
        paths: tuple[str, ...] = (),
        unread: Iterable[str] = (),
    ) -> Judged:
        """Take a check's verdicts. ``full``: every binding was judged but those under
        ``unread`` (which keep theirs); else only those in ``paths``, where a finding no
        longer reported (a required file deleted, a section gone with its heading, a
        contest resolved) is over: the state shows the present."""
        seen = {_key(r) for r in items}
        for gone in set(self._last) - seen:
            at = self._paths.get(gone, "\0")
            if (full and not any(under(at, u) for u in unread)) or any(under(at, p) for p in paths):
                self._last.pop(gone)
                self._open.pop(gone, None)
                self._latest.pop(gone, None)
                self._paths.pop(gone, None)
        changed: list[Reported] = []
        lines: list[str] = []
        for r in items:
            f = r.finding
            key = _key(r)
            now = (f.kind, f.actual_hash if f.failed else None)  # clean is clean
            before = self._last.get(key)
            self._last[key] = now
            self._paths[key] = f.path
            self._latest[key] = r
            if f.failed:
                self._open[key] = r
            else:
                self._open.pop(key, None)
            if before == now or (before is None and not f.failed):
                continue
            changed.append(r)
            lines.extend(block(r) if f.failed else [headline(r)])
            self.journal.add("verdict", f.path, f.selector, f.kind)
        return Judged(tuple(changed), tuple(lines), tuple(self._open.values()))

    def open_findings(self) -> list[Reported]:
        return list(self._open.values())

    def searching(self) -> frozenset[str]:
        """The bound paths of open findings a move search made (moved, missing,
        unresolved): another file's change may change their verdict (events.py)."""
        kinds = ("moved", "missing", "unresolved")
        return frozenset(r.finding.path for r in self._open.values() if r.finding.kind in kinds)

    def latest(self) -> list[Reported]:
        """Every binding's latest finding, clean ones too (a folder route must see
        every binding under the folder: check/folder_move.py)."""
        return list(self._latest.values())


def capture(root: Path, r: Reported, excludes: tuple[str, ...], max_bytes: int) -> str | None:
    """Keep a drifted section's text as its binding's proposal. Returns the proposal id
    and what happened (``new``/``replaced``/``same``), or None if the file moved on."""
    from forest_files.custody.content import read_regular
    from forest_files.custody.proposals import ProposalStore
    from forest_files.text.extract import extract
    from forest_files.text.normalise import decode_bytes, normalise_text
    from forest_files.text.selector import parse_selector

    f = r.finding
    if f.kind != "drifted" or f.ground is None or f.expected_hash is None:
        return None
    # The check just judged this path a regular file of the repository; read it as
    # the check did (no symlink followed), without adoption's repository survey.
    data = read_regular(str(root / f.path))
    if data is None or len(data) > max_bytes:
        return None
    try:
        text = extract(
            normalise_text(decode_bytes(data, f.path)), parse_selector(f.selector), excludes
        ).text
    except ForestError:
        return None  # changed again under us: the next event judges it
    if hash_body(text) != f.actual_hash:
        return None
    if _erased(root, text):
        log.warning("not kept as a proposal: %s holds text a forget removed", f.selector)
        return None
    with ProposalStore(root) as store:
        done = store.propose(
            binding=f.binding,
            path=f.path,
            selector=f.selector,
            derived_from=f.ground,
            ground_hash=f.expected_hash,
            text=text,
        )
    return f"{done.proposal.id} {done.outcome}"
