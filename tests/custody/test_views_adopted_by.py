"""``Repository.ground()`` (the Python API's listing of current ground, custody/views.py)
names who adopted each ground, and their words, as the ledger declares them: it read the
index's latest adoption record row, unproven, so a row given another signer or words
behind the triggers, or the ground's ``adopts`` edge pointed at an older record, was
returned as ``adopted_by='Mallory <m@x>'`` with nothing said. Now a row is believed only
where it is the record the ledger declares (custody/adoptions.py), as ``forest check``
does; else the ledger's signer and words are returned and one ``forest:`` line on stderr
says the index is damaged."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody import adoptions
from forest_files.custody.repository import Repository
from tests.check.test_adopted_by_forged import DAMAGED, FORGERIES
from tests.helpers.forgetting import cleaned_and_synced
from tests.helpers.state import behind_the_triggers


def _listed(root: Path) -> list[tuple[str, str, str]]:
    with Repository(root) as r:
        return [(g.content_id, g.adopted_by, g.words) for g in r.ground()]


# A deleted record row takes the ground out of the index's view: which grounds there are
# is the index proof's question (``forest fsck`` names it), not this listing's.
@pytest.mark.parametrize("how", sorted(set(FORGERIES) - {"row-deleted"}))
def test_ground_adopted_by_forged_record_row_from_ledger_detected(
    tmp_path: Path, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = cleaned_and_synced(tmp_path)
    honest = _listed(root)
    assert [(by, words) for _, by, words in honest] == [("t <t@example.org>", "amend")]
    assert "index lost" not in capsys.readouterr().err
    behind_the_triggers(root, FORGERIES[how])
    assert _listed(root) == honest
    assert DAMAGED in capsys.readouterr().err


def test_declared_records_many_grounds_one_pass(tmp_path: Path) -> None:
    """Asked of every ground (the listing's case), the ledger's lines are matched against
    a set of ids: thousands of ids asked find the one declared, the rest nothing."""
    root = cleaned_and_synced(tmp_path)
    ((ground, _, _),) = _listed(root)
    asked = [f"{n:064x}" for n in range(5000)] + [ground, "(((", ".*"]
    found = adoptions.declared_records(root / ".forest" / "ledger", asked)
    assert list(found) == [ground]
    assert found[ground].signature == "t <t@example.org>"
