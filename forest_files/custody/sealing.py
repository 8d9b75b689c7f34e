"""Sealing and unsealing from a door: the entry a content id or a bound target names.

A seal withholds an entry's text from every read (``forest show``, recall, the
MCP door) until an unseal; a sealed ground is no longer live ground, so
``forest forget`` may then erase it. Gated like a supersede: the one applier
judges authority live over every path the entry's chain was ever bound to (the
adopted chain, for adopting words), an entry bound to none as a path only
``**`` matches; the gate judges the act's signature over the same paths.

Stores: one segment holding one ``seal`` or ``unseal`` act (``Repository.seal``
/ ``unseal``).
Refuses (``ForestError``, nothing written, never echoing text): an unknown
content id or target; the anchor or a ceremony record (a sealing record is
undone by an unseal of the entry it names); a seal of what is sealed, an
unseal of what is not; a bound target whose chain has no single ground to seal
(contested: resolve first) or no single sealed head to unseal; blank or
praise-only words; a signer without authority (``AuthorityRefused``).
Returns: ``SealReport`` (content ids and the act id, never text).
Test: tests/doors/test_cli_seal.py
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from forest_files.custody.applied import creator_act
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import command_text, forest_step
from forest_files.kernel.vocab import RESERVED_BUCKETS, ROOT_BUCKET
from forest_files.praise import refuse_praise
from forest_files.store.entryrow import ERASED_MARK

if TYPE_CHECKING:
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore

_CONTENT_ID = re.compile(r"[0-9a-fA-F]{8,64}")
_CHAIN_ENTRIES = (
    "SELECT id FROM entries WHERE (id = ? OR chain_root = ?) "
    "AND bucket NOT IN ('adoption_record', 'sealing_record', 'unsealing_record') ORDER BY id"
)
_SUPERSEDED = "SELECT 1 FROM edges WHERE to_id = ? AND kind = 'supersedes' LIMIT 1"


@dataclass(frozen=True)
class SealReport:
    content_id: str  # the entry sealed or unsealed
    record: str  # its sealing (or unsealing) record's content id
    act_id: str
    sealed: bool  # True after a seal, False after an unseal
    erased: bool = False  # its body was erased (forest forget): nothing to read


def is_content_id(given: str) -> bool:
    """A content id or a short one (hex digits only); anything else is a target."""
    return _CONTENT_ID.fullmatch(given.strip()) is not None


def change_seal(repo: Repository, given: str, *, sealing: bool, words: str, by: str) -> SealReport:
    """Seal (``sealing``) or unseal the entry ``given`` names; one act, one segment."""
    verb = "seal" if sealing else "unseal"
    if not words.strip():
        raise ForestError(f"{verb} needs --words saying why; blank words adopt nothing")
    refuse_praise(words)
    store = repo.synced()
    local = _entry_of(repo, store, given, sealing=sealing)
    content_id = store.content_id(local)
    row = store.require(local, verb)
    if row["bucket"] in RESERVED_BUCKETS or row["bucket"] == ROOT_BUCKET:
        raise ForestError(
            f"{content_id[:12]} is a {row['bucket']} entry, not text: only adopted or "
            "written text is sealed (a sealing record is undone by unsealing its entry)"
        )
    if store.is_sealed(local) == sealing:
        raise ForestError(_same_state(content_id, sealing))
    change = repo.seal if sealing else repo.unseal
    record = change(content_id, words=words.strip(), by=by)
    act_id = creator_act(repo.store(), record) or ""
    return SealReport(content_id, record, act_id, sealing, str(row["body"]) == ERASED_MARK)


def _same_state(content_id: str, sealing: bool) -> str:
    if sealing:
        return (
            f"{content_id[:12]} is already sealed; to read it again: "
            f"{command_text(forest_step('unseal', content_id, options=('--words', '…')))}"
        )
    return f"{content_id[:12]} is not sealed; nothing to unseal"


def _entry_of(repo: Repository, store: ForestStore, given: str, *, sealing: bool) -> int:
    """The local id of the entry a content id names, or of a bound target's ground
    (to seal) or sealed head (to unseal)."""
    if is_content_id(given):
        return store.local_id(given)
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.ground import ground_of
    from forest_files.custody.lookup import find_binding

    binding = find_binding(all_bindings(store), given, root=repo.root)
    if sealing:
        from forest_files.custody.erased_ground import is_mark, sealed_erased

        ground, _, heads = ground_of(store, binding)
        if sealed_erased(heads) is not None:
            raise ForestError(
                f"{binding.selector}: its ground is already sealed, and its text was erased "
                "by forest forget; nothing to seal (forest check prints the way out)"
            )
        if heads and not is_mark(heads):
            listed = command_text(forest_step("log", binding.selector))
            raise ForestError(
                f"{binding.selector}: its ground is contested ({len(heads)} heads); resolve "
                f"it first ({listed} lists them), or seal one head by its content id"
            )
        if ground is None:
            unseal = forest_step("unseal", binding.selector, options=("--words", "…"))
            raise ForestError(
                f"{binding.selector}: its ground is already sealed; to read it again: "
                f"{command_text(unseal)}"
            )
        return store.local_id(ground)
    return _sealed_head(store, binding.entry_id, binding.selector)


def _sealed_head(store: ForestStore, entry_id: int, selector: str) -> int:
    """The one sealed, adopted, unsuperseded entry of the binding's chain."""
    row = store.require(entry_id, "unseal")
    chain = int(row["chain_root"] or entry_id)
    members = [int(r[0]) for r in store.conn.execute(_CHAIN_ENTRIES, (chain, chain))]
    sealed = [
        m
        for m in members
        if store.is_sealed(m) and store.conn.execute(_SUPERSEDED, (m,)).fetchone() is None
    ]
    if len(sealed) == 1:
        return sealed[0]
    if not sealed:
        raise ForestError(f"{selector}: its ground is not sealed; nothing to unseal")
    ids = ", ".join(store.content_id(m)[:12] for m in sealed)
    raise ForestError(f"{selector}: {len(sealed)} sealed heads ({ids}); unseal one by content id")
