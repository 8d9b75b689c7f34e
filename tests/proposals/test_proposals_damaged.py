"""A proposal row of ``local.db`` someone edited by hand (its text no longer the text
its hash names, a text that is no text, an open proposal without one): refused by
``forest proposal show`` and ``adopt`` with one line naming the discard, never a
crash, never an adoption of a text other than the one shown; the discard works."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from tests.helpers.custody import BY
from tests.helpers.watch import EDITED, bound_repo, captured_proposal


def ground_ids(root: Path) -> list[str]:
    with Repository(root) as repo:
        return [g.content_id for g in repo.ground()]


def segment_files(root: Path) -> list[Path]:
    return sorted((root / ".forest" / "ledger" / "segments").iterdir())


runner = CliRunner()

DAMAGE = {
    "text-edited": ("UPDATE proposals SET text = ?", ("## Keep\n\nsomething else entirely\n\n",)),
    "text-a-blob": ("UPDATE proposals SET text = ?", (b"\x00\xff",)),
    "open-without-text": ("UPDATE proposals SET text = NULL", ()),
    "claim-a-blob": ("UPDATE proposals SET claimed_by = ?", (b"Ada",)),
}


def _damaged(tmp_path: Path, how: str) -> tuple[Path, str]:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    sql, args = DAMAGE[how]
    conn = sqlite3.connect(root / ".git" / "forest" / "local.db")
    with conn:
        conn.execute(sql, args)
    conn.close()
    return root, pid


def _cli(root: Path, *args: str) -> tuple[int, str]:
    out = runner.invoke(app, [*args, "--repo", str(root)])
    return out.exit_code, out.output


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_proposal_damaged_row_show_and_adopt_refused(tmp_path: Path, how: str) -> None:
    root, pid = _damaged(tmp_path, how)
    ground, segments = ground_ids(root), segment_files(root)
    for args in (
        ("proposal", "show", pid),
        ("proposal", "adopt", pid, "--words", "fine", "--as", BY),
    ):
        code, said = _cli(root, *args)
        assert code == 1, said
        line = said.strip().splitlines()[-1]
        assert line.startswith("forest: ") and "damaged" in line, said
        assert f"forest proposal discard {pid}" in line and "something else" not in said
    assert (ground_ids(root), segment_files(root)) == (ground, segments)
    code, said = _cli(root, "proposal", "discard", pid)
    assert code == 0 and "discarded" in said, said
    assert _cli(root, "proposals")[0] == 0
