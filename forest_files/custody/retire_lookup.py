"""The binding a retire ends, and the refusal of a retire typed again once it was done.

Stores: nothing.
Refuses: a target naming no live binding but a retired one (``forest retire`` typed
again once it succeeded): ``AlreadyRetired``, one line naming the binding, the
retire act, when, by whom and its words (of a section adopted and retired more than
once, the one retired last), and the ``forest log`` that shows its history; nothing
is recorded. A target naming no binding at all is refused as every act refuses it
(``NoSuchBinding``, custody/lookup.py).
Returns: the live binding a target names.
Test: tests/custody/test_retire_again.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.custody.bindings import Binding, all_bindings
from forest_files.custody.lookup import NoSuchBinding, find_binding
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text

if TYPE_CHECKING:
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore


class AlreadyRetired(ForestError):
    """The target names a binding a retire act ended already: nothing to record."""


def binding_to_retire(repo: Repository, target: str, binding_id: str | None = None) -> Binding:
    """The live binding ``target`` (and ``binding_id``) names; refused as
    ``AlreadyRetired`` when it names none but one already retired."""
    store = repo.synced()
    try:
        return find_binding(all_bindings(store), target, binding_id, root=repo.root)
    except NoSuchBinding:
        ended = _retired_already(repo, store, target, binding_id)
        if ended is None:
            raise
        raise ended from None


def _retired_already(
    repo: Repository, store: ForestStore, target: str, binding_id: str | None
) -> AlreadyRetired | None:
    """The refusal naming the retired binding ``target`` names, or None."""
    order = [e for e in repo.log() if e.kind == "retire"]
    ends = {e.subject: e for e in order}
    place = {e.subject: n for n, e in enumerate(order)}
    retired = [b for b in all_bindings(store, include_retired=True) if b.retired]
    retired.sort(key=lambda b: place.get(b.bind_act, -1))
    if binding_id is None:  # one per section: the binding retired last
        retired = list({(b.path, b.selector): b for b in retired}.values())
    try:
        found = find_binding(retired, target, binding_id, root=repo.root)
    except NoSuchBinding:
        return None
    end = ends.get(found.bind_act)
    said = ""
    if end is not None:
        words = " ".join(end.words.split())
        words = words if len(words) <= 60 else words[:59] + "…"
        said = f" (act {end.act_id[:12]}, {end.created_at} by {end.by}" + (
            f": “{words}”)" if words else ")"
        )
    return AlreadyRetired(
        f"{target}: binding {found.bind_act[:12]} of {found.selector} is retired "
        f"already{said}; nothing was recorded — its history: "
        f"`{forest_text('log', found.selector)}`"
    )
