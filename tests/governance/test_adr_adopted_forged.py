"""``forest adr list`` names who adopted each bound ADR's ground as the ledger declares
it: the name came from the index's adoption record row, unproven, so a row given another
signer behind the triggers (or made Mallory's with its content id recomputed) listed
``adopted by Mallory <m@x> (claimed)`` with nothing on stderr. The ADRs' adopters are
proven together, one read of the ledger (custody/adoptions.py): a row that is not the
declared record gives the ledger's signer, and one ``forest:`` line names the damage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import behind_the_triggers

ADA = "Ada <ada@example.org>"
MALLORY = "Mallory <m@x>"
GLOB = "docs/adr/*.md"
DAMAGED = (
    "forest: the index lost or changed who adopted 1 ground (its adoption record row); "
    "shown from the ledger; `forest fsck` names the damage, `forest rebuild` repairs it"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """Two ADRs, each adopted whole by Ada."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "docs/adr/0001-use-x.md", "# 1. Use X\n\n## Status\n\nAccepted\n")
    write(root, "docs/adr/0002-use-y.md", "# 2. Use Y\n\n## Status\n\nAccepted\n")
    commit_all(root, "adrs")
    for n in ("0001-use-x", "0002-use-y"):
        ok(root, "adopt", f"docs/adr/{n}.md", "--words", "Accepted", "--as", ADA)
    commit_all(root, "adopt")
    return root


def _listed(root: Path) -> tuple[list[object], str, str]:
    """(each ADR's adopter in ``--json``, the text list, stderr of both)."""
    done = ok(root, "adr", "list", GLOB, "--json")
    text = ok(root, "adr", "list", GLOB)
    return (
        [a["adopted_by"] for a in json.loads(done.stdout)["adrs"]],
        text.stdout,
        (done.stderr + text.stderr),
    )


def test_adr_list_adopted_by_forged_record_row_from_ledger_detected(root: Path) -> None:
    honest = _listed(root)
    assert honest[0] == [ADA, ADA] and honest[2] == ""
    behind_the_triggers(
        root,
        "UPDATE entries SET signature = ? WHERE id = (SELECT MIN(id) FROM entries "
        "WHERE bucket = 'adoption_record')",
        MALLORY,
    )
    adopters, text, err = _listed(root)
    assert (adopters, text) == honest[:2]
    assert MALLORY not in text + err
    assert err.count(DAMAGED) == 2  # once per command
