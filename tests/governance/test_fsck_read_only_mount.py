"""``forest fsck`` in a repository mounted read-only (tests/helpers/read_only_mount.py):
SQLite cannot open a WAL store there (its ``-shm`` cannot be made), and no ``chmod``
nor ``mv`` helps, since the mount refuses both. fsck says the one line every door's
opening says on a read-only mount (kernel/access.py ``mounted_read_only``), exit 1;
it said ``integrity: woods.db: SQLite: OperationalError`` (or, ``woods.db`` at
``0444``, a ``chmod -R`` the mount refuses) and called ``audit.db`` damaged with the
``mv`` that would move it aside. In a repository ``my repo's``: a fix not quoted does
not paste there."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.kernel.shellword import shell_word
from tests.helpers.cli import ok
from tests.helpers.custody import adopted_repo
from tests.helpers.read_only_mount import run_read_only

DOC = "# Doc\n\nThe sky is blue.\n"
REMOUNT = "is mounted read-only: remount it read-write, or work in a clone on a writable disk"


def _snapshot(top: Path) -> dict[str, str]:
    """Every path under ``top``: a file with the SHA-256 of its bytes."""
    return {
        p.relative_to(top).as_posix(): (
            hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        )
        for p in sorted(top.rglob("*"))
    }


@pytest.mark.parametrize("mode", [0o644, 0o444])
def test_fsck_read_only_mount_names_remount_not_damaged_refused(tmp_path: Path, mode: int) -> None:
    """``woods.db`` at ``0644`` or ``0444``: one ``forest:`` line naming the mount, the
    same as ``forest log`` says there, never "damaged", an ``mv`` or a ``chmod``; every
    file as it was. Off the mount the same repository is checked: ok."""
    repo = adopted_repo(tmp_path, "doc.md", DOC, name="my repo's")
    woods = repo / ".git" / "forest" / "woods.db"
    woods.chmod(mode)
    before = _snapshot(repo)
    done = run_read_only(repo, "forest fsck")
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert done.stdout == "", said
    [line] = done.stderr.strip().splitlines()
    assert line == (
        f"forest: cannot open {woods}: unable to open database file; the filesystem holding "
        f"{shell_word(str(woods))} {REMOUNT}, then run the command again"
    ), line
    assert "damaged" not in said and "mv --" not in said and "chmod" not in said, said
    assert _snapshot(repo) == before
    again = run_read_only(repo, "forest log doc.md")  # the one line, as every door says it
    assert again.stderr.strip() == line, again.stderr
    woods.chmod(0o644)
    assert "fsck: ok" in ok(repo, "fsck").stdout  # off the mount: checked, nothing wrong


def test_fsck_read_only_mount_audit_log_not_called_damaged_refused(tmp_path: Path) -> None:
    """The index open elsewhere (its ``-wal`` and ``-shm`` there, so SQLite reads it on
    the mount), the audit log not: the line names ``audit.db`` and the mount (it said
    "integrity: audit.db: OperationalError; move it aside (`mv -- …`)"); every file as it
    was."""
    repo = adopted_repo(tmp_path, "doc.md", DOC, name="my repo's")
    state = repo / ".git" / "forest"
    with closing(sqlite3.connect(state / "woods.db")) as held:
        held.execute("SELECT count(*) FROM sqlite_master").fetchone()
        before = _snapshot(repo)
        done = run_read_only(repo, "forest fsck")
        assert _snapshot(repo) == before
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    audit = state / "audit.db"
    assert said.strip() == (
        f"forest: cannot open {audit}: unable to open database file; the filesystem holding "
        f"{shell_word(str(audit))} {REMOUNT}, then run the command again"
    ), said


def test_fsck_read_only_mount_index_faults_then_mount_line_detected(tmp_path: Path) -> None:
    """The index open elsewhere (read on the mount) with a trigger dropped, the audit log
    not openable there: the index's fault is reported (``schema-missing: woods.db:
    trigger prevent_entry_update``), then the mount line for ``audit.db``, exit 1 (fsck
    said the mount line alone, the fault it had found before hidden); the same with
    ``--json`` (the fault in the document); every file as it was."""
    repo = adopted_repo(tmp_path, "doc.md", DOC, name="my repo's")
    state = repo / ".git" / "forest"
    with closing(sqlite3.connect(state / "woods.db")) as held:
        held.execute("DROP TRIGGER prevent_entry_update")
        held.commit()
        before = _snapshot(repo)
        done = run_read_only(repo, "forest fsck")
        as_json = run_read_only(repo, "forest fsck --json")
        assert _snapshot(repo) == before
    audit = state / "audit.db"
    mount = (
        f"forest: cannot open {audit}: unable to open database file; the filesystem holding "
        f"{shell_word(str(audit))} {REMOUNT}, then run the command again"
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "schema-missing: woods.db: trigger prevent_entry_update: absent"
    ], done.stdout
    assert done.stderr.strip() == mount, done.stderr
    assert as_json.returncode == 1 and as_json.stderr.strip() == mount, as_json.stderr
    (fault,) = json.loads(as_json.stdout)["faults"]
    assert (fault["code"], fault["where"]) == (
        "schema-missing",
        "woods.db: trigger prevent_entry_update",
    )
