"""forest.toml gone while the ledger stands: every door names the way back, and
``forest init`` never starts another project beside it (custody/lost_config.py).

Real repositories: forest.toml removed by a commit made with ``--no-verify`` (or
only from the working tree, or never committed); the printed command is pasted
into bash as a user would, and a refused ``forest init`` leaves every file as it
found it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from forest_files.custody.config import load_config
from tests.helpers.cli import forest
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, pasted, write

DOC = "# Doc\n\n## Rules\n\nCanon as agreed.\n"


def _tree(root: Path) -> dict[str, str]:
    """Every file outside .git with the SHA-256 of its bytes (links by their target)."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == ".git" or rel.startswith(".git/"):
            continue
        if path.is_symlink():
            out[rel] = "-> " + str(path.readlink())
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[rel] = "dir"
    return out


def _route(text: str) -> str:
    """The command between the backticks after ``put it back with``."""
    found = re.search(r"put it back with `([^`]+)`", text)
    assert found, text
    return found.group(1)


@pytest.fixture
def dropped(tmp_path: Path) -> tuple[Path, str]:
    """doc.md#Rules adopted and committed, then forest.toml removed by a commit that
    skipped the hook; (the repository, forest.toml's bytes as they were)."""
    repo = make_repo(tmp_path)
    write(repo, "doc.md", DOC)
    init_and_adopt(repo, ["doc.md#Rules"], words="Canon as agreed")
    commit_all(repo, "adopt")
    config = (repo / "forest.toml").read_text(encoding="utf-8")
    git(repo, "rm", "-q", "forest.toml")
    git(repo, "commit", "-q", "--no-verify", "-m", "drop forest.toml")
    return repo, config


def test_check_config_lost_names_checkout_not_init(dropped: tuple[Path, str]) -> None:
    repo, config = dropped
    result = forest(repo, "check")
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: ") and "holds custody" in line, line
    assert "run `forest init`" not in line
    dropper = git(repo, "rev-parse", "HEAD")
    assert _route(line) == f"git checkout '{dropper}~1' -- forest.toml"
    assert pasted(repo, _route(line)).returncode == 0
    assert (repo / "forest.toml").read_text(encoding="utf-8") == config
    assert forest(repo, "check").exit_code == 0


@pytest.mark.slow  # six `forest` processes and a pasted checkout
def test_branch_that_removed_all_custody_names_the_commit_not_init_pasted_recovers(
    tmp_path: Path,
) -> None:
    """A branch commit made with ``--no-verify`` removed forest.toml and the whole
    ledger: no ledger stands beside the missing file, so the door used to say "run
    `forest init`", which starts another project. While a branch (here ``main``)
    still holds forest.toml, every door names that commit and the checkout of its
    parent's custody, and ``forest init`` there is refused with it (nothing written);
    pasted from a subdirectory, the check is clean again. A repository no branch of
    which ever held custody still gets ``forest init``."""
    repo = make_repo(tmp_path)
    write(repo, "doc.md", DOC)
    init_and_adopt(repo, ["doc.md#Rules"], words="Canon as agreed")
    commit_all(repo, "adopt")
    before = _tree(repo)
    git(repo, "checkout", "-q", "-b", "drop")
    git(repo, "rm", "-r", "-q", "forest.toml", ".forest")
    git(repo, "commit", "-q", "--no-verify", "-m", "drop custody")
    dropper = git(repo, "rev-parse", "HEAD")[:12]
    (repo / "sub").mkdir()
    for command in ("forest check", "forest status"):
        result = pasted(repo / "sub", command)
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        (line,) = result.stderr.splitlines()
        assert f"commit {dropper} of this branch removed custody" in line, line
        assert "(main still holds forest.toml)" in line and "run `forest init`" not in line
        route = _route(line)
        assert route == f"git -C .. checkout '{dropper}~1' -- forest.toml .forest", route
    # forest init there would start another project: refused with the same way back,
    # nothing written; --project-id starts one deliberately (the refusal names it)
    dropped_tree = _tree(repo)
    result = pasted(repo / "sub", "forest init")
    assert result.returncode != 0 and _route(result.stderr) == route, result.stderr
    assert "start another project deliberately: `forest init --project-id " in result.stderr
    assert _tree(repo) == dropped_tree
    assert pasted(repo / "sub", route).returncode == 0
    assert pasted(repo / "sub", "forest check").returncode == 0
    assert {k: v for k, v in _tree(repo).items() if k != "sub"} == before
    bare = make_repo(tmp_path, "never")
    write(bare, "doc.md", DOC)
    commit_all(bare, "no custody here")
    result = forest(bare, "check")
    assert result.exit_code != 0 and "run `forest init`" in result.stderr, result.output


def test_check_config_deleted_in_worktree_only_names_head(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "doc.md", DOC)
    init_and_adopt(repo, ["doc.md#Rules"])
    commit_all(repo, "adopt")
    (repo / "forest.toml").unlink()
    result = forest(repo, "check")
    assert result.exit_code == 2
    assert _route(result.stderr) == "git checkout HEAD -- forest.toml"
    assert pasted(repo, _route(result.stderr)).returncode == 0
    assert forest(repo, "check").exit_code == 0


def test_ci_head_without_config_names_the_commit_that_removed_it(
    dropped: tuple[Path, str],
) -> None:
    repo, _ = dropped
    dropper = git(repo, "rev-parse", "HEAD")
    result = forest(repo, "ci")  # HEAD alone: the refusal names the way back
    assert result.exit_code == 1, result.output
    assert "its ledger is there without it" in result.stderr, result.stderr
    assert "forest init" not in result.stderr
    assert _route(result.stderr) == f"git checkout '{dropper}~1' -- forest.toml"
    # with a base, the deleting commit is a finding of the range, put back in that
    # commit: one on top would leave it in the range and the gate failing
    result = forest(repo, "ci", "--base", "HEAD~1")
    assert result.exit_code == 1, result.output
    assert f"commit {dropper[:12]} deletes forest.toml" in result.stdout, result.stdout
    parent = git(repo, "rev-parse", "HEAD~1")
    route = f"git checkout {parent} -- forest.toml && git commit --amend --no-edit --allow-empty"
    assert route in result.stdout
    assert pasted(repo, route).returncode == 0
    assert forest(repo, "ci", "--base", "HEAD~1").exit_code == 0


def test_init_beside_ledger_git_still_holds_config_refused_nothing_written(
    dropped: tuple[Path, str],
) -> None:
    repo, config = dropped
    before = _tree(repo)
    result = forest(repo, "init")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "belongs to project 'p'" in line and "authority rules" in line, line
    assert _tree(repo) == before
    assert pasted(repo, _route(line)).returncode == 0
    assert (repo / "forest.toml").read_text(encoding="utf-8") == config


def test_init_other_project_beside_ledger_refused_nothing_written(
    dropped: tuple[Path, str],
) -> None:
    repo, _ = dropped
    before = _tree(repo)
    result = forest(repo, "init", "--project-id", "other")
    assert result.exit_code == 1, result.output
    assert "not 'other'" in result.stderr and "forest init --project-id p" in result.stderr
    assert _tree(repo) == before


def test_init_with_the_ledgers_project_id_accepted(dropped: tuple[Path, str]) -> None:
    repo, _ = dropped
    assert forest(repo, "init", "--project-id", "p").exit_code == 0
    assert load_config(repo).project_id == "p"
    assert forest(repo, "check").exit_code == 0


def test_init_beside_never_committed_ledger_takes_its_project(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "doc.md", DOC)
    commit_all(repo, "doc")
    init_and_adopt(repo, ["doc.md#Rules"])
    (repo / "forest.toml").unlink()
    missing = forest(repo, "check")
    assert missing.exit_code == 2
    assert _route(missing.stderr) == "forest init --project-id p"
    result = forest(repo, "init")
    assert result.exit_code == 0, result.output
    assert "(project p)" in result.stdout
    assert forest(repo, "check").exit_code == 0


def test_init_refused_by_its_first_sync_leaves_every_file(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, ".gitattributes", "*.png binary\n")
    bad = ".forest/ledger/segments/" + "0" * 64 + ".jsonl"
    write(repo, bad, "not an act\n")
    commit_all(repo, "a ledger without forest.toml")
    before = _tree(repo)
    result = forest(repo, "init")
    assert result.exit_code == 3, result.output
    assert _tree(repo) == before
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_check_config_project_id_edited_names_the_checkout_recovers(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "doc.md", DOC)
    init_and_adopt(repo, ["doc.md#Rules"])
    commit_all(repo, "adopt")
    toml = repo / "forest.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('"p"', '"q"'), encoding="utf-8")
    index = repo / ".git" / "forest" / "woods.db"
    before = index.read_bytes()
    for command in ("rebuild", "sync", "check"):  # refused before the index is dropped
        result = forest(repo, command)
        assert result.exit_code == 2, result.output
        (line,) = result.stderr.splitlines()
        assert "[project] id 'q' is not its ledger's 'p'" in line, line
        assert "(git checkout HEAD -- forest.toml)" in line
        assert index.read_bytes() == before
    assert pasted(repo, "git checkout HEAD -- forest.toml").returncode == 0
    assert forest(repo, "rebuild").exit_code == 0
    assert forest(repo, "check").exit_code == 0
