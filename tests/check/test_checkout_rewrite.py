"""A bound file git rewrites as it checks it out: an ``ident`` (or
``working-tree-encoding``) attribute added after the adoption, which adopting
refuses. The blob is unchanged, so the hook and ``forest ci`` pass; after the next
checkout the working file holds git's rewrite (``$Id: <blob> $``) and reads as drift
every time, and a restore alone held only until the next checkout. The drift now
says why, with the ``git check-attr`` that shows the attribute (check/explain.py
``_rewritten``); with the attribute gone, the restore route puts the text back for
good."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git, pasted, write

TEXT = "# Doc\n\nVersion $Id$ of the rules.\n"
SAID = "git rewrites it as it checks it out (`ident`;"


def _checked_out_again(repo: Path) -> None:
    (repo / "a.md").unlink()
    git(repo, "checkout", "--", "a.md")


@pytest.mark.slow  # five `forest` processes and three pasted steps
def test_ident_added_after_adoption_drift_names_the_attribute_pasted_recovers(
    tmp_path: Path,
) -> None:
    repo = adopted_repo(tmp_path, "a.md", TEXT)
    write(repo, ".gitattributes", (repo / ".gitattributes").read_text() + "a.md ident\n")
    commit_all(repo, "ident")
    _checked_out_again(repo)
    assert "$Id: " in (repo / "a.md").read_text()
    (repo / "sub").mkdir()
    found = pasted(repo / "sub", "forest check")
    assert found.returncode == 1 and "drifted a.md" in found.stdout, found.stdout
    (hint,) = [line for line in found.stdout.splitlines() if SAID in line]
    shown = hint.split("`")[3]
    assert shown == "git -C .. check-attr -a -- a.md", hint
    assert "a.md: ident: set" in pasted(repo / "sub", shown).stdout
    # the attribute taken off, the route pasted, both committed: clean, and clean
    # after the next checkout
    rules = (repo / ".gitattributes").read_text().replace("a.md ident\n", "")
    write(repo, ".gitattributes", rules)
    assert pasted(repo / "sub", "forest restore a.md").returncode == 0
    commit_all(repo, "no ident")
    _checked_out_again(repo)
    assert pasted(repo / "sub", "forest check").returncode == 0
    assert (repo / "a.md").read_text() == TEXT


def test_plain_drift_of_a_file_git_does_not_rewrite_no_attribute_hint_detected(
    tmp_path: Path,
) -> None:
    repo = adopted_repo(tmp_path, "a.md", TEXT)
    write(repo, "a.md", TEXT.replace("rules", "new rules"))
    found = pasted(repo, "forest check")
    assert found.returncode == 1 and "drifted a.md" in found.stdout, found.stdout
    assert "rewrites it as it checks it out" not in found.stdout
