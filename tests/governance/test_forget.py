"""``forest forget``: the erase act, its order of operations, and every local copy purged.

After a forget, no file under ``.forest/`` (SQLite files and their logs read as
raw bytes) holds the erased text's sentinel; a crash after the segment landed
is finished by the next sync; refusals write nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import forest_files.custody.recording as recording_module
from forest_files.check.opening import open_custody
from forest_files.custody.proposals import ProposalStore
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.restore import capture
from forest_files.custody.targets import read_section
from forest_files.custody.tombstone import erase_acts
from forest_files.governance.forget import forget
from forest_files.kernel.errors import ForestError
from forest_files.ledger import read_ledger
from forest_files.ledger.segments import body_path
from tests.helpers.cli import forest
from tests.helpers.custody import BY, MAX
from tests.helpers.forgetting import (
    DOC,
    SECRET,
    SENTINEL,
    WORDS,
    adopted_then_cleaned,
    holding,
    tree_bytes,
)
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.state import forge_erasure, local_state, shared_state


def plant_copies(root: Path) -> None:
    """Local copies of the secret: a restore capture, a proposal (and an earlier
    version of it), a cached view of HEAD (which still holds the body)."""
    capture(root, "doc.md#Keys", f"The keys live in the vault.\n{SECRET}\n")
    with Repository(root) as repo:
        binding = repo.log()[0].act_id
    with ProposalStore(root) as local:
        for text in (f"draft one\n{SECRET}\n", f"draft two\n{SECRET}\n"):
            local.propose(
                binding=binding,
                path="doc.md",
                selector="doc.md#Keys",
                derived_from="0" * 64,
                ground_hash="0" * 64,
                text=text,
            )
    with open_custody(root, "HEAD") as _view:  # builds HEAD's view
        pass


def test_forget_purges_every_local_copy_grep_accepted(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    plant_copies(root)
    assert holding(root, SENTINEL)  # the test can see the copies it planted
    with Repository(root) as repo:
        report = forget(repo, old, words=WORDS, by=BY)
        assert report.lines == 1 and report.purged.proposals
    assert holding(root, SENTINEL) == []
    assert SENTINEL not in repr(report)
    with Repository(root) as repo:  # a rebuild from the ledger keeps it out too
        repo.rebuild()
    assert holding(root, SENTINEL) == []


def test_forget_order_segment_index_body_accepted(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        report = forget(repo, old, words=WORDS, by=BY)
        store = repo.store()
        assert erase_acts(store) == [report.act_id]
        row = store.conn.execute("SELECT body FROM entries WHERE content_id = ?", (old,)).fetchone()
        assert row[0] == "[erased]"
    assert not body_path(root / ".forest/ledger", report.body_hash).exists()
    erase = read_ledger(root / ".forest/ledger").acts[report.act_id]
    assert erase.kind == "erase" and len(erase.payload.lines) == 1
    assert any(
        "filter-repo --invert-paths --path .forest/ledger/bodies/" in c for c in report.cannot
    )
    assert any("not cryptographic erasure" in c for c in report.cannot)


def test_forget_crash_after_segment_then_sync_recovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the erase segment landed, before the index committed: the next
    sync replays the erase and deletes the body file."""
    root, old = adopted_then_cleaned(tmp_path)
    landed: list[tuple[Path, bytes]] = []
    real = recording_module.write_segment

    def write_then_die(*args: Any, **kwargs: Any) -> Any:
        ref = real(*args, **kwargs)
        landed.append((ref.path, ref.path.read_bytes()))
        raise KeyboardInterrupt  # the process dies here: no commit, no body deletion

    monkeypatch.setattr(recording_module, "write_segment", write_then_die)
    with Repository(root) as repo, pytest.raises(KeyboardInterrupt):
        forget(repo, old, words=WORDS, by=BY)
    monkeypatch.undo()
    ((path, data),) = landed
    path.write_bytes(data)  # a kill leaves the segment; the failed call took it back
    assert holding(root, SENTINEL)  # the body file and the index still hold it
    with Repository(root) as repo:
        repo.sync()
        row = (
            repo.store()
            .conn.execute("SELECT body FROM entries WHERE content_id = ?", (old,))
            .fetchone()
        )
        assert row[0] == "[erased]"
    bodies = root / ".forest/ledger/bodies"
    assert [p for p in bodies.rglob("*.txt") if SENTINEL.encode() in p.read_bytes()] == []


def test_forget_crash_after_commit_then_sync_recovers(tmp_path: Path) -> None:
    """Killed after the commit, before the body file was deleted: sync deletes it."""
    root, old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        report = forget(repo, old, words=WORDS, by=BY)
    path = body_path(root / ".forest/ledger", report.body_hash)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"The keys live in the vault.\n{SECRET}\n", encoding="utf-8")
    with Repository(root) as repo:
        repo.sync()
    assert not path.exists()


def _refused_writes_nothing(root: Path, call) -> str:  # type: ignore[no-untyped-def]
    before = tree_bytes(root)
    with Repository(root) as repo, pytest.raises(ForestError) as info:
        call(repo)
    after = tree_bytes(root)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert [
        c for c in changed if not c.startswith((".git/forest/woods.db", ".git/forest/audit.db"))
    ] == []
    assert SENTINEL not in str(info.value)
    return str(info.value)


def test_forget_live_ground_refused(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        (live,) = [g.content_id for g in repo.ground()]
    message = _refused_writes_nothing(root, lambda r: forget(r, live, words=WORDS, by=BY))
    assert "live ground" in message


def test_forget_body_also_held_by_other_live_ground_refused(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    write(root, "b.md", DOC)  # the same secret section, adopted in another file
    with Repository(root) as repo:
        section = read_section(root, "b.md#Keys", (), max_bytes=MAX)
        adopt_sections(repo, [section], words="ok", by=BY)
    message = _refused_writes_nothing(root, lambda r: forget(r, old, words=WORDS, by=BY))
    assert "live ground" in message


def test_forget_twice_refused(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        forget(repo, old, words=WORDS, by=BY)
    message = _refused_writes_nothing(root, lambda r: forget(r, old, words=WORDS, by=BY))
    assert "already erased" in message


@pytest.mark.parametrize("words", ["", "   ", "lovely!"])
def test_forget_blank_or_praise_words_refused(tmp_path: Path, words: str) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    _refused_writes_nothing(root, lambda r: forget(r, old, words=words, by=BY))


def test_forget_unknown_id_refused(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    _refused_writes_nothing(root, lambda r: forget(r, "ab" * 32, words=WORDS, by=BY))


def test_forget_by_non_holder_refused(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(
        tmp_path, authority='\n[authority]\n"doc.md" = ["t <t@example.org>"]\n'
    )
    message = _refused_writes_nothing(
        root, lambda r: forget(r, old, words=WORDS, by="Mallory <m@x>")
    )
    assert "authority" in message


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("deploy token", "shorter"),
        ("a line that is not in that body", "no line"),
        ("The keys live in the vault.", "live ground"),
    ],
)
def test_forget_bad_line_refused(tmp_path: Path, line: str, why: str) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    message = _refused_writes_nothing(
        root, lambda r: forget(r, old, words=WORDS, by=BY, lines=[line])
    )
    assert why in message


def test_forget_named_line_only_that_line_accepted(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        report = forget(repo, old, words=WORDS, by=BY, lines=[SECRET])
    assert report.lines == 1 and report.kept_out == 0
    assert holding(root, SENTINEL) == []


@pytest.mark.parametrize(("size", "ok"), [(4096, True), (4097, False)])
def test_forget_words_length_bound(tmp_path: Path, size: int, ok: bool) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    words = "w" * size
    if ok:
        with Repository(root) as repo:
            forget(repo, old, words=words, by=BY)
    else:
        message = _refused_writes_nothing(root, lambda r: forget(r, old, words=words, by=BY))
        assert "4096" in message


@pytest.mark.parametrize(("count", "ok"), [(8192, True), (8193, False)])
def test_forget_tombstone_line_count_bound(tmp_path: Path, count: int, ok: bool) -> None:
    """A body of ``count`` long lines: one tombstone holds 8192, so one more is refused
    with a pointer to --line (never a ledger fault)."""
    root = make_repo(tmp_path)
    body = "".join(f"line number {n:08d} of the body\n" for n in range(count))
    with Repository.init(root, project_id="p") as repo:
        cid = repo.adopt_text(body, words="ok", by=BY)
        repo.seal(cid, words="hide it", by=BY)
    if ok:
        with Repository(root) as repo:
            assert forget(repo, cid, words=WORDS, by=BY).lines == count
    else:
        message = _refused_writes_nothing(root, lambda r: forget(r, cid, words=WORDS, by=BY))
        assert "--line" in message


def test_proposal_holding_erased_text_adopt_refused_nothing_written(tmp_path: Path) -> None:
    """A proposal written after the forget (an agent's, say) that holds the erased line:
    adopting it is refused before any byte of the file or a capture is written."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.proposals.adopt import adopt_proposal

    root, old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        forget(repo, old, words=WORDS, by=BY)
        store = repo.synced()
        (binding,) = all_bindings(store)
        (ground,) = [g.content_id for g in repo.ground()]
        ground_hash = store.get(store.local_id(ground))["body_hash"]
    with ProposalStore(root) as proposals:
        done = proposals.propose(
            binding=binding.bind_act,
            path=binding.path,
            selector=binding.selector,
            derived_from=ground,
            ground_hash=str(ground_hash),
            text=f"## Keys\n\nThe keys live in the vault.\n{SECRET}\n\n",
            source="agent",
        )
    before = tree_bytes(root)
    with pytest.raises(ForestError, match="forest forget"):
        adopt_proposal(root, done.proposal.id, words="take it", by=BY)
    after = tree_bytes(root)
    local = (".forest/", ".git/forest/")  # the index and the audit log may change
    assert {k: v for k, v in after.items() if not k.startswith(local)} == {
        k: v for k, v in before.items() if not k.startswith(local)
    }
    assert not (shared_state(root) / "captures").exists() or not any(
        SENTINEL in p.read_text(encoding="utf-8", errors="replace")
        for p in (shared_state(root) / "captures").rglob("*")
        if p.is_file()
    )


def test_watcher_never_keeps_erased_text_as_a_proposal(tmp_path: Path) -> None:
    from tests.helpers.watch import wait_verdict, watching

    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "cleaned")
    with Repository(root) as repo:
        forget(repo, old, words=WORDS, by=BY)
    commit_all(root, "forget")
    with watching(root) as w:
        write(root, "doc.md", DOC)  # the secret pasted back
        wait_verdict(w, "drifted", path="doc.md")
        assert w.journal.wait_for(lambda rs: any(r.kind == "check" for r in rs), 30)
    assert holding(root, SENTINEL) == []


def test_forget_purge_failing_after_commit_finished_by_next_sync_recovers(
    tmp_path: Path,
) -> None:
    """The purge fails for real after the erase act committed (a directory where
    local.db's shared-memory file belongs): forget says so and how to finish; the
    next sync fails the same way while the obstacle stands, then finishes the purge
    once it is gone — no file under .forest holds the text."""
    from forest_files.custody.purge import PurgePending

    root, old = adopted_then_cleaned(tmp_path)
    plant_copies(root)
    obstacle = shared_state(root) / "local.db-shm"
    obstacle.mkdir()
    with Repository(root) as repo, pytest.raises(PurgePending) as info:
        forget(repo, old, words=WORDS, by=BY)
    assert "forest sync" in str(info.value) and SENTINEL not in str(info.value)
    assert erase_acts(Repository(root).store()) != []  # the act stands
    assert any(p.startswith(".git/forest/local.db") for p in holding(root, SENTINEL))
    (marker,) = (shared_state(root) / "purge-pending").iterdir()
    assert SENTINEL.encode() not in marker.read_bytes()
    with Repository(root) as repo, pytest.raises(PurgePending):
        repo.sync()
    assert marker.exists()
    obstacle.rmdir()
    with Repository(root) as repo:
        repo.sync()
    assert holding(root, SENTINEL) == []
    assert not (shared_state(root) / "purge-pending").exists()


def test_forget_pending_marker_of_an_act_never_applied_dropped(tmp_path: Path) -> None:
    from forest_files.custody.purge import mark_pending

    root, _old = adopted_then_cleaned(tmp_path)
    plant_copies(root)
    mark_pending(root, "a" * 64, "b" * 64)
    with Repository(root) as repo:
        repo.sync()
    assert not (shared_state(root) / "purge-pending").exists()
    assert holding(root, SENTINEL)  # nothing was owed: nothing purged


def test_forget_purges_every_worktrees_views_accepted(tmp_path: Path) -> None:
    """A linked worktree keeps views of its own (in its own git directory); a forget in
    the main worktree deletes them too, so no copy of the text survives there."""
    from forest_files.check.opening import open_custody

    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "cleaned")
    other = tmp_path / "other"
    git(root, "worktree", "add", "-q", "--detach", str(other), "HEAD~1")
    with open_custody(other, "HEAD") as _custody:
        pass  # the view of a ledger whose ground still holds the secret
    views = local_state(other) / "views"
    assert any(SENTINEL.encode() in p.read_bytes() for p in views.glob("*.db"))
    with Repository(root) as repo:
        forget(repo, old, words=WORDS, by=BY)
    assert not any(SENTINEL.encode() in p.read_bytes() for p in views.rglob("*") if p.is_file())


def test_forget_index_erasure_no_erase_act_made_refused(tmp_path: Path) -> None:
    """The index holds a body as erased (its row's words ``[erased]``, an ``erasures``
    row) that no erase act of the ledger removes: a forget of it said "already erased",
    sending the user away with the body still in the ledger. It is refused as a damaged
    index, naming ``forest fsck`` and ``forest rebuild``; after the rebuild the forget
    goes through."""
    root, old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        repo.synced()
    forge_erasure(root, f"content_id = '{old}'")
    message = _refused_writes_nothing(root, lambda r: forget(r, old, words=WORDS, by=BY))
    assert "already erased" not in message
    assert "no erase act of the ledger removes it" in message, message
    assert "`forest fsck`" in message and "`forest rebuild`" in message, message
    assert forest(root, "rebuild").exit_code == 0
    with Repository(root) as repo:
        forget(repo, old, words=WORDS, by=BY)
