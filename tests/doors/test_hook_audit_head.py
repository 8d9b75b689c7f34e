"""The refused pre-commit hook's audit record names the commit the hook judged against,
asked of git once for the whole run (doors/hooks/run.py, doors/doorlog.py): the record
asked ``git rev-parse -q --verify HEAD^{commit}`` again though the hook had resolved
HEAD when it began; on a first commit (an unborn branch) it asked that, then how to
fetch a revision named HEAD (three git processes more), and the staged change asked
it twice more. Counted from the git processes the real hook entry starts in process;
what the record holds is HEAD as git names it (null with no commit yet), also for a
merge's commit and for ``git commit --amend``, run by git itself. Appending the record
never imports its reader (custody/auditrecord.py), nor stamping it the store's insert
module (store/base.py), nor ``shutil``. HEAD is asked in the hook's first ``rev-parse``,
the one that finds the root (doors/hooks/committed.py): no process after it names HEAD."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files.custody.auditlog import MAX_PAGE, AuditLog, AuditRecord
from forest_files.doors import hooks as githooks
from forest_files.doors.hooks.run import main as hook
from tests.helpers.custody import DOC, two_bound_files
from tests.helpers.git import commit_all, git, git_env, write

DRIFTED = DOC.replace("kept words", "drifted words")


def _hook_records(root: Path) -> list[AuditRecord]:
    with AuditLog(root) as log:
        return [r for r in log.page(limit=MAX_PAGE) if r.action == "hook"]


def _head_asks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each git process from now on that asks for HEAD or a revision (``rev-parse``
    but the hook's first, which finds the root, and the object format's, which names
    no revision; ``remote``), its arguments after git's own options."""
    calls: list[str] = []
    real: Callable[..., Any] = subprocess.run

    def run(args: Any, *rest: Any, **kwargs: Any) -> Any:
        argv = [str(a) for a in args] if isinstance(args, list | tuple) else []
        for verb in ("rev-parse", "remote"):
            asks = not {"--show-toplevel", "--show-object-format"} & set(argv)
            if argv[:1] == ["git"] and verb in argv and asks:
                calls.append(" ".join(argv[argv.index(verb) :]))
        return real(args, *rest, **kwargs)

    monkeypatch.setattr(subprocess, "run", run)
    return calls


def test_hook_refused_audit_head_asked_once_detected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = two_bound_files(tmp_path)
    write(root, "a.md", DRIFTED)
    git(root, "add", "a.md")
    monkeypatch.chdir(root)
    asks = _head_asks(monkeypatch)
    assert hook(["pre-commit"]) == 1
    assert "drifted a.md#Title/Keep" in capsys.readouterr().err
    assert asks == [], asks  # HEAD asked once: in the root's rev-parse (committed.py)
    (rec,) = _hook_records(root)
    assert rec.head == git(root, "rev-parse", "HEAD")


def test_hook_refused_first_commit_audit_head_null_asked_once_detected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hostile: a first commit (no HEAD: a branch with no commit yet, the index
    holding custody) refused; its record holds no commit, and HEAD was asked of git
    once, with the root (it was asked twice more: the custody key, then the commit
    alone), never how to fetch it."""
    root = two_bound_files(tmp_path)
    git(root, "checkout", "-q", "--orphan", "fresh")  # the index kept, HEAD unborn
    write(root, "a.md", DRIFTED)
    git(root, "add", "a.md")
    monkeypatch.chdir(root)
    asks = _head_asks(monkeypatch)
    assert hook(["pre-commit"]) == 1
    assert "a.md#Title/Keep" in capsys.readouterr().err
    assert asks == [], asks  # HEAD asked once: in the root's rev-parse (committed.py)
    (rec,) = _hook_records(root)
    assert rec.head is None


def test_hook_refused_merge_and_amend_audit_head_is_head_detected(tmp_path: Path) -> None:
    """A merge's commit (its conflict resolved: pre-commit runs, HEAD the branch
    merged into) and ``git commit --amend`` (HEAD the commit amended), each refused
    by git's own run of the installed hook: the record names HEAD as git does."""
    root = two_bound_files(tmp_path)
    githooks.install(root)
    git(root, "checkout", "-q", "-b", "side")
    write(root, "c.md", "side\n")
    commit_all(root, "side")
    git(root, "checkout", "-q", "-")
    write(root, "c.md", "main\n")
    commit_all(root, "main")
    merging = subprocess.run(["git", "merge", "-q", "side"], cwd=root, capture_output=True)
    assert merging.returncode != 0  # c.md conflicts: the merge's commit is made by hand
    write(root, "c.md", "both\n")
    write(root, "a.md", DRIFTED)
    git(root, "add", "c.md", "a.md")
    done = subprocess.run(["git", "commit", "-q", "--no-edit"], cwd=root, capture_output=True)
    assert done.returncode == 1, done.stderr
    merged_into = git(root, "rev-parse", "HEAD")
    assert [r.head for r in _hook_records(root)] == [merged_into]
    git(root, "merge", "--abort")  # the drift with it: made again for the amend
    write(root, "a.md", DRIFTED)
    git(root, "add", "a.md")
    amending = ["git", "commit", "-q", "--amend", "-m", "x"]
    amend = subprocess.run(amending, cwd=root, capture_output=True)
    assert amend.returncode == 1, amend.stderr
    assert [r.head for r in _hook_records(root)] == [merged_into, merged_into]


def test_hook_refused_audit_reader_never_imported_accepted(tmp_path: Path) -> None:
    """A refused hook appends its record and reads none: the record's reader
    (custody/auditrecord.py, its dataclass and JSON checks) was imported all the same."""
    root = two_bound_files(tmp_path)
    write(root, "a.md", DRIFTED)
    git(root, "add", "a.md")
    code = (
        "import sys; from forest_files.doors.hooks.run import main; code = main(['pre-commit']); "
        "print(code, 'forest_files.custody.auditrecord' in sys.modules)"
    )
    env = {**os.environ, **git_env()}
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
    )
    assert "drifted a.md#Title/Keep" in proc.stderr, proc.stderr
    assert proc.stdout.split() == ["1", "False"], proc.stdout
    (rec,) = _hook_records(root)
    assert rec.head == git(root, "rev-parse", "HEAD")


def test_hook_refused_never_imports_store_base_or_shutil_accepted(tmp_path: Path) -> None:
    """Hostile: a refused hook appends one audit record, stamped by the clock alone; the
    stamp came from the store's insert module (store/base.py), which pulled in
    ``secrets``, ``random``, store/rows.py and store/lookup.py, and the old-layout
    mover (custody/relocate.py) imported ``shutil`` for a copy it makes only when a
    move across file systems fails: none of them used by the hook (the first run after
    a clone builds the staged ledger's view, which inserts rows: the second is counted)."""
    root = two_bound_files(tmp_path)
    write(root, "a.md", DRIFTED)
    git(root, "add", "a.md")
    unused = (
        "shutil",
        "secrets",
        "forest_files.store.base",
        "forest_files.store.rows",
        "forest_files.store.lookup",
    )
    code = (
        "import sys; from forest_files.doors.hooks.run import main; code = main(['pre-commit']); "
        f"print(code, sorted(m for m in {unused!r} if m in sys.modules))"
    )
    env = {**os.environ, **git_env()}
    for _ in range(2):  # the second run: the staged ledger's view built by the first
        proc = subprocess.run(
            [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
        )
    assert "drifted a.md#Title/Keep" in proc.stderr, proc.stderr
    assert proc.stdout.strip() == "1 []", proc.stdout
    rec = _hook_records(root)[0]
    assert rec.head == git(root, "rev-parse", "HEAD")
    assert rec.at.endswith("Z") and len(rec.at) == len("2026-01-01T00:00:00.000Z"), rec.at


def _asks_of_head(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each git process from now on that names HEAD (but the hook's first, which finds
    the root), its arguments after git's own options."""
    calls: list[str] = []
    real: Callable[..., Any] = subprocess.run

    def run(args: Any, *rest: Any, **kwargs: Any) -> Any:
        argv = [str(a) for a in args] if isinstance(args, list | tuple) else []
        named = any(a.startswith("HEAD") for a in argv) and "--show-toplevel" not in argv
        if argv[:1] == ["git"] and named:  # not the hook's first, which finds the root
            at = 1
            while argv[at].startswith("-"):  # git's own options, ``-c`` with its value
                at += 2 if argv[at] == "-c" else 1
            calls.append(" ".join(argv[at:]))
        return real(args, *rest, **kwargs)

    monkeypatch.setattr(subprocess, "run", run)
    return calls


def test_hook_commit_named_files_head_asked_once_detected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hostile: ``git commit a.md`` refused (git judges a temporary index of HEAD and the
    named files, ``GIT_INDEX_FILE``): the named files' change (doors/hooks/commit_index.py)
    asked HEAD of git again, though the hook held it."""
    root = two_bound_files(tmp_path)
    write(root, "a.md", DRIFTED)
    git(root, "add", "a.md")
    named = root / ".git" / "next-index"
    named.write_bytes((root / ".git" / "index").read_bytes())
    monkeypatch.setenv("GIT_INDEX_FILE", str(named))
    monkeypatch.chdir(root)
    assert hook(["pre-commit"]) == 1  # the view built, HEAD's custody key cached: counted next
    capsys.readouterr()
    asks = _asks_of_head(monkeypatch)
    assert hook(["pre-commit"]) == 1
    err = capsys.readouterr().err
    assert "drifted a.md#Title/Keep" in err and "git commit" in err, err
    assert asks == [], asks  # HEAD asked once: in the root's rev-parse (committed.py)


def test_hook_ledger_staged_heading_renamed_head_asked_once_detected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hostile: a commit staging the ledger (a supersede of b.md) and a bound heading of
    a.md renamed: the search for where the gone section stands lists the index's change
    (check/move_search.py), which asked HEAD of git again, though the hook held it."""
    from tests.helpers.custody import supersede_as_it_stands

    root = two_bound_files(tmp_path)
    write(root, "b.md", DOC.replace("kept", "second").replace("second words", "edited words"))
    supersede_as_it_stands(root, "b.md#Keep")
    git(root, "add", "--", ".forest/ledger", "b.md")
    write(root, "a.md", DOC.replace("## Keep", "## Kept"))
    git(root, "add", "a.md")
    monkeypatch.chdir(root)
    assert hook(["pre-commit"]) == 1  # the staged ledger's view built: counted next
    capsys.readouterr()
    asks = _asks_of_head(monkeypatch)
    assert hook(["pre-commit"]) == 1
    assert "a.md#Title/Keep" in capsys.readouterr().err
    assert asks == [], asks  # HEAD asked once: in the root's rev-parse (committed.py)
