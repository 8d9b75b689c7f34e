"""The watcher for writers: what ``forest watch status`` lists is the present — a
finding that is over (a required file deleted again) leaves at once, not at the next
ledger change or reconcile; a proposal whose edit was undone closes."""

from __future__ import annotations

from pathlib import Path

from forest_files.custody.proposals import ProposalStore
from forest_files.doors.watch.daemon import write_state
from forest_files.doors.watch.journal import Journal
from forest_files.doors.watch.judge import Verdicts
from tests.helpers.custody import DOC
from tests.helpers.watch import (
    EDITED,
    bound_repo,
    until,
    wait_proposal,
    wait_verdict,
    watch_state,
    watching,
)


def test_watch_required_file_deleted_leaves_status_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with (root / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"docs/*.md" = "file"\n')
    (root / "docs").mkdir()
    with watching(root) as w:
        (root / "docs" / "new.md").write_text("# New\n", encoding="utf-8")
        wait_verdict(w, "unbound", path="docs/new.md")
        assert [r.finding.kind for r in w.open_findings()] == ["unbound"]
        (root / "docs" / "new.md").unlink()
        assert until(lambda: not w.open_findings()), w.journal.items()
        write_state(root, w)  # what `forest watch status` reads
        assert watch_state(root)["open"] == []


def test_watch_verdict_not_reported_on_a_judged_path_is_over_accepted(tmp_path: Path) -> None:
    """A partial check that no longer reports a key of a path it judged ends it; a key
    of a path it did not judge stays."""
    import threading

    from forest_files.doors.watch.judge import check

    root = bound_repo(tmp_path, files=2)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    (root / "d" / "f1.md").write_text(EDITED.replace("edited", "other"), encoding="utf-8")
    verdicts = Verdicts(Journal())
    items = check(root, (), threading.Event())
    verdicts.apply(items, full=True)
    assert sorted(r.finding.path for r in verdicts.open_findings()) == ["a.md", "d/f1.md"]
    kept = [r for r in items if r.finding.path == "d/f1.md"]
    verdicts.apply(kept, full=False, paths=("a.md", "d/f1.md"))
    assert [r.finding.path for r in verdicts.open_findings()] == ["d/f1.md"]
    verdicts.apply([], full=False, paths=("elsewhere.md",))
    assert [r.finding.path for r in verdicts.open_findings()] == ["d/f1.md"]


def test_watch_undone_edit_closes_its_proposal_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with watching(root) as w:
        (root / "a.md").write_text(EDITED, encoding="utf-8")
        wait_proposal(w)
        (root / "a.md").write_text(DOC, encoding="utf-8")  # the writer undid it

        def closed() -> bool:
            with ProposalStore(root) as store:
                return not store.open_proposals()

        assert until(closed), w.journal.items()
        assert not w.open_findings()


def test_watch_heading_renamed_becomes_rebind_proposal_detected(tmp_path: Path) -> None:
    from forest_files.proposals.rebinds import RebindStore

    root = bound_repo(tmp_path)
    renamed = "# Title\n\n## Kept\n\nkept words\n\n## Other\n\nnothing alike here at all\n"
    # Other's body unlike Keep's (tiny bodies look alike), unbound, before the watcher
    (root / "a.md").write_text(DOC.replace("other words", "nothing alike here at all"))
    with watching(root) as w:
        (root / "a.md").write_text(renamed, encoding="utf-8")
        ok = w.journal.wait_for(lambda rs: any(r.kind == "rebind" for r in rs), 30)
        assert ok, w.journal.items()
    with RebindStore(root) as store:
        (p,) = store.open_rebinds()
    assert (p.old_selector, p.new_selector) == ("a.md#Title/Keep", "a.md#Title/Kept")
