"""The audit record of drift ``forest check --staged`` finds names HEAD's commit as the
check asked it of git: the record asks git nothing more (doors/doorlog.py), and names
the same commit it named when it asked (null on an unborn branch, the new commit right
after one moved HEAD). Counted on the console script in a real process (git's own
trace, ``GIT_TRACE``), as tests/doors/test_doors_cost.py counts; no timing asserted.

Test: forest_files/check/path.py, forest_files/doors/fastcheck.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from forest_files.custody.auditlog import MAX_PAGE, AuditLog, AuditRecord
from forest_files.doors import hooks as githooks
from tests.helpers.custody import adopted_repo, init_and_adopt
from tests.helpers.git import git, git_env, make_repo, write
from tests.helpers.gittrace import traced_forest
from tests.helpers.state import local_state

TEXT = "# A\n\nwords\n"
DRIFTED = "# A\n\ndrifted words\n"


def staged_check(repo: Path, code: int) -> list[str]:
    """``forest check --staged`` as its own process in ``repo``: the git commands it ran."""
    done, gits = traced_forest(repo, "check", "--staged")
    assert done.returncode == code, done.stderr[-2000:]
    return gits


def heads_asked(gits: list[str]) -> list[str]:
    return [g for g in gits if g.startswith("git rev-parse") and "HEAD" in g]


def drift_records(repo: Path) -> list[AuditRecord]:
    with AuditLog(repo) as log:
        return [r for r in reversed(log.page(limit=MAX_PAGE)) if r.action in ("drift", "hook")]


def said(record: AuditRecord) -> tuple[object, ...]:
    return (record.action, record.outcome, record.reason, record.targets, record.counts)


def test_staged_check_drift_audit_head_asked_once_accepted(tmp_path: Path) -> None:
    """Drift staged: the quick check (HEAD judged clean) and the full one (HEAD not
    judged clean) each ask HEAD of git once (``rev-parse``), where the audit record
    asked it again; each record names HEAD's commit, as it did."""
    repo = adopted_repo(tmp_path, "f.md", TEXT, "f.md#A")
    staged_check(repo, 0)  # HEAD judged clean (judged.py)
    write(repo, "f.md", DRIFTED)
    git(repo, "add", "f.md")
    quick = staged_check(repo, 1)
    assert len(heads_asked(quick)) == 1, quick
    shutil.rmtree(local_state(repo) / "cache", ignore_errors=True)  # HEAD not judged clean
    full = staged_check(repo, 1)
    assert len(heads_asked(full)) == 1, full
    first, second = drift_records(repo)
    head = git(repo, "rev-parse", "HEAD")
    assert first.head == second.head == head
    assert said(first) == said(second)
    assert said(first)[:3] == ("drift", "found", "check")
    assert first.counts == {"drifted": 1, "findings": 1}


def test_staged_check_drift_after_commit_moved_head_audit_names_new_head_accepted(
    tmp_path: Path,
) -> None:
    """A commit moves HEAD after a check judged the old one clean: the drift record of
    the next ``check --staged`` names the new commit (asked of git in that run), never
    the one remembered."""
    repo = adopted_repo(tmp_path, "f.md", TEXT, "f.md#A")
    staged_check(repo, 0)
    old = git(repo, "rev-parse", "HEAD")
    write(repo, "notes.txt", "unbound\n")
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-q", "-m", "notes")
    new = git(repo, "rev-parse", "HEAD")
    assert new != old
    write(repo, "f.md", DRIFTED)
    git(repo, "add", "f.md")
    gits = staged_check(repo, 1)
    assert len(heads_asked(gits)) == 1, gits
    (record,) = drift_records(repo)
    assert record.head == new


def test_staged_check_drift_unborn_branch_audit_head_null_accepted(tmp_path: Path) -> None:
    """On an unborn branch (custody staged, nothing committed) the drift record names
    no commit, as before, from ``check --staged`` and from the pre-commit hook alike."""
    repo = make_repo(tmp_path)
    write(repo, "f.md", TEXT)
    init_and_adopt(repo, ["f.md#A"])
    git(repo, "add", "-A")
    write(repo, "f.md", DRIFTED)
    git(repo, "add", "f.md")
    staged_check(repo, 1)
    githooks.install(repo)
    refused = subprocess.run(
        ["git", "commit", "-q", "-m", "x"],
        cwd=repo,
        env={**os.environ, **git_env()},
        capture_output=True,
    )
    assert refused.returncode == 1, refused.stderr
    check, hook = drift_records(repo)
    assert check.head is None and hook.head is None
    assert said(check) == ("drift", "found", "check", hook.targets, hook.counts)
