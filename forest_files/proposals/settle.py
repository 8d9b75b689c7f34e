"""Closing proposals the text has left behind: a section back at ground, or superseded.

Stores: through ``ProposalStore``: an open proposal whose binding's ground moved
on is closed — ``adopted`` (``adopted_as`` the new ground) when the new ground is
exactly the proposed text, else ``discarded``; one whose section holds its ground
again is ``discarded`` (the edit was undone) if the watcher captured it from the
working tree — not under a ``restore`` watch policy, where ground is written back
on purpose and the text waits for review, and never an agent's proposal (its text
never was in the file: an unedited section is where it starts).
Whatever path moved the text (``forest check``, the hook, ``supersede``, a hand
edit) the next door that lists proposals sees it closed (``forest proposals``,
``proposal show``, ``review``, ``watch status``, the watcher after each batch).
A discarded text keeps no bytes (the store's rule). The doors audit each
closing (doors/review/closing.py). Only the proposals captured in this worktree
are judged (a linked worktree on another branch, or one whose copy of the
section was never edited, must not close the text another worktree keeps); one
recorded before worktrees were (schema 2) is judged anywhere. Rebind proposals
alike: only the worktree that saw the rename closes one (``rebinds.db`` schema
2; one of schema 1 is judged anywhere).
Where this user may not write the files (``writable``: a read-only state folder, a
second user reading someone's clone), nothing is settled: a listing, ``proposal
show`` and ``watch status`` read them read-only (``open_read_only``,
``proposal_store``) and say that nothing was closed; each says of a proposal the text
left behind the status the closing would record (``left_behind``, judged by one check
for them all: ``judged``, ``left_read_only``), as the writing door records it, and
names the closing it cannot write (``settle`` closes by the same judgement).
Refuses: nothing; a binding the findings do not name is left as it is.
Returns: the proposals closed, with why (``settled``); the findings of one check by
binding (``judged``); how each would be closed, nothing written (``left_behind``,
``left_read_only``); whether the files may be written; the open proposals read
read-only; the proposals file to show one from.
Test: tests/proposals/test_settle.py, tests/proposals/test_list_read_only.py,
tests/proposals/test_show_status_read_only.py, tests/proposals/test_show_moved_on.py,
tests/proposals/test_list_settled_read_only.py
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from forest_files.check.engine import Finding
from forest_files.custody.proposals import NoSuchProposal, Proposal, ProposalStore
from forest_files.kernel.paths import LOCAL_DB_NAME
from forest_files.kernel.state import shared_dir, worktree_key
from forest_files.proposals import rebinds
from forest_files.proposals.rebinds import REBINDS_DB_NAME, Rebind, RebindStore, open_rebinds


@dataclass(frozen=True)
class Settled:
    proposal: Proposal | Rebind
    why: str  # "adopted by supersede", "superseded", "back at ground", "rebound" …

    @property
    def code(self) -> str:
        """``why`` as the audit log's fixed reason code: ``closed-back-at-ground`` …"""
        return "closed-" + "-".join(self.why.split())


def _verdict(p: Proposal, f: Finding, restoring: bool) -> tuple[str, str] | None:
    """(status, why) for an open proposal given its binding's finding now, or None."""
    if f.ground is not None and f.ground != p.derived_from:
        if f.expected_hash == p.text_hash:
            return "adopted", "adopted by supersede"
        return "discarded", "superseded"
    if f.kind == "clean" and f.ground == p.derived_from and p.source == "watch" and not restoring:
        return "discarded", "back at ground"
    return None


def judged(root: Path) -> dict[str, Finding] | None:
    """One check of the working tree (the one ``settle_now`` judges by), its findings by
    binding: what a door that cannot write judges every open proposal by; None when no
    check can run without writing (an index not in step: each said as recorded)."""
    from forest_files.check.path import run_check
    from forest_files.kernel.errors import ForestError

    try:
        report = run_check(root, "worktree")
    except ForestError:
        return None
    found = (r.finding for r in (*report.items, *report.extra))
    return {f.binding: f for f in found if f.binding}


def left_behind(
    root: Path, found: Iterable[Proposal | Rebind], findings: Mapping[str, Finding] | None
) -> dict[str, tuple[Proposal, str]]:
    """How ``settle`` closes the text proposals of ``found`` that ``findings`` (by binding:
    ``judged``, one check for them all) leave behind, nothing written: by id, each as the
    closing leaves it (its status, the ground it became, a discarded one's text gone) and
    why. One that stays open, another worktree's (judged where it was captured) and a
    rebind are left out; all are when ``findings`` is None (no check could run)."""
    from dataclasses import replace

    if not findings:
        return {}
    policy, here = _policy(root), worktree_key(root)
    done: dict[str, tuple[Proposal, str]] = {}
    for p in found:
        if not isinstance(p, Proposal) or p.status != "open" or p.worktree not in (None, here):
            continue
        f = findings.get(p.binding)
        verdict = None if f is None else _verdict(p, f, policy(p.path) == "restore")
        if f is None or verdict is None:
            continue
        status, why = verdict
        if status == "adopted":
            done[p.id] = replace(p, status=status, adopted_as=f.ground), why
        else:
            done[p.id] = replace(p, status=status, text=None), why
    return done


def settle(root: Path, findings: Iterable[Finding]) -> list[Settled]:
    """Close every open proposal that ``findings`` (the check's, now) leave behind."""
    if not (shared_dir(root, create=False) / LOCAL_DB_NAME).exists():
        return []  # no proposal was ever made here: create nothing
    by_binding = {f.binding: f for f in findings if f.binding}
    if not by_binding:
        return []
    done: list[Settled] = []
    with ProposalStore(root) as store:  # judged as a read-only door says it (left_behind)
        for p, why in left_behind(root, store.open_proposals(), by_binding).values():
            if p.status == "adopted":
                closed = store.mark_adopted(p.id, str(p.adopted_as))
            else:
                closed = store.discard(p.id)
            done.append(Settled(closed, why))
    return done


def settle_rebinds(root: Path, findings: Iterable[Finding]) -> list[Settled]:
    """Close every open rebind proposal the binding's finding now leaves behind: the
    heading is back (``discarded``), or the binding was rebound (``adopted`` when to
    the proposed selector)."""
    if not rebinds.exists(root):
        return []
    by_binding = {f.binding: f for f in findings if f.binding}
    done: list[Settled] = []
    with RebindStore(root) as store:
        for r in store.open_rebinds():
            if r.worktree not in (None, store.worktree):
                continue  # judged where the rename was seen: this copy may never have moved
            f = by_binding.get(r.binding)
            if f is None or (f.kind == "unresolved" and f.selector == r.old_selector):
                continue
            if f.selector == r.new_selector:
                done.append(Settled(store.close(r.id, "adopted"), "rebound by hand"))
            elif f.selector != r.old_selector:
                done.append(Settled(store.close(r.id, "discarded"), "rebound elsewhere"))
            else:
                done.append(Settled(store.close(r.id, "discarded"), "heading back"))
    return done


def _any_open(root: Path) -> bool:
    if (shared_dir(root, create=False) / LOCAL_DB_NAME).exists():
        with ProposalStore(root) as store:
            if store.open_proposals():
                return True
    if rebinds.exists(root):
        with RebindStore(root) as renames:
            return bool(renames.open_rebinds())
    return False


def settle_now(root: Path) -> list[Settled]:
    """Both settles against a fresh check of the working tree (only when proposals
    are open)."""
    if not _any_open(root):
        return []
    from forest_files.check.path import run_check

    report = run_check(root, "worktree")
    found = [r.finding for r in (*report.items, *report.extra)]
    return [*settle(root, found), *settle_rebinds(root, found)]


def _policy(root: Path) -> Callable[[str], str]:
    from forest_files.custody.config import load_config
    from forest_files.custody.watchpolicy import policy_for
    from forest_files.kernel.paths import CONFIG_NAME

    rules = load_config(root / CONFIG_NAME).watch
    return lambda path: policy_for(rules, path)


def writable(root: Path) -> bool:
    """Whether this user may write the proposals files as they stand: the state folder,
    ``local.db`` and ``rebinds.db`` and what SQLite keeps beside each (a folder not made
    yet: True, the writing path makes it or says why not)."""
    folder = shared_dir(root, create=False)
    if not folder.is_dir():
        return True
    names = [
        f"{n}{side}" for n in (LOCAL_DB_NAME, REBINDS_DB_NAME) for side in ("", "-wal", "-shm")
    ]
    held = [folder, *(folder / n for n in names if (folder / n).exists())]
    return all(os.access(p, os.W_OK) for p in held)


def open_read_only(root: Path) -> list[Proposal | Rebind]:
    """The open proposals and rebind proposals, every file opened read-only and none
    settled nor created: a listing where the state folder may not be written."""
    found: list[Proposal | Rebind] = []
    if (shared_dir(root, create=False) / LOCAL_DB_NAME).exists():
        with ProposalStore.reading(root) as store:
            found += store.open_proposals()
    return found + open_rebinds(root, read_only=True)


def left_read_only(root: Path) -> dict[str, tuple[Proposal, str]]:
    """Where the proposals files may not be written (``writable``), the open proposals the
    text left behind, by id, as the closing would leave them (``left_behind``, one check
    for them all), nothing written; else none (a door that may write closes them)."""
    if writable(root):
        return {}
    found = open_read_only(root)
    return left_behind(root, found, judged(root)) if found else {}


def proposal_store(root: Path, pid: str, *, write: bool) -> ProposalStore:
    """The proposals file to show ``pid`` from: opened to write when ``write`` (what
    ``writable`` said), else read-only; with no file to read, ``pid`` names nothing."""
    if write:
        return ProposalStore(root)
    if not (shared_dir(root, create=False) / LOCAL_DB_NAME).exists():
        from forest_files.kernel.shellword import forest_text

        raise NoSuchProposal(f"no proposal {pid!r}; `{forest_text('proposals')}` lists them")
    return ProposalStore.reading(root)
