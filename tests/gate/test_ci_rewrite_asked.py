"""``forest ci``: git's attributes asked only where a committed rule can rewrite a file.

``forest init``'s own ``.gitattributes`` line reaches every bound path but only unsets
attributes; before, every ``forest ci`` still asked git (a throwaway git directory,
``check-attr`` of every bound path) for HEAD, and again for each commit of the range
that touched a ``.gitattributes``. Now the gate reads the words of the
``.gitattributes`` above a bound file first (check/checkout_rewrite.py ``asked_paths``),
at HEAD and at each such commit, and asks git only when one can set ``ident``,
``working-tree-encoding`` or a ``filter``. Counted from git's own trace.

Test: forest_files/gate/judged_range.py (judge), forest_files/gate/history.py (_check_at).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.gate.ci import run_gate
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git, write
from tests.helpers.gittrace import git_traced
from tests.helpers.template import reused

KIND = "rewritten-on-checkout"


def _build(tmp_path: Path) -> Path:
    repo = adopted_repo(tmp_path, "docs/canon.md", "# Canon\n\nVersion $Id$ of the rules.\n")
    git(repo, "checkout", "-q", "-b", "feat")
    return repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """docs/canon.md adopted on main (init's .gitattributes only), branch feat checked out."""
    return reused((__name__, "repo"), tmp_path / "repo", _build)


def _append(repo: Path, where: str, line: str) -> None:
    old = (repo / where).read_text() if (repo / where).exists() else ""
    write(repo, where, old + line + "\n")


def _gate(repo: Path, trace: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    """The kinds of the run's failed findings, and how many ``check-attr`` git ran."""
    with git_traced(monkeypatch, trace):
        report = run_gate(repo, "main")
    failed = [r for r in (*report.check.items, *report.check.extra) if r.failed]
    lines = trace.read_text(encoding="utf-8").splitlines()
    return [r.kind for r in failed], sum(" check-attr " in line for line in lines)


def test_ci_init_rules_only_no_attributes_asked_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HEAD holding init's line alone, and a commit of the range adding a line that
    rewrites nothing (``*.png binary``, a ``-ident`` for the bound file): clean, and git
    is asked no attributes (before: a ``check-attr`` for HEAD and one for that commit)."""
    assert (repo / ".gitattributes").is_file()  # init's line reaches every bound path
    _append(repo, ".gitattributes", "*.png binary")
    _append(repo, "docs/.gitattributes", "canon.md -ident text eol=lf")
    commit_all(repo, "harmless rules")
    write(repo, "notes.md", "later\n")
    commit_all(repo, "later")
    kinds, asked = _gate(repo, tmp_path / "trace.txt", monkeypatch)
    assert kinds == []
    assert asked == 0


@pytest.mark.parametrize(
    "rules",
    [
        ((".gitattributes", "docs/canon.md ident"),),
        ((".gitattributes", "[attr]stamped ident"), ("docs/.gitattributes", "canon.md stamped")),
        ((".gitattributes", "docs/*.md filter=lfs"),),
    ],
)
def test_ci_committed_rewriting_rule_still_detected(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: tuple[tuple[str, str]]
) -> None:
    """A committed rule that rewrites the bound file (by name, through the top's macro
    used in docs/, by a glob's filter), past the hook and under a later commit: the gate
    still asks git and reports it, once, brought by the commit that added it."""
    for where, line in rules:
        _append(repo, where, line)
    brought = commit_all(repo, "rewriting rule")
    write(repo, "notes.md", "later\n")
    commit_all(repo, "later")
    kinds, asked = _gate(repo, tmp_path / "trace.txt", monkeypatch)
    assert kinds == [KIND]
    assert asked > 0
    report = run_gate(repo, "main")
    (found,) = [r for r in report.check.extra if r.kind == KIND]
    assert found.introduced == brought


def test_ci_range_unset_removed_below_an_unchanged_rule_detected(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The top's ``ident`` rule for the bound file held off by ``docs/.gitattributes``
    (on main, past the hook); the range deletes that ``-ident`` line and puts it back:
    the commit that deleted it is still judged (its changed file says nothing that
    rewrites, the unchanged top's rule does) and the finding names it."""
    git(repo, "checkout", "-q", "main")
    _append(repo, ".gitattributes", "docs/canon.md ident")
    _append(repo, "docs/.gitattributes", "canon.md -ident")
    commit_all(repo, "held off")
    git(repo, "checkout", "-q", "-B", "feat")
    write(repo, "docs/.gitattributes", "# none\n")
    dropped = commit_all(repo, "unset dropped")
    write(repo, "docs/.gitattributes", "canon.md -ident\n")
    commit_all(repo, "unset back")
    kinds, _ = _gate(repo, tmp_path / "trace.txt", monkeypatch)
    assert kinds == [KIND]
    (found,) = [r for r in run_gate(repo, "main").check.extra if r.kind == KIND]
    assert found.commit == dropped
