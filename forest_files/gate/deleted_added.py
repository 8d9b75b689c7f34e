"""A ledger file a commit of the range deleted that is taken out where it was added,
not put back: put back, it would be a fault again.

The gate puts back a ledger file a commit of the range deleted (rebase.py
``put_back``), save one a commit of the range added at fault: a segment that does not
verify (added_segment.py ``deleted_unsound``), a body no act names (cause
``UNNAMED``: ``deleted_unnamed``), or a segment whose act depends on an act no commit
holds, with the bodies only it names (dangling.py ``deleted_dangling``: its ``git rm``
committed on top, which the pre-commit hook accepts, was put back dangling, a loop).
Each gets the take-out from the commit that added it, whose note says the deletion is
then empty. Moved out of judged_range.py, which asks it.

Stores: nothing.
Refuses: nothing.
Returns: ``TakenOut.route``: a deleted file's take-out, or None (asked once per path;
the range's links once, and a parent's dangling dependencies once, only for a deletion
the others let be).
Test: tests/gate/test_ci_added_segment.py, tests/gate/test_ci_unnamed_body_deleted.py,
tests/gate/test_ci_dangling_deleted.py, tests/gate/test_ci_linked_stray.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files.check.findings import Route
from forest_files.gate.rebase import Rebase
from forest_files.ledger.verify import UNNAMED, Fault


class TakenOut:
    """The take-outs of a range's deleted ledger files (``deleted``: their paths)."""

    def __init__(
        self, top: Path, head: str, merge_base: str, rebase: Rebase, deleted: frozenset[str]
    ) -> None:
        self.top, self.head, self.merge_base = top, head, merge_base
        self.rebase, self.deleted = rebase, deleted
        self._by_path: dict[str, Route | None] = {}
        self._dangling: dict[str, dict[str, Route]] = {}  # by the deleting commit's parent
        self._links: dict[str, str] | None = None  # the links the range added: linked.py

    def route(self, deleted: Fault) -> Route | None:
        """``deleted``'s take-out from the commit of the range that added it at fault."""
        path = deleted.path or ""
        if path not in self._by_path:
            self._by_path[path] = self._find(deleted, path)
        return self._by_path[path]

    def _find(self, deleted: Fault, path: str) -> Route | None:
        from forest_files.gate.added_segment import deleted_unnamed, deleted_unsound

        how = deleted_unnamed if deleted.cause == UNNAMED else deleted_unsound
        found = how(self.top, path, merge_base=self.merge_base, head=self.head, rebase=self.rebase)
        if found is not None or deleted.cause == UNNAMED:
            return found
        found = self._linked(path)
        if found is not None or deleted.parent is None:
            return found
        return self._dangling_at(deleted.parent).get(path)

    def _linked(self, path: str) -> Route | None:
        """A link named like a segment the range added: its take-out (linked.py; the
        range's links asked of git once)."""
        from forest_files.gate.linked import deleted_linked, links_added

        if self._links is None:
            self._links = links_added(self.top, self.merge_base, self.head)
        return deleted_linked(self._links, path, head=self.head, rebase=self.rebase)

    def _dangling_at(self, parent: str) -> dict[str, Route]:
        from forest_files.gate.dangling import Placing, deleted_dangling

        if parent not in self._dangling:
            place = Placing(self.head, self.merge_base, self.rebase, self.deleted)
            self._dangling[parent] = deleted_dangling(self.top, parent, place)
        return self._dangling[parent]


__all__ = ["TakenOut"]
