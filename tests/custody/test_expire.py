"""``forest expire --as-of T``: local, never-adopted bodies past ``[retention]`` go;
hashes and lineage stay; ground never expires; nothing runs by itself."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files import ForestStore, Scroll
from forest_files.custody.auditlog import AuditLog
from forest_files.custody.config import ConfigError, load_config
from forest_files.custody.proposals import ProposalStore
from forest_files.custody.repository import Repository
from forest_files.custody.restore import capture
from forest_files.doors.cli import app
from forest_files.governance.expire import expire
from forest_files.governance.retention import expire_pairs, expire_retrieval_log, expire_scroll
from forest_files.kernel.errors import ForestError
from tests.helpers.custody import propose_on_latest
from tests.helpers.forgetting import SENTINEL, adopted_then_cleaned, holding, tree_bytes

runner = CliRunner()
LATER = "2999-01-01T00:00:00Z"


def with_retention(tmp_path: Path, table: str) -> Path:
    root, _old = adopted_then_cleaned(tmp_path)
    cfg = root / "forest.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + table, encoding="utf-8")
    capture(root, "doc.md#Keys", f"kept aside {SENTINEL}\n")
    propose_on_latest(root, "doc.md", "doc.md#Keys", f"proposed {SENTINEL}\n")
    return root


def test_expire_past_retention_removes_bodies_keeps_hashes_accepted(tmp_path: Path) -> None:
    root = with_retention(tmp_path, "\n[retention]\nproposals = 30\ncaptures = 30\n")
    ledger_before = {k: v for k, v in tree_bytes(root).items() if k.startswith(".forest/ledger")}
    with Repository(root) as repo:
        ground_before = repo.ground()
    done = expire(root, load_config(root / "forest.toml"), LATER)
    assert len(done.proposals) == 1 and len(done.captures) == 1
    # The ledger and the index still hold the adopted secret (no forget here).
    local = [
        p
        for p in holding(root, SENTINEL)
        if not p.startswith((".forest/ledger", ".git/forest/woods"))
    ]
    assert local == []
    with ProposalStore(root) as local:
        row = local.conn.execute("SELECT status, text, text_hash FROM proposals").fetchone()
    assert (row[0], row[1]) == ("discarded", None) and len(row[2]) == 64
    assert {
        k: v for k, v in tree_bytes(root).items() if k.startswith(".forest/ledger")
    } == ledger_before
    with Repository(root) as repo:
        assert repo.ground() == ground_before
    with AuditLog(root) as log:
        assert log.page(limit=1)[0].action == "expiry"


def test_expire_within_retention_kept_accepted(tmp_path: Path) -> None:
    root = with_retention(tmp_path, "\n[retention]\nproposals = 30\ncaptures = 30\n")
    done = expire(root, load_config(root / "forest.toml"), "2000-01-01T00:00:00Z")
    assert (done.proposals, done.captures) == ((), ())
    assert any(p.startswith(".git/forest/local.db") for p in holding(root, SENTINEL))


def test_expire_without_retention_keeps_everything_accepted(tmp_path: Path) -> None:
    root = with_retention(tmp_path, "")
    done = expire(root, load_config(root / "forest.toml"), LATER)
    assert (done.proposals, done.captures) == ((), ())


@pytest.mark.parametrize(
    ("table", "why"),
    [
        ("ground = 1", "ground never expires"),
        ("ledger = 1", "ground never expires"),
        ("scrolls = 1", "library stores only"),
        ("pairs = 1", "library stores only"),
        ("retrieval_log = 1", "library stores only"),
        ("bodies = 1", "unknown key"),
        ("proposals = 0", "out of range"),
        ("proposals = 36501", "out of range"),
        ('proposals = "30d"', "integer"),
    ],
)
def test_expire_bad_retention_refused(tmp_path: Path, table: str, why: str) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    cfg = root / "forest.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + f"\n[retention]\n{table}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=why):
        load_config(cfg)


@pytest.mark.parametrize("days", [1, 36500])
def test_expire_retention_bounds_accepted(tmp_path: Path, days: int) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    cfg = root / "forest.toml"
    cfg.write_text(
        cfg.read_text(encoding="utf-8") + f"\n[retention]\ncaptures = {days}\n", encoding="utf-8"
    )
    assert load_config(cfg).retention == (("captures", days),)


@pytest.mark.parametrize("as_of", ["yesterday", "2026-01-01T00:00:00"])
def test_expire_bad_as_of_refused(tmp_path: Path, as_of: str) -> None:
    root = with_retention(tmp_path, "\n[retention]\ncaptures = 1\n")
    before = tree_bytes(root)
    result = runner.invoke(app, ["expire", "--as-of", as_of, "--repo", str(root)])
    assert result.exit_code == 1

    def unlogged(tree: dict[str, bytes]) -> dict[str, bytes]:
        return {k: v for k, v in tree.items() if not k.startswith(".git/forest/audit.db")}

    assert unlogged(tree_bytes(root)) == unlogged(before)  # only the refusal is logged
    with AuditLog(root) as log:
        assert log.page(limit=1)[0].action == "refusal"


def test_cli_expire_json_accepted(tmp_path: Path) -> None:
    root = with_retention(tmp_path, "\n[retention]\ncaptures = 1\n")
    result = runner.invoke(app, ["expire", "--as-of", LATER, "--json", "--repo", str(root)])
    assert result.exit_code == 0, result.stderr
    assert SENTINEL not in result.output and '"captures"' in result.output


# --- what only a library store keeps: retrieval log, pairs, scrolls ------------


def _plus(stamp: str, days: int, ms: int = 0) -> str:
    when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return (when + timedelta(days=days, milliseconds=ms)).isoformat()


def _store_bytes(path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))


@pytest.mark.parametrize(("ms", "gone"), [(0, False), (1, True)])
def test_expire_retrieval_log_at_the_boundary(
    store: ForestStore, pair: Callable[..., int], ms: int, gone: bool
) -> None:
    """A row exactly N days old is kept; one millisecond older, it goes."""
    pair(f"where do bees sleep {SENTINEL}", "in the hive")
    store.recall_similar(f"bees {SENTINEL}")
    (created,) = [str(r[0]) for r in store.conn.execute("SELECT created_at FROM retrieval_log")]
    done = expire_retrieval_log(store, as_of=_plus(created, 30, ms), older_than_days=30)
    left = store.conn.execute("SELECT COUNT(*) FROM retrieval_log").fetchone()[0]
    assert (done.rows, left) == ((1, 0) if gone else (0, 1))
    assert len(done.query_hashes) == done.rows and SENTINEL not in repr(done)


def test_expire_retrieval_log_leaves_no_query_bytes(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    pair("bees are kind", "they are")
    store.recall_similar(f"QUERY{SENTINEL}")
    expire_retrieval_log(store, as_of=LATER, older_than_days=1)
    assert f"QUERY{SENTINEL}".lower().encode() not in _store_bytes(store.path).lower()


@pytest.mark.parametrize(("ms", "gone"), [(0, False), (1, True)])
def test_expire_pairs_at_the_boundary_erases_body_keeps_entry(
    store: ForestStore, pair: Callable[..., int], ms: int, gone: bool
) -> None:
    pid = pair(f"what is the code {SENTINEL}", "it is secret")
    row = store.get(pid)
    assert row is not None
    done = expire_pairs(
        store, as_of=_plus(str(row["created_at"]), 7, ms), older_than_days=7, signature="ops"
    )
    after = store.get(pid)
    assert after is not None and after["body_hash"] == row["body_hash"]  # hash, id stay
    assert (after["body"] == "[erased]") is gone
    assert done.body_hashes == ((str(row["body_hash"]),) if gone else ())
    if gone:
        assert SENTINEL.lower().encode() not in _store_bytes(store.path).lower()


def test_expire_pairs_adopted_pair_never_expires(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    pid = pair("an adopted turn", "kept as ground")
    row = store.get(pid)
    assert row is not None
    store._root(
        entry_id=pid,
        quote="we keep this turn",
        adopting_signature="ops",
        expected_body_hash=str(row["body_hash"]),
    )
    done = expire_pairs(store, as_of=LATER, older_than_days=1, signature="ops")
    assert done.body_hashes == ()
    after = store.get(pid)
    assert after is not None and after["body"] == row["body"]


def test_expire_pairs_entries_never_deleted_refused(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    pid = pair()
    expire_pairs(store, as_of=LATER, older_than_days=1, signature="ops")
    with pytest.raises(sqlite3.DatabaseError):
        store.conn.execute("DELETE FROM entries WHERE id = ?", (pid,))


@pytest.mark.parametrize(("us", "gone"), [(0, False), (1, True)])
def test_expire_scroll_at_the_boundary(
    store: ForestStore, scroll: Scroll, pair: Callable[..., int], us: int, gone: bool
) -> None:
    pair(f"first {SENTINEL}", "one")
    pair("second", "two")
    lines = scroll.path.read_bytes().splitlines()
    newest = max(
        datetime.fromisoformat(json.loads(line)["ts"].replace("Z", "+00:00")) for line in lines
    )
    as_of = newest + timedelta(days=3, microseconds=us)
    done = expire_scroll(scroll.path, as_of=as_of, older_than_days=3)
    assert (done.deleted, done.records) == (gone, 2)
    assert scroll.path.exists() is not gone


def test_expire_scroll_foreign_file_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.scroll"
    path.write_text("not a record\n", encoding="utf-8")
    with pytest.raises(ForestError, match="no scroll record"):
        expire_scroll(path, as_of=LATER, older_than_days=1)
    assert path.read_text(encoding="utf-8") == "not a record\n"


@pytest.mark.parametrize(
    ("days", "as_of"), [(0, LATER), (36501, LATER), (True, LATER), (1, "2026-01-01T00:00:00")]
)
def test_expire_library_bad_arguments_refused(
    store: ForestStore, pair: Callable[..., int], days: int, as_of: str
) -> None:
    pair()
    store.recall_similar("bees")
    before = _store_bytes(store.path)
    for call in (
        lambda: expire_retrieval_log(store, as_of=as_of, older_than_days=days),
        lambda: expire_pairs(store, as_of=as_of, older_than_days=days, signature="ops"),
    ):
        with pytest.raises(ForestError):
            call()
    with pytest.raises(ForestError, match="signature"):
        expire_pairs(store, as_of=LATER, older_than_days=1, signature=" ")
    assert store.conn.execute("SELECT COUNT(*) FROM retrieval_log").fetchone()[0] == 1
    assert "[erased]" not in [str(r[0]) for r in store.conn.execute("SELECT body FROM entries")]
    assert len(before) > 0
