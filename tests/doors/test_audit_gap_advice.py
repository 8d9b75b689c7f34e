"""The audit log's warning (custody/auditgap.py) as a user who is not root
(tests/helpers/unprivileged.py): its fix, pasted, clears the warning. ``audit.db``
at ``0444`` leaves SQLite's ``audit.db-wal`` and ``audit.db-shm`` at ``0444`` too; the
fix said ``chmod u+w FOLDER audit.db``, which left them so, and the next command
warned again. It is kernel/access.py's, with the ``-wal`` and ``-shm`` judged too."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.helpers.places import module_place
from tests.helpers.unprivileged import as_root, handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"
WARNING = "forest: warning: the audit log was not written"


place = module_place({"doc.md": DOC}, "doc.md")


def _warning(stderr: str) -> str:
    (line,) = [x for x in stderr.splitlines() if x.startswith(WARNING)]
    return line


def _fix(line: str) -> list[str]:
    """The command after the warning's `` — …: ``, as shell words."""
    return shlex.split(line.rsplit(" — ", 1)[1].split(": ", 1)[1])


def _drift(repo: Path) -> None:
    (repo / "doc.md").write_text(DOC.replace("blue", "green"), encoding="utf-8")


def test_audit_log_read_only_fix_pasted_clears_warning_fixed(
    place: tuple[Path, Path],
) -> None:
    """``audit.db`` at ``0444``, then ``forest restore doc.md``: the warning's fix,
    pasted, lets the next restore write the log, with nothing on stderr (the old
    ``chmod u+w FOLDER audit.db`` left ``audit.db-shm`` at ``0444``: warned again)."""
    base, bin_dir = place
    repo = handed_copy(base, "audit-read-only")
    state = repo / ".git" / "forest"
    (state / "audit.db").chmod(0o444)
    _drift(repo)
    done = run_as_user(repo, "forest restore doc.md", bin_dir)
    assert done.returncode == 0, done.stderr
    fix = _fix(_warning(done.stderr))
    assert fix == ["chmod", "-R", "u+rwX", str(state)], fix
    _drift(repo)
    again = run_as_user(repo, shlex.join(fix) + " && forest restore doc.md", bin_dir)
    assert again.returncode == 0, again.stderr
    assert again.stderr == "", again.stderr
    assert (repo / "doc.md").read_text(encoding="utf-8") == DOC


def test_audit_journal_of_another_user_says_chown_refused(place: tuple[Path, Path]) -> None:
    """``audit.db-wal`` root's beside the user's own log and folder: the fix is the
    ``chown`` of the state folder (before: ``chmod u+w FOLDER audit.db``, which the
    user ran to no end, the log's journal still root's)."""
    if not as_root():
        pytest.skip("only root can give a file to root")
    base, bin_dir = place
    repo = handed_copy(base, "audit-journal-root-owned")
    state = repo / ".git" / "forest"
    for side in ("-wal", "-shm"):
        (state / f"audit.db{side}").write_bytes(b"")  # root's, 0644
    _drift(repo)
    done = run_as_user(repo, "forest restore doc.md", bin_dir)
    assert done.returncode == 0, done.stderr
    fix = _fix(_warning(done.stderr))
    assert fix == ["sudo", "chown", "-R", "$(id -un)", str(state)], fix
