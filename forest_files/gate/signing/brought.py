"""Which commit of a range brought which act: the commit whose signature answers for it.

A commit brings the acts of the segment files it adds (or, against the
ledger-only-grows rule, modifies) under ``.forest/ledger/segments/``
against EVERY one of its parents. So a merge commit brings only what it adds
itself; the acts of a merged branch stay with the branch's own commits,
which are in the range too, and are judged by their signatures. A commit
without parents (an unrelated history merged in) brings every segment it holds.

Stores: nothing.
Refuses: nothing itself (git's failures surface as GitFailed).
Returns: ``Brought``: per commit, oldest first, the wanted act ids it brought.
Test: tests/gate/test_signing.py
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.gitio.signatures import changed_blobs
from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.ledger.segment_files import SEGMENT_SUFFIX
from forest_files.ledger.segments import SEGMENTS_DIR, parse_segment

_SEGMENTS = f"{LEDGER_PREFIX}{SEGMENTS_DIR}/"


@dataclass(frozen=True)
class Brought:
    """The commits of the range (oldest first) with the wanted acts each brought."""

    by_commit: tuple[tuple[str, tuple[str, ...]], ...]

    def commits(self) -> list[str]:
        return [commit for commit, _ in self.by_commit]

    def unbrought(self, wanted: Collection[str]) -> list[str]:
        """Wanted acts no commit of the range brought (sorted)."""
        seen = {a for _, acts in self.by_commit for a in acts}
        return sorted(set(wanted) - seen)


def _segments_of(
    root: Path, commit: str, parents: tuple[str, ...], diffs: list[dict[str, str]]
) -> dict[str, str]:
    if not parents:
        entries = gitio.ls_tree(root, commit, _SEGMENTS)
        return {e.path: e.blob for e in entries if e.type == "blob"}
    common = set(diffs[0])
    for diff in diffs[1:]:
        common &= set(diff)
    return {path: diffs[0][path] for path in common}


def acts_brought(root: Path, merge_base: str, head: str, wanted: Collection[str]) -> Brought:
    """Per commit of ``merge_base..head``, the acts of ``wanted`` it brought."""
    commits = gitio.range_parents(root, f"{merge_base}..{head}")
    pairs = [(commit, parent) for commit, parents in commits for parent in parents]
    diffs = iter(changed_blobs(root, pairs, _SEGMENTS.rstrip("/")))
    per_commit: list[tuple[str, dict[str, str]]] = []
    for commit, parents in commits:
        mine = [dict(next(diffs)) for _ in parents]
        per_commit.append((commit, _segments_of(root, commit, parents, mine)))
    blobs = {blob for _, segs in per_commit for blob in segs.values()}
    data = gitio.cat_blobs(root, blobs)
    want = set(wanted)
    out: list[tuple[str, tuple[str, ...]]] = []
    for commit, segments in per_commit:
        found: set[str] = set()
        for path, blob in segments.items():
            if path.endswith(SEGMENT_SUFFIX):
                decoded, _faults = parse_segment(data[blob], path.rsplit("/", 1)[-1])
                found |= {act.id for _, act in decoded if act.id in want}
        if found:
            out.append((commit, tuple(sorted(found))))
    return Brought(tuple(out))
