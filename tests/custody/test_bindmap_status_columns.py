"""The binding map's packed status rows (bindmap.py ``status_rows``): what ``forest
status`` prints of a remembered clean verdict, a selector and a ground a binding, as two
columns: no path (the table never prints it) and no tuple a binding, the objects
counted.

Test: forest_files/custody/bindmap.py
"""

from __future__ import annotations

import marshal
from pathlib import Path

from forest_files.check.opening import open_custody
from forest_files.custody import bindmap, verdict
from forest_files.kernel import cache
from tests.helpers.custody import DOC, init_and_adopt
from tests.helpers.git import commit_all, make_repo, write


def _objects(value: object) -> list[object]:
    """``value`` and every object inside it (tuples unfolded)."""
    found = [value]
    if isinstance(value, tuple):
        for item in value:
            found += _objects(item)
    return found


def test_status_rows_are_two_columns_without_paths_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    write(root, "b.md", DOC.replace("kept", "second"))
    init_and_adopt(root, ["a.md#Keep", "a.md#Other", "b.md#Keep"])
    commit_all(root, "adopt")
    with open_custody(root, "worktree") as custody:
        bindings, grounds = custody.bindings, custody.grounds
    ledger = verdict.ledger_key(str(root))
    assert ledger is not None
    record = bindmap.worktree_record(str(root))
    bindmap.save(record, ledger, bindmap.BindMap(bindings, grounds))
    doc = cache.read(record, "bindmap")
    assert isinstance(doc, tuple)
    packed = marshal.loads(doc[6])
    decoded = _objects(packed)
    assert len(bindings) == 3
    # the outer pair and its two columns: three tuples, not one more a binding (four)
    assert sum(isinstance(x, tuple) for x in decoded) == 3
    assert not {b.path for b in bindings} & {x for x in decoded if isinstance(x, str)}
    selectors = tuple(b.selector for b in bindings)
    ids = tuple(grounds[b.entry_id][0] for b in bindings)
    assert bindmap.status_rows(record, ledger) == (selectors, ids)
