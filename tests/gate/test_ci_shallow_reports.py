"""``forest ci --base`` refused in a shallow clone still writes every ``--report``
file: the refusal as one ``shallow-clone`` finding whose route is the fetch that
deepens the clone (a CI job uploading its SARIF or JUnit shows why nothing was
judged). The exit code and the one ``forest:`` line stay the refusal's."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files.doors.gatecmd import FORMATS
from tests.check.test_findings_schema import validate
from tests.gate.test_ci_gate import validate_sarif
from tests.helpers.cli import forest
from tests.helpers.custody import feature_upstream
from tests.helpers.git import commit_all, git, pasted, write


def _shallow(tmp_path: Path) -> Path:
    """A depth-1 clone of ``feat`` with a depth-1 ``origin/main``: no merge-base."""
    up = feature_upstream(tmp_path)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feat", f"file://{up}", str(clone))
    git(clone, "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main")
    return clone


@pytest.mark.slow  # a clone, a fetch and a gate run (~0.6 s)
def test_ci_shallow_clone_reports_written_refused(tmp_path: Path) -> None:
    clone = _shallow(tmp_path)
    out = {fmt: tmp_path / "out" / f"forest.{fmt}" for fmt in FORMATS}
    reports = [word for fmt, path in out.items() for word in ("--report", f"{fmt}={path}")]
    result = forest(clone, "ci", "--base", "origin/main", *reports)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()  # the refusal, as before
    assert line.startswith("forest: ") and "the clone is shallow" in line, line
    assert result.stdout == ""
    doc = json.loads(out["json"].read_text(encoding="utf-8"))
    (found,) = doc["findings"]
    assert (found["kind"], doc["exit_code"], doc["ok"]) == ("shallow-clone", 1, False)
    (route,) = found["routes"]
    assert route["command"] == "git fetch --unshallow" and "fetch-depth: 0" in route["note"]
    (sarif,) = json.loads(out["sarif"].read_text(encoding="utf-8"))["runs"][0]["results"]
    assert sarif["ruleId"] == "forest/shallow-clone" and sarif["level"] == "error"
    assert 'type="forest/shallow-clone"' in out["junit"].read_text(encoding="utf-8")
    assert "::error " in out["github"].read_text(encoding="utf-8")
    text = out["text"].read_text(encoding="utf-8")
    assert "fetch the full history: git fetch --unshallow" in text
    (headline,) = [ln for ln in text.splitlines() if ln.startswith("shallow-clone")]
    assert "  " not in headline  # no place to name: the kind, then the detail
    assert "nothing judged at HEAD" in text and "(--base origin/main)" in text


@pytest.mark.slow  # a clone, a fetch and three gate runs
def test_ci_shallow_clone_route_pasted_in_subfolder_recovers(tmp_path: Path) -> None:
    """Typed in a subfolder: the text report's fetch reaches the top from there, the
    SARIF's is spelled at the top; pasted, the gate runs and the reports are clean."""
    clone = _shallow(tmp_path)
    (clone / "sub").mkdir()
    text, sarif = tmp_path / "forest.txt", tmp_path / "forest.sarif"
    reports = ("--report", f"text={text}", "--report", f"sarif={sarif}")
    typed = pasted(clone / "sub", f"forest ci --base origin/main {' '.join(reports)}")
    assert typed.returncode == 1, typed.stderr
    assert '"command": "git fetch --unshallow"' in sarif.read_text(encoding="utf-8")
    route = "git -C .. fetch --unshallow"
    assert f"fetch the full history: {route}  (" in text.read_text(encoding="utf-8")
    done = pasted(clone / "sub", route)
    assert done.returncode == 0, done.stderr
    ran = forest(clone, "ci", "--base", "origin/main", *reports)
    assert ran.exit_code == 0, ran.output
    assert "shallow-clone" not in text.read_text(encoding="utf-8")


def _never_fetched(tmp_path: Path, *depth: str) -> Path:
    """GitHub's default pull-request checkout: a clone of ``feat`` alone (``--depth 1``
    when ``depth`` says so), ``origin/main`` never fetched."""
    up = feature_upstream(tmp_path)
    clone = tmp_path / "clone"
    how = ("clone", "-q", *depth, "--single-branch", "--branch", "feat", f"file://{up}")
    git(tmp_path, *how, str(clone))
    return clone


@pytest.mark.slow  # a clone, two gate runs and a fetch (~1 s)
def test_ci_shallow_base_never_fetched_reports_written_route_pasted_recovers(
    tmp_path: Path,
) -> None:
    """``fetch-depth: 1``: the base branch is not in the clone. Every report holds the
    stop as one ``shallow-clone`` finding routed to the refusal's own fetch; the exit
    code and the ``forest:`` line stay the refusal's; pasted, the gate passes."""
    clone = _never_fetched(tmp_path, "--depth", "1")
    out = {fmt: tmp_path / "out" / f"forest.{fmt}" for fmt in FORMATS}
    reports = [word for fmt, path in out.items() for word in ("--report", f"{fmt}={path}")]
    result = forest(clone, "ci", "--base", "origin/main", *reports)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    fetch = "git fetch --unshallow origin main:refs/remotes/origin/main"
    assert line.startswith("forest: ") and f"fetch it: `{fetch}`" in line, line
    assert result.stdout == ""
    doc = json.loads(out["json"].read_text(encoding="utf-8"))
    (found,) = doc["findings"]
    assert (found["kind"], doc["exit_code"], doc["range"]["base"]) == (
        "shallow-clone",
        1,
        "origin/main",
    )
    assert "never fetched branch 'main' of remote 'origin'" in found["detail"]
    (route,) = found["routes"]
    assert route["command"] == fetch and "fetch-depth: 0" in route["note"]
    (sarif,) = json.loads(out["sarif"].read_text(encoding="utf-8"))["runs"][0]["results"]
    assert sarif["ruleId"] == "forest/shallow-clone" and sarif["level"] == "error"
    for fmt in ("text", "junit", "github"):
        assert fetch in out[fmt].read_text(encoding="utf-8"), fmt
    assert pasted(clone, route["command"]).returncode == 0
    ran = forest(clone, "ci", "--base", "origin/main", *reports)
    assert ran.exit_code == 0, ran.output
    assert json.loads(out["json"].read_text(encoding="utf-8"))["ok"] is True


@pytest.mark.slow  # a clone, a fetch and two gate runs
def test_ci_base_not_resolving_outside_shallow_case_refused_report_refused(
    tmp_path: Path,
) -> None:
    """Only a shallow clone's stop is routed to a fetch: a full single-branch clone that
    never fetched the base, or a typo of a base in a clone that holds everything,
    writes the refusal as a plain ``refused`` finding (nothing there is cut off), its
    detail the ``forest:`` line's reason."""
    full = _never_fetched(tmp_path)
    sarif = tmp_path / "forest.sarif"
    result = forest(full, "ci", "--base", "origin/main", "--report", f"sarif={sarif}")
    assert result.exit_code == 1 and "never fetched" in result.stderr, result.output
    (found,) = json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert found["ruleId"] == "forest/refused" and "never fetched" in found["message"]["text"]
    assert found["properties"]["routes"] == []
    pasted(full, "git fetch origin main:refs/remotes/origin/main")
    typo = forest(full, "ci", "--base", "origin/mian", "--report", f"sarif={sarif}")
    assert typo.exit_code == 1, typo.output
    (found,) = json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert found["ruleId"] == "forest/refused" and "'origin/mian'" in found["message"]["text"]


def _merged_pull_request(tmp_path: Path) -> Path:
    """A pull request's merge commit as ``fetch-depth: 2`` checks it out: the merge and
    its two parents, the branch's tip cut off from the commits before it (one of which
    edited the bound ``t.md`` silently, the next undoing that)."""
    up = feature_upstream(tmp_path)
    git(up, "checkout", "-q", "feat")
    write(up, "t.md", "# T\n\nwords changed silently\n")
    commit_all(up, "silent edit")
    write(up, "t.md", "# T\n\nwords\n")
    commit_all(up, "undo it")
    write(up, "other.md", "more feature\n")
    commit_all(up, "more feature work")
    git(up, "checkout", "-q", "-b", "pull-merge", "main")
    git(up, "merge", "-q", "--no-ff", "-m", "Merge feat", "feat")
    clone = tmp_path / "clone"
    how = ("clone", "-q", "--depth", "2", "--single-branch", "--branch", "pull-merge")
    git(tmp_path, *how, f"file://{up}", str(clone))
    return clone


@pytest.mark.slow  # a clone, two gate runs and a fetch (~1 s)
def test_ci_shallow_range_cut_off_below_merge_base_refused(tmp_path: Path) -> None:
    """``fetch-depth: 2`` and ``--base HEAD^1``: the merge-base is in the clone but the
    branch's earlier commits are not, so the range git lists is cut short. Judging it
    would pass a silent edit the full history holds; the gate refuses as for any
    shallow clone instead, and the pasted fetch lets it find the edit."""
    clone = _merged_pull_request(tmp_path)
    sarif = tmp_path / "forest.sarif"
    result = forest(clone, "ci", "--base", "HEAD^1", "--report", f"sarif={sarif}")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: ") and "the clone is shallow" in line, line
    (found,) = json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert found["ruleId"] == "forest/shallow-clone", found
    (route,) = found["properties"]["routes"]
    assert pasted(clone, route["command"]).returncode == 0
    ran = forest(clone, "ci", "--base", "HEAD^1", "--format", "json")
    assert ran.exit_code == 1, ran.output
    found_later = [f for f in json.loads(ran.stdout)["findings"] if f["kind"] != "clean"]
    assert [(f["kind"], f["path"]) for f in found_later] == [("drifted", "t.md")], found_later


def _depth_one_never_fetched(tmp_path: Path) -> Path:
    return _never_fetched(tmp_path, "--depth", "1")


@pytest.mark.slow  # a clone and four gate processes, each way (~2 s)
@pytest.mark.parametrize(
    "cut", [_shallow, _depth_one_never_fetched], ids=["merge-base-cut", "base-never-fetched"]
)
def test_ci_shallow_machine_format_stdout_holds_refusal_detected(
    tmp_path: Path, cut: Callable[[Path], Path]
) -> None:
    """``forest ci --format sarif > forest.sarif`` in a shallow clone left an empty file
    (upload-sarif rejects it) and ``--format github`` no annotation: stdout now holds
    the refusal as the ``--report`` file does, byte for byte, valid in its format; the
    ``forest:`` line and the exit code stay. No report names the clone's absolute path
    (a runner's ``/home/runner/work/...``); the ``forest:`` line still does."""
    clone = cut(tmp_path)
    out: dict[str, str] = {}
    for fmt in ("sarif", "json", "junit", "github"):
        typed = f"forest ci --base origin/main --format {fmt} --report {fmt}=kept > out"
        done = pasted(clone, typed)
        assert done.returncode == 1, done.stderr
        (line,) = done.stderr.splitlines()
        assert line.startswith(f"forest: {clone}: "), line
        out[fmt] = (clone / "out").read_text(encoding="utf-8")
        assert out[fmt] == (clone / "kept").read_text(encoding="utf-8"), fmt
        assert str(tmp_path) not in out[fmt], fmt
    sarif: Any = validate_sarif(out["sarif"])
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "forest/shallow-clone" and result["level"] == "error"
    doc = json.loads(out["json"])
    validate(doc)
    (found,) = doc["findings"]
    assert (found["kind"], doc["exit_code"], doc["ok"]) == ("shallow-clone", 1, False)
    assert found["detail"].startswith(("no merge-base of", "revision 'origin/main'")), found
    (failure,) = ET.fromstring(out["junit"]).iter("failure")
    assert failure.get("type") == "forest/shallow-clone"
    (error,) = [ln for ln in out["github"].splitlines() if ln.startswith("::error ")]
    assert "title=forest/shallow-clone::" in error and found["routes"][0]["command"] in error
    assert "file=" not in error, error  # of no file: not the ledger, which it did not judge
