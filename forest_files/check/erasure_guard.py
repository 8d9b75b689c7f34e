"""The hook's guard of erasures: a commit never deletes an erase act or brings an erased body back.

A ``git revert`` of a forget commit deletes the erase act's segment and puts
the erased body file back; so does editing the ledger by hand. The pre-commit
hook (and ``forest check --staged``) refuses both, judged from the staged
change alone: a staged deletion of a segment that holds an ``erase`` act in
HEAD (``ledger-deleted``), and a staged body file whose hash the staged
ledger holds as erased (``erased-content``). Their route puts HEAD's ledger
back and lets ``forest sync`` delete the body file again; it never needs the
erased text.

Stores: nothing.
Refuses: nothing; it returns findings (ids, hashes, paths; never text).
Returns: ``Finding`` values of no binding, with their routes (``Reported``).
Test: tests/governance/test_forget_pulled.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Reported, Route
from forest_files.kernel.paths import LEDGER_PREFIX

if TYPE_CHECKING:
    from forest_files.gitio import Change
    from forest_files.store.forest import ForestStore

_LEDGER = LEDGER_PREFIX.rstrip("/")
_SEGMENTS = f"{LEDGER_PREFIX}segments/"
_BODIES = f"{LEDGER_PREFIX}bodies/"


def _route() -> Route:
    return Route(
        "keep the erase: put HEAD's ledger back, then let forest delete the body again",
        (
            ("git", "reset", "-q", "HEAD", "--", _LEDGER),
            ("git", "checkout", "HEAD", "--", _LEDGER),
            ("forest", "sync"),
        ),
        "a revert of a forget brings the erased text back: rotate the secret instead",
    )


def _finding(kind: str, path: str, act: str | None, detail: str) -> Reported:
    from forest_files.check.engine import Finding

    found = Finding(kind, path, path, "", None, None, detail=detail, act=act)
    return Reported(found, (_route(),))


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


def deleted_erasures(root: Path, head: str | None, changes: list[Change]) -> list[Reported]:
    """A staged deletion of a segment that holds an erase act in ``head``."""
    gone = [c.old_path or c.path for c in changes if c.status[:1] in "DR"]
    gone = [p for p in gone if p.startswith(_SEGMENTS)]
    if head is None or not gone:
        return []
    from forest_files import gitio

    out = []
    for path in gone:
        entries = [e for e in gitio.ls_tree(root, head, path) if e.path == path]
        if not entries:
            continue
        data = gitio.cat_blobs(root, [entries[0].blob])[entries[0].blob]
        for act in _erase_acts(data):
            detail = (
                f"the staged change deletes {path}, which holds erase act {act[:12]} "
                "(forest forget): the ledger only grows, and the erased text would come back"
            )
            out.append(_finding("ledger-deleted", path, act, detail))
    return out


def returned_bodies(store: ForestStore, changes: list[Change]) -> list[Reported]:
    """A staged body file whose hash the staged ledger holds as erased."""
    added = {
        c.path.rpartition("/")[2].removesuffix(".txt"): c.path
        for c in changes
        if c.status[:1] in "AMRC" and c.path.startswith(_BODIES)
    }
    if not added:
        return []
    from forest_files.custody.erased_ground import erased_hashes

    out = []
    for body_hash in sorted(erased_hashes(store) & added.keys()):
        detail = (
            f"the staged change brings back body {body_hash[:12]}, which an erase act "
            "(forest forget) removed; commit the ledger without it"
        )
        out.append(_finding("erased-content", added[body_hash], None, detail))
    return out
