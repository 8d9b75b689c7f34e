"""``forest fsck`` reports an audit log that went missing or was emptied while the
index holds applied acts (every sync, rebuild and recorded act leaves a record), and
``forest rebuild`` starts a new one (missing) or writes into the one there (emptied),
as fsck's advice says, after which fsck is clean again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.governance.fsck import fsck
from forest_files.kernel.paths import AUDIT_DB_NAME
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import shared_state

BY = "Ada Lovelace <ada@example.org>"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "doc.md", "# Doc\n\n## Keys\n\nKept as written.\n")
    Repository.init(root, project_id="p-audit").close()
    ok(root, "adopt", "doc.md#Keys", "--words", "adopted as written", "--as", BY)
    commit_all(root, "adopt")
    return root


def _codes(root: Path) -> list[str]:
    return [f.code for f in fsck(root, "p-audit").faults]


def test_fsck_audit_log_present_accepted(root: Path) -> None:
    assert _codes(root) == []


@pytest.mark.parametrize(
    ("damage", "code"),
    [("delete", "audit-missing"), ("truncate", "audit-emptied"), ("fresh", "audit-emptied")],
)
def test_fsck_audit_log_lost_while_ledger_holds_acts_detected(
    root: Path, damage: str, code: str
) -> None:
    log = shared_state(root) / AUDIT_DB_NAME
    for suffix in ("-wal", "-shm"):
        Path(f"{log}{suffix}").unlink(missing_ok=True)
    if damage == "delete":
        log.unlink()
    elif damage == "truncate":
        log.write_bytes(b"")
    else:  # a new, empty log put in its place (the schema, no record)
        log.unlink()
        from forest_files.custody.auditlog import AuditLog

        with AuditLog(root):
            pass
    assert code in _codes(root)
    result = forest(root, "fsck", "--json")
    assert result.exit_code == 3
    fault = next(f for f in json.loads(result.stdout)["faults"] if f["code"] == code)
    assert "1 applied act" in fault["detail"] and "forest rebuild" in fault["detail"]
    ok(root, "rebuild")  # starts a new log, with the rebuild's own record
    assert code not in _codes(root)


@pytest.mark.parametrize("damage", ["truncate", "fresh"])
def test_fsck_audit_log_emptied_advice_says_rebuild_keeps_it_detected(
    root: Path, damage: str
) -> None:
    """An emptied log: the advice says what ``forest rebuild`` does there (it keeps the
    file and writes its record into it), never that it starts a new log; the rebuild
    then leaves the same file holding its record."""
    log = shared_state(root) / AUDIT_DB_NAME
    for suffix in ("-wal", "-shm"):
        Path(f"{log}{suffix}").unlink(missing_ok=True)
    if damage == "truncate":
        log.write_bytes(b"")
    else:
        log.unlink()
        from forest_files.custody.auditlog import AuditLog

        with AuditLog(root):
            pass
    (fault,) = [f for f in fsck(root, "p-audit").faults if f.code == "audit-emptied"]
    assert "starts a new log" not in fault.detail, fault.detail
    assert "keeps this log" in fault.detail and "`forest rebuild`" in fault.detail
    inode = log.stat().st_ino
    ok(root, "rebuild")
    assert log.stat().st_ino == inode
    records = json.loads(ok(root, "audit", "--json").stdout)["records"]
    assert [r["action"] for r in records] == ["rebuild"]


def test_fsck_audit_log_missing_before_any_act_accepted(tmp_path: Path) -> None:
    """No act applied yet: nothing could have been recorded, so nothing is lost."""
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p-audit").close()
    with Repository(root) as r:
        r.sync()
    (shared_state(root) / AUDIT_DB_NAME).unlink(missing_ok=True)
    assert "audit-missing" not in _codes(root)
