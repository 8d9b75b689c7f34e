"""Where a missing act is: a whole segment that holds it, in any commit a ref reaches.

The one search of both doors that route a dangling dependency: ``forest ci``
(gate/dangling.py) and ``forest verify`` (custody/damaged.py).

A dangling dependency (``forest verify``'s ``dangling-dep``) names an act the ledger
lacks; it was usually recorded on a branch that was never merged. Every commit any
ref reaches is searched for it (``git log --all -G``: one call for up to
``WORDS_PER_CALL`` missing ids; a merge counts where it holds a segment none of its
parents held, as a conflict resolved by hand may), and a match is only a place to
look: a segment is its holder only when it is whole (well named, hashing to its
name, every line decoding) and one of its decoded acts has that very id. An id that occurs as text
anywhere else (a body, a file outside the segments, another act's ``deps``) is
never a holder. The holder's own dependencies the ledger lacks are searched the
same way, ``ROUNDS`` deep at most, so bringing its files back leaves none dangling.
A body its acts name that the holder's commit lacks (a segment copied without its
bodies) is looked for by its path in every commit a ref reaches and checked out
from the one that holds it whole; one found nowhere (that no erase act records)
is the holder's ``lacks``: bringing the segment alone would leave it missing.

Stores: nothing.
Refuses: nothing; an id that is no 64-hex act id is never searched.
Returns: ``find_holders`` (act id -> ``Holder``, for every act a found segment
holds), ``closure`` (the holders one missing act needs, or None when one is
nowhere), ``checkouts`` (commit -> the files to check out from it),
``unbacked`` (the bodies a chain of holders needs that no commit holds).
Test: tests/gate/test_ci_dangling_dep.py, tests/custody/test_damaged.py
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from forest_files import gitio
from forest_files.kernel.paths import BODIES, LEDGER_DIR, SEGMENTS
from forest_files.ledger.acts import Act, body_hashes, is_hex64
from forest_files.ledger.segments import parse_segment

SEGMENTS_PATH = f"{LEDGER_DIR}/{SEGMENTS}"
_SEGMENT = re.compile(rf"{re.escape(SEGMENTS_PATH)}/(?P<name>[0-9a-f]{{64}})\.jsonl")
ROUNDS = 16  # a chain of missing segments deeper than this is not followed
WORDS_PER_CALL = 100  # ids in one ``git log -G`` pattern (~6.5 kB of argument)


@dataclass(frozen=True)
class Holder:
    """A whole segment, in a commit that holds it, and what bringing it back needs."""

    commit: str
    segment: str  # its repository path
    acts: frozenset[str]  # the ids of the acts it holds
    deps: frozenset[str]  # every id those acts depend on
    bodies: tuple[str, ...]  # repository paths of the bodies they name that the commit
    # holds with bytes that hash to their names
    elsewhere: tuple[tuple[str, str], ...] = ()  # (commit, path): a body they name that
    # the commit lacks, in another commit that holds it whole
    lacks: tuple[str, ...] = ()  # paths of bodies they name that no commit holds whole
    # (none its own erase acts record)
    erases: frozenset[str] = frozenset()  # paths of the bodies its erase acts record


def body_path(body_hash: str) -> str:
    return f"{LEDGER_DIR}/{BODIES}/{body_hash[:2]}/{body_hash}.txt"


def find_holders(root: Path, wanted: Iterable[str], have: Collection[str]) -> dict[str, Holder]:
    """A holder of each act of ``wanted`` not in ``have`` that some commit holds, and of
    the acts those holders depend on in turn; keyed by every act a found segment holds."""
    found: dict[str, Holder] = {}
    searched: set[str] = set()
    missing = sorted({d for d in wanted if is_hex64(d) and d not in have})
    for _ in range(ROUNDS):
        if not missing:
            break
        searched.update(missing)
        for holder in _holders_of(root, missing):
            for act_id in holder.acts:
                found.setdefault(act_id, holder)
        deps = {d for h in found.values() for d in h.deps}
        missing = sorted(d for d in deps if d not in have and d not in found and d not in searched)
    return _with_bodies(root, found)


def checkouts(holders: Iterable[Holder]) -> dict[str, list[str]]:
    """The files that bring ``holders`` back, by the commit they are checked out from:
    each segment with the bodies its commit holds; a body it lacks, from the commit
    that holds it."""
    files: dict[str, dict[str, None]] = {}
    for h in holders:
        files.setdefault(h.commit, {}).update(dict.fromkeys((h.segment, *h.bodies)))
        for commit, path in h.elsewhere:
            files.setdefault(commit, {})[path] = None
    return {commit: list(paths) for commit, paths in files.items()}


def unbacked(chain: Iterable[Holder], erased: Collection[str]) -> list[str]:
    """The body paths ``chain`` needs that no commit holds, none of its erase acts
    records and ``erased`` (the paths the ledger's own erase acts record) lacks."""
    chain = list(chain)
    gone = {p for h in chain for p in h.erases} | set(erased)
    return sorted({p for h in chain for p in h.lacks} - gone)


def closure(
    dep: str, holders: Mapping[str, Holder], have: Collection[str]
) -> tuple[Holder, ...] | None:
    """The holders whose segments bring ``dep`` and everything it needs that ``have``
    lacks (by segment path, in the order met), or None when one of them is nowhere."""
    out: dict[str, Holder] = {}
    todo = [dep]
    while todo:
        act_id = todo.pop()
        if act_id in have:
            continue
        holder = holders.get(act_id)
        if holder is None:
            return None
        if holder.segment not in out:
            out[holder.segment] = holder
            todo += sorted(holder.deps)
    return tuple(out.values())


def _holders_of(root: Path, missing: list[str]) -> list[Holder]:
    """Whole segments holding some of ``missing`` (newest commit first, one per act)."""
    candidates: dict[str, gitio.Added] = {}  # by blob: a segment's bytes, read once
    for i in range(0, len(missing), WORDS_PER_CALL):
        for added in gitio.files_with(root, missing[i : i + WORDS_PER_CALL], SEGMENTS_PATH):
            if _SEGMENT.fullmatch(added.path):
                candidates.setdefault(added.blob, added)
    data = gitio.cat_blobs(root, candidates)
    wanted = set(missing)
    taken: set[str] = set()
    whole: list[tuple[gitio.Added, list[Act]]] = []
    for blob, added in candidates.items():
        acts = _whole(data[blob], added.path)
        ids = {a.id for a in acts}
        if ids & (wanted - taken):
            taken |= ids
            whole.append((added, acts))
    return [_holder(root, added, acts) for added, acts in whole]


def _whole(data: bytes, path: str) -> list[Act]:
    """The acts of a segment's bytes; none unless every line decodes and the bytes
    hash to the file's name (a forged or damaged copy is never brought back)."""
    acts, errors = parse_segment(data, path.rsplit("/", 1)[1])
    return [] if errors else [act for _, act in acts]


def _holder(root: Path, added: gitio.Added, acts: list[Act]) -> Holder:
    named = sorted({h for act in acts for h in body_hashes(act)})
    held = gitio.blobs_at(root, added.commit, [body_path(h) for h in named])
    bodies = tuple(body_path(h) for h in named if _hashes_to(held[body_path(h)], h))
    erases = frozenset(
        body_path(h)
        for a in acts
        if a.kind == "erase" and isinstance(h := a.fields.get("body_hash"), str)
    )
    return Holder(
        added.commit,
        added.path,
        frozenset(a.id for a in acts),
        frozenset(d for a in acts for d in a.deps),
        bodies,
        lacks=tuple(p for p in map(body_path, named) if p not in bodies and p not in erases),
        erases=erases,
    )


def _hashes_to(data: bytes | None, body_hash: str) -> bool:
    return data is not None and hashlib.sha256(data).hexdigest() == body_hash


def _with_bodies(root: Path, found: dict[str, Holder]) -> dict[str, Holder]:
    """``found`` with each body a holder's commit lacks looked for in every commit any
    ref reaches (by its path; the newest commit whose blob hashes to its name)."""
    lacking = sorted({p for h in found.values() for p in h.lacks})
    if not lacking:
        return found
    where: dict[str, str] = {}
    for i in range(0, len(lacking), WORDS_PER_CALL):
        added = gitio.paths_added(root, lacking[i : i + WORDS_PER_CALL])
        data = gitio.cat_blobs(root, [a.blob for a in added])
        for a in added:
            name = a.path.rsplit("/", 1)[1].removesuffix(".txt")
            if _hashes_to(data[a.blob], name):
                where.setdefault(a.path, a.commit)
    done: dict[str, Holder] = {}  # by segment: one holder for all the acts it holds
    for h in found.values():
        if h.segment not in done:
            more = tuple((where[p], p) for p in h.lacks if p in where)
            left = tuple(p for p in h.lacks if p not in where)
            done[h.segment] = replace(h, elsewhere=more, lacks=left)
    return {act_id: done[h.segment] for act_id, h in found.items()}
