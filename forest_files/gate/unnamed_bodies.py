"""A body file a commit of the range deletes that no segment names: text nobody adopted.

The pre-commit hook lets such a body go (its hash in the bytes of no segment, at
HEAD or staged: check/erasure_guard.py ``deleted_bodies``); the ledger's growth
(growth.py) judges the same deletion in each commit of a range, against the bytes
of every segment file at the commit, at the parent it is judged against and at the
merge-base (a segment the range deleted or overwrote still names its bodies there,
so their put-back is never left without them). Such a body the merge-base held is
a stray the base brought: deleting it is removing garbage, no fault (before, its
``git rm`` was the ledger shrinking, and its put-back the stray again: no way
out). One the range itself added is a ``ledger-deleted`` of cause ``UNNAMED``,
routed to taking it out of the commit that added it (added_segment.py
``deleted_later``), so its text leaves the branch's history too.

Stores: nothing.
Refuses: nothing.
Returns: ``Unnamed``: whether a deleted body is named by no segment there, and
whether the merge-base held it (one ``ls-tree`` and one ``cat-file --batch`` per
commit asked, only when a commit deletes a body no erase act names); whether a
deleted ledger file was a link the merge-base held (``linked_at_base``: one
``ls-tree`` of the merge-base and of the parent, only when a segment or body is
deleted that no erase act names).
Test: tests/gate/test_ci_unnamed_body_deleted.py, tests/gate/test_ci_linked_on_base.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files import gitio
from forest_files.custody.sources import LEDGER_PREFIX
from forest_files.ledger.segments import SEGMENTS_DIR

_SEGMENTS = f"{LEDGER_PREFIX}{SEGMENTS_DIR}"


class Unnamed:
    """The range's deleted bodies judged by the bytes of the segments around them."""

    def __init__(self, root: Path, merge_base: str) -> None:
        self.root, self.merge_base = root, merge_base
        self._bytes: dict[str, list[bytes]] = {}
        self._links: dict[str, frozenset[str]] = {}  # each commit's links: linked_at_base

    def _segments(self, rev: str) -> list[bytes]:
        """The raw bytes of every blob under the segments directory at ``rev``, read
        whole, readable or not (an overwritten segment still names its bodies)."""
        if rev not in self._bytes:
            listed = gitio.ls_tree(self.root, rev, _SEGMENTS)
            blobs = gitio.cat_blobs(self.root, (e.blob for e in listed if e.type == "blob"))
            self._bytes[rev] = list(blobs.values())
        return self._bytes[rev]

    def unnamed(self, body_hash: str, commit: str, parent: str) -> bool:
        """No segment at ``commit``, ``parent`` or the merge-base holds ``body_hash``."""
        needle = body_hash.encode()
        revs = dict.fromkeys((commit, parent, self.merge_base))
        return not any(needle in data for rev in revs for data in self._segments(rev))

    def linked_at_base(self, path: str, parent: str) -> bool:
        """``parent`` and the merge-base both hold ``path`` as a symlink or submodule: a
        stray the base brought, never read, whose deletion removes garbage (gate/linked.py
        takes it out of the branch's first commit); one ``ls-tree`` per commit asked."""
        return all(path in self._links_at(rev) for rev in (parent, self.merge_base))

    def _links_at(self, rev: str) -> frozenset[str]:
        from forest_files.gate.linked import links_at

        if rev not in self._links:
            self._links[rev] = links_at(self.root, rev)
        return self._links[rev]

    def at_base(self, path: str) -> bool:
        """The merge-base holds ``path``: a stray the range did not bring."""
        (held,) = gitio.objects_at(self.root, [f"{self.merge_base}:{path}"])
        return held is not None


__all__ = ["Unnamed"]
