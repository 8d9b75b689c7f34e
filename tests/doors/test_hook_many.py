"""The hook's refusal when a commit fails many bindings at once (a reorganisation):
at most ``HOOK_SHOWN`` blocks, the rarest kinds first, one line counting the rest
with the command that lists every one (which, pasted, does), then the one route
for the whole commit; the commit changes nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

from forest_files.check.text import HOOK_SHOWN
from forest_files.doors import hooks as githooks
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import copied_from

PARTS = HOOK_SHOWN + 5
MANY = "# Many\n\n" + "".join(f"## Part {k}\n\nWords of part {k}.\n\n" for k in range(PARTS))
ONE = "# One\n\n## Rule\n\nThe rule stands.\n"


def _build(directory: Path) -> Path:
    repo = make_repo(directory)
    ok(repo, "init")
    write(repo, "old/many.md", MANY)
    write(repo, "one.md", ONE)
    commit_all(repo, "files")
    sections = [f"old/many.md#Many/Part {k}" for k in range(PARTS)]
    ok(repo, "adopt", *sections, "one.md#One/Rule", "--words", "Adopted as written")
    commit_all(repo, "adopt")
    githooks.install(repo)
    return repo


repo = copied_from(_build)


def _state(repo: Path) -> tuple[str, ...]:
    return tuple(
        git(repo, *args)
        for args in (("rev-parse", "HEAD"), ("diff",), ("diff", "--cached"), ("status", "-s"))
    )


def _refused(repo: Path, *args: str) -> str:
    before = _state(repo)
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert _state(repo) == before  # nothing staged, committed or edited
    return proc.stderr


def _reorganised(repo: Path) -> None:
    git(repo, "mv", "old", "new")
    write(repo, "one.md", ONE.replace("stands", "bends"))


def _more_line(err: str) -> str:
    (line,) = [ln for ln in err.splitlines() if ln.startswith("… and ")]
    return line


def test_many_findings_hook_shows_rarest_first_counts_rest_lister_pasted_lists_all(
    repo: Path,
) -> None:
    _reorganised(repo)
    git(repo, "add", "one.md")
    err = _refused(repo, "commit", "-m", "reorganise")
    assert f"commit refused — {PARTS + 1} bound section(s) not clean" in err
    heads = [ln for ln in err.splitlines() if ln.startswith(("moved ", "drifted "))]
    assert len(heads) == HOOK_SHOWN
    assert heads[0].startswith("drifted one.md#One/Rule")  # the one drift is not hidden
    more = _more_line(err)
    rest = PARTS + 1 - HOOK_SHOWN
    assert more == f"… and {rest} more ({rest} moved): forest check --staged lists every one"
    assert err.rstrip().splitlines()[-1].startswith("or record the whole commit at once")
    command = more.split(": ", 1)[1].removesuffix(" lists every one")
    listed = pasted(repo, command)
    assert listed.returncode == 1, listed.stderr
    out = listed.stdout
    assert out.count("\nmoved ") + out.startswith("moved ") == PARTS, out
    assert "drifted one.md#One/Rule" in out


def test_many_findings_commit_all_lister_is_the_working_tree_pasted_lists_all(
    repo: Path,
) -> None:
    """``git commit -a`` staged the drift into the index's lock, gone once refused:
    ``forest check --staged`` would not show it, so the line names ``forest check``."""
    _reorganised(repo)  # the drift is not staged: only -a takes it
    err = _refused(repo, "commit", "-a", "-m", "reorganise")
    more = _more_line(err)
    assert more.endswith(": forest check lists every one"), more
    listed = pasted(repo, "forest check")
    assert listed.returncode == 1, listed.stderr
    assert "drifted one.md#One/Rule" in listed.stdout
    assert listed.stdout.count("moved old/many.md#Many/Part ") == PARTS


def test_few_findings_hook_prints_every_block_no_count_line(repo: Path) -> None:
    write(repo, "one.md", ONE.replace("stands", "bends"))
    git(repo, "add", "one.md")
    err = _refused(repo, "commit", "-m", "drift")
    assert "drifted one.md#One/Rule" in err
    assert not [ln for ln in err.splitlines() if ln.startswith("… and ")]
