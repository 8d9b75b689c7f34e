"""The hook's guard of the ledger: a staged change only adds files, and no erased body returns.

Ledger files are immutable and the ledger only grows (as ``forest ci`` judges
each commit of a range, gate/growth.py); the pre-commit hook (and ``forest
check --staged``) judges the staged change the same way, from the staged
change alone. A ledger file HEAD holds that the change retypes (a symlink, a
gitlink: status ``T``) is ``ledger-rewritten``; one it deletes is
``ledger-deleted``, except a body an erase act of the staged ledger names (a
``forest forget``), a body whose hash the bytes of no segment hold (at HEAD or
staged, damaged ones too: ``forest ci`` takes a body no act names out of the commit
that added it), a file that is no well-formed ledger file, and a segment
whose bytes at HEAD do not verify (removing garbage is allowed: no door reads an
act from it, and ``forest ci``'s route takes such a segment out of the commit
that added it with ``git rm`` and an amend, which this guard judges against
HEAD), and a segment HEAD added whose acts depend on acts HEAD's ledger lacks,
with the bodies only it names that HEAD added (``forest ci``'s take-out of a
dangling dependency no commit holds: dangling_guard.py). One modified in place is
the ledger reader's to refuse (every ledger file is named by the SHA-256 of its
bytes). A ``git revert`` of a
forget deletes or retypes the erase act's segment and puts the erased body
back: that finding says so, and a staged body whose hash the staged ledger
holds as erased is ``erased-content``. Their route puts HEAD's file (or, for
an erasure, HEAD's ledger) back and lets ``forest sync`` delete the body file
again; it never needs the erased text. A sound segment HEAD added (HEAD having one
parent) that the staged change deletes, a ``git commit --amend`` dropping the user's
own adopt or supersede, gets a second route: ``git reset --soft HEAD~1``, for a
commit not yet pushed.

The post-commit hook judges a commit already made against its parent the same
way (check/after_commit.py): a ``Subject`` says whose change it is and its ways
back.

Stores: nothing.
Refuses: nothing; it returns findings (ids, hashes, paths; never text).
Returns: ``Finding`` values of no binding, with their routes (``Reported``).
Test: tests/governance/test_forget_pulled.py, tests/doors/test_hooks_custody.py,
tests/check/test_after_commit.py, tests/gate/test_ci_take_out_hooked.py,
tests/gate/test_ci_unnamed_body_hooked.py, tests/check/test_dangling_take_out_hooked.py
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from forest_files.check.dangling_guard import added_by, dangling_added
from forest_files.check.findings import Reported, Route
from forest_files.kernel.paths import LEDGER_PREFIX

if TYPE_CHECKING:
    from collections.abc import Iterator, Set

    from forest_files.gitio import Change

_LEDGER = LEDGER_PREFIX.rstrip("/")
_SEGMENTS = f"{LEDGER_PREFIX}segments/"
_BODIES = f"{LEDGER_PREFIX}bodies/"
# Well-formed ledger file names (as gate/growth.py has them): deleting anything
# else under the ledger is removing garbage, which ``forest ci`` routes to ``git rm``.
_SEGMENT = re.compile(rf"{re.escape(_SEGMENTS)}[0-9a-f]{{64}}\.jsonl")
_BODY = re.compile(
    rf"{re.escape(_BODIES)}(?P<fan>[0-9a-f]{{2}})/(?P<hash>(?P=fan)[0-9a-f]{{62}})\.txt"
)
# A file modified in place is the ledger reader's to refuse: every ledger file is
# named by the SHA-256 of its bytes (a damaged ledger, exit 3), so only these two.
_VERBS = {"T": "changes the type of", "D": "deletes"}


def _erase_route() -> Route:
    return Route(
        "keep the erase: put HEAD's ledger back, then let forest delete the body again",
        (
            ("git", "reset", "-q", "HEAD", "--", _LEDGER),
            ("git", "checkout", "HEAD", "--", _LEDGER),
            ("forest", "sync"),
        ),
        "a revert of a forget brings the erased text back: rotate the secret instead",
    )


def _file_route(path: str) -> Route:
    return Route(
        "put HEAD's file back (the ledger only grows: a change is a new act)",
        (("git", "checkout", "HEAD", "--", path),),
    )


def _finding(kind: str, path: str, act: str | None, detail: str, *routes: Route) -> Reported:
    from forest_files.check.engine import Finding

    found = Finding(kind, path, path, "", None, None, detail=detail, act=act)
    return Reported(found, routes)


class Subject(NamedTuple):
    """Whose change a finding judges and the ways out: the staged change against HEAD
    (the pre-commit hook, ``forest check --staged``), or a commit already made against
    its parent (the post-commit hook: check/after_commit.py)."""

    change: str  # "the staged change", "commit 1a2b3c4d5e6f"
    holder: str  # what holds the file before the change: "HEAD", "its parent"
    erase_routes: tuple[Route, ...]
    file_routes: tuple[Route, ...] = ()  # empty: put HEAD's file back, per file


STAGED = Subject("the staged change", "HEAD", (_erase_route(),))


def _erase_acts(data: bytes) -> list[str]:
    """The ids of the erase acts of one segment's bytes (lines that do not decode
    are verify's to report)."""
    import json

    out = []
    for line in data.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and obj.get("kind") == "erase":
            out.append(str(obj.get("id", "")))
    return out


def _edits(changes: list[Change]) -> Iterator[tuple[str, str]]:
    """(path, status letter T or D) of each staged change to a ledger file HEAD holds
    that retypes or deletes it: a rename's source is deleted, a copy's left as it was."""
    for c in changes:
        letter = c.status[:1]
        if letter == "R" and c.old_path is not None:
            letter, path = "D", c.old_path
        else:
            path = c.path
        if letter in _VERBS and path.startswith(LEDGER_PREFIX):
            yield path, letter


def _head_segments(root: Path, head: str, paths: list[str]) -> dict[str, bytes]:
    """The bytes of each of ``paths`` (segments) as ``head`` holds them."""
    if not paths:
        return {}
    from forest_files import gitio

    wanted = set(paths)
    listed = gitio.ls_tree(root, head, _SEGMENTS.rstrip("/"))
    entries = {e.path: e.blob for e in listed if e.path in wanted and e.type == "blob"}
    blobs = gitio.cat_blobs(root, entries.values())
    return {p: blobs[b] for p, b in entries.items()}


def _damaged(path: str, data: bytes | None) -> bool:
    """A segment whose bytes do not verify (misnamed, truncated, a bad line): the
    ledger reader refuses it whole, so no door reads an act from it."""
    from forest_files.ledger.segments import parse_segment

    return data is not None and bool(parse_segment(data, path.rpartition("/")[2])[1])


def _edit_finding(path: str, letter: str, erasures: list[str], by: Subject = STAGED) -> Reported:
    kind = "ledger-deleted" if letter == "D" else "ledger-rewritten"
    how = f"{by.change} {_VERBS[letter]} {path}"
    if erasures:
        detail = (
            f"{how}, which holds erase act {erasures[0][:12]} (forest forget): "
            "the ledger only grows, and the erased text would come back"
        )
        return _finding(kind, path, erasures[0], detail, *by.erase_routes)
    detail = f"{how}, which {by.holder} holds: ledger files are immutable, the ledger only grows"
    return _finding(kind, path, None, detail, *(by.file_routes or (_file_route(path),)))


def rewritten_ledger(
    root: Path, head: str | None, changes: list[Change], by: Subject = STAGED
) -> list[Reported]:
    """A staged change to a ledger file ``head`` holds that the ledger reader cannot
    see, judged before the staged ledger is read (a link there is refused with a
    ``git rm`` that would drop the act for good): a file retyped (``ledger-rewritten``),
    a segment deleted (``ledger-deleted``). A segment that holds an erase act says so
    and routes to putting HEAD's ledger back. ``by``: whose change it is (``head`` the
    tree before it) and its ways out. A body's deletion is ``deleted_bodies``'
    to judge, against the staged ledger's erasures. A segment ``head`` holds whose
    bytes do not verify may be deleted: that is removing garbage; so may one ``head``
    added whose acts depend on acts its ledger lacks (dangling_guard.py)."""
    edits = [
        (path, letter)
        for path, letter in _edits(changes)
        if letter != "D" or _SEGMENT.fullmatch(path) is not None
    ]
    segments = [path for path, _ in edits if path.startswith(_SEGMENTS)]
    held = _head_segments(root, head or "HEAD", segments)
    sound = [p for p, letter in edits if letter == "D" and not _damaged(p, held.get(p))]
    going = dangling_added(root, head, sound) if head is not None and sound else set()
    found = [
        _edit_finding(path, letter, _erase_acts(held.get(path, b"")), by)
        for path, letter in edits
        if letter != "D" or not (_damaged(path, held.get(path)) or path in going)
    ]
    if by is not STAGED or head is None:
        return found
    dropped = [r.path for r in found if r.kind == "ledger-deleted" and r.finding.act is None]
    undone = added_by(root, head, dropped)
    return [r._replace(routes=(*r.routes, _UNDO)) if r.path in undone else r for r in found]


# A segment HEAD recorded that the staged change drops (``git commit --amend`` of the
# user's own adopt or supersede): undoing HEAD leaves no commit that deletes it.
_UNDO = Route(
    "or undo HEAD, its changes kept staged (the next git commit is checked)",
    (("git", "reset", "--soft", "HEAD~1"),),
    "for a commit not yet pushed: HEAD's acts go with it",
)


def _segment_bytes(root: Path, head: str | None) -> dict[str, bytes]:
    """The raw bytes of every blob under the segments directory, at ``head`` and in the
    index, by path (a path in both: once per blob): read whole, readable or not (a
    segment overwritten in place still names the bodies its put-back needs), whatever
    its name."""
    from forest_files import gitio

    where = _SEGMENTS.rstrip("/")
    listed = gitio.ls_files_stage(root, where, keep_index_file=True)
    if head is not None:
        listed += gitio.ls_tree(root, head, where)
    entries = [e for e in listed if e.type == "blob"]
    blobs = gitio.cat_blobs(root, (e.blob for e in entries))
    return {f"{e.path}\0{e.blob}": blobs[e.blob] for e in entries}


def _going(root: Path, head: str | None, changes: list[Change]) -> set[str]:
    """The segments the staged change deletes that ``head`` added dangling, whose bytes
    at ``head`` then name no body the guard keeps (``dangling_added``)."""
    deleted = [p for p, letter in _edits(changes) if letter == "D" and _SEGMENT.fullmatch(p)]
    if head is None or not deleted:
        return set()
    held = _head_segments(root, head, deleted)
    return dangling_added(root, head, [p for p in deleted if not _damaged(p, held.get(p))])


def deleted_bodies(
    root: Path, head: str | None, erased: Set[str], changes: list[Change]
) -> list[Reported]:
    """A staged deletion of a body file: ``ledger-deleted`` unless an erase act of the
    staged ledger names it (``erased``: its erased body hashes), or its hash is in the
    bytes of no segment file at ``head`` and none staged (a body no act can name:
    removing garbage, as ``forest ci``'s route taking a body no act names out of the
    commit that added it does). A plain byte search, only when a body is deleted."""
    gone = []
    for path, letter in _edits(changes):
        body = _BODY.fullmatch(path) if letter == "D" else None
        if body is not None and body["hash"] not in erased:
            gone.append((path, body["hash"]))
    if not gone:
        return []
    segments = _segment_bytes(root, head)
    going = _going(root, head, changes)
    theirs = {k: v for k, v in segments.items() if k.partition("\0")[0] in going}
    others = {k: v for k, v in segments.items() if k not in theirs}
    named = [(p, h) for p, h in gone if _named(h, others) or _named(h, theirs)]
    # a body only a dangling segment HEAD added names goes with it when HEAD added it too
    only = [p for p, h in named if not _named(h, others)]
    added = added_by(root, head, only) if only and head is not None else set()
    return [_edit_finding(p, "D", []) for p, _ in named if p not in added]


def _named(body_hash: str, segments: dict[str, bytes]) -> bool:
    return any(body_hash.encode() in data for data in segments.values())


def returned_bodies(erased: Set[str], changes: list[Change]) -> list[Reported]:
    """A staged body file whose hash the staged ledger holds as erased (``erased``)."""
    added = {
        c.path.rpartition("/")[2].removesuffix(".txt"): c.path
        for c in changes
        if c.status[:1] in "AMRCT" and c.path.startswith(_BODIES)
    }
    out = []
    for body_hash in sorted(erased & added.keys()):
        detail = (
            f"the staged change brings back body {body_hash[:12]}, which an erase act "
            "(forest forget) removed; commit the ledger without it"
        )
        out.append(_finding("erased-content", added[body_hash], None, detail, _erase_route()))
    return out
