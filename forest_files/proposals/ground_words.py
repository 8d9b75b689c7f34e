"""Ground's words for a proposal's diff, said alike by both doors of ``forest proposal show``.

Where ``.git/forest`` may be written, the index brought in step answers (``in_index``);
where it may not, nothing is synced nor written (``read_only``): check/opening.py (the
one way into custody) finds the index in step by its binding map, which names the body
hash of each live ground, and the ledger's body file of that hash is its words; a ground
no longer live (superseded or sealed since the proposal was made) is read from the
ledger alone, as the index replayed from it holds it: the entry an act declares, its
body file. A ground an erase removed is the index's marker through both (read-only:
its heads, or the ledger's erase acts); a sealed one is withheld by both, as ``forest
show`` withholds it (``[sealed]``). Either door holds the ledger to ground's body: a
body file the ledger lacks, no erase recording it, is a damaged ledger, said alike by
both (the index may still hold the words, which no clone could rebuild).
Stores: nothing.
Refuses: a ground whose body file is missing from the ledger, no erase act recording
it (``LedgerError`` ``body-missing``, naming the body and the ground; the error
boundary adds ``forest verify``, which lists every fault and the ``git checkout`` that
restores them); a body file whose bytes are not its hash (``read_body``); read-only, an
index not in step (a sync: it may purge a pulled forget's words from a proposal),
refused in one line where the folder may not be written.
Returns: the words, ``ERASED_MARK`` or ``SEALED_MARK``; None when no entry of the index
(read-only: no act of the ledger) is ``content_id``.
Test: tests/proposals/test_show_ground_damaged.py, tests/proposals/test_show_moved_on.py,
tests/proposals/test_show_text_read_only.py, tests/proposals/test_show_erased_ground.py
"""

from __future__ import annotations

from pathlib import Path


def in_index(root: Path, content_id: str) -> str | None:
    """The words of ``content_id`` in the index brought in step (a sync: one line
    saying why where the folder may not be written), held to the ledger's body file."""
    from forest_files.custody.repository import Repository
    from forest_files.store.entryrow import ERASED_MARK
    from forest_files.store.packets import SEALED_MARK

    with Repository(root) as repo:
        store = repo.synced()
        local = store.id_for_content(content_id)
        row = None if local is None else store.get(local)
        if local is None or row is None:
            return None
        if store.is_sealed(local):  # withheld, as `forest show` withholds it
            return SEALED_MARK
        words, body_hash = str(row["body"]), str(row["body_hash"])
    if words != ERASED_MARK:  # an erased row keeps no words: its body file is gone
        _in_ledger(root, content_id, body_hash)
    return words


def read_only(root: Path, content_id: str) -> tuple[str | None]:
    """Ground's words, nothing synced nor written (one tuple): a live ground's from the
    in-step binding map and its body file; any other's from the ledger alone
    (``_declared``)."""
    from forest_files.check.opening import WORKTREE, open_custody
    from forest_files.custody.erased_ground import erased_by
    from forest_files.store.entryrow import ERASED_MARK

    with open_custody(root, WORKTREE) as custody:
        live = {g[0]: g for g in custody.grounds.values() if g[1] is not None}
    ground = live.get(content_id)
    if ground is None or ground[1] is None:
        return (_declared(root, content_id),)
    if erased_by(ground[2]) is not None:  # no body file: the index holds the marker
        return (ERASED_MARK,)
    return (_in_ledger(root, content_id, ground[1]),)


def _declared(root: Path, content_id: str) -> str | None:
    """A ground no longer live (superseded or sealed since), as the index replayed from
    this ledger holds it: the body file of the entry an act declares, its marker when an
    erase act removed that body, sealed (the seals and unseals in act order) withheld;
    None when no act declares it."""
    from forest_files.custody.ledger_claims import claims_of
    from forest_files.kernel.paths import LEDGER_DIR
    from forest_files.ledger.act_refs import erased_bodies
    from forest_files.ledger.segments import read_ledger
    from forest_files.store.entryrow import ERASED_MARK
    from forest_files.store.packets import SEALED_MARK

    snapshot = read_ledger(root / LEDGER_DIR)
    claims = claims_of(snapshot)
    body_hash = claims.declared.get(content_id)
    if body_hash is None:
        return None
    if content_id in claims.sealed:
        return SEALED_MARK
    if body_hash in erased_bodies(a.payload for a in snapshot.acts.values()):
        return ERASED_MARK
    return _in_ledger(root, content_id, body_hash)


def _in_ledger(root: Path, content_id: str, body_hash: str) -> str:
    """The ledger's body file of ``body_hash`` (ground ``content_id``'s), as text."""
    from forest_files.kernel.paths import LEDGER_DIR
    from forest_files.ledger.fault import LedgerError
    from forest_files.ledger.segments import read_body

    words = read_body(root / LEDGER_DIR, body_hash)
    if words is None:
        raise LedgerError(
            f"body {body_hash} of ground {content_id} is missing, and no erase act records it",
            code="body-missing",
            body=body_hash,
        )
    return words
