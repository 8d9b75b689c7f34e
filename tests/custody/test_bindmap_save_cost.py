"""The binding map's save (custody/bindmap.py ``save``) walks the bindings once: each
binding's row is read in one call and its path's place taken from the rows, where the
paths' order was a second walk over every binding (10,000 in a fresh clone's ``forest
ci``). No timing is asserted: the walks over the bindings are counted, and what is
read back is the map saved."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from forest_files.check.opening import open_custody
from forest_files.custody import bindmap
from forest_files.custody.bindings import Binding
from tests.helpers.custody import two_bound_files


class _Walked(list[Binding]):
    """A list of bindings that counts the walks over it."""

    walks = 0

    def __iter__(self) -> Iterator[Binding]:
        self.walks += 1
        return super().__iter__()


def test_bindmap_save_walks_bindings_once_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    with open_custody(root, "worktree") as custody:
        bindings, grounds = custody.bindings, custody.grounds
    # a path met again after another's: the saved order is each path's first meeting
    again = [bindings[1], bindings[0], bindings[1]]
    walked = _Walked(again)
    record = bindmap.worktree_record(str(root)) + "-walked"  # in the clone's state
    bindmap.save(record, "key", bindmap.BindMap(walked, grounds))
    assert walked.walks == 1
    loaded = bindmap.load(record, "key")
    assert loaded is not None
    assert loaded.bindings == [bindings[1], bindings[1], bindings[0]]
    assert loaded.grounds == {b.entry_id: grounds[b.entry_id] for b in bindings}
    assert bindmap.paths_of(record, "key") == {b.path for b in bindings}
    rows = bindmap.status_rows(record, "key")
    selectors = tuple(b.selector for b in loaded.bindings)
    assert rows == (selectors, tuple(grounds[b.entry_id][0] for b in loaded.bindings))
