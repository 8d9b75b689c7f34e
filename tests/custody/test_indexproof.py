"""A forged row of the working tree's index never decides a verdict.

The index (``.git/forest/woods.db``) is a cache any program with write access to
the git directory can rewrite, triggers dropped. Each test forges the rows a
verdict is drawn from after a warm, clean check (binding map and verdict
dropped, as a forger who knows them would), edits the bound text, and asks
``forest check``: the edit must be ``drifted``, the index rebuilt from the
ledger, and the ledger byte-identical.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files.check.opening import REPLAY, open_custody
from forest_files.custody import bindmap, verdict
from forest_files.custody.indexproof import claims_of, disagreements
from forest_files.ledger.segments import read_ledger
from tests.helpers.cli import findings, forest
from tests.helpers.custody import age_files, init_and_adopt
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import local_state

CANON = "# Canon\n\n## Rules\n\nThe first rule stands.\n\n## Elsewhere\n\nOther words.\n"
EDITED = CANON.replace("first rule stands", "first rule bends")
RULES = "canon.md#Canon/Rules"


def _ledger_bytes(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted((root / ".forest" / "ledger").rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def warm(tmp_path: Path) -> Path:
    """A committed binding of ``#Rules``, checked clean (every cache warm)."""
    root = make_repo(tmp_path)
    write(root, "canon.md", CANON)
    init_and_adopt(root, [RULES])
    commit_all(root, "adopt")
    age_files(root)
    assert forest(root, "check").exit_code == 0
    return root


def _drift_hash(root: Path) -> str:
    """The hash the edited section has (what a forger would write as the ground's)."""
    write(root, "canon.md", EDITED)
    (found,) = [f for f in findings(root) if f["selector"] == RULES]
    assert found["kind"] == "drifted"
    return str(found["section_hash"])


def _forge(root: Path, sql: str, *args: object) -> None:
    """Run ``sql`` on the index with every guard trigger dropped, then drop the binding
    map and the verdict derived from the honest rows."""
    db = local_state(root) / "woods.db"
    conn = sqlite3.connect(db)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
        with conn:
            for name in names:
                conn.execute(f"DROP TRIGGER {name}")
            assert conn.execute(sql, args).rowcount >= 1
    finally:
        conn.close()
    bindmap.forget(bindmap.worktree_record(str(root)))
    verdict.forget(str(root))


def _forged_ground_hash(root: Path) -> None:
    forged = _drift_hash(root)
    _forge(
        root,
        "UPDATE entries SET body_hash = ? WHERE body_hash IN "
        "(SELECT e.body_hash FROM entries e JOIN edges a ON a.to_id = e.id AND a.kind = 'adopts')",
        forged,
    )


def _forged_retire(root: Path) -> None:
    write(root, "canon.md", EDITED)
    _forge(
        root,
        "INSERT INTO binding_events (act_id, bind_act, kind, by_sig, at) "
        "SELECT act_id, bind_act, 'retire', by_sig, at FROM binding_events LIMIT 1",
    )


def _forged_path(root: Path) -> None:
    write(root, "canon.md", EDITED)
    write(root, "other.md", CANON)
    _forge(root, "UPDATE binding_events SET path = 'other.md'")


@pytest.mark.parametrize(
    "forge",
    [_forged_ground_hash, _forged_retire, _forged_path],
    ids=["ground-body-hash", "retire-row", "binding-path"],
)
def test_check_forged_index_row_detected(warm: Path, forge: Callable[[Path], None]) -> None:
    root = warm
    ledger = _ledger_bytes(root)
    forge(root)
    result = forest(root, "check")
    assert result.exit_code == 1, result.stdout
    assert "rebuilt it from the ledger" in result.stderr
    kinds = {f["selector"]: f["kind"] for f in findings(root)}
    assert kinds[RULES] == "drifted"
    assert _ledger_bytes(root) == ledger


def test_forged_index_rebuilt_once_then_map_trusted(warm: Path) -> None:
    root = warm
    _forged_ground_hash(root)
    assert forest(root, "check").exit_code == 1
    second = forest(root, "check")
    assert second.exit_code == 1
    assert "rebuilt" not in second.stderr  # the rebuilt index agrees with the ledger


def test_honest_index_has_no_disagreement_accepted(warm: Path) -> None:
    root = warm
    bindmap.forget(bindmap.worktree_record(str(root)))
    with open_custody(root, "worktree") as custody:
        assert custody.via == REPLAY
        found = bindmap.BindMap(custody.bindings, custody.grounds)
    claims = claims_of(read_ledger(root / ".forest" / "ledger"))
    assert disagreements(found, claims) == []
    assert len(found.bindings) == 1


def test_claims_from_json_lines_equal_the_typed_reading_accepted(tmp_path: Path) -> None:
    """The proof's quick reading of the segments (JSON lines) declares exactly what the
    typed decode does, across adopt, supersede, rebind and retire."""
    from forest_files.custody.indexproof import claims_of_ledger
    from tests.helpers.custody import retire, supersede_as_it_stands, two_bound_files

    root = two_bound_files(tmp_path)
    write(root, "a.md", (root / "a.md").read_text(encoding="utf-8").replace("kept", "kept, now"))
    supersede_as_it_stands(root, "a.md#Keep")
    retire(root, "b.md#Keep")
    ledger = root / ".forest" / "ledger"
    quick, typed = claims_of_ledger(ledger), claims_of(read_ledger(ledger))
    assert quick == typed
    assert quick.superseded and quick.retired and len(quick.specs) == 2


@pytest.mark.slow  # a pasted `forest fsck`: one process
def test_index_disagreeing_after_rebuild_fsck_route_pasted_where_typed_refused(
    warm: Path,
) -> None:
    """A replay that leaves the forged row (what no honest replay does: the branch a
    replay bug would reach) is refused, naming ``forest fsck`` as pasted where
    ``forest -C ../repo …`` was typed."""
    from forest_files.custody.index_refresh import SyncReport
    from forest_files.custody.indexproof import proven_map
    from forest_files.custody.repository import Repository
    from forest_files.kernel.errors import ForestError
    from tests.helpers.cli import typed_beside
    from tests.helpers.git import pasted

    class ReplayLeavesIt(Repository):
        def rebuild(self) -> SyncReport:
            return SyncReport(applied=0, rebuilt=True)  # said rebuilt; the forged row stays

    root = warm
    _forged_ground_hash(root)
    with (
        typed_beside(root) as beside,
        ReplayLeavesIt(root) as repo,
        pytest.raises(ForestError) as refused,
    ):
        proven_map(repo.store(), repo)
    said = str(refused.value)
    assert said.endswith("; run `forest -C ../repo fsck` and report it"), said
    done = pasted(beside, said.rsplit("`", 2)[1])
    # Pasted beside the repository, fsck reaches it and names the forged row.
    assert done.returncode == 3 and "body-hash" in done.stdout, (done.stdout, done.stderr)


@pytest.fixture
def superseded(tmp_path: Path) -> Path:
    """``doc.md#Ops/Keys`` adopted, then superseded by the text the file holds; checked
    clean (every cache warm)."""
    from tests.helpers.forgetting import adopted_then_cleaned

    root, _old = adopted_then_cleaned(tmp_path)
    age_files(root)
    assert forest(root, "check").exit_code == 0
    return root


def test_check_supersedes_edge_deleted_contest_rebuilt_detected(superseded: Path) -> None:
    """The supersedes edge row deleted: the old ground and the new both live heads, a
    contest the ledger never made. ``forest check`` said ``contested`` and routed a
    ``forest resolve`` (a door believing a forged index); the proof finds a contest head
    the ledger superseded, the index is rebuilt and the file is clean."""
    from forest_files.custody.indexproof import index_faults
    from forest_files.store.forest import ForestStore

    root = superseded
    ledger = _ledger_bytes(root)
    _forge(root, "DELETE FROM edges WHERE kind = 'supersedes'")
    store = ForestStore(local_state(root) / "woods.db")
    try:
        faults = index_faults(store, root / ".forest" / "ledger")
    finally:
        store.close()
    said = "a contest head the ledger superseded or sealed"
    assert [f.split(": ", 1)[1] for f in faults] == [said]
    done = forest(root, "check")
    assert done.exit_code == 0, done.stdout
    assert "contested" not in done.stdout and "resolve" not in done.stdout
    (line,) = done.stderr.splitlines()
    assert said in line
    assert line.endswith("rebuilt it from the ledger")
    assert _ledger_bytes(root) == ledger


def test_contest_head_the_ledger_sealed_detected(superseded: Path) -> None:
    """A contest of the index one of whose heads the ledger left sealed (not superseded)."""
    from forest_files.custody.indexproof import claims_of_ledger

    root = superseded
    claims = claims_of_ledger(root / ".forest" / "ledger")
    with open_custody(root, "worktree") as custody:
        honest = bindmap.BindMap(custody.bindings, custody.grounds)
    assert disagreements(honest, claims) == []
    ((old,),) = [claims.superseded]
    (new,) = [g[0] for g in honest.grounds.values()]
    contest = dict.fromkeys(honest.grounds, (None, None, (old, new)))
    forged = bindmap.BindMap(honest.bindings, contest)
    claims.superseded.discard(old)
    claims.sealed.add(old)
    (fault,) = disagreements(forged, claims)
    assert fault.endswith(": a contest head the ledger superseded or sealed")


ELSEWHERE = "canon.md#Canon/Elsewhere"


@pytest.fixture
def two_warm(tmp_path: Path) -> Path:
    """Committed bindings of ``#Rules`` and ``#Elsewhere``, checked clean."""
    root = make_repo(tmp_path)
    write(root, "canon.md", CANON)
    init_and_adopt(root, [RULES, ELSEWHERE])
    commit_all(root, "adopt")
    age_files(root)
    assert forest(root, "check").exit_code == 0
    return root


def test_check_binding_entry_of_another_chain_rebuilt_detected(two_warm: Path) -> None:
    """A live binding row pointed at another binding's entry: its ground was declared,
    live, not superseded, so the proof believed it, and ``forest check`` called the
    clean ``#Rules`` drifted from ``#Elsewhere``'s ground, routing a ``forest restore``
    that would write that text over it. The ground is not of the chain its adopt act
    began: the index is rebuilt, the file clean, the ledger byte-identical."""
    root = two_warm
    ledger = _ledger_bytes(root)
    other = f"(SELECT entry_id FROM binding_events WHERE selector = '{ELSEWHERE}')"
    _forge(root, f"UPDATE binding_events SET entry_id = {other} WHERE selector = '{RULES}'")
    done = forest(root, "check")
    assert done.exit_code == 0, done.stdout
    assert "drifted" not in done.stdout and "restore" not in done.stdout
    (line,) = done.stderr.splitlines()
    assert "its ground is not of the chain its adopt act began" in line
    assert line.endswith("rebuilt it from the ledger")
    assert _ledger_bytes(root) == ledger
