"""The watcher follows a changed heading id: a binding by ``file.md#{id}`` whose id a
writer renamed becomes a rebind proposal onto the heading's new id (the moves
search's anchor candidates, ranked as ``forest check`` ranks them)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.custody import age_files, init_and_adopt
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.watch import watching

DOC = (
    "# Title { #title }\n\n## Keep { #keep }\n\nkept words stay here\nand more of them\n\n"
    "## Other { #other }\n\nnothing alike here at all\n"
)


def test_watch_anchor_id_renamed_becomes_rebind_proposal_detected(tmp_path: Path) -> None:
    from forest_files.proposals.rebinds import RebindStore

    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#{keep}"])
    commit_all(root, "adopt")
    age_files(root)
    with watching(root) as w:
        write(root, "a.md", DOC.replace("{ #keep }", "{ #kept }"))
        ok = w.journal.wait_for(lambda rs: any(r.kind == "rebind" for r in rs), 30)
        assert ok, w.journal.items()
    with RebindStore(root) as store:
        (p,) = store.open_rebinds()
    assert (p.old_selector, p.new_selector) == ("a.md#{keep}", "a.md#{kept}")
