"""The doors' audit records: a refused commit, drift found by check, the watcher and
CI, a command's refusal at the CLI boundary — and nothing on the clean path,
nothing outside custody, never a changed outcome when the log cannot be written."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.custody import auditsql
from forest_files.custody.auditlog import MAX_PAGE, AuditLog, AuditRecord, Event
from forest_files.doors import hooks as githooks
from forest_files.doors.doorlog import record_refusal
from forest_files.kernel.errors import ForestError
from forest_files.store.connection import connect
from forest_files.store.localdb import migrate
from tests.helpers.cli import forest
from tests.helpers.custody import DOC, two_bound_files
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.state import shared_state
from tests.helpers.watch import EDITED, wait_verdict, watching

DRIFTED = DOC.replace("kept words", "drifted words")


def records(root: Path) -> list[AuditRecord]:
    with AuditLog(root) as log:
        return list(reversed(log.page(limit=MAX_PAGE)))


def door_records(root: Path) -> list[AuditRecord]:
    return [r for r in records(root) if r.action in ("hook", "drift", "ci", "refusal")]


def commit(root: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["git", "commit", "-q", "-m", "x"], cwd=root, capture_output=True, check=False
    )


def test_audit_hook_refused_commit_recorded(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    githooks.install(root)
    write(root, "a.md", DRIFTED)
    git(root, "add", "a.md")
    assert commit(root).returncode == 1
    (rec,) = door_records(root)
    assert (rec.action, rec.outcome, rec.reason) == ("hook", "refused", "drift")
    assert rec.counts == {"drifted": 1, "findings": 1}
    assert any(t.startswith("a.md#") for t in rec.targets)
    assert rec.head == git(root, "rev-parse", "HEAD")


def test_audit_hook_accepted_commit_writes_nothing(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    githooks.install(root)
    before = records(root)
    write(root, "c.md", "unbound\n")
    git(root, "add", "c.md")
    assert commit(root).returncode == 0
    assert records(root) == before


def test_audit_hook_in_repo_without_forest_dir_creates_nothing(tmp_path: Path) -> None:
    """forest.toml staged in a repository with no .forest/: a hook that refuses the
    commit (forest.toml unreadable) records nothing and creates no audit log."""
    root = make_repo(tmp_path)
    write(root, "forest.toml", "[[[ not toml\n")
    write(root, "a.md", DOC)
    git(root, "add", "-A")
    hook = Path(sys.executable).parent / "forest-hook"
    proc = subprocess.run([str(hook), "pre-commit"], cwd=root, capture_output=True, check=False)
    assert proc.returncode == 2, proc.stderr  # an unusable forest.toml: exit 2 (kernel/exits.py)
    assert not (root / ".forest").exists()
    assert git(root, "status", "--porcelain", "--untracked-files=all").split("\n") == [
        "A  a.md",
        "A  forest.toml",
    ]


def test_audit_check_drift_recorded_clean_check_writes_nothing(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    before = records(root)
    assert forest(root, "check").exit_code == 0
    assert forest(root, "check", "--json").exit_code == 0
    assert records(root) == before
    write(root, "a.md", DRIFTED)
    assert forest(root, "check", "--json").exit_code == 1
    (rec,) = door_records(root)
    assert (rec.action, rec.outcome, rec.reason) == ("drift", "found", "check")
    assert rec.counts == {"drifted": 1, "findings": 1}


def test_audit_clean_check_never_imports_the_log(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert forest(root, "check").exit_code == 0  # the remembered verdict is written
    probe = (
        "import sys\n"
        "from forest_files.doors import fastcheck\n"
        f"code = fastcheck.check_command(fastcheck.CheckArgs(repo={str(root)!r}))\n"
        "code2 = fastcheck.check_command(fastcheck.CheckArgs(repo={r!r}, as_json=True))\n"
        "print(code, code2, [m for m in sys.modules if 'audit' in m or 'doorlog' in m])\n"
    ).replace("{r!r}", repr(str(root)))
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().endswith("0 0 []"), out


def test_audit_ci_run_recorded_once(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert forest(root, "ci").exit_code == 0
    write(root, "a.md", DRIFTED)
    commit_all(root, "drift")  # no hook installed: only CI sees it
    assert forest(root, "ci", "--format", "json").exit_code == 1
    ok, found = door_records(root)
    assert (ok.action, ok.outcome, ok.reason) == ("ci", "ok", "gate")
    assert (found.action, found.outcome, found.reason) == ("ci", "found", "gate")
    assert found.counts["drifted"] == 1 and found.counts["findings"] == 1
    assert found.targets[0] == git(root, "rev-parse", "HEAD")


def test_audit_selector_refusal_recorded_by_code(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    result = forest(root, "adopt", "a.md#NoSuchHeading", "--words", "I adopt it")
    assert result.exit_code == 1
    (rec,) = door_records(root)
    assert (rec.action, rec.outcome) == ("refusal", "refused")
    assert rec.reason == "section-not-found" and rec.targets == ()


def test_audit_authority_refusal_recorded_once(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    cfg = (root / "forest.toml").read_text(encoding="utf-8")
    write(root, "forest.toml", cfg + '\n[authority]\n"a.md" = ["t <t@example.org>"]\n')
    write(root, "a.md", DRIFTED)
    args = ("supersede", "a.md#Keep", "--words", "new words", "--as", "Mallory <m@x>")
    assert forest(root, *args).exit_code == 1
    (rec,) = door_records(root)
    assert rec.reason == "authority-refused" and rec.targets == ("a.md",)


def test_audit_append_failure_never_changes_the_outcome(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    githooks.install(root)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{shared_state(root) / 'audit.db'}{suffix}").unlink(missing_ok=True)
    (shared_state(root) / "audit.db").mkdir()  # the log cannot be opened
    write(root, "a.md", DRIFTED)
    checked = forest(root, "check", "--json")
    assert checked.exit_code == 1 and '"drifted"' in checked.stdout
    assert forest(root, "adopt", "a.md#Nope", "--words", "I adopt it").exit_code == 1
    git(root, "add", "a.md")
    assert commit(root).returncode == 1
    assert forest(root, "ci").exit_code == 0  # HEAD itself is clean


def test_audit_watcher_drift_recorded(tmp_path: Path) -> None:
    from tests.helpers.watch import bound_repo

    root = bound_repo(tmp_path)
    with watching(root) as w:
        (root / "a.md").write_text(EDITED, encoding="utf-8")
        wait_verdict(w, "drifted")
    recs = [r for r in door_records(root) if r.reason == "watch"]
    assert recs and (recs[0].action, recs[0].outcome) == ("drift", "found")
    assert recs[0].counts["drifted"] == 1


def test_audit_proposal_kept_and_discarded_recorded_no_text(tmp_path: Path) -> None:
    """The watcher keeping a proposal, and `forest proposal discard`: one record
    each, naming the proposal, its binding and selector, never its text."""
    from forest_files.custody.proposals import ProposalStore
    from tests.helpers.watch import bound_repo

    root = bound_repo(tmp_path)
    with watching(root) as w:
        (root / "a.md").write_text(EDITED, encoding="utf-8")
        wait_verdict(w, "drifted")
        assert w.journal.wait_for(lambda rs: any(r.kind == "proposal" for r in rs), 30)
    with ProposalStore(root) as store:
        (kept,) = store.open_proposals()
    assert forest(root, "proposal", "discard", kept.id).exit_code == 0
    found = [r for r in records(root) if r.action == "proposal"]
    assert [r.reason for r in found] == ["new", "discarded"]
    assert all(kept.id in r.targets and kept.binding in r.targets for r in found)
    for part in (root / ".forest").glob("audit.db*"):
        assert b"edited words" not in part.read_bytes()


def test_audit_usage_error_recorded_as_usage(tmp_path: Path) -> None:
    """A usage error a command raises itself (typer.BadParameter at the boundary) is
    recorded as ``usage``; any other non-ForestError is no refusal."""
    import typer

    root = two_bound_files(tmp_path)
    assert record_refusal(root / "a.md", typer.BadParameter("no --as given"), usage=True)
    assert record_refusal(root, RuntimeError("boom")) is False
    (rec,) = door_records(root)
    assert (rec.action, rec.outcome, rec.reason) == ("refusal", "refused", "usage")


def test_audit_outside_a_repository_writes_nothing(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert record_refusal(plain, ForestError("x")) is False
    repo = make_repo(tmp_path)  # git, but never put under custody
    assert record_refusal(repo, ForestError("x")) is False
    assert record_refusal(repo, ValueError("x")) is False
    assert not (repo / ".forest").exists() and list(plain.iterdir()) == []
    assert "empty" in forest(repo, "audit").stdout  # reading creates no log
    assert not (repo / ".forest").exists()


def test_audit_version_1_log_upgraded_seq_for_seq(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{shared_state(root) / 'audit.db'}{suffix}").unlink(missing_ok=True)
    conn = connect(shared_state(root) / "audit.db")
    migrate(conn, "audit.db", 1, auditsql._V1)
    conn.execute(
        "INSERT INTO audit (at, actor, action, outcome, reason, targets, counts) "
        "VALUES ('t', 'a', 'sync', 'ok', 'applied', '[]', '{}')"
    )
    conn.commit()
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO audit (at, actor, action, outcome, reason, targets, counts) "
            "VALUES ('t', 'a', 'hook', 'refused', 'drift', '[]', '{}')"
        )
    conn.close()
    write(root, "a.md", DRIFTED)
    assert forest(root, "check").exit_code == 1
    (old, new) = records(root)
    assert (old.seq, old.action) == (1, "sync") and (new.seq, new.action) == (2, "drift")
    with AuditLog(root) as log:
        assert int(log.conn.execute("PRAGMA user_version").fetchone()[0]) == 3
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            log.conn.execute("DELETE FROM audit")


def test_audit_version_2_log_upgraded_for_the_agents_door_accepted(tmp_path: Path) -> None:
    """A version-2 log (the doors' hook and ci records, no ``mcp``) keeps every row,
    seq for seq, and then takes an MCP call's record."""
    root = two_bound_files(tmp_path)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{shared_state(root) / 'audit.db'}{suffix}").unlink(missing_ok=True)
    conn = connect(shared_state(root) / "audit.db")
    v2 = auditsql._table("audit", (*auditsql.ACTIONS_V1, "hook", "ci")) + auditsql._TRIGGERS
    migrate(conn, "audit.db", 2, v2)
    conn.execute(
        "INSERT INTO audit (at, actor, action, outcome, reason, targets, counts) "
        "VALUES ('t', 'a', 'hook', 'refused', 'drift', '[]', '{}')"
    )
    conn.commit()
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO audit (at, actor, action, outcome, reason, targets, counts) "
            "VALUES ('t', 'a', 'mcp', 'ok', 'mcp-ground', '[]', '{}')"
        )
    conn.close()
    with AuditLog(root) as log:
        log.append([Event("mcp", "ok", "mcp-ground", actor="agent")])
        rows = log.conn.execute("SELECT seq, action FROM audit ORDER BY seq").fetchall()
        assert [tuple(r) for r in rows] == [(1, "hook"), (2, "mcp")]
        assert int(log.conn.execute("PRAGMA user_version").fetchone()[0]) == 3
