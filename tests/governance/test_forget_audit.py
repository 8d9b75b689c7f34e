"""``forest forget`` and ``forest restore`` are audited with their targets: ids and hashes.

A refused forget is an ``erase``/``refused`` record with a reason code and the
entry's content id and body hash (not the generic ``forest-error`` of no
target); a restore is a ``drift`` record naming the binding, its ground and
the path; a refused restore of an erased ground is one too. The audit log
never holds the secret.
"""

from __future__ import annotations

from pathlib import Path

from forest_files.custody.auditlog import AuditLog, AuditRecord
from forest_files.custody.repository import Repository
from forest_files.kernel.paths import AUDIT_DB_NAME
from forest_files.kernel.state import shared_dir
from tests.helpers.cli import forest
from tests.helpers.custody import BY
from tests.helpers.forgetting import DOC, SENTINEL, WORDS, adopted_then_cleaned
from tests.helpers.git import write


def _records(root: Path) -> list[AuditRecord]:
    with AuditLog(root) as log:
        return log.page(limit=50)


def _audit_bytes(root: Path) -> bytes:
    folder = shared_dir(root)
    return b"".join(p.read_bytes() for p in folder.glob(f"{AUDIT_DB_NAME}*"))


def test_forget_refused_audited_with_targets_accepted(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        (live,) = repo.ground()
    result = forest(root, "forget", live.content_id, "--words", WORDS, "--as", BY)
    assert result.exit_code == 1
    top = _records(root)[0]
    assert (top.action, top.outcome, top.reason) == ("erase", "refused", "live-ground")
    assert top.targets == (live.content_id, live.body_hash)
    assert SENTINEL.lower().encode() not in _audit_bytes(root).lower()


def test_forget_unknown_id_audited_without_echo_accepted(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    typed = f"deadbeef-{SENTINEL}"  # an id typed wrong must never land in the log
    result = forest(root, "forget", typed, "--words", WORDS, "--as", BY)
    assert result.exit_code != 0
    top = _records(root)[0]
    assert (top.action, top.outcome) == ("erase", "refused") and top.targets == ()
    assert SENTINEL.lower().encode() not in _audit_bytes(root).lower()


def test_forget_accepted_audited_with_targets_accepted(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    result = forest(root, "forget", old, "--words", WORDS, "--as", BY)
    assert result.exit_code == 0, result.stdout + result.stderr
    erase = next(r for r in _records(root) if r.action == "erase")
    assert erase.outcome == "ok" and erase.act_id in erase.targets
    purge = next(r for r in _records(root) if r.action == "purge")
    assert old in purge.targets
    assert SENTINEL.lower().encode() not in _audit_bytes(root).lower()


def test_restore_audited_with_targets_accepted(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        (live,) = repo.ground()
        binding = repo.log()[0].act_id
    write(root, "doc.md", DOC.replace("vault", "safe"))
    result = forest(root, "restore", "doc.md#Keys")
    assert result.exit_code == 0, result.stdout + result.stderr
    top = _records(root)[0]
    assert (top.action, top.outcome, top.reason) == ("drift", "ok", "restore-restored")
    assert top.targets == (binding, live.content_id, live.body_hash, "doc.md")
