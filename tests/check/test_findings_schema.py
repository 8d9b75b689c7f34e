"""One documented JSON schema for every door: docs/findings.schema.json.

The committed schema is what the pydantic models (check/schema_models.py) make;
the real JSON of ``forest check`` (working tree, ``--staged``, ``--rev``),
``forest status`` (remembered and judged) and ``forest ci`` validates against it,
with findings of many kinds; a door whose JSON drifts (a field added, renamed or
dropped, a section hash where a content id belongs) fails here. The README's
findings table and the schema's kinds are the kinds table (check/kinds.py).
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from forest_files.check.findings import SCHEMA_VERSION
from forest_files.check.kinds import KINDS
from forest_files.check.schema_models import schema
from tests.helpers import cli as in_process
from tests.helpers.cli import FOREST
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.imports import loaded
from tests.helpers.template import reused

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "docs" / "findings.schema.json"
README = ROOT / "README.md"
DOC = "# Guide\n\n## One\n\nFirst words.\n\n## Two\n\nSecond words.\n"


def run(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **git_env(), **(env or {})}
    return subprocess.run(
        list(args), cwd=root, env=full, capture_output=True, text=True, timeout=300
    )


def committed() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return doc


def validate(doc: object) -> None:
    validator = jsonschema.Draft202012Validator(committed())
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]


def door(root: Path, *args: str, code: int) -> dict[str, Any]:
    """``check`` through the console entry (its light path, a process of its own); the
    typer doors (status, ci) in process: the JSON is the subject here."""
    if args[0] == "check":
        proc = run(root, FOREST, *args)
        returncode, out, err = proc.returncode, proc.stdout, proc.stderr
    else:
        result = in_process.forest(root, *args)
        returncode, out, err = result.exit_code, result.stdout, result.stderr
    assert returncode == code, (args, out, err)
    doc: dict[str, Any] = json.loads(out)
    validate(doc)
    assert doc["schema_version"] == SCHEMA_VERSION
    return doc


def test_schema_file_is_what_the_models_make_accepted() -> None:
    assert committed() == json.loads(json.dumps(schema())), (
        "docs/findings.schema.json is stale: "
        "python -m forest_files.check.schema_models > docs/findings.schema.json"
    )
    jsonschema.Draft202012Validator.check_schema(committed())
    kinds = committed()["$defs"]["FindingModel"]["properties"]["kind"]["enum"]
    assert kinds == list(KINDS)


def _build_repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "docs/guide.md", DOC)
    init_and_adopt(root, ["docs/guide.md#Guide/One", "docs/guide.md#Guide/Two"])
    commit_all(root, "adopt")
    git(root, "checkout", "-q", "-b", "feature")
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """docs/guide.md#Guide/One and #Guide/Two adopted on main; HEAD on ``feature``."""
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def test_every_door_clean_json_validates_accepted(repo: Path) -> None:
    docs = [
        door(repo, "check", "--json", code=0),
        door(repo, "status", "--json", code=0),  # judged
        door(repo, "status", "--json", code=0),  # from the remembered verdict
        door(repo, "check", "--staged", "--json", code=0),
        door(repo, "check", "--rev", "HEAD", "--json", code=0),
        door(repo, "ci", "--format", "json", code=0),
        door(repo, "ci", "--base", "main", "--format", "json", code=0),
    ]
    assert [d["door"] for d in docs] == ["check", "status", "status", "check", "check", "ci", "ci"]
    assert docs[1] == docs[2]  # remembered and judged: one report
    assert [d["range"] is None for d in docs] == [True] * 5 + [False, False]
    for doc in docs:
        assert [f["kind"] for f in doc["findings"]] == ["clean", "clean"]
        assert all(re.fullmatch("[0-9a-f]{64}", f["ground"]) for f in doc["findings"])


def test_every_door_json_with_findings_validates_detected(repo: Path) -> None:
    """Drift, a commit of the range, a symlink in a bound path's place, tracked local
    state: every door's JSON carries them in the one schema."""
    guide = repo / "docs" / "guide.md"
    guide.write_text(DOC.replace("Second words", "Silently changed"), encoding="utf-8")
    bad = commit_all(repo, "silent edit")
    write(repo, ".forest/cache/views/x.db", "not for git\n")
    git(repo, "add", "-f", ".forest/cache/views/x.db")
    check = door(repo, "check", "--json", code=1)
    staged = door(repo, "check", "--staged", "--json", code=1)
    git(repo, "commit", "-q", "--no-verify", "-m", "local state")
    status = door(repo, "status", "--json", code=0)
    rev = door(repo, "check", "--rev", "HEAD", "--json", code=1)
    ci = door(repo, "ci", "--base", "main", "--format", "json", code=1)
    for doc in (check, staged, status, rev, ci):
        kinds = sorted(f["kind"] for f in doc["findings"])
        assert kinds == ["clean", "drifted", "tracked-local-state"], (doc["door"], kinds)
        (drift,) = [f for f in doc["findings"] if f["kind"] == "drifted"]
        assert drift["section_hash"] != drift["ground_section_hash"]
        assert re.fullmatch("[0-9a-f]{64}", drift["ground"])  # what forest show takes
        in_process.ok(repo, "show", drift["ground"], "--json")
        assert drift["fingerprint"] and drift["routes"]
    drifts = [f for f in ci["findings"] if f["kind"] == "drifted"]
    assert [f["introduced"] for f in drifts] == [bad]
    assert ci["range"]["merge_base"] == git(repo, "rev-parse", "main")
    # One finding model: the same finding has the same fingerprint at every door.
    prints = {d["door"] + d["source"]: _print(d, "drifted") for d in (check, staged, status, ci)}
    assert len(set(prints.values())) == 1, prints


@pytest.mark.slow  # two `forest check` processes and a gate run
def test_every_door_json_rewritten_on_checkout_validates_detected(repo: Path) -> None:
    """A .gitattributes rule giving a bound file ``ident``: the doors that judge the
    index or a commit carry the finding in the one schema."""
    write(repo, ".gitattributes", "docs/guide.md ident\n")
    git(repo, "add", ".gitattributes")
    staged = door(repo, "check", "--staged", "--json", code=1)
    git(repo, "commit", "-q", "--no-verify", "-m", "ident")
    rev = door(repo, "check", "--rev", "HEAD", "--json", code=1)
    ci = door(repo, "ci", "--base", "main", "--format", "json", code=1)
    for doc in (staged, rev, ci):
        (found,) = [f for f in doc["findings"] if f["kind"] == "rewritten-on-checkout"]
        assert found["path"] == "docs/guide.md" and "`ident`" in found["detail"]
        assert found["routes"] and found["fingerprint"], found


def _print(doc: dict[str, Any], kind: str) -> str:
    (found,) = [f for f in doc["findings"] if f["kind"] == kind]
    return str(found["fingerprint"])


def _drifted(doc: dict[str, Any]) -> dict[str, Any]:
    found: list[dict[str, Any]] = [f for f in doc["findings"] if f["kind"] != "clean"]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    "drift",
    [
        "extra-field",
        "renamed-field",
        "dropped-field",
        "section-hash-as-ground",
        "unknown-kind",
        "no-version",
        "route-as-string",
    ],
)
def test_door_json_drifting_from_schema_refused(repo: Path, drift: str) -> None:
    """The schema is strict: what a careless change to a door would print fails."""
    (repo / "docs" / "guide.md").write_text(DOC.replace("First", "Changed"), encoding="utf-8")
    doc = door(repo, "check", "--json", code=1)
    bad = copy.deepcopy(doc)
    found = _drifted(bad)
    if drift == "extra-field":
        found["message"] = "one more field"
    elif drift == "renamed-field":
        found["actual_hash"] = found.pop("section_hash")
    elif drift == "dropped-field":
        del found["fingerprint"]
    elif drift == "section-hash-as-ground":
        found["ground"] = "sha256:" + found["section_hash"]
    elif drift == "unknown-kind":
        found["kind"] = "drift"
    elif drift == "no-version":
        del bad["schema_version"]
    else:
        found["routes"] = [r["command"] for r in found["routes"]]
    with pytest.raises(AssertionError):
        validate(bad)


def test_door_json_never_loads_pydantic_accepted(repo: Path) -> None:
    """The schema's models are for generating the file: no door imports them."""
    env = {"FOREST_DEBUG_IMPORTS": "1"}
    for args in (["check", "--json"], ["check", "--staged", "--json"], ["status", "--json"]):
        code = "from forest_files.doors.entry import main; main()"
        proc = run(repo, sys.executable, "-c", code, *args, env=env)
        assert "pydantic" not in loaded(proc.stderr), args


def _readme_rows() -> dict[str, tuple[str, ...]]:
    """The README findings table: kind -> (meaning, doors, way out), cells unescaped."""
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^### Findings\n(.*?)(?=^### )", text, re.M | re.S)
    assert section, "README.md has no '### Findings' section"
    rows = {}
    for line in re.findall(r"^\| `[a-z-]+` \|.*$", section.group(1), re.M):
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows[cells[0].strip("`")] = tuple(cells[1:])
    return rows


def test_readme_findings_table_in_step_with_kinds_accepted() -> None:
    assert list(_readme_rows()) == list(KINDS)
    # Word for word: SARIF's rule descriptions are these cells, so a way out the
    # README changed (the ledger put-back) must change there too.
    assert _readme_rows() == KINDS
    text = README.read_text(encoding="utf-8")
    assert "docs/findings.schema.json" in text and "schema_version" in text


def test_required_name_with_controls_json_exact_text_escaped_detected(tmp_path: Path) -> None:
    """Required files named with a C0 control beside a C1 one (no selector can name
    it) and with a C1 control alone: ``forest check --json`` carries each exact name
    (JSON escapes it losslessly) and validates; the text shows each escaped, raw
    never."""
    c0, c1 = "r\x01\x85.md", "s\x85.md"
    repo = make_repo(tmp_path)
    for name in (c0, c1):
        write(repo, name, "# T\n\nwords\n")
    assert in_process.forest(repo, "init").exit_code == 0
    with (repo / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"*.md" = "file"\n')
    commit_all(repo, "init")
    raw = in_process.forest(repo, "check", "--json")
    doc = json.loads(raw.stdout)
    validate(doc)
    found = {f["path"]: f for f in doc["findings"]}
    assert sorted(found) == [c0, c1] and found[c0]["selector"] == c0
    assert all(f["kind"] == "unbound" for f in found.values())
    assert "\\x01" not in raw.stdout and "\\x85" not in raw.stdout  # not escaped early
    text = in_process.forest(repo, "check").stdout
    assert "r\\x01\\x85.md" in text and "s\\x85.md" in text, text
    assert not [c for c in text if c in "\x01\x85"], text
