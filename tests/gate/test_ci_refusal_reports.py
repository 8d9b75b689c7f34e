"""Every refusal of ``forest ci`` (not only a shallow clone's) in a machine
``--format`` prints the refusal on stdout as one ``refused`` finding, the document
its ``--report`` files hold too: ``forest ci --base no-such-ref --format sarif >
forest.sarif`` left an empty file GitHub's upload-sarif rejects, and ``--format
github`` no annotation. The ``forest:`` line and the exit code stay the refusal's;
text prints only the ``forest:`` line."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tests.check.test_findings_schema import validate
from tests.gate.test_ci_gate import validate_sarif
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, make_repo, pasted, write

MACHINE = ("sarif", "json", "junit", "github")


def _typed(where: Path, options: str) -> dict[str, str]:
    """``forest ci OPTIONS --format F --report F=kept > out`` pasted in ``where`` for
    each machine format: the refusal's exit code and one ``forest:`` line, stdout
    byte for byte the report file; stdout of each, by format."""
    out: dict[str, str] = {}
    for fmt in MACHINE:
        done = pasted(where, f"forest ci {options} --format {fmt} --report {fmt}=kept > out")
        assert done.returncode == 1, done.stderr
        (line,) = done.stderr.splitlines()
        assert line.startswith("forest: "), line
        out[fmt] = (where / "out").read_text(encoding="utf-8")
        assert out[fmt] == (where / "kept").read_text(encoding="utf-8"), fmt
        assert str(where) not in out[fmt], fmt  # a runner's absolute path: the line's alone
    return out


def _one_refusal(out: dict[str, str], detail: str) -> None:
    sarif: Any = validate_sarif(out["sarif"])
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "forest/refused" and result["level"] == "error", result
    assert detail in result["message"]["text"], result
    doc = json.loads(out["json"])
    validate(doc)
    (found,) = doc["findings"]
    assert (found["kind"], doc["exit_code"], doc["ok"]) == ("refused", 1, False)
    assert detail in found["detail"], found
    (failure,) = ET.fromstring(out["junit"]).iter("failure")
    assert failure.get("type") == "forest/refused"
    (error,) = [ln for ln in out["github"].splitlines() if ln.startswith("::error ")]
    assert "title=forest/refused::" in error and detail in error, error
    assert "file=" not in error, error  # of no file: .forest/ledger may not exist


@pytest.mark.slow  # four forest processes
def test_ci_base_not_a_commit_machine_format_stdout_holds_refusal_detected(
    tmp_path: Path,
) -> None:
    repo = adopted_repo(tmp_path, "t.md", "# T\n\nwords\n")
    _one_refusal(_typed(repo, "--base no-such-ref"), "'no-such-ref' does not name a commit")
    text = pasted(repo, "forest ci --base no-such-ref --format text > out")
    assert text.returncode == 1 and (repo / "out").read_text(encoding="utf-8") == ""


@pytest.mark.slow  # four forest processes
def test_ci_outside_git_machine_format_stdout_holds_refusal_detected(tmp_path: Path) -> None:
    where = tmp_path / "plain"
    where.mkdir()
    _one_refusal(_typed(where, "--base main"), "not inside a git repository")


@pytest.mark.slow  # four forest processes
def test_ci_no_forest_init_machine_format_stdout_holds_refusal_detected(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "a.md", "a\n")
    commit_all(repo, "a")
    _one_refusal(_typed(repo, "--base main"), "not a forest-files repository")


def _no_commit_yet(repo: Path, typed: str = "forest ci") -> str:
    """``typed`` in ``repo`` on a branch with no commit: refused in one ``forest:``
    line saying so, with the fix in backticks; that fix."""
    done = pasted(repo, typed)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: ") and "no commit yet" in line, line
    assert "fetch it first" not in line, line
    return line.split("`")[1]


@pytest.mark.parametrize("initialised", [True, False], ids=["after-init", "before-init"])
def test_ci_no_commit_yet_refused_fix_pasted_recovers(tmp_path: Path, initialised: bool) -> None:
    """Before: "revision 'HEAD' does not name a commit (fetch it first?)", in a repository
    just made (git init, forest init): nothing to fetch. Now it says the branch has no
    commit yet and prints the steps that make one forest ci judges; pasted, it does."""
    repo = make_repo(tmp_path, "it's $HOME")
    if initialised:
        assert pasted(repo, "forest init").returncode == 0
    fix = _no_commit_yet(repo)
    done = pasted(repo, fix, env={"GIT_EDITOR": "printf 'custody\\n' >"})
    assert done.returncode == 0, (fix, done.stderr)
    done = pasted(repo, "forest ci")
    assert done.returncode == 0, done.stderr


def test_ci_no_commit_yet_from_a_subfolder_fix_pasted_recovers(tmp_path: Path) -> None:
    """Typed in a subfolder, the printed steps reach the top (``git -C ..``)."""
    repo = make_repo(tmp_path)
    assert pasted(repo, "forest init").returncode == 0
    (repo / "sub dir").mkdir()
    fix = _no_commit_yet(repo / "sub dir")
    done = pasted(repo / "sub dir", fix, env={"GIT_EDITOR": "printf 'custody\\n' >"})
    assert done.returncode == 0, (fix, done.stderr)
    assert pasted(repo, "forest ci").returncode == 0


@pytest.mark.parametrize("where", ["repository", "outside-git"])
def test_ci_refused_json_summary_says_nothing_judged_detected(tmp_path: Path, where: str) -> None:
    """A refused run's JSON summary is the gate's own line, as text and GitHub print it:
    it read "0 binding(s) checked against the nothing judged: 1 not clean" (outside git)
    or "… checked against the commit HEAD: 1 not clean", when nothing was checked."""
    if where == "repository":
        root = adopted_repo(tmp_path, "t.md", "# T\n\nwords\n")
    else:
        root = tmp_path / "plain"
        root.mkdir()
    done = pasted(root, "forest ci --base no-such-ref --format json")
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout)["summary"]
    assert summary.startswith("forest ci: 0 binding(s); nothing judged"), summary
    assert "--base no-such-ref" in summary and summary.endswith("; 1 finding(s)"), summary
    assert "checked against" not in summary, summary
