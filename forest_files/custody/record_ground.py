"""The ground a binding's chain stands on now: its one live head, or why there is none.

Stores: nothing (reads the index).
Refuses (``ground_of``: one ``ForestError`` line with the fix): a contested chain
(resolve it first: ``forest check`` prints the routes) and a chain with no current
ground (sealed?).
Returns: ``ground_of``: the head's entry id; ``ground_body``: (entry id, status),
status ground|contested|none, never a refusal.
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
        raise ForestError(
            f"{binding.selector} has no current ground (sealed?): `forest status` shows why"
        )
    return heads[0]


def ground_body(store: ForestStore, binding: Binding) -> tuple[int | None, str]:
    """(entry id, status) of the binding's ground: status is ground|contested|none."""
    heads = store.contest_heads(binding.entry_id)
    if len(heads) > 1:
        return None, "contested"
    if not heads:
        return None, "none"
    return heads[0], "ground"
