"""custody/adoptions.py lists the ledger's segment files itself (so naming adopters
imports no act types): the same files, in the same order, as ``segment_paths``
(ledger/segments.py), whatever else stands in the segments directory."""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.custody import adoptions
from forest_files.ledger.segments import segment_paths


def test_adoption_segment_listing_same_as_ledger_reader_accepted(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger"
    assert adoptions._segment_files(ledger) == segment_paths(ledger) == []  # no directory
    segments = ledger / "segments"
    segments.mkdir(parents=True)
    for name in ("b" * 64, "a" * 64, "0" * 64):
        (segments / f"{name}.jsonl").write_text("{}\n")
    (segments / "notes.txt").write_text("not a segment")
    (segments / f"{'c' * 64}.jsonl.tmp").write_text("{}\n")
    (segments / f"{'d' * 64}.jsonl").mkdir()  # a directory by a segment's name
    os.symlink(segments / f"{'a' * 64}.jsonl", segments / f"{'e' * 64}.jsonl")
    os.symlink(tmp_path / "nowhere", segments / f"{'f' * 64}.jsonl")  # dangling
    listed = adoptions._segment_files(ledger)
    assert listed == segment_paths(ledger)
    assert [p.name for p in listed] == [f"{n * 64}.jsonl" for n in "0ab"]
