"""The ``restore`` policy: ground written back by compare-and-swap, after the capture.

The divergent text is already the binding's proposal when this runs (the
watcher captured it first), so a restore loses nothing. It writes only while
the file holds exactly the bytes whose section hashed to what the check saw;
an editor that saved again in between wins, and the next event judges anew.
A binding restored ``RESTORE_LIMIT`` times within ``RESTORE_WINDOW`` seconds
is left as its proposal instead (``Restorer.allowed``).

Stores: the file (only the section's lines; restore.py) and a capture under
``.git/forest/captures``.
Refuses: nothing; every problem is an outcome the watcher logs.
Returns: the outcome: ``restored``, ``changed`` (the file moved on), ``clean``,
``held`` (restored too often: left as a proposal), ``failed: …``.
Test: tests/doors/test_watch_policy.py
"""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path

from forest_files.check.findings import Reported
from forest_files.custody.watchpolicy import RESTORE_LIMIT, RESTORE_WINDOW
from forest_files.kernel.errors import ForestError


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
        """Write ground into ``r``'s section if the file still holds what was judged."""
        f = r.finding
        if not self.allowed(f.binding):
            return "held"
        from forest_files.custody.content import read_regular
        from forest_files.custody.restore import restore_section
        from forest_files.kernel.hashing import hash_body
        from forest_files.text.extract import extract
        from forest_files.text.normalise import decode_bytes, normalise_text
        from forest_files.text.selector import parse_selector

        data = read_regular(str(self.root / f.path))
        if data is None:
            return "changed"
        try:
            text = normalise_text(decode_bytes(data, f.path))
            section = extract(text, parse_selector(f.selector), excludes).text
            if hash_body(section) != f.actual_hash:
                return "changed"
            ground = self._ground(f.ground)
            outcome, _ = restore_section(
                self.root, f.path, f.selector, excludes, ground, expected=data
            )
        except ForestError as exc:
            return f"failed: {' '.join(str(exc).split())}"
        if outcome == "restored":
            self._times[f.binding].append(time.monotonic())
        return outcome

    def _ground(self, content_id: str | None) -> str:
        from forest_files.check.diff import ground_text
        from forest_files.custody.repository import Repository
        from forest_files.kernel.shellword import forest_text

        with Repository(self.root) as repo:
            text = ground_text(repo.synced(), content_id)
        if text is None:
            sync = forest_text("sync")  # reached from where `forest watch` was typed
            raise ForestError(f"ground {content_id} is not in the index; run `{sync}`")
        return text
