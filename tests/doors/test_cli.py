"""The ``forest`` command line: commands, one-line errors, exit codes."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from forest_files.doors.cli.errors import exit_code
from forest_files.kernel.errors import ForestError, StoreBusy, StoreCorruption
from forest_files.kernel.hashing import canonical_json, sha256_text
from forest_files.ledger import LedgerError
from forest_files.ledger.segment_files import segment_paths
from tests.helpers.git import commit_all, make_repo
from tests.helpers.state import local_state
from tests.helpers.template import reused

runner = CliRunner()


def forest(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _build_repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path)
    code, out, _ = forest("init", "--repo", str(path))
    assert code == 0, out
    with Repository(path) as r:
        r.adopt_text("Some ground.", words="I adopt this as written", by="Ada <ada@example.org>")
    commit_all(path, "init")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def test_init_creates_layout_and_twice_refused(tmp_path: Path) -> None:
    path = make_repo(tmp_path)
    code, out, _ = forest("init", "--repo", str(path), "--project-id", "abc")
    assert code == 0 and "project abc" in out
    assert (path / "forest.toml").is_file() and (local_state(path) / "woods.db").is_file()
    code, _, err = forest("init", "--repo", str(path))
    assert code == 1 and "already initialised" in err


def test_verify_clean_accepted(repo: Path) -> None:
    code, out, _ = forest("verify", "--repo", str(repo))
    assert code == 0 and "ledger ok: 1 act(s) in 1 segment(s)" in out
    code, out, _ = forest("verify", "--repo", str(repo), "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_verify_edited_segment_detected(repo: Path) -> None:
    [segment] = segment_paths(repo / ".forest" / "ledger")
    data = bytearray(segment.read_bytes())
    data[10] = ord("X") if data[10] != ord("X") else ord("Y")
    segment.write_bytes(bytes(data))
    code, out, err = forest("verify", "--repo", str(repo), "--json")
    assert code == 3
    assert json.loads(out)["ok"] is False
    assert "fault" in err and "Some ground" not in out + err
    code, _, err = forest("sync", "--repo", str(repo))
    assert code == 3 and len(err.strip().splitlines()) == 1


def test_verify_replay_fault_without_line_said_at_its_segment_detected(repo: Path) -> None:
    # An act edited with its id and its segment's name recomputed: every line hashes
    # right, only the replay refuses it, and it knows the segment, not the line.
    [segment] = segment_paths(repo / ".forest" / "ledger")
    act = json.loads(segment.read_bytes())
    act["entry"]["jurisdiction"] = "away"
    body = {k: v for k, v in act.items() if k != "id"}
    line = canonical_json({**body, "id": sha256_text(canonical_json(body))}).encode() + b"\n"
    segment.unlink()
    name = hashlib.sha256(line).hexdigest()
    (segment.parent / f"{name}.jsonl").write_bytes(line)
    code, out, _ = forest("verify", "--repo", str(repo))
    assert code == 3
    assert f"refused: segment {name}: act " in out
    assert "line -" not in out and "segment -" not in out


def test_sync_rebuild_log(repo: Path) -> None:
    code, out, _ = forest("sync", "--repo", str(repo), "--json")
    assert code == 0 and json.loads(out) == {"applied": 0, "rebuilt": False}
    code, out, _ = forest("rebuild", "--repo", str(repo))
    assert code == 0 and "1 act(s) replayed" in out
    code, out, _ = forest("log", "--repo", str(repo), "--json")
    assert code == 0 and [e["kind"] for e in json.loads(out)["acts"]] == ["adopt"]
    assert "Some ground" not in out


def test_outside_git_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    code, _, err = forest("log", "--repo", str(plain))
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and "git init" in err


def test_before_init_refused(tmp_path: Path) -> None:
    path = make_repo(tmp_path)
    code, _, err = forest("sync", "--repo", str(path))
    assert code == 1 and "forest init" in err and len(err.strip().splitlines()) == 1


def test_unknown_option_usage_refused(repo: Path) -> None:
    code, _, _ = forest("log", "--no-such-option")
    assert code == 2


def test_every_command_has_help() -> None:
    for command in ("init", "sync", "rebuild", "verify", "log"):
        code, out, _ = forest(command, "--help")
        assert code == 0 and "Example" in out


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (ForestError("no"), 1),
        (StoreBusy("locked"), 75),
        (StoreCorruption("bad"), 3),
        (LedgerError("forged"), 3),
        (KeyboardInterrupt(), 130),
        (RuntimeError("bug"), 3),
    ],
)
def test_exit_code_mapping(exc: BaseException, code: int) -> None:
    assert exit_code(exc) == code


def test_console_script_runs(repo: Path) -> None:
    script = Path(sys.executable).with_name("forest")
    proc = subprocess.run(
        [str(script), "verify"], cwd=repo, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
