"""``forest ci --base``: what judging a commit of the range costs in git processes.

A commit that touches no bound path and not the ledger is judged from its key (its
commit and ledger tree, asked for the whole range in one ``cat-file --batch-check``:
the view key through the alias); its tree is never listed. The merge-base is read
from one ``ls-tree`` of its segments and forest.toml, never asked again whether it
is a commit. Counted from git's own trace (``GIT_TRACE``), real processes.

Test: forest_files/gate/history.py (_check_at), forest_files/check/opening_git.py (_commit_key),
forest_files/gate/range.py (check_range), forest_files/gitio/repo.py (merge_base).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from forest_files.gate.ci import run_gate
from forest_files.kernel.errors import ForestError
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.gittrace import git_traced
from tests.helpers.template import reused

ADA = "Ada Lovelace <ada@example.org>"
RANGE = 4


def _build(tmp_path: Path) -> Path:
    path = make_repo(tmp_path, "repo")
    Repository.init(path, project_id="p-calls").close()
    write(path, "forest.toml", '[project]\nid = "p-calls"\n\n[authority]\n"**" = ["' + ADA + '"]\n')
    write(path, "docs/a.md", "# A\n\nBound text.\n")
    result = CliRunner().invoke(
        app,
        ["adopt", "docs/a.md", "--words", "Adopted for the count", "--as", ADA, "-C", str(path)],
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    commit_all(path, "base")
    git(path, "checkout", "-q", "-b", "feature")
    for i in range(RANGE):
        write(path, f"notes/n{i}.txt", f"note {i}\n")
        commit_all(path, f"note {i}")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return reused((__name__, "repo"), tmp_path / "repo", _build)


def _traced(repo: Path, trace: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    with git_traced(monkeypatch, trace):
        report = run_gate(repo, "main")
    assert report.exit_code == 0
    return [line for line in trace.read_text(encoding="utf-8").splitlines() if "git " in line]


def test_ci_untouched_commit_tree_never_listed_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ``ls-tree`` of a range commit that changed no bound path (HEAD aside: its
    bindings are all checked); no ``rev-parse`` of one either: one ``cat-file
    --batch-check`` keys every commit of the range (test_range_keys.py)."""
    commits = git(repo, "rev-list", "main..HEAD").split()
    assert len(commits) == RANGE
    lines = _traced(repo, tmp_path / "trace.txt", monkeypatch)
    head = git(repo, "rev-parse", "HEAD").strip()
    before = [c for c in commits if c != head]
    for commit in before:
        listed = [line for line in lines if commit in line and " ls-tree " in line]
        assert listed == [], listed
    keyed = [line for line in lines if " rev-parse " in line and any(c in line for c in before)]
    assert keyed == []  # the whole range keyed in one cat-file, with its segments


def test_open_custody_unknown_rev_refused(repo: Path) -> None:
    """The one-call key keeps resolve's refusal: a revision naming no commit (or an
    option) is refused, never keyed."""
    from forest_files.check.opening import open_custody
    from forest_files.gitio import UnknownRef

    with pytest.raises(UnknownRef):
        open_custody(repo, "no-such-branch")
    with pytest.raises(ForestError):
        open_custody(repo, "--output=x")
    assert not (repo / "x").exists()


def test_open_custody_names_resolved_commit_accepted(repo: Path) -> None:
    """A symbolic revision is judged as the commit it names, with the same key."""
    from forest_files.check.opening import open_custody

    head = git(repo, "rev-parse", "HEAD").strip()
    with open_custody(repo, "HEAD") as by_name, open_custody(repo, head) as by_id:
        assert by_name.source == by_id.source == head
        assert by_name.view == by_id.view
        assert [b.path for b in by_name.bindings] == ["docs/a.md"]


def test_heads_custody_missing_ledger_or_bad_rev_refused(repo: Path) -> None:
    """The batched key is all or nothing: a commit without forest.toml or ledger, or a
    revision naming nothing, empties it (each commit is then keyed alone); an option
    is refused, never passed to git."""
    from forest_files.custody.viewkey import head_custody, heads_custody

    head = git(repo, "rev-parse", "HEAD").strip()
    base = git(repo, "rev-parse", "main").strip()
    both = heads_custody(repo, [head, base])
    assert both == {head: head_custody(repo, head), base: head_custody(repo, base)}
    git(repo, "rm", "-q", "forest.toml")
    commit_all(repo, "no config")
    bare = git(repo, "rev-parse", "HEAD").strip()
    assert heads_custody(repo, [head, bare]) == {}
    assert head_custody(repo, bare) is None
    assert heads_custody(repo, [head, "no-such-branch"]) == {}
    with pytest.raises(ForestError):
        heads_custody(repo, [head, "--output=x"])
    assert not (repo / "x").exists()


def test_ci_merge_base_asked_once_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gate asks git for merge-base(base, HEAD) once; the range rules reuse it."""
    lines = _traced(repo, tmp_path / "trace.txt", monkeypatch)
    asked = [line for line in lines if " merge-base " in line]
    assert len(asked) == 1, asked


def test_ci_merge_base_read_from_one_listing_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The merge-base ``git merge-base`` named is not asked again whether it is a commit
    (no ``rev-parse`` of it), and its segments and forest.toml come from one ``ls-tree``
    (range.py ``check_range``): three git processes were one ``rev-parse`` and one
    listing each. What is read there is what a listing of each alone gives."""
    from forest_files.custody.sources import config_text_from, segments_at
    from forest_files.gitio import forget_read_objects

    base = git(repo, "merge-base", "main", "HEAD").strip()
    lines = _traced(repo, tmp_path / "trace.txt", monkeypatch)
    named = [line for line in lines if base in line]
    assert [line for line in named if " rev-parse " in line] == [], named
    listed = [line for line in named if " ls-tree " in line]
    assert len(listed) == 1, listed
    assert " .forest/ledger/segments forest.toml" in listed[0], listed
    kept = config_text_from(repo, base), segments_at(repo, base)  # from that listing
    forget_read_objects()
    assert kept == (config_text_from(repo, base), segments_at(repo, base))  # each alone
    assert kept[0] is not None and kept[1].acts


def test_ci_head_resolved_once_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HEAD's commit is asked of git once: the merge-base is taken with the id the gate
    resolved (gitio/repo.py ``resolve_commit`` keeps it), not asked of ``rev-parse``
    again (two processes naming HEAD's commit were one)."""
    from forest_files.gitio import forget_read_objects

    forget_read_objects()  # what another test's gate resolved counts for nothing here
    head = git(repo, "rev-parse", "HEAD").strip()
    lines = _traced(repo, tmp_path / "trace.txt", monkeypatch)
    asked = [
        line
        for line in lines
        if " rev-parse -q --verify " in line
        and ("HEAD^{commit}" in line or f"{head}^{{commit}}" in line)
    ]
    assert len(asked) == 1, asked


def test_ci_head_config_listed_and_read_with_its_ledger_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HEAD's forest.toml is listed in the ``ls-tree`` of HEAD's ledger and its bytes read
    in the ledger's ``cat-file --batch`` (gate/head_faults.py ``verify_head``): the view's
    key and build (viewkey.py, source_config.py) asked git for it again, one ``ls-tree``
    and one ``cat-file --batch`` of their own (two processes fewer)."""
    from forest_files.gitio import forget_read_objects

    forget_read_objects()
    head = git(repo, "rev-parse", "HEAD").strip()
    lines = _traced(repo, tmp_path / "trace.txt", monkeypatch)
    listed = [line for line in lines if " ls-tree " in line and head in line]
    named = [line for line in listed if "forest.toml" in line]
    assert len(named) == 1 and " -- .forest/ledger/ forest.toml" in named[0], listed
    batches = [line for line in lines if line.endswith(" cat-file --batch")]
    # verify's (HEAD's ledger and forest.toml), the range's forest.toml at each commit
    # (config_governance.py); the view's build read HEAD's forest.toml in a third
    assert len(batches) == 2, batches


def test_ci_range_diffed_once_head_included_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What each commit of the range changed, HEAD's too, comes from one ``git diff-tree
    --stdin`` (history.py ``range_diffs``): HEAD's rewrite routes (judged_range.py) asked
    a second one for HEAD against its parents, and the ledger's growth (growth.py) a
    third over ``.forest/ledger`` alone, which now reads its changes from the same."""
    lines = _traced(repo, tmp_path / "trace.txt", monkeypatch)
    diffs = [line for line in lines if " diff-tree " in line]
    assert len(diffs) == 1 and diffs[0].endswith(" --"), diffs
