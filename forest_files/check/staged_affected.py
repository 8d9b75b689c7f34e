"""The bindings a commit staging ledger files can have moved off ground (staged.py).

Stores: nothing.
Refuses: nothing.
Returns: ``affected``: the staged ledger's bindings to judge against HEAD's.
Test: tests/doors/test_hooks_custody.py, tests/doors/test_hooks.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.bindmap import BindMap
    from forest_files.custody.ground import Ground


def affected(staged: BindMap, previous: BindMap, touched: set[str]) -> list[Binding]:
    """Bindings a commit staging ledger files can have moved off ground: those of
    staged paths, and those whose binding or ground differs from HEAD's (compared by
    content, not by local ids); with every other binding of the same section, so a
    contest names all its candidates."""

    def key(b: Binding, ground: Ground | None) -> tuple[object, ...]:
        fields = (b.path, b.selector, b.excludes, b.section_hash)
        return (*fields, b.normalisation, b.hash_algo, b.retired, b.contested, ground)

    before = {b.bind_act: key(b, previous.grounds.get(b.entry_id)) for b in previous.bindings}
    moved = {
        (b.path, b.selector)
        for b in staged.bindings
        if b.path in touched or before.get(b.bind_act) != key(b, staged.grounds.get(b.entry_id))
    }
    return [b for b in staged.bindings if (b.path, b.selector) in moved]
