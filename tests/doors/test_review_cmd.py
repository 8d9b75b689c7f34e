"""``forest proposal adopt``: the words are refused as every recording command refuses
them (doors/cli/review_cmd.py, through options.words_given), before anything is read
or written.

Real repositories, the real CLI in process: a proposal the watcher's judge kept, then
the placeholder of a printed route pasted as the adopting words.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from tests.helpers.cli import forest
from tests.helpers.git import git, pasted
from tests.helpers.watch import EDITED, bound_repo, captured_proposal


def _ledger(root: Path) -> dict[str, str]:
    """Every file under .forest/ledger with the SHA-256 of its bytes."""
    base = root / ".forest" / "ledger"
    return {
        p.relative_to(base).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(base.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("words", ["…", "...", "'…'", '"…"', "  "])
def test_proposal_adopt_placeholder_words_refused(tmp_path: Path, words: str) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    (root / "a.md").write_text("# Title\n\n## Keep\n\nmine\n", encoding="utf-8")
    before, text = _ledger(root), (root / "a.md").read_bytes()
    result = forest(root, "proposal", "adopt", pid, "--words", words)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    same = forest(root, "supersede", "a.md#Keep", "--words", words)
    assert same.exit_code == 1 and same.stderr.splitlines() == [line], same.output
    assert line.startswith("forest: --words") and "say why" in line, line
    assert _ledger(root) == before and (root / "a.md").read_bytes() == text
    with ProposalStore(root) as store:
        assert store.get(pid).status == "open"


def test_proposal_adopt_real_words_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    result = forest(root, "proposal", "adopt", pid, "--words", "The edit is right")
    assert result.exit_code == 0, result.output
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED
    with ProposalStore(root) as store:
        assert store.get(pid).status == "adopted"


def test_proposal_adopt_commit_step_pasted_commits_file_and_ledger_accepted(
    tmp_path: Path,
) -> None:
    """The adoption ends with a command that works pasted: the ledger and the file
    the proposed text was written into, staged and committed (it said "commit
    .forest/ledger with the file", prose a user had to turn into git commands)."""
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    result = forest(root, "proposal", "adopt", pid, "--words", "The edit is right")
    assert result.exit_code == 0, result.output
    (line,) = [ln for ln in result.stdout.splitlines() if ln.startswith("commit it")]
    assert line == "commit it with the file: git add -- .forest/ledger a.md && git commit"
    done = pasted(root, line.split(": ", 1)[1] + " -q -m adopted")
    assert done.returncode == 0, done.stderr
    assert git(root, "status", "--porcelain", "--", "a.md", ".forest") == ""
