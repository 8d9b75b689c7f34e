"""A binding the index reaches no live ground of is held to the entry its adopt act
made. Two bindings, both grounds sealed: A's binding row pointed behind the triggers at
B's entry passed the proof (neither chain has a live ground, so no ground was read to
disagree) and every door believed it, nothing said. The proof finds the row, the index
is rebuilt from the ledger (one ``forest:`` line), and ``forest check``'s route, pasted,
unseals A's entry, not B's."""

from __future__ import annotations

from pathlib import Path

from forest_files.custody import bindmap, verdict
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import behind_the_triggers

B_ENTRY = "(SELECT entry_id FROM binding_events WHERE selector = 'doc.md#T/B')"


def _kinds(repo: Path) -> dict[str, str]:
    done = forest(repo, "check")
    return {
        line.split()[1]: line.split()[0]
        for line in done.stdout.splitlines()
        if line.split()[:1] in (["unresolved"], ["drifted"])
    }


def test_check_groundless_binding_row_pointed_at_other_sealed_chain_rebuilt_detected(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "doc.md", "# T\n\n## A\n\naaa\n\n## B\n\nbbb\n")
    commit_all(repo, "a")
    ok(repo, "adopt", "doc.md#T/A", "--words", "one")
    ok(repo, "adopt", "doc.md#T/B", "--words", "two")
    ok(repo, "seal", "doc.md#T/A", "--words", "s1")
    ok(repo, "seal", "doc.md#T/B", "--words", "s2")
    commit_all(repo, "sealed")
    assert _kinds(repo) == {"doc.md#T/A": "unresolved", "doc.md#T/B": "unresolved"}
    behind_the_triggers(
        repo, f"UPDATE binding_events SET entry_id = {B_ENTRY} WHERE selector = 'doc.md#T/A'"
    )
    bindmap.forget(bindmap.worktree_record(str(repo)))
    verdict.forget(str(repo))
    done = forest(repo, "check")
    assert done.exit_code == 1
    assert "not the entry its adopt act made" in done.stderr, done.stderr
    assert "rebuilt it from the ledger" in done.stderr
    ok(repo, "unseal", "doc.md#T/A", "--words", "back")  # the route, pasted
    assert _kinds(repo) == {"doc.md#T/B": "unresolved"}  # A's unsealed, B's still sealed
