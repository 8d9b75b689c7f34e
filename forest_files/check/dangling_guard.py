"""A segment HEAD added whose acts depend on acts HEAD's ledger lacks: the hook lets it go.

``forest ci``'s route out of a dangling dependency no commit holds (gate/dangling.py)
takes the dependent segment, and the bodies only its acts name that the same commit
added, out of the commit that added it: ``git rm`` and an amend of HEAD, or the same
at a ``git rebase -i`` stopped there. The pre-commit hook refused that amend as the
ledger shrinking (a segment HEAD holds, sound byte for byte), so the gate's own route
was a dead end under the hooks. HEAD's ledger does not replay with such a segment
(no door reads an act from it), and the commit that added it is the one the amend
rewrites, so its deletion there loses no custody any door holds: the guard
(erasure_guard.py) lets it go, and the bodies only it names that HEAD added with it.
A sound segment HEAD did not add, or whose acts all replay, stays guarded.

Stores: nothing.
Refuses: nothing.
Returns: ``added_by``: those of some paths ``head`` added; ``dangling_added``: those of
some segments ``head`` holds that it added and whose acts depend on an act ``head``'s
ledger lacks (HEAD's ledger parsed only when a sound segment HEAD added is deleted).
Test: tests/check/test_dangling_take_out_hooked.py
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def added_by(root: Path, head: str, paths: Iterable[str]) -> set[str]:
    """Those of ``paths`` ``head`` added: it has one parent, which lacks them (one
    ``git cat-file --batch-check``, only when there is such a path)."""
    wanted = list(paths)
    if not wanted:
        return set()
    from forest_files import gitio

    names = [f"{head}^1", f"{head}^2", *(f"{head}^1:{p}" for p in wanted)]
    first, second, *held = gitio.objects_at(root, names)
    if first is None or second is not None:
        return set()
    return {p for p, at in zip(wanted, held, strict=True) if at is None}


def dangling_added(root: Path, head: str, segments: Iterable[str]) -> set[str]:
    """Those of ``segments`` (paths of segments ``head`` holds) that ``head`` added and
    that hold an act depending on an act no segment of ``head`` holds."""
    added = added_by(root, head, segments)
    if not added:
        return set()
    from forest_files.custody.sources import segments_at

    snap = segments_at(root, head, strict=False)
    names = {p.rpartition("/")[2].removesuffix(".jsonl"): p for p in added}
    out: set[str] = set()
    for act_id, where in snap.found_in.items():
        if any(d not in snap.acts for d in snap.acts[act_id].deps):
            out.update(names[n] for n in where if n in names)
    return out


__all__ = ["added_by", "dangling_added"]
