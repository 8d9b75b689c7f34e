"""Change the declared normalisations of an existing binding: a recorded act by a holder.

The act is a ``rebind`` that keeps the binding where it is and carries format 3's
``normalise`` field (ledger/kinds.py ``RebindAct``): from that act on the binding
reads its section under the listed normalisations (an empty list: none). When the
section read under the new list is not ground's text, the same act supersedes
ground with it (``--words`` required), as a rebind to changed text does; so every
clone hashes the section the new way from the same act, and the chain is kept.

Stores (through ``record.rebind_sections``' path: one segment, the one applier): one
``rebind`` act.
Refuses: a signer without authority over the binding's path (``AuthorityRefused``,
before anything is read); the same list the binding has already; text that
differs from ground without words; what the applier refuses.
Returns: the act id.
Test: tests/custody/test_renormalise.py, tests/custody/test_rebind_twice.py
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from forest_files.custody.bindings import Binding
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body

if TYPE_CHECKING:
    from forest_files.custody.record import SectionText
    from forest_files.custody.repository import Repository
    from forest_files.ledger.acts import Act
    from forest_files.store.forest import ForestStore


def current_normalise(binding: Binding) -> tuple[str, ...]:
    """The binding's declared normalisations (canonical, sorted)."""
    return tuple(sorted(r[10:] for r in binding.excludes if r.startswith("normalise:")))


def rules_with(binding: Binding, normalise: tuple[str, ...]) -> tuple[str, ...]:
    """The binding's exclusions with ``normalise`` in place of its normalisations."""
    kept = tuple(r for r in binding.excludes if not r.startswith("normalise:"))
    return kept + tuple(f"normalise:{n}" for n in normalise)


def renormalise(
    repo: Repository,
    binding: Binding,
    section: SectionText,
    normalise: tuple[str, ...],
    *,
    by: str,
    words: str | None,
) -> str:
    """Record that ``binding`` reads its section under ``normalise`` from now on
    (``section``: read now under those rules); one rebind act, in one segment."""
    from forest_files.custody.applied import chain_deps
    from forest_files.custody.rebind_tips import tip_acts
    from forest_files.custody.record_ground import ground_of
    from forest_files.custody.record_rebind import rebind_payload

    repo.authorize(binding.path, by)
    if normalise == current_normalise(binding):
        shown = ", ".join(normalise) or "none"
        raise ForestError(
            f"{binding.selector} already reads its section with normalisations: {shown}; "
            "nothing to record"
        )

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        head = ground_of(store, binding)
        if words is None and store.require(head, "rebind")["body_hash"] != hash_body(section.text):
            raise ForestError(
                f"{binding.selector} reads differently under the new normalisations; "
                "add --words '…' saying why the text it reads now is right (it becomes "
                "the new ground in the same act)"
            )
        payload = rebind_payload(store, head, binding, section, by=by, words=words)
        payload = replace(payload, normalise=normalise)
        bodies: dict[str, str] = {}
        if payload.supersede is not None:
            bodies[payload.section_hash] = section.text
            bodies[payload.supersede.record.body_hash] = (words or "").strip()
        # every tip of a binding rebound twice: this rebind settles it (rebind_tips.py)
        deps = chain_deps(store, head) | tip_acts(store, binding.bind_act)
        return [repo.act(payload, deps)], bodies

    return repo.record(build)[0].act.id
