"""forest.toml's ``[watch]``: notify, propose (the default), restore by compare-and-swap
after the capture; a binding restored too often is left as its proposal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from forest_files.check.path import run_check
from forest_files.custody.config import ConfigError, load_config, parse_config_text, render_config
from forest_files.custody.proposals import ProposalStore
from forest_files.custody.watchpolicy import RESTORE_LIMIT
from forest_files.doors.watch.route import Restorer
from tests.helpers.custody import DOC
from tests.helpers.state import shared_state
from tests.helpers.watch import EDITED, bound_repo, wait_proposal, wait_verdict, watching

EDITED_BOTH = EDITED.replace("other words", "other words, edited too")


def _policy(root: Path, policy: str) -> None:
    with (root / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write(f'\n[watch]\n"a.md" = "{policy}"\n')


def _proposals(root: Path) -> list[str | None]:
    if not (shared_state(root) / "local.db").exists():
        return []
    with ProposalStore(root) as store:
        return [p.text for p in store.open_proposals()]


def test_watch_restore_policy_restores_section_only_after_capture_accepted(
    tmp_path: Path,
) -> None:
    root = bound_repo(tmp_path)
    _policy(root, "restore")
    with watching(root) as w:
        (root / "a.md").write_text(EDITED_BOTH, encoding="utf-8")
        wait_verdict(w, "drifted")
        wait_proposal(w)
        assert w.journal.wait_for(
            lambda rs: any(r.kind == "restore" and r.detail == "restored" for r in rs), 30
        ), w.journal.items()
    # ground back in the section; the edit outside it untouched; nothing lost
    assert (root / "a.md").read_text(encoding="utf-8") == DOC.replace(
        "other words", "other words, edited too"
    )
    assert _proposals(root) == ["## Keep\n\nedited words\n\n"]


def test_watch_notify_policy_keeps_no_text_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    _policy(root, "notify")
    with watching(root) as w:
        (root / "a.md").write_text(EDITED, encoding="utf-8")
        wait_verdict(w, "drifted")
    assert _proposals(root) == []
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED  # reported, not touched


def _drifted(root: Path):  # type: ignore[no-untyped-def]
    (item,) = [r for r in run_check(root, "worktree").items if r.failed]
    return item


def test_restore_compare_and_swap_loses_to_a_later_save_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    judged = _drifted(root)
    later = EDITED.replace("edited words", "edited again")
    (root / "a.md").write_text(later, encoding="utf-8")  # the editor saves again
    assert Restorer(root).restore(judged, ()) == "changed"
    assert (root / "a.md").read_text(encoding="utf-8") == later  # the later text wins


def test_restore_repeated_too_often_held_as_proposal_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    restorer = Restorer(root)
    for _ in range(RESTORE_LIMIT):
        (root / "a.md").write_text(EDITED, encoding="utf-8")
        assert restorer.restore(_drifted(root), ()) == "restored"
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    assert restorer.restore(_drifted(root), ()) == "held"
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED  # left for a person


@pytest.mark.slow  # the other command is a `forest` process of its own
def test_restore_ground_superseded_after_the_check_file_left_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check judged a.md#Keep drifted; before the restore writes, another process
    supersedes the very text the file holds: the restore gate (custody/restore_gate.py)
    sees the ground moved on and leaves the file (before: ground written back over the
    new ground's text, which then showed drifted)."""
    import forest_files.custody.restore as restore_mod
    from tests.helpers.git import pasted

    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    judged = _drifted(root)
    real = restore_mod.restore_section

    def late(*args: Any, **kwargs: Any) -> tuple[str, Path | None]:
        done = pasted(root, "forest supersede a.md --words 'the edit is right'")
        assert done.returncode == 0, done.stderr
        return real(*args, **kwargs)

    monkeypatch.setattr(restore_mod, "restore_section", late)
    assert Restorer(root).restore(judged, ()) == "left"
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED
    assert [r.kind for r in run_check(root, "worktree").items] == ["clean"]
    assert not list((shared_state(root) / "captures").glob("*"))  # nothing captured


@pytest.mark.slow  # a pasted `forest sync`: one process
def test_restore_ground_gone_from_index_sync_route_pasted_where_typed_refused(
    tmp_path: Path,
) -> None:
    """The ground a restore needs is gone from the index (a sync raced it): the outcome
    names ``forest sync`` as pasted where ``forest -C ../repo watch`` was typed."""
    import dataclasses

    from tests.helpers.cli import typed_beside
    from tests.helpers.git import pasted

    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    judged = _drifted(root)
    gone = judged._replace(finding=dataclasses.replace(judged.finding, ground="f" * 64))
    with typed_beside(root) as beside:
        outcome = Restorer(root).restore(gone, ())
    assert outcome == f"failed: ground {'f' * 64} is not in the index; run `forest -C ../repo sync`"
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED  # nothing written
    done = pasted(beside, outcome.rsplit("`", 2)[1])
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("bad", ['"a.md" = "fix"', '"/abs" = "restore"', '"a.md" = 3'])
def test_watch_table_bad_value_refused(tmp_path: Path, bad: str) -> None:
    text = f'[project]\nid = "p"\n\n[watch]\n{bad}\n'
    with pytest.raises(ConfigError, match=r"\[watch\]"):
        parse_config_text(text, "forest.toml")


def test_watch_table_round_trips_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    _policy(root, "restore")
    cfg = load_config(root / "forest.toml")
    assert [(r.glob, r.policy) for r in cfg.watch] == [("a.md", "restore")]
    assert parse_config_text(render_config(cfg), "forest.toml") == cfg


def test_watch_new_required_file_reported_unbound_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with (root / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"docs/adr/*.md" = "file"\n')
    (root / "docs" / "adr").mkdir(parents=True)
    with watching(root) as w:
        (root / "docs" / "adr" / "0001-new.md").write_text("# New\n", encoding="utf-8")
        wait_verdict(w, "unbound", path="docs/adr/0001-new.md")
        (root / "docs" / "adr" / "notes.txt").write_text("not required\n", encoding="utf-8")
        (root / "docs" / "adr" / "0002-next.md").write_text("# Next\n", encoding="utf-8")
        wait_verdict(w, "unbound", path="docs/adr/0002-next.md")
    assert "docs/adr/notes.txt" not in {r.path for r in w.journal.items("verdict")}


def test_gitstate_head_follows_a_commit_and_a_pack_detected(tmp_path: Path) -> None:
    from forest_files.doors.watch.gitstate import GitState
    from tests.helpers.git import commit_all, git, write

    root = bound_repo(tmp_path)
    state = GitState(root)
    first = state.head()
    assert first == git(root, "rev-parse", "HEAD")
    assert state.head() == first  # asked again: answered from the unchanged ref files
    write(root, "notes.txt", "n\n")
    second = commit_all(root, "a commit on the same branch")
    assert state.head() == second != first
    git(root, "pack-refs", "--all")
    write(root, "notes.txt", "m\n")
    third = commit_all(root, "after packing")
    assert state.head() == third
    git(root, "checkout", "-q", "--detach", first)
    assert state.head() == first
