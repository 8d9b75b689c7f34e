"""The ``restore`` policy: ground written back by compare-and-swap, after the capture.

The divergent text is already the binding's proposal when this runs (the
watcher captured it first), so a restore loses nothing. It writes only while
the file holds exactly the bytes whose section hashed to what the check saw;
an editor that saved again in between wins, and the next event judges anew.
The rename is made inside the restore gate (custody/restore_gate.py: the index's
write lock every recording takes), which looks again at the ground and the place
the check judged against: a command that recorded a new ground for the binding
(``forest supersede`` of the very text the file holds) or moved it since wins too.
A binding restored ``RESTORE_LIMIT`` times within ``RESTORE_WINDOW`` seconds
is left as its proposal instead (``Restorer.allowed``). A restore that would remove
another bound section of the file (a heading demoted into the section, a bound
subsection added under it: custody/restore_nested.py) is never made: the file is
left as it is, its text the proposal, the outcome naming that section and
``forest restore … --drop-nested``. A section whose heading an edit hid since the
check (a fence or comment left open above it) is refused by the restore, which names
the block and the restore that brings the heading back (custody/restore_hidden.py).

Stores: the file (only the section's lines; restore.py) and a capture under
``.git/forest/captures``.
Refuses: nothing; every problem is an outcome the watcher logs.
Returns: the outcome: ``restored``, ``changed`` (the file moved on), ``left`` (its
ground or binding moved on since the check: the file left as it is), ``clean``,
``held`` (restored too often: left as a proposal), ``failed: …`` (also a restore
that would remove another bound section).
Test: tests/doors/test_watch_policy.py, tests/doors/test_watch_nested.py,
tests/doors/test_watch_hidden.py
"""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Reported
from forest_files.custody.watchpolicy import RESTORE_LIMIT, RESTORE_WINDOW
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.check.finding import Finding
    from forest_files.custody.bindings import Binding
    from forest_files.store.forest import ForestStore


class Restorer:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._times: dict[str, deque[float]] = {}

    def allowed(self, binding: str, now: float | None = None) -> bool:
        at = time.monotonic() if now is None else now
        seen = self._times.setdefault(binding, deque())
        while seen and at - seen[0] > RESTORE_WINDOW:
            seen.popleft()
        return len(seen) < RESTORE_LIMIT

    def restore(self, r: Reported, excludes: tuple[str, ...]) -> str:
        """Write ground into ``r``'s section if the file still holds what was judged,
        and the binding still stands there on the ground it was judged against."""
        f = r.finding
        if not self.allowed(f.binding):
            return "held"
        from forest_files.custody.content import read_regular
        from forest_files.kernel.hashing import hash_body
        from forest_files.text.extract import extract
        from forest_files.text.normalise import decode_bytes, normalise_text
        from forest_files.text.selector import parse_selector
        from forest_files.text.selector_errors import SectionNotFound

        data = read_regular(str(self.root / f.path))
        if data is None:
            return "changed"
        try:
            text = normalise_text(decode_bytes(data, f.path))
            try:
                section: str | None = extract(text, parse_selector(f.selector), excludes).text
            except SectionNotFound:  # an edit since hid its heading, or took it out:
                section = None  # the restore refuses it, naming what hides it (restore.py)
            if section is not None and hash_body(section) != f.actual_hash:
                return "changed"
            outcome = self._write(f, excludes, data)
        except ForestError as exc:
            return f"failed: {' '.join(str(exc).split())}"
        if outcome == "restored":
            self._times[f.binding].append(time.monotonic())
        return outcome

    def _write(self, f: Finding, excludes: tuple[str, ...], data: bytes) -> str:
        """The ground the check judged against written in, through the restore gate."""
        from forest_files.custody.bindings import all_bindings
        from forest_files.custody.repository import Repository
        from forest_files.custody.restore import Bound, restore_section
        from forest_files.custody.restore_gate import grounds_held

        with Repository(self.root) as repo:
            store = repo.synced()
            ground = self._ground(store, f.ground)
            live = all_bindings(store, paths=[f.path])
            judged = _judged(live, f, excludes)
            if judged is None or f.ground is None:  # retired since the check
                return "left"
            gate = grounds_held(store, [(judged, f.ground)])
            # Every other section of the file must survive: a heading demoted into this
            # one, or a bound subsection added under it, is never removed unasked.
            bound = [Bound(b.selector, b.excludes) for b in live if b.path == f.path]
            outcome, _ = restore_section(
                self.root,
                f.path,
                f.selector,
                excludes,
                ground,
                expected=data,
                gate=gate,
                bound=bound,
            )
        return outcome

    def _ground(self, store: ForestStore, content_id: str | None) -> str:
        from forest_files.check.diff import ground_text
        from forest_files.kernel.shellword import forest_text

        text = ground_text(store, content_id)
        if text is None:
            sync = forest_text("sync")  # reached from where `forest watch` was typed
            raise ForestError(f"ground {content_id} is not in the index; run `{sync}`")
        return text


def _judged(live: list[Binding], f: Finding, excludes: tuple[str, ...]) -> Binding | None:
    """The binding as the check judged it (its place then), for the gate to compare
    with where it stands under the write lock; None when it is no longer live."""
    import dataclasses

    for b in live:
        if b.bind_act == f.binding:
            return dataclasses.replace(b, path=f.path, selector=f.selector, excludes=excludes)
    return None
