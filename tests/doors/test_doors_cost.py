"""What the light doors cost, counted on the console script a user runs (``forest``,
doors/entry.py) in a real process: the git processes it starts (git's own trace,
``GIT_TRACE``) and the modules it imports (``python -X importtime``). No timing is
asserted; the work is counted, and the output is checked unchanged.

Test: forest_files/check/staged.py, forest_files/check/path.py, forest_files/doors/faststatus.py
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.helpers.custody import adopted_repo, init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.gittrace import traced_forest
from tests.helpers.state import local_state


class Run:
    def __init__(self, stdout: str, gits: list[str], imported: set[str]) -> None:
        self.stdout = stdout
        self.gits = gits  # each git command line the door ran
        self.imported = imported


def door(repo: Path, *args: str) -> Run:
    """``forest ARGS`` as its own process in ``repo``, traced."""
    done, gits = traced_forest(repo, *args, python=("-X", "importtime"))
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {x.split("|")[-1].strip() for x in done.stderr.splitlines() if "|" in x}
    return Run(done.stdout, gits, imported)


@pytest.fixture
def staged_unbound(tmp_path: Path) -> Path:
    """A bound section committed, an unbound file staged, and HEAD judged clean by a
    full ``forest check --staged`` (judged.py)."""
    repo = adopted_repo(tmp_path, "f.md", "# A\n\nwords\n", "f.md#A")
    write(repo, "notes.txt", "an unbound file\n")
    git(repo, "add", "notes.txt")
    full = door(repo, "check", "--staged")
    assert "1 binding(s) checked against the git index:" in full.stdout
    door(repo, "check", "--staged")  # the first quick one notes HEAD's ledger tree (viewkey.py)
    return repo


def test_staged_unbound_file_content_never_listed_accepted(staged_unbound: Path) -> None:
    """A staged change the ledger binds nothing of: no binding is judged, so the
    staged file is never listed from the index (``git ls-files``) nor its blob read."""
    quick = door(staged_unbound, "check", "--staged")
    assert quick.stdout == (
        "0 binding(s) checked against the git index (the staged change; HEAD judged clean):"
        " 0 not clean\n"
    )
    assert not [g for g in quick.gits if g.startswith(("git ls-files", "git cat-file"))], quick.gits
    assert "forest_files.custody.content_git" not in quick.imported


def test_staged_unbound_file_imports_no_routes_accepted(staged_unbound: Path) -> None:
    """Nothing found, nothing explained: the routes' modules (explain.py and all it
    imports) and ``dataclasses`` (with ``inspect``, ``ast``, ``dis``) stay unloaded."""
    quick = door(staged_unbound, "check", "--staged")
    assert "HEAD judged clean" in quick.stdout
    assert "forest_files.check.staged" in quick.imported
    heavy = {"dataclasses", "inspect", "forest_files.check.explain", "forest_files.check.finding"}
    assert not heavy & quick.imported, heavy & quick.imported


def test_warm_status_json_unpacks_no_binding_and_builds_no_finding_accepted(
    tmp_path: Path,
) -> None:
    """``forest status --json`` of a remembered clean verdict reads the binding map once,
    into plain rows: no ``Binding`` unpacked a second time (open_custody), no ``Finding``
    built (the finding model's dataclass and ``dataclasses`` stay unloaded), and its
    output is the judged run's, byte for byte."""
    repo = make_repo(tmp_path)
    write(repo, "f.md", "# A\n\nwords\n\n# B\n\nmore\n")
    init_and_adopt(repo, ["f.md#A", "f.md#B"])
    commit_all(repo, "adopt")
    door(repo, "check")  # judges, and remembers the clean verdict
    warm = door(repo, "status", "--json")
    heavy = {
        "dataclasses",
        "forest_files.check.finding",
        "forest_files.check.engine",
        "forest_files.custody.bindings",
        "forest_files.check.path",
    }
    assert not heavy & warm.imported, heavy & warm.imported
    os.utime(repo / "f.md", ns=(1, 1))  # a bound file's stat changed: the verdict is judged
    judged = door(repo, "status", "--json")
    assert "forest_files.check.path" in judged.imported
    assert judged.stdout == warm.stdout
    assert '"summary": "2 binding(s) checked against the working tree: 0 not clean"' in warm.stdout


def test_cold_staged_check_lists_forest_toml_once_accepted(tmp_path: Path) -> None:
    """A full ``forest check --staged`` with no view of the staged ledger yet (a fresh
    clone, or caches removed) reads forest.toml from the index once: the view it
    builds takes the config the check read (no ``git ls-files -- forest.toml`` of its
    own: it is taken from the index's one listing, check/staged_listing.py; it took
    three: twice in the build, once for the required targets, then one)."""
    repo = adopted_repo(tmp_path, "f.md", "# A\n\nwords\n", "f.md#A")
    write(repo, "f.md", "# B\n\nnew words\n\n# A\n\nwords\n")  # a bound file: judged
    git(repo, "add", "f.md")
    shutil.rmtree(local_state(repo) / "views", ignore_errors=True)
    shutil.rmtree(local_state(repo) / "cache", ignore_errors=True)
    cold = door(repo, "check", "--staged")
    assert cold.stdout == "1 binding(s) checked against the git index: 0 not clean\n"
    config = [g for g in cold.gits if g.startswith("git ls-files") and g.endswith("-- forest.toml")]
    assert config == [], cold.gits


def test_staged_unbound_file_asks_no_contest_of_a_contest_free_ledger_accepted(
    staged_unbound: Path,
) -> None:
    """The hook reports a contest HEAD holds on every commit (check/staged_contests.py);
    of a ledger the sealed view (or the decoded segments) said holds none, that is
    remembered beside the view, so a commit touching no bound path asks nothing more:
    check/contests.py is not loaded and no SQLite view is opened (it cost ~5 ms of
    every commit at 10,000 bindings)."""
    quick = door(staged_unbound, "check", "--staged")
    assert "HEAD judged clean" in quick.stdout
    assert "forest_files.check.staged_contests" in quick.imported
    assert "forest_files.check.contests" not in quick.imported


def test_full_staged_check_bound_file_staged_lists_index_once_accepted(tmp_path: Path) -> None:
    """A full ``forest check --staged`` (HEAD not judged clean: a bound file staged)
    asks HEAD of git once and lists the index once: forest.toml and the view key come
    from that listing and HEAD's alias (check/staged_listing.py), where it resolved HEAD
    twice and listed forest.toml, then the ledger and forest.toml, before the index. The
    staged change (``diff-index``) is asked once, and the report is unchanged."""
    repo = adopted_repo(tmp_path, "f.md", "# A\n\nwords\n\n# B\n\nmore\n", "f.md#A")
    door(repo, "check", "--staged")  # the views and HEAD's alias, as any earlier run leaves
    shutil.rmtree(local_state(repo) / "cache", ignore_errors=True)  # HEAD not judged clean
    write(repo, "f.md", "# A\n\nwords\n\n# B\n\nother\n")  # a bound file, outside its section
    git(repo, "add", "f.md")
    cold = door(repo, "check", "--staged")
    assert cold.stdout == "1 binding(s) checked against the git index: 0 not clean\n"
    heads = [g for g in cold.gits if g.startswith("git rev-parse") and "HEAD" in g]
    listings = [g for g in cold.gits if g.startswith("git ls-files")]
    assert len(heads) == 1, cold.gits
    assert listings == ["git ls-files -s -v -z --full-name"], cold.gits
    assert len([g for g in cold.gits if g.startswith("git diff-index")]) == 1, cold.gits


def test_staged_rules_that_set_no_rewrite_ask_no_attributes_accepted(tmp_path: Path) -> None:
    """A commit staging a ``.gitattributes`` above a bound file (HEAD judged clean: the
    hook's judgement): no attribute is asked of git (no ``check-attr``, no throwaway git
    directory) when no ``.gitattributes`` above the bound file has a word that can set a
    rewrite (before: every bound path under it asked); one that sets ``ident`` is still
    found, and its finding worded as before."""
    repo = adopted_repo(tmp_path, "f.md", "# A\n\nwords\n", "f.md#A")
    door(repo, "check", "--staged")  # HEAD judged clean
    rules = (repo / ".gitattributes").read_text() + "*.png binary\n*.md text eol=lf\n"
    write(repo, ".gitattributes", rules)
    git(repo, "add", ".gitattributes")
    quiet = door(repo, "check", "--staged")
    assert quiet.stdout.endswith("(the staged change; HEAD judged clean): 0 not clean\n")
    assert not [g for g in quiet.gits if "check-attr" in g or "object-format" in g], quiet.gits
    write(repo, ".gitattributes", rules + "f.md ident\n")
    git(repo, "add", ".gitattributes")
    found, _ = traced_forest(repo, "check", "--staged")
    assert found.returncode == 1, found.stderr
    assert found.stdout.startswith(
        "rewritten-on-checkout f.md a rule in .gitattributes makes git rewrite it (`ident`)"
    ), found.stdout
