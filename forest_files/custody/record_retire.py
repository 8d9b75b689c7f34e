"""Retire a binding: end it by a recorded act (a deleted or deprecated file section).

Stores (through ``Repository.record``: one transaction, one ledger segment): one
``retire`` act naming the binding, the words and the signer.
Refuses: a signature without authority over the binding's path; blank words
(say why the binding ends); everything the applier refuses.
Returns: the retire act's id.
Test: tests/custody/test_file_custody.py, tests/governance/test_authority_unbound.py,
tests/custody/test_rebind_twice.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.custody.bindings import Binding
from forest_files.custody.rebind_tips import tip_acts
from forest_files.kernel.errors import ForestError
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import RetireAct
from forest_files.store.clock import utc_now

if TYPE_CHECKING:
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore


def retire_binding(repo: Repository, binding: Binding, *, words: str, by: str) -> str:
    """End a binding by a recorded act (a deleted or deprecated file section)."""
    repo.authorize(binding.path, by)
    if not words.strip():
        raise ForestError("retire without words refused: say why the binding ends")

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        payload = RetireAct(binding=binding.bind_act, words=words.strip(), by=by, at=utc_now())
        # its latest event; of a binding rebound twice, both tips (rebind_tips.py)
        deps = {binding.bind_act} | tip_acts(store, binding.bind_act)
        return [repo.act(payload, deps)], {}

    return repo.record(build)[0].act.id
