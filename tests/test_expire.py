"""``forest expire --as-of T``: local, never-adopted bodies past ``[retention]`` go;
hashes and lineage stay; ground never expires; nothing runs by itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.git import isolate
from test_forget import SENTINEL, adopted_then_cleaned, holding, tree_bytes
from typer.testing import CliRunner

import forest_files.cli  # noqa: F401  (registers every command)
from forest_files.cli import app
from forest_files.config import ConfigError, load_config
from forest_files.files.restore import capture
from forest_files.governance.auditlog import AuditLog
from forest_files.governance.expire import expire
from forest_files.proposals.store import ProposalStore
from forest_files.repository import Repository

runner = CliRunner()
LATER = "2999-01-01T00:00:00Z"


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate(monkeypatch)


def with_retention(tmp_path: Path, table: str) -> Path:
    root, _old = adopted_then_cleaned(tmp_path)
    cfg = root / "forest.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + table, encoding="utf-8")
    capture(root, "doc.md#Keys", f"kept aside {SENTINEL}\n")
    with Repository(root) as repo:
        binding = repo.log()[0].act_id
    with ProposalStore(root) as local:
        local.propose(
            binding=binding,
            path="doc.md",
            selector="doc.md#Keys",
            derived_from="0" * 64,
            ground_hash="0" * 64,
            text=f"proposed {SENTINEL}\n",
        )
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
        p for p in holding(root, SENTINEL) if not p.startswith((".forest/ledger", ".forest/woods"))
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
    assert any(p.startswith(".forest/local.db") for p in holding(root, SENTINEL))


def test_expire_without_retention_keeps_everything_accepted(tmp_path: Path) -> None:
    root = with_retention(tmp_path, "")
    done = expire(root, load_config(root / "forest.toml"), LATER)
    assert (done.proposals, done.captures) == ((), ())


@pytest.mark.parametrize(
    ("table", "why"),
    [
        ("ground = 1", "ground never expires"),
        ("ledger = 1", "ground never expires"),
        ("scrolls = 1", "unknown key"),
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
    assert tree_bytes(root) == before


def test_cli_expire_json_accepted(tmp_path: Path) -> None:
    root = with_retention(tmp_path, "\n[retention]\ncaptures = 1\n")
    result = runner.invoke(app, ["expire", "--as-of", LATER, "--json", "--repo", str(root)])
    assert result.exit_code == 0, result.stderr
    assert SENTINEL not in result.output and '"captures"' in result.output
