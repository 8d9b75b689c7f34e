"""Who adopted a drifted section's ground, where the index (``woods.db``) cannot be read
by the user who runs the check (not root: tests/helpers/unprivileged.py).

The check judges from the saved binding map without the index; who adopted each failed
finding's ground is read from the index's rows. Before, a ``woods.db`` at mode ``000``
(or damaged) dropped "adopted by …" from the finding without a word (text and JSON),
and a terminal's ``forest check`` (``--show-diff``) was refused, turning a plain drift
into an error. Now each door reports the drift and says, on the finding, that its
adopter is unknown, naming the file and the fix: the ``chmod`` for a mode, ``forest
fsck`` for a damaged file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers.custody import DOC
from tests.helpers.places import module_place
from tests.helpers.unprivileged import handed_copy, run_as_user
from tests.helpers.watch import EDITED

# ``a.md#Keep`` adopted and committed, in a folder the unprivileged user reaches.
place = module_place({"a.md": DOC}, "a.md#Keep")


def _drifted(base: Path, bin_dir: Path, name: str) -> tuple[Path, Path, str]:
    """A copy with ``a.md`` drifted, checked once (its binding map saved): the copy,
    its index and the adopter the readable index names."""
    repo = handed_copy(base, name)
    (repo / "a.md").write_text(EDITED, encoding="utf-8")
    done = run_as_user(repo, "forest check --json", bin_dir)
    (finding,) = json.loads(done.stdout)["findings"]
    assert finding["kind"] == "drifted" and finding["adopted_by"], finding
    return repo, repo / ".git" / "forest" / "woods.db", finding["adopted_by"]


def _said(repo: Path, bin_dir: Path) -> tuple[dict[str, object], list[str], list[str]]:
    """The JSON finding, the text door's lines and the ``--show-diff`` door's lines."""
    as_json = run_as_user(repo, "forest check --json", bin_dir)
    text = run_as_user(repo, "forest check", bin_dir)
    diffs = run_as_user(repo, "forest check --show-diff", bin_dir)
    for done in (as_json, text, diffs):
        assert done.returncode == 1, done.stdout + done.stderr
    (finding,) = json.loads(as_json.stdout)["findings"]
    return finding, text.stdout.splitlines(), diffs.stdout.splitlines()


def test_adopter_index_unreadable_detected(place: tuple[Path, Path]) -> None:
    base, bin_dir = place
    repo, db, _by = _drifted(base, bin_dir, "mode-000")
    before = db.read_bytes()
    db.chmod(0)
    try:
        finding, text, diffs = _said(repo, bin_dir)
        assert finding["kind"] == "drifted" and finding["adopted_by"] is None
        (hint,) = finding["hints"]
        assert isinstance(hint, str)
        assert hint.startswith("ground ") and "adopted by: unknown" in hint, hint
        assert str(db) in hint and "chmod -R u+rwX" in hint, hint
        for lines in (text, diffs):
            assert lines[0].startswith("drifted a.md#Title/Keep"), lines
            assert f"  {hint}" in lines, lines
    finally:
        db.chmod(0o644)
    assert db.read_bytes() == before  # nothing made anew where it could not be read


@pytest.mark.parametrize("damage", [(100, 4096), (0, 100)], ids=["schema-page", "header"])
def test_adopter_index_damaged_detected(place: tuple[Path, Path], damage: tuple[int, int]) -> None:
    base, bin_dir = place
    repo, db, _by = _drifted(base, bin_dir, f"damaged-{damage[0]}")
    stat = db.stat()
    data = bytearray(db.read_bytes())
    start, end = damage  # the schema's page (the header whole), or the header itself
    data[start:end] = b"\xff" * (end - start)
    db.write_bytes(bytes(data))
    os.utime(db, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # as the binding map knew it
    finding, text, _diffs = _said(repo, bin_dir)
    assert finding["kind"] == "drifted" and finding["adopted_by"] is None
    (hint,) = finding["hints"]
    assert isinstance(hint, str)
    assert "adopted by: unknown" in hint and str(db) in hint, hint
    assert "`forest fsck`" in hint, hint
    assert f"  {hint}" in text, text
