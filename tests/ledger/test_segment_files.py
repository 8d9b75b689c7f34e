"""ledger/segment_files.py lists a ledger's segment files without the codec: regular
``*.jsonl`` files by name; a symlink, a directory by a segment's name or another name is
no segment (skipped, or with ``refuse_links`` a symlink refused as a stray)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files.ledger.fault import LedgerError
from forest_files.ledger.segment_files import segment_paths


def test_segment_listing_regular_files_by_name_others_skipped_accepted(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger"
    assert segment_paths(ledger) == []  # no directory
    segments = ledger / "segments"
    segments.mkdir(parents=True)
    for name in ("b" * 64, "a" * 64, "0" * 64):
        (segments / f"{name}.jsonl").write_text("{}\n")
    (segments / "notes.txt").write_text("not a segment")
    (segments / f"{'c' * 64}.jsonl.tmp").write_text("{}\n")
    (segments / f"{'d' * 64}.jsonl").mkdir()  # a directory by a segment's name
    os.symlink(segments / f"{'a' * 64}.jsonl", segments / f"{'e' * 64}.jsonl")
    os.symlink(tmp_path / "nowhere", segments / f"{'f' * 64}.jsonl")  # dangling
    assert [p.name for p in segment_paths(ledger)] == [f"{n * 64}.jsonl" for n in "0ab"]
    with pytest.raises(LedgerError) as refused:
        segment_paths(ledger, refuse_links=True)
    assert refused.value.code == "stray" and "is a symlink" in str(refused.value)
