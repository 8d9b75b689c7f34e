"""``forest verify --json`` carries each fault's routes as data (doors/cli/verify_routes.py).

A dangling dependency's way out (``restore them from git: git checkout …``, or the
take-out of a segment whose act no commit holds) was only in the ``forest:`` line on
stderr: ``--json`` had the fault and no command. Each fault now has ``routes`` in
the findings schema's route shape (docs/findings.schema.json ``RouteModel``: label,
command, argv, note), validated here; the command taken from the JSON, pasted into
bash where ``forest verify`` was typed (a subdirectory too), and each ``argv`` run
as it stands, bring the ledger back.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import jsonschema

from tests.helpers.cli import console, forest
from tests.helpers.custody import adopted_repo, supersede_as_it_stands
from tests.helpers.git import commit_all, git_env, pasted, write

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "findings.schema.json").read_text(encoding="utf-8"))
ROUTE = {"$defs": SCHEMA["$defs"], "$ref": "#/$defs/RouteModel"}


def _faults(cwd: Path) -> tuple[list[dict[str, Any]], str]:
    """``forest verify --json`` typed in ``cwd``: its faults (every route validated
    against the schema) and its stderr."""
    done = console(cwd, "verify", "--json")
    assert done.returncode == 3, done.stderr
    faults: list[dict[str, Any]] = json.loads(done.stdout)["faults"]
    for fault in faults:
        for route in fault["routes"]:
            jsonschema.validate(route, ROUTE, cls=jsonschema.Draft202012Validator)
    return faults, done.stderr


def _adopted_then_superseded(tmp_path: Path) -> tuple[Path, list[Path]]:
    """a.md#One adopted and committed, then superseded and committed: the adopt's
    segment files."""
    repo = adopted_repo(tmp_path, "a.md", "# A\n\n## One\n\nfirst\n", "a.md#One")
    adopt = sorted((repo / ".forest" / "ledger" / "segments").iterdir())
    write(repo, "a.md", "# A\n\n## One\n\nsecond\n")
    supersede_as_it_stands(repo, "a.md#One")
    commit_all(repo, "supersede")
    return repo, adopt


def test_verify_json_dangling_dep_route_as_data_pasted_recovers(tmp_path: Path) -> None:
    repo, (gone,) = _adopted_then_superseded(tmp_path)
    gone.unlink()
    here = repo / "docs"
    here.mkdir()
    faults, stderr = _faults(here)
    (fault,) = faults
    assert fault["code"] == "dangling-dep"
    (route,) = fault["routes"]
    assert route["label"] == "restore them from git"
    assert route["argv"] == [
        ["git", "-C", "..", "checkout", "HEAD", "--", gone.relative_to(repo).as_posix()]
    ]
    assert f"restore them from git: `{route['command']}`" in stderr  # the line says the same
    assert pasted(here, route["command"]).returncode == 0
    assert console(here, "verify").returncode == 0
    gone.unlink()
    for step in route["argv"]:  # the words as data, run as they stand
        subprocess.run(step, cwd=here, env=git_env(), check=True, capture_output=True)
    assert forest(repo, "verify").exit_code == 0


def test_verify_json_dangling_dep_held_nowhere_take_out_as_data_pasted_recovers(
    tmp_path: Path,
) -> None:
    """b.md adopted and superseded, never committed, the adopt's segment and body
    deleted: no commit holds the act the supersede depends on."""
    repo = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    ledger = repo / ".forest" / "ledger"
    before = set(ledger.rglob("*.*"))
    write(repo, "b.md", "# B\n\nsecond\n")
    assert forest(repo, "adopt", "b.md", "--words", "b").exit_code == 0
    adopt = set(ledger.rglob("*.*")) - before
    write(repo, "b.md", "# B\n\nsecond, amended\n")
    supersede_as_it_stands(repo, "b.md")
    dependent = set(ledger.rglob("*.*")) - before - adopt
    for path in adopt:
        path.unlink()
    faults, stderr = _faults(repo)
    (fault,) = [f for f in faults if f["code"] == "dangling-dep"]
    fetch, take_out = fault["routes"]
    assert fetch["command"] is None and fetch["argv"] == []
    assert "fetch the branch that recorded it" in fetch["note"]
    assert take_out["label"] == "take the segment out"
    assert take_out["command"].startswith("rm -f -- ")
    assert f"`{take_out['command']}`" in stderr
    assert pasted(repo, take_out["command"]).returncode == 0
    assert not any(p.exists() for p in dependent)
    assert forest(repo, "verify").exit_code == 0


def test_verify_json_damaged_segment_and_stray_routes_as_data_pasted_recovers(
    tmp_path: Path,
) -> None:
    repo = adopted_repo(tmp_path, "a.md", "# A\n\n## One\n\nfirst\n", "a.md#One")
    (segment,) = (repo / ".forest" / "ledger" / "segments").iterdir()
    with segment.open("ab") as fh:
        fh.write(b" ")
    write(repo, ".forest/ledger/zz-stray", "x")
    faults, _ = _faults(repo)
    damaged = [f for f in faults if f["code"] != "stray"]
    assert damaged and all(f["routes"] for f in damaged), damaged
    commands = {r["command"] for f in damaged for r in f["routes"]}
    (command,) = commands
    assert command == f"git checkout HEAD -- {segment.relative_to(repo).as_posix()}"
    (stray,) = [f for f in faults if f["code"] == "stray"]
    (removal,) = stray["routes"]
    assert removal["command"] == stray["fix"] == "rm -- .forest/ledger/zz-stray"
    for cmd in (command, removal["command"]):
        assert pasted(repo, cmd).returncode == 0
    assert forest(repo, "verify").exit_code == 0
