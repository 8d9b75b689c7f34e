"""What verifying a ledger asks of each act, counted (ledger/verify.py).

``verify_contents`` reads the body hashes an act names once: the check that every
named body is there (or erased) hands them to the look for body files no act names,
which asked every act again (a fresh clone's ``forest ci`` verifies HEAD's ledger of
10,000 adopts). Counted, not timed; what is reported is unchanged.

Test: forest_files/ledger/verify.py (_check_body_refs, _unnamed_bodies).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.ledger import verify
from forest_files.ledger.acts import Act
from tests.helpers.git import make_repo

BY = "t <t@example.org>"
N = 30


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    asked: list[str] = []
    real: Callable[[Act], frozenset[str]] = verify.body_hashes

    def counting(act: Act) -> frozenset[str]:
        asked.append(act.id)
        return real(act)

    monkeypatch.setattr(verify, "body_hashes", counting)
    return asked


def _ledger(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "r")
    with Repository.init(root, project_id="p") as repo:
        repo.adopt_many([f"body {i} of the batch\n" for i in range(N)], words="adopt", by=BY)
    return root / ".forest" / "ledger"


def test_verify_sound_ledger_asks_each_act_bodies_once_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = _ledger(tmp_path)
    asked = _counted(monkeypatch)
    report = verify.verify_ledger(ledger)
    assert report.faults == () and report.acts == N
    # Once an act. Before: again for the unnamed-body look of a sound ledger (2 * N).
    assert len(asked) == N == len(set(asked)), len(asked)


def test_verify_unnamed_body_still_found_detected(tmp_path: Path) -> None:
    """A body file no act names is still a stray once the names are handed over."""
    ledger = _ledger(tmp_path)
    text = b"text nobody adopted\n"
    digest = hashlib.sha256(text).hexdigest()
    where = ledger / "bodies" / digest[:2]
    where.mkdir(parents=True, exist_ok=True)
    (where / f"{digest}.txt").write_bytes(text)
    report = verify.verify_ledger(ledger)
    assert [(f.code, f.cause) for f in report.faults] == [("stray", verify.UNNAMED)]
    assert digest in report.faults[0].detail
