"""Custody git holds that the work tree does not show (custody/left_out.py) is refused,
never read as empty. Before: after ``git sparse-checkout set --cone docs`` (``.forest``
left out, git still holding the ledger), ``forest status`` said "no bindings yet" and
``forest check`` "0 binding(s) checked … 0 not clean", exit 0, while the hook judged
the ledger the index holds; with ``--no-cone`` (forest.toml left out too) every door
said "run `forest init`", which starts another project. The same for a ledger deleted
from the work tree, and for skip-worktree set by hand. Each refusal is one line whose
command, pasted, brings custody back; nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import console, forest, kinds, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

BOUND = "canon/c.md"


def _custody(tmp_path: Path) -> Path:
    """``canon/c.md`` bound and committed, with a ``docs`` folder beside it."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, BOUND, "# C\n\n## A\n\ncanon\n")
    write(repo, "docs/d.md", "# D\n")
    commit_all(repo, "start")
    ok(repo, "adopt", BOUND, "--words", "first")
    commit_all(repo, "adopt")
    return repo


def _files(repo: Path) -> dict[str, bytes]:
    """Every byte of the work tree and of the git index."""
    found = {
        str(p.relative_to(repo)): p.read_bytes()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(repo).parts
    }
    found[".git/index"] = (repo / ".git" / "index").read_bytes()
    return found


def _cone(repo: Path) -> None:
    git(repo, "sparse-checkout", "set", "--cone", "docs", "canon")


def _no_cone(repo: Path) -> None:
    git(repo, "sparse-checkout", "set", "--no-cone", "/docs/", "/canon/")


def _hand_set(repo: Path) -> None:
    listed = git(repo, "ls-files", "-z", "--", "forest.toml", ".forest")
    git(repo, "update-index", "-z", "--skip-worktree", "--stdin", stdin=listed.encode())
    (repo / "forest.toml").unlink()
    for path in sorted((repo / ".forest").rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    (repo / ".forest").rmdir()


def _deleted(repo: Path) -> None:
    for path in sorted((repo / ".forest").rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    (repo / ".forest").rmdir()


LAYOUTS = {"cone": _cone, "no-cone": _no_cone, "skip-worktree": _hand_set, "deleted": _deleted}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("door", [("check",), ("status",), ("check", "--json")])
def test_worktree_door_custody_left_out_refused(
    tmp_path: Path, layout: str, door: tuple[str, ...]
) -> None:
    repo = _custody(tmp_path)
    LAYOUTS[layout](repo)
    assert not (repo / ".forest" / "ledger").exists() and (repo / BOUND).exists()
    before = _files(repo)
    done = console(repo, *door)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: ") and "forest init" not in line, line
    assert "git holds" in line, line
    assert _files(repo) == before
    route = line.rsplit("`", 2)[1]
    brought = pasted(repo, route)
    assert brought.returncode == 0, (route, brought.stderr)
    assert (repo / ".forest" / "ledger").is_dir() and (repo / "forest.toml").is_file()
    assert kinds(repo) == ["clean"] and git(repo, "status", "--porcelain") == ""


def test_adopt_ledger_left_out_by_sparse_checkout_refused(tmp_path: Path) -> None:
    """An act would write the ledger outside the sparse set, where git never sees it."""
    repo = _custody(tmp_path)
    _cone(repo)
    write(repo, "docs/e.md", "# E\n")
    before = _files(repo)
    done = forest(repo, "adopt", "docs/e.md", "--words", "more")
    assert done.exit_code == 1, done.output
    assert "git sparse-checkout add -- .forest" in done.stderr, done.stderr
    assert _files(repo) == before and not (repo / ".forest").exists()


def test_init_custody_left_out_by_sparse_checkout_refused(tmp_path: Path) -> None:
    """Non-cone mode leaves forest.toml out too: ``forest init`` would start another
    project, its files outside the sparse set."""
    repo = _custody(tmp_path)
    _no_cone(repo)
    before = _files(repo)
    done = forest(repo, "init")
    assert done.exit_code == 1, done.output
    assert "git sparse-checkout add -- /.forest/ /forest.toml" in done.stderr, done.stderr
    assert _files(repo) == before and not (repo / "forest.toml").exists()


def test_staged_check_ledger_left_out_by_sparse_checkout_judged(tmp_path: Path) -> None:
    """The index still holds the ledger: ``check --staged`` (the hook's check) judges it."""
    repo = _custody(tmp_path)
    _cone(repo)
    write(repo, BOUND, "# C\n\n## A\n\nedited\n")
    git(repo, "add", "--", BOUND)
    done = console(repo, "check", "--staged")
    assert done.returncode == 1 and "drifted canon/c.md" in done.stdout, done.stdout


def test_no_custody_anywhere_still_names_init(tmp_path: Path) -> None:
    """Nothing held by git either: the step is still ``forest init``."""
    repo = make_repo(tmp_path)
    write(repo, "a.md", "a\n")
    commit_all(repo, "start")
    done = console(repo, "check")
    assert done.returncode != 0 and "forest init" in done.stderr, done.stderr


def test_hooks_ledger_left_out_by_sparse_checkout_judge_the_index(tmp_path: Path) -> None:
    """The pre-commit hook judges the ledger the index holds (drift refused) and lets
    another commit through; a sync hook (post-checkout) says custody is left out with
    its own route, not ``forest sync`` (which the same refusal answers)."""
    repo = _custody(tmp_path)
    ok(repo, "hooks", "install")
    _cone(repo)
    write(repo, BOUND, "# C\n\n## A\n\nedited\n")
    refused = pasted(repo, f"git commit -q -m drift -- {BOUND}")
    assert refused.returncode != 0 and "drifted canon/c.md" in refused.stderr, refused.stderr
    git(repo, "checkout", "-q", "--", BOUND)
    write(repo, "docs/d.md", "# D\n\nmore\n")
    done = pasted(repo, "git commit -q -m docs -- docs/d.md")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    done = pasted(repo, "git checkout -q -b other")
    assert done.returncode == 0, done.stderr
    assert "forest sync" not in done.stderr, done.stderr
    assert "git sparse-checkout add -- .forest" in done.stderr, done.stderr


def test_watch_ledger_left_out_by_sparse_checkout_refused(tmp_path: Path) -> None:
    """The watcher's first check would judge no binding at all: it does not start."""
    repo = _custody(tmp_path)
    _cone(repo)
    done = console(repo, "watch")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "git sparse-checkout add -- .forest" in done.stderr, done.stderr
