"""Adopting a proposal: an ordinary supersession by an authority-holder, with words.

Stores: through ``files.record.supersede_section`` (one transaction, one
ledger segment); if the file no longer holds the proposed text it is first
written into exactly that section (``files.restore.restore_file``, which
captures what was there — nothing is lost). Then the proposal is closed as
adopted.
Refuses (nothing written): a signer without authority over the path; empty
words, or a printed route's placeholder (``…``) pasted as the words; a proposal
that is not open; a binding that is gone (retired); ground that moved on since
the proposal was made (``ProposalStale``, naming how to look again).
Returns: the new ground's content id.
Test: tests/proposals/test_proposals.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody.proposals import Proposal, ProposalStore
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.record import SectionText


class ProposalStale(ForestError):
    """The binding's ground is no longer the one the proposal diverged from."""


def _binding(bindings: list[Binding], proposal: Proposal) -> Binding:
    for b in bindings:
        if b.bind_act == proposal.binding:
            return b
    raise ForestError(
        f"proposal {proposal.id}: {proposal.selector} is no longer bound; "
        f"drop it with `forest proposal drop {proposal.id}`"
    )


def adopt_proposal(root: Path, pid: str, *, words: str, by: str) -> str:
    """Supersede the proposal's binding with exactly the proposed text."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.record import ground_body, supersede_section
    from forest_files.custody.repository import Repository
    from forest_files.custody.restore import restore_file
    from forest_files.custody.targets import read_section
    from forest_files.praise import placeholder_words

    if not words.strip():
        raise ForestError("adopt without words refused: say why this text becomes ground")
    if (why := placeholder_words(words)) is not None:  # a route's ``…`` pasted as is
        raise ForestError(why)
    with ProposalStore(root) as proposals, Repository(root) as repo:
        proposal = proposals.get(pid)
        if proposal.status != "open" or proposal.text is None:
            raise ForestError(f"proposal {proposal.id} is {proposal.status}, not open")
        store = repo.synced()
        binding = _binding(all_bindings(store), proposal)
        repo.authorize(binding.path, by)  # before any byte of the file is touched
        head, state = ground_body(store, binding)
        if head is None or store.content_id(head) != proposal.derived_from:
            raise ProposalStale(
                f"proposal {proposal.id}: ground of {binding.selector} moved on since it was "
                f"made ({state}); compare with `forest proposal show {proposal.id}` and "
                "supersede by hand, or drop it"
            )
        from forest_files.custody.tombstone import refuse_erased

        refuse_erased(store, repo.config.project_id, proposal.text, f"proposal {proposal.id}")
        limit = repo.config.max_body_bytes  # checked above, before any byte is written
        section = _section_now(root, binding, limit)
        if section is None or hash_body(section.text) != proposal.text_hash:
            restore_file(root, binding.path, binding.selector, binding.excludes, proposal.text)
            section = read_section(root, binding.selector, binding.excludes, max_bytes=limit)
        new = supersede_section(
            repo, binding, section, words=words, by=by, expected_body_hash=proposal.text_hash
        )
        proposals.mark_adopted(proposal.id, new)
        return new


def _section_now(root: Path, binding: Binding, limit: int) -> SectionText | None:
    from forest_files.custody.targets import read_section

    try:
        return read_section(root, binding.selector, binding.excludes, max_bytes=limit)
    except ForestError:
        return None
