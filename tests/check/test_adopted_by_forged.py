"""``forest check`` names who adopted a failing finding's ground, and their words, as the
ledger declares them: the names came from the index's adoption record row, unproven (the
index proof sees bindings and grounds, not record rows), so a row given another signer or
other words behind the triggers, a row of the forger's own whose content id was made to
hash, the ground's ``adopts`` edge pointed at an older record, or the row deleted, showed
``adopted by Mallory <m@x>`` (or another's words, or nobody) with nothing on stderr. A
row is believed only where it is the record the ledger declares of that ground; else the
ledger's signer and words are named and one ``forest:`` line says the index is damaged,
naming ``forest fsck`` and ``forest rebuild``. A clean check reads no record at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.custody import adoptions
from forest_files.ledger.segments import body_path
from tests.helpers.cli import forest
from tests.helpers.forgetting import CLEAN, cleaned_and_synced
from tests.helpers.git import write
from tests.helpers.state import behind_the_triggers, forge_erasure, hashing_row

MALLORY = "Mallory <m@x>"
DAMAGED = (
    "forest: the index lost or changed who adopted 1 ground (its adoption record row); "
    "shown from the ledger; `forest fsck` names the damage, `forest rebuild` repairs it"
)
RECORD = "bucket = 'adoption_record' AND body = 'amend'"  # the ground's (the supersession's)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """``doc.md#Ops/Keys`` adopted ("ok"), superseded ("amend"), then edited: drifted."""
    root = cleaned_and_synced(tmp_path)
    write(root, "doc.md", CLEAN.replace("in the vault", "elsewhere"))
    return root


def _check(root: Path) -> tuple[str, object, str]:
    """(``forest check``'s stdout, the finding's adopter in ``--json``, stderr of both)."""
    text = forest(root, "check")
    assert text.exit_code == 1, text.stdout + text.stderr
    done = forest(root, "check", "--json")
    (found,) = json.loads(done.stdout)["findings"]
    return text.stdout, found["adopted_by"], text.stderr + done.stderr


FORGERIES = {
    "signer-and-words": f"UPDATE entries SET signature = '{MALLORY}', body = 'forged' "
    f"WHERE {RECORD}",
    "signer": f"UPDATE entries SET signature = '{MALLORY}' WHERE {RECORD}",
    "words": f"UPDATE entries SET body = 'forged' WHERE {RECORD}",
    # the ground's adopts edge pointed at the older record (words "ok")
    "older-record": "UPDATE edges SET from_id = (SELECT id FROM entries WHERE "
    "bucket = 'adoption_record' AND body = 'ok') WHERE kind = 'adopts' AND from_id = "
    f"(SELECT id FROM entries WHERE {RECORD})",
    "row-deleted": f"DELETE FROM entries WHERE {RECORD}",
}


@pytest.mark.parametrize("how", [*sorted(FORGERIES), "hashing-row"])
def test_check_adopted_by_forged_record_row_from_ledger_detected(root: Path, how: str) -> None:
    honest = _check(root)
    assert honest[1] == "t <t@example.org>"
    assert "adopted by t <t@example.org>: “amend”" in honest[0]
    assert "index lost" not in honest[2]
    if how == "hashing-row":
        hashing_row(root, RECORD, MALLORY, "forged by Mallory")
    else:
        behind_the_triggers(root, FORGERIES[how])
    text, said, err = _check(root)
    assert (text, said) == honest[:2]
    assert MALLORY not in text + err and "forged" not in text
    assert err.count(DAMAGED) == 2  # once per command: the text check and the --json one


def test_check_adopted_by_clean_reads_no_record(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ledger is read for adopters only with a failing finding: a clean check, none."""
    calls: list[int] = []
    declared = adoptions.declared_records

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return declared(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(adoptions, "declared_records", counted)
    assert forest(root, "check").exit_code == 1
    assert calls == [1]  # one read for the one failing finding
    write(root, "doc.md", CLEAN)
    calls.clear()
    done = forest(root, "check")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert calls == []


def test_adopted_by_forged_ground_id_read_as_a_literal_refused(root: Path) -> None:
    """A ground id the index holds is matched as a literal in the ledger's lines, never as a
    pattern: a forged row's content id such as ``(((`` or ``.*`` finds nothing (the
    regex built from the ids raised ``re.error``, an internal error, on the first)."""
    ledger = root / ".forest" / "ledger"
    assert adoptions.declared_records(ledger, ["((("]) == {}
    assert adoptions.declared_records(ledger, [".*"]) == {}


def test_check_adopted_by_forged_erasure_body_gone_not_a_forget_detected(root: Path) -> None:
    """The ground's record row made ``[erased]`` with an ``erasures`` row of the
    forger's, and its body file gone (deleted by hand, or by the old sync that believed
    the index): the words were shown ``[erased]`` as after a forget, nothing said. Only
    an erase act of the ledger makes words ``[erased]``; else the index is damaged, and
    said so."""
    honest = _check(root)
    body_path(root / ".forest" / "ledger", forge_erasure(root, RECORD)).unlink()
    text, said, err = _check(root)
    assert said == honest[1]
    assert "[erased]" not in text, text
    assert err.count(DAMAGED) == 2, err
