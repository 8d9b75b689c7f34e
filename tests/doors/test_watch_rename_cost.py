"""What the watcher's rename guess (doors/watch/renames.py ``shared``) costs on a long
section: a bound section of 200 lines renamed with every other line edited took 12 to
19 s before its rebind proposal (a character-level ``difflib`` ratio of the two bodies,
each search walking every occurrence of a character: 400 lines took 3 minutes, 6,000
hours); the bodies' lines are aligned first now and characters compared within each
changed gap. Counted, not timed: the characters difflib's searches walk."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.doors.watch.renames import shared
from forest_files.proposals.rebinds import RebindStore
from tests.helpers.custody import age_files, init_and_adopt
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.walked import count_walked
from tests.helpers.watch import watching

MOST_WALKED = 50_000  # 245,000 before (each search walking far more: b's every match)


def _body(lines: int, edited: bool = False) -> str:
    return "".join(
        f"line {i} of the section says alpha {'BETA' if edited and i % 2 else 'beta'} gamma\n"
        for i in range(lines)
    )


def test_watch_long_section_renamed_and_edited_proposed_bounded_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_repo(tmp_path)
    doc = "# Title\n\n## {}\n\n{}\n## Other\n\nnothing alike here at all\n"
    write(root, "a.md", doc.format("Keep", _body(200)))
    init_and_adopt(root, ["a.md#Title/Keep"])
    commit_all(root, "adopt")
    age_files(root)
    with watching(root) as w:
        walked = count_walked(monkeypatch)
        (root / "a.md").write_text(doc.format("Kept", _body(200, True)), encoding="utf-8")
        assert w.journal.wait_for(lambda rs: any(r.kind == "rebind" for r in rs), 60)
    assert sum(walked) <= MOST_WALKED, sum(walked)
    with RebindStore(root) as store:
        (p,) = store.open_rebinds()
    assert (p.old_selector, p.new_selector) == ("a.md#Title/Keep", "a.md#Title/Kept")
    assert 0.9 <= p.score < 1


def test_shared_long_bodies_every_line_edited_close_to_difflib_accepted() -> None:
    """Every line edited (no line left to anchor on): still most characters shared."""
    ground = "## A\n\n" + _body(300)
    now = "## B\n\n" + _body(300).replace("alpha", "ALPHA")
    assert 0.8 <= shared(ground, now) < 1
    assert shared("## A\n\nkept words\n", "## B\n\nkept words\n") == 1.0
