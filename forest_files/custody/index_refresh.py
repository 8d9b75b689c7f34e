"""Bringing a repository's index in step with its ledger: synced, or rebuilt whole,
then every erasure it holds that the ledger's erase acts make finished.

Stores: the index (through ``sync_index`` or a replay of the whole ledger, in
one transaction); the body files of erased entries deleted (only those an erase
act of the ledger removes: an erasure the index alone holds deletes nothing), and the purges of
local copies a forget or a pulled erase still owes (purge.py, pulled.py); a
``sync``, ``rebuild`` or resumed ``purge`` event in the local audit log, then the records
a recording killed before its log's commit owed (auditowed.py).
Refuses: whatever reading the ledger or replaying its acts refuses
(``LedgerError``; a segment git converted as it checked it out named with the rule's
file and the fix, a body file that does not hash to its name by its path, with the
rule that converts it and the fix: ledger_conversion.py ``with_checkout_note``; a segment
file that is a symlink git tracks with its removal: ledger_links.py). A rebuild never
refuses a damaged index: the repository drops it and this builds it anew.
Returns: ``SyncReport`` (acts applied, rebuilt or not); ``sync`` returns None
when only a rebuild can bring the index in step.
Test: tests/custody/test_repository.py, tests/ledger/test_ledger_perf.py,
tests/ledger/test_ledger_crlf.py, tests/doors/test_hook_ledger_link_on_base.py
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from forest_files.custody import auditlog as audit
from forest_files.custody import auditowed, pulled
from forest_files.custody.ledger_conversion import with_checkout_note
from forest_files.custody.replay import replay
from forest_files.custody.repo_face import Custodian
from forest_files.custody.sync import mark_segments, sync_index
from forest_files.kernel.gcpause import gc_paused
from forest_files.ledger.act_refs import erased_bodies
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.segments import LedgerSnapshot, read_body, read_ledger
from forest_files.store.forest import ForestStore


@dataclass(frozen=True)
class SyncReport:
    applied: int
    rebuilt: bool


def sync(repo: Custodian) -> SyncReport | None:
    """``Repository.sync``; None when the index must be rebuilt instead."""
    before = pulled.erasures(repo.store())
    held = pulled.held_text(repo.store())  # an index made but never filled: none
    try:
        count = sync_index(repo.store(), repo.ledger_dir, lambda h: read_body(repo.ledger_dir, h))
    except LedgerError as exc:  # a rule that converts the ledger on checkout: named, with the fix
        raise _named(repo, exc) from exc
    if count is None:
        return None
    if count:
        pulled.owe_purges(repo.root, repo.store(), repo.config.project_id, before)
    _finish_erasures(repo, index_held_text=held)
    if count:
        rows = (
            repo.store()
            .conn.execute(
                "SELECT act_id FROM ledger_applied ORDER BY rowid DESC LIMIT ?",
                (min(count, audit.MAX_TARGETS),),
            )
            .fetchall()
        )
        event = audit.Event("sync", "ok", "applied", targets=tuple(str(r[0]) for r in rows))
        audit.append_events(repo.root, [replace(event, counts={"acts": count})])
    auditowed.restore(repo.root, repo.store())  # a recording killed before its record
    return SyncReport(applied=count, rebuilt=False)


def _named(repo: Custodian, exc: LedgerError) -> LedgerError:
    """``exc`` (read from the working tree) said with what git knows of it: the rule
    that converted a file as git checked it out (ledger_conversion.py), or the removal
    of a link a commit carried in place of a segment (ledger_links.py)."""
    from forest_files.custody.ledger_links import with_link_removal

    return with_link_removal(repo.root, with_checkout_note(repo.root, exc))


def _finish_erasures(
    repo: Custodian, named: frozenset[str] | None = None, *, index_held_text: bool = True
) -> None:
    """Delete the body file of every erasure the index holds that an erase act of the
    ledger makes (``named``: the body hashes those acts remove, when the ledger was
    read whole already; a forget killed after its commit left one; a pulled erase
    names one a branch still had), and finish any purge of local copies a forget
    still owes (custody/purge.py). ``index_held_text`` False: the index was rebuilt from
    nothing, so the purge's line is said only if it found a file that held the text."""
    from forest_files.custody.purge import delete_erased_bodies, resume_pending

    store = repo.store()
    try:
        delete_erased_bodies(store, repo.ledger_dir, named)
    except LedgerError as exc:  # the ledger read for its erase acts: named, with the fix
        raise _named(repo, exc) from exc
    done = resume_pending(repo.root, store, repo.config.project_id, repo.ledger_dir)
    for act_id, purged in done:
        counts = {"bodies": purged.bodies, "views": purged.views}
        counts["cache_files"], counts["proposals"] = purged.cache_files, len(purged.proposals)
        event = audit.Event("purge", "ok", "resumed", targets=(act_id, *purged.proposals))
        audit.append_events(repo.root, [replace(event, counts=counts)])
    pulled.say(done, index_held_text=index_held_text)


def rebuild(repo: Custodian, store: ForestStore) -> tuple[SyncReport, LedgerSnapshot]:
    """``Repository.rebuild`` once the index is open: the report and the ledger read."""
    before = pulled.erasures(store)
    held = pulled.held_text(store)  # a fresh clone's first rebuild: none
    # No cyclic collection while the whole ledger is decoded, ordered and replayed:
    # each pass would walk every live act again (see ``gc_paused``).
    with gc_paused(), store.rebuilding():
        store.ensure_anchor(repo.config.project_id)
        try:  # as ``sync``: the segments read, then each body as its act replays
            snapshot = read_ledger(repo.ledger_dir)
            count = replay(store, snapshot.ordered(), lambda h: read_body(repo.ledger_dir, h))
        except LedgerError as exc:
            raise _named(repo, exc) from exc
        mark_segments(store, repo.ledger_dir, snapshot.segments)
    pulled.owe_purges(repo.root, store, repo.config.project_id, before)
    erased = erased_bodies(a.payload for a in snapshot.acts.values())
    _finish_erasures(repo, erased, index_held_text=held)
    event = audit.Event("rebuild", "ok", "replayed", counts={"acts": count})
    audit.append_events(repo.root, [event])
    auditowed.restore(repo.root, store)
    return SyncReport(applied=count, rebuilt=True), snapshot
