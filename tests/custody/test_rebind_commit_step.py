"""``forest rebind``'s last line, pasted: the commit it names must carry the files
whose edit moved the section, or the pre-commit hook judges the index (the section
still at its old place) against the new binding and refuses, routing the user to
rebind back (it said ``commit it: git add -- .forest/ledger && git commit``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

METHOD = "    def total(self):\n        return 1\n"


def _repo(tmp_path: Path) -> Path:
    from forest_files.doors import hooks as githooks

    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "src/pay.py", f"class Invoice:\n{METHOD}\n\nclass Other:\n    pass\n")
    write(repo, "a.md", "# A\n\nalpha\n")
    ok(repo, "adopt", "src/pay.py::Invoice.total", "a.md", "--words", "Signed off")
    commit_all(repo, "adopt")
    githooks.install(repo)
    return repo


def _commit_line(repo: Path, *args: str) -> str:
    done = ok(repo, "rebind", *args)
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("commit it")]
    return line


@pytest.mark.slow
def test_rebind_method_moved_unstaged_commit_step_pasted_accepted(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo, "src/pay.py", f"class Invoice:\n    pass\n\n\nclass Other:\n{METHOD}")
    line = _commit_line(repo, "src/pay.py::Invoice.total", "src/pay.py::Other.total")
    assert line == "commit it with the file: git add -- .forest/ledger src/pay.py && git commit"
    done = pasted(repo, line.split(": ", 1)[1] + " -q -m moved")
    assert done.returncode == 0, done.stderr
    assert git(repo, "status", "--porcelain") == ""


@pytest.mark.slow
def test_rebind_file_moved_without_git_mv_commit_step_pasted_accepted(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "a.md").rename(repo / "b.md")  # mv, not git mv: both names wait for git add
    line = _commit_line(repo, "a.md", "b.md")
    assert line == "commit it with the 2 files: git add -- .forest/ledger a.md b.md && git commit"
    done = pasted(repo, line.split(": ", 1)[1] + " -q -m moved")
    assert done.returncode == 0, done.stderr
    assert git(repo, "status", "--porcelain") == ""


def test_rebind_after_git_mv_commit_step_names_only_the_ledger_accepted(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    git(repo, "mv", "a.md", "b.md")  # staged already: nothing more to add
    line = _commit_line(repo, "a.md", "b.md")
    assert line == "commit it: git add -- .forest/ledger && git commit"


def test_rebind_staged_without_its_file_check_staged_names_the_git_add_detected(
    tmp_path: Path,
) -> None:
    """Only the ledger staged after the rebind: the hook's verdict (``check
    --staged``) judges the index, where the method still stands in its old class, and
    its only route rebinds back; it also says the working tree's file is not staged,
    with the ``git add`` that lets the commit through."""
    from tests.helpers.cli import forest

    repo = _repo(tmp_path)
    write(repo, "src/pay.py", f"class Invoice:\n    pass\n\n\nclass Other:\n{METHOD}")
    ok(repo, "rebind", "src/pay.py::Invoice.total", "src/pay.py::Other.total")
    git(repo, "add", "--", ".forest/ledger")
    refused = forest(repo, "check", "--staged")
    assert refused.exit_code == 1
    assert "not staged" in refused.stdout and "`git add -- src/pay.py`" in refused.stdout
    assert "acts recorded in the working tree" not in refused.stdout  # the ledger is staged
    git(repo, "add", "--", "src/pay.py")
    assert forest(repo, "check", "--staged").exit_code == 0


@pytest.mark.slow
def test_rebind_ledger_not_staged_hook_names_the_ledger_add_detected(tmp_path: Path) -> None:
    """``git mv``, ``forest rebind``, then ``git commit`` without staging the ledger: the
    hook's route rebinds again, which the working tree's ledger refuses ("no binding"),
    so pasted it fails; a hint names the ``git add -- .forest/ledger`` that lets the
    commit through."""
    from tests.helpers.cli import forest

    repo = _repo(tmp_path)
    git(repo, "mv", "a.md", "b.md")
    hint = "acts recorded in the working tree are not staged"
    ok(repo, "rebind", "a.md", "b.md")
    refused = forest(repo, "check", "--staged")
    assert refused.exit_code == 1
    (line,) = [ln for ln in refused.stdout.splitlines() if hint in ln]
    assert line.endswith("`git add -- .forest/ledger`"), line
    assert forest(repo, "rebind", "a.md", "b.md").exit_code == 1  # the route, pasted
    git(repo, "add", "--", ".forest/ledger")
    assert forest(repo, "check", "--staged").exit_code == 0
