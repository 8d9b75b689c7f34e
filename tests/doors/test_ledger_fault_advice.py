"""A damaged ledger's one line names the command that shows the damage: ``forest
verify`` for the working tree's ledger, and for a ledger read from git (the staged
ledger of ``check --staged`` and the hook, a commit's of ``check --rev``), where
``forest verify`` reads another ledger and says "ledger ok", the ``git diff`` of the
ledger against the working tree's (doors/boundary.py, custody/viewbuild.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, pasted, write

ADVICE = re.compile(r"`(git [^`]+)` shows how they differ\)$")


def _damaged_segment(root: Path) -> tuple[Path, bytes]:
    """The ledger's one segment, and its bytes as recorded; its file edited."""
    (seg,) = sorted((root / ".forest" / "ledger" / "segments").iterdir())
    good = seg.read_bytes()
    seg.write_bytes(good.replace(b'"path":"a.md"', b'"path":"b.md"', 1))
    assert seg.read_bytes() != good
    return seg, good


def _bound(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", "# A\n\ntext\n")
    init_and_adopt(root, ["a.md"])
    commit_all(root, "adopt")
    return root


def _advice(stderr: str) -> str:
    (line,) = [x for x in stderr.splitlines() if x.startswith("forest:")]
    found = ADVICE.search(line)
    assert found, line
    return found[1]


def test_staged_ledger_damaged_advice_shows_it_detected(tmp_path: Path) -> None:
    root = _bound(tmp_path)
    seg, good = _damaged_segment(root)
    git(root, "add", "--", ".forest/ledger")
    seg.write_bytes(good)  # the working tree's ledger is whole again; the index's is not
    checked = pasted(root, "forest check --staged")
    assert checked.returncode == 3
    assert "in the ledger git's index holds" in checked.stderr
    assert pasted(root, "forest verify").returncode == 0  # what the line advised before
    shown = pasted(root, _advice(checked.stderr))
    assert shown.returncode == 0 and seg.name in shown.stdout
    assert '"path":"b.md"' in shown.stdout  # the damage itself, as the index holds it


def test_commit_ledger_damaged_advice_shows_it_detected(tmp_path: Path) -> None:
    root = _bound(tmp_path)
    seg, good = _damaged_segment(root)
    broken = commit_all(root, "damaged")
    seg.write_bytes(good)
    commit_all(root, "whole again")
    checked = pasted(root, f"forest check --rev {broken}")
    assert checked.returncode == 3
    assert f"in the ledger commit {broken} holds" in checked.stderr
    shown = pasted(root, _advice(checked.stderr))
    assert shown.returncode == 0 and '"path":"b.md"' in shown.stdout


def test_worktree_ledger_damaged_advice_is_verify_detected(tmp_path: Path) -> None:
    root = _bound(tmp_path)
    _damaged_segment(root)
    checked = pasted(root, "forest check")
    assert checked.returncode == 3
    assert "(`forest verify` lists every fault of the ledger)" in checked.stderr
    assert pasted(root, "forest verify").returncode == 3
