"""The ledger only grows, judged in every commit of a range against each of its parents.

For each commit of merge-base..HEAD (merges included) and each of its parents,
a ledger file under ``.forest/ledger/`` that the commit modified
(``ledger-rewritten``), changed the type of (``ledger-rewritten``) or deleted
(``ledger-deleted``) is a fault naming the commit and the path — even when a
later commit puts it back, so a commit that removes the ledger while it edits
bound text cannot hide behind the commit that restores it. Renames are never
detected: a moved ledger is its files deleted, and when a commit leaves no
segment where its parent had some, each of those faults says the ledger was
removed or moved in that commit.

Four deletions are no fault: a body ``bodies/xx/<hash>.txt`` whose hash an
``erase`` act of that commit's OWN ledger names in its top-level ``body_hash``; a
body no segment names (at the commit, its parent or the merge-base) that the
merge-base already held, a stray the base brought (unnamed_bodies.py; one the range
added is a fault of cause ``UNNAMED``, taken out where it was added); a symlink or
submodule named like a segment or body, held so by the parent and the merge-base
(never read: the gate takes it out of the branch's first commit, gate/linked.py); and a file
that is no well-formed ledger file at all (neither ``segments/<64 hex>.jsonl`` nor
``bodies/<2 hex>/<64 hex>.txt``): removing garbage is allowed.

Cost: one ``git rev-list`` and one ``git diff-tree --stdin`` for the whole
range (none when the caller listed and diffed the range already: the CI gate); a
commit's ledger is read only when it deletes a body (the segments' bytes at it, its
parent and the merge-base only when no erase act names that body), and its tree
asked for only when it deletes a segment.

Stores: nothing.
Refuses: a range that does not resolve (``UnknownRef``).
Returns: ``Fault`` values (commit ids and paths, never bodies), each naming the
commit and the parent it was judged against (the gate's route puts the file back
from that parent: gate/rewrite.py ``put_back``).
Test: tests/gate/test_ledger_growth.py, tests/gate/test_ci_unnamed_body_deleted.py
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from forest_files import gitio
from forest_files.custody.sources import LEDGER_PREFIX, segments_at
from forest_files.gate.unnamed_bodies import Unnamed
from forest_files.gitio import Change
from forest_files.ledger.segments import BODIES_DIR, SEGMENTS_DIR
from forest_files.ledger.verify import UNNAMED, Fault

LEDGER_DIR = LEDGER_PREFIX.rstrip("/")
_SEGMENT = re.compile(rf"{SEGMENTS_DIR}/[0-9a-f]{{64}}\.jsonl")
_BODY = re.compile(rf"{BODIES_DIR}/(?P<fan>[0-9a-f]{{2}})/(?P<hash>(?P=fan)[0-9a-f]{{62}})\.txt")


class _Pair(NamedTuple):
    commit: str
    parent: str
    changes: list[Change]


def growth_faults(
    repo_root: Path | str,
    merge_base: str,
    head: str,
    parents: list[tuple[str, tuple[str, ...]]] | None = None,
    every: Mapping[tuple[str, str], list[Change]] | None = None,
) -> list[Fault]:
    """Every ledger file modified, retyped or deleted by a commit of
    ``merge_base..head`` against any of its parents (one fault per commit and path;
    ``parents``: that range's commits with their parents, when the caller read them;
    ``every``: each such pair's changes of every path, when the caller diffed the
    range already: history.py ``range_diffs``, whose one diff-tree this then shares)."""
    root = Path(repo_root)
    span = f"{merge_base}..{head}"
    commits = gitio.range_parents(root, span) if parents is None else parents
    pairs = [(commit, parent) for commit, parents in commits for parent in parents]
    if every is None:
        diffs = gitio.diff_each_parent(root, pairs, LEDGER_DIR)
    else:
        diffs = [[c for c in every[pair] if _ledger_change(c)] for pair in pairs]
    judged = [_Pair(c, p, changes) for (c, p), changes in zip(pairs, diffs, strict=True) if changes]
    emptied = _emptied(root, judged)
    erased: dict[str, set[str]] = {}
    unnamed = Unnamed(root, merge_base)
    faults: list[Fault] = []
    seen: set[tuple[str, str, str]] = set()
    for pair in judged:
        for path, fault in _pair_faults(root, pair, pair.commit in emptied, erased, unnamed):
            key = (pair.commit, fault.code, path)
            if key not in seen:  # a merge deleting one file against both parents: once
                seen.add(key)
                faults.append(fault)
    return faults


def _emptied(root: Path, pairs: list[_Pair]) -> set[str]:
    """Commits that delete segments and keep none: their ledger is gone or moved."""
    deleting = [p.commit for p in pairs if any(_is_segment_deletion(c) for c in p.changes)]
    present = gitio.trees_exist(root, deleting, f"{LEDGER_DIR}/{SEGMENTS_DIR}")
    return {commit for commit, has in present.items() if not has}


def _ledger_change(change: Change) -> bool:
    """``change`` is one the ledger's own diff keeps (``--diff-filter=MDT`` under
    ``.forest/ledger``): a ledger path modified, retyped or deleted."""
    under = change.path == LEDGER_DIR or change.path.startswith(LEDGER_PREFIX)
    return under and change.status in ("M", "D", "T")


def _is_segment_deletion(change: Change) -> bool:
    return change.status == "D" and _SEGMENT.fullmatch(_rel(change.path)) is not None


def _rel(path: str) -> str:
    return path.removeprefix(LEDGER_PREFIX)


def _pair_faults(
    root: Path, pair: _Pair, emptied: bool, erased: dict[str, set[str]], unnamed: Unnamed
) -> list[tuple[str, Fault]]:
    """(path, fault) for each change of one (commit, parent) pair that breaks growth."""
    short, against = pair.commit[:12], pair.parent[:12]
    faults: list[tuple[str, Fault]] = []
    for change in pair.changes:
        rel = _rel(change.path)
        if change.status != "D":
            verb = "changed the type of" if change.status == "T" else "modified"
            detail = (
                f"commit {short} {verb} {change.path} (against parent {against}); "
                "ledger files are immutable"
            )
            faults.append((change.path, _fault("ledger-rewritten", pair, change, detail)))
            continue
        body = _BODY.fullmatch(rel)
        if body is None and _SEGMENT.fullmatch(rel) is None:
            continue  # not a ledger file at all: removing garbage is allowed
        if body is not None and body["hash"] in _erased_at(root, pair.commit, erased):
            continue  # removed by an erasure that commit's own ledger records
        if unnamed.linked_at_base(change.path, pair.parent):
            continue  # a link the base brought, named like a ledger file: garbage too
        how = f"commit {short} deleted {change.path} (against parent {against})"
        cause = None
        if body is not None and unnamed.unnamed(body["hash"], pair.commit, pair.parent):
            if unnamed.at_base(change.path):
                continue  # a stray the base brought: removing garbage
            cause = UNNAMED
            how += ", a body no act names that the range added"
        if emptied and body is None:
            how += f": the ledger was removed or moved in commit {short}, no segment is left"
        detail = f"{how}; the ledger only grows, even when a later commit puts it back"
        faults.append((change.path, _fault("ledger-deleted", pair, change, detail, cause)))
    return faults


def _fault(code: str, pair: _Pair, change: Change, detail: str, cause: str | None = None) -> Fault:
    """A growth fault at ``change``'s file, naming the commit and the parent it was
    judged against (the route puts the file back from that parent)."""
    name = change.path.rsplit("/", 1)[-1]
    return Fault(
        code,
        name,
        None,
        None,
        detail,
        path=change.path,
        commit=pair.commit,
        parent=pair.parent,
        cause=cause,
    )


def _erased_at(root: Path, commit: str, memo: dict[str, set[str]]) -> set[str]:
    """Body hashes the erase acts of ``commit``'s own ledger name (lines that do not
    decode are skipped: reporting them is verify's job)."""
    if commit not in memo:
        snapshot = segments_at(root, commit, strict=False)
        hashes = (a.fields.get("body_hash") for a in snapshot.acts.values() if a.kind == "erase")
        memo[commit] = {h for h in hashes if isinstance(h, str)}
    return memo[commit]
