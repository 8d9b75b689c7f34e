"""The ground a binding's chain stands on now: its one live head, or why there is none.

Stores: nothing (reads the index).
Refuses (``ground_of``: one ``ForestError`` line with the fix): a contested chain
(resolve it first: ``forest check`` prints the routes) and a chain with no current
ground (sealed: unseal it; sealed and erased: unseal and supersede; or retire).
Returns: ``ground_of``: the head's entry id; ``ground_body``: (entry id, status),
status ground|contested|sealed|``SEALED_ERASED``|none, never a refusal; ``no_ground``:
the refusal's words for a status without a head (unseal, or unseal and supersede
when a forget erased the sealed text, or retire).
Test: tests/custody/test_file_custody.py, tests/check/test_bulk_routes.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.custody.bindings import Binding
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.store.forest import ForestStore


def ground_of(store: ForestStore, binding: Binding) -> int:
    """The live head of the binding's chain, or a refusal naming the problem."""
    heads = store.contest_heads(binding.entry_id)
    if len(heads) > 1:
        raise ForestError(
            f"{binding.selector} is contested ({len(heads)} heads); resolve it first: "
            "`forest check` prints one `forest resolve` route per head"
        )
    if not heads or not store.is_ground(heads[0]):
        raise ForestError(no_ground(binding.selector, _without_head(store, binding)))
    return heads[0]


def no_ground(selector: str, state: str, undone: str = "") -> str:
    """Why ``selector``'s chain has no ground to act on (``state``: ``ground_body``'s
    status), what was not done (``undone``), and the commands out of it."""
    from forest_files.kernel.shellword import command_text, forest_step, forest_text

    words = ("--words", "…")
    unseal = command_text(forest_step("unseal", selector, options=words))
    retire = command_text(forest_step("retire", selector, options=words))
    if state == SEALED_ERASED:
        adopt = command_text(forest_step("supersede", selector, options=words))
        return (
            f"{selector}: its ground is sealed and its text was erased by forest forget{undone}; "
            f"delete that text from the file, then `{unseal} && {adopt}` (replace each … "
            f"with why), or end the binding: `{retire}`"
        )
    if state == "sealed":
        return (
            f"{selector}: its ground is sealed{undone}; make it readable again first: `{unseal}`, "
            f"or end the binding: `{retire}`"
        )
    return (
        f"{selector} has no current ground ({state}){undone}: `{forest_text('status')}` shows why"
    )


def ground_body(store: ForestStore, binding: Binding) -> tuple[int | None, str]:
    """(entry id, status) of the binding's ground: status is ground, contested, sealed,
    erased (sealed, then its text erased by a forget: ``SEALED_ERASED``) or none."""
    heads = store.contest_heads(binding.entry_id)
    if len(heads) > 1:
        return None, "contested"
    if not heads:
        return None, _without_head(store, binding)
    return heads[0], "ground"


SEALED_ERASED = "sealed, its text erased"


def _without_head(store: ForestStore, binding: Binding) -> str:
    """Why a chain has no live head: its ground is sealed (its text erased or not),
    or "none" (retired, or never adopted here)."""
    from forest_files.custody.ground import sealed_state

    state = sealed_state(store, binding)
    return {"erased": SEALED_ERASED, "sealed": "sealed"}.get(state or "", "none")
