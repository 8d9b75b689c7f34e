"""Routes without dead ends at the doors: the hook's headline for a pure move, the
ledger staged by every route that records an act, a sparse checkout's missing file,
``forest log`` keeping retired chains and naming every act, ``forest diff FILE``."""

from __future__ import annotations

from pathlib import Path

from forest_files.check.staged import judge_staged
from forest_files.check.text import hook_refusal
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.git import pasted as shell
from tests.helpers.template import copied_from

DOC = "# Lore\n\n## Sea\n\nthe sea is grey\n\n## Land\n\nthe land is green\n"


def _build(base: Path) -> Path:
    root = make_repo(base)
    ok(root, "init")
    write(root, "lore/world.md", DOC)
    write(root, "top.md", "# Top\n\ntop text\n")
    commit_all(root, "init")
    ok(root, "adopt", "lore/world.md#Lore/Sea", "lore/world.md#Lore/Land", "--words", "First")
    ok(root, "adopt", "top.md", "--words", "Whole file")
    commit_all(root, "adopt")
    return root


repo = copied_from(_build)


def test_hook_pure_git_mv_headline_says_moved_detected(repo: Path) -> None:
    git(repo, "mv", "top.md", "kept.md")
    lines = hook_refusal(judge_staged(repo))
    assert "moved" in lines[0] and "diverge" not in lines[0]
    records = [ln for ln in lines if ln.startswith("  ") and ": forest " in ln]
    assert records and all("&& git add -- .forest/ledger" in ln for ln in records)


def test_hook_retire_route_stages_the_ledger_pasted_accepted(repo: Path) -> None:
    """The hook's retire route ends with the `git add` the commit needs: pasted (words
    filled in), the very next hook run lets the commit through."""
    git(repo, "rm", "-q", "top.md")
    lines = hook_refusal(judge_staged(repo))
    (retire,) = [ln for ln in lines if ln.strip().startswith("or end the binding: ")]
    command = retire.split(": ", 1)[1].replace("'…'", "'Gone from the repository'")
    assert command.endswith("&& git add -- .forest/ledger")
    done = shell(repo, command)
    assert done.returncode == 0, done.stderr
    assert "commit it: git add -- .forest/ledger" in done.stdout
    assert judge_staged(repo).ok


def test_sparse_checkout_missing_file_route_adds_it_pasted_accepted(repo: Path) -> None:
    """`git checkout -- PATH` fails for a file the sparse set leaves out; the route
    brings its directory into the set."""
    git(repo, "update-index", "-q", "--refresh")  # a copy's new mtimes are no edits
    git(repo, "sparse-checkout", "set", "--cone", ".forest")
    assert not (repo / "lore").exists() and (repo / "top.md").exists()
    gone = [f for f in findings(repo) if f["kind"] == "missing"]
    assert [f["selector"] for f in gone] == ["lore/world.md#Lore/Land", "lore/world.md#Lore/Sea"]
    first = gone[0]["routes"][0]
    assert first["label"] == "bring it into the sparse checkout"
    assert first["command"] == "git sparse-checkout add -- lore"
    assert shell(repo, first["command"]).returncode == 0
    assert {f["kind"] for f in findings(repo)} == {"clean"}


def test_log_keeps_retired_chain_and_names_every_act_accepted(repo: Path) -> None:
    write(repo, "lore/world.md", DOC.replace("is grey", "is blue"))
    ok(repo, "supersede", "lore/world.md#Sea", "--words", "The sea turned blue")
    ok(repo, "retire", "lore/world.md#Land", "--words", "The land sank")
    chain = ok(repo, "log", "lore/world.md#Land").stdout.splitlines()
    assert chain[0] == "lore/world.md#Lore/Land (retired)"
    assert "retired" in chain[-1] and "The land sank" in chain[-1]
    acts = ok(repo, "log").stdout.splitlines()
    supersede = [ln for ln in acts if " supersede " in ln]
    retire = [ln for ln in acts if " retire " in ln]
    assert supersede and "lore/world.md#Lore/Sea" in supersede[0]
    assert "“The sea turned blue”" in supersede[0]
    assert retire and "lore/world.md#Lore/Land" in retire[0] and "“The land sank”" in retire[0]


def test_diff_file_shows_every_binding_accepted(repo: Path) -> None:
    write(repo, "lore/world.md", DOC.replace("is grey", "is blue"))
    shown = ok(repo, "diff", "lore/world.md").stdout
    assert "drifted lore/world.md#Lore/Sea" in shown and "+the sea is blue" in shown
    assert "clean lore/world.md#Lore/Land" in shown
    refused = forest(repo, "diff", "lore/nothing.md")
    assert refused.exit_code == 1 and "no binding in this file" in refused.stderr
