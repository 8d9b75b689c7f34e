"""Packaging as a user and a packager meet it: metadata, floors, one version, the sdist.

Stores: temporary directories only.
Refuses: nothing; fails when pyproject.toml, the changelog, the docs or the sdist drift.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
import tarfile
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from forest_files import __version__
from tests.helpers.cli import FOREST

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"
CHANGELOG = ROOT / "CHANGELOG.md"
BIN = Path(sys.executable).parent
REQ = re.compile(r"^([A-Za-z0-9_.-]+)\s*(?:\[[^\]]*\])?\s*(.*)$")


def project() -> dict[str, Any]:
    doc = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def requirements(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        match = REQ.match(item)
        assert match, item
        out[match.group(1).lower()] = match.group(2)
    return out


def floor(spec: str) -> tuple[int, ...]:
    match = re.search(r">=\s*([0-9.]+)", spec)
    assert match, spec
    parts = [int(part) for part in match.group(1).split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()  # 0.16.0 and 0.16 name one floor
    return tuple(parts)


def test_build_system_setuptools_77_accepted() -> None:
    build = project()["build-system"]
    (setuptools,) = [r for r in build["requires"] if r.startswith("setuptools")]
    assert floor(setuptools) >= (77,)
    assert project()["project"]["license"] == "MIT"


def test_dependency_floors_accepted() -> None:
    deps = requirements(project()["project"]["dependencies"])
    assert floor(deps["typer"]) >= (0, 26)
    assert floor(deps["watchdog"]) >= (4,)
    script = (ROOT / "scripts" / "floor-check").read_text(encoding="utf-8")
    for name in ("typer", "watchdog"):
        pinned = re.search(rf"{name.upper()}:-([0-9.]+)", script)
        assert pinned and floor(f">={pinned.group(1)}") == floor(deps[name]), name


def test_undeclared_imports_dropped_refused() -> None:
    """GitPython is gone; pydantic is imported only by the schema generator and the
    MCP server (its tool inputs, its stdio transport's validation errors), each
    declared by the extra that installs it."""
    deps = requirements(project()["project"]["dependencies"])
    assert "gitpython" not in deps and "pydantic" not in deps
    test_extra = requirements(project()["project"]["optional-dependencies"]["test"])
    assert "pydantic" in test_extra and "pyyaml" in test_extra
    mcp_extra = requirements(project()["project"]["optional-dependencies"]["mcp"])
    assert "pydantic" in mcp_extra and "mcp" in mcp_extra
    importers = _importers({"git", "pydantic"})
    assert importers == {
        "git": [],
        "pydantic": [
            "forest_files/check/schema_models.py",
            "forest_files/doors/mcp/messages.py",
            "forest_files/doors/mcp/schemas.py",
        ],
    }


def test_declared_dependency_never_imported_refused() -> None:
    """Every core dependency is imported by the package (click was declared long after
    typer 0.26 began to carry its own: installed, never imported)."""
    deps = requirements(project()["project"]["dependencies"])
    importers = _importers(set(deps))
    assert sorted(name for name, files in importers.items() if not files) == []


def _importers(tops: set[str]) -> dict[str, list[str]]:
    """The package's files that import each top-level module of ``tops`` (absolute
    imports, deferred ones included)."""
    importers: dict[str, list[str]] = {top: [] for top in tops}
    for path in sorted((ROOT / "forest_files").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top in importers:
                    importers[top].append(path.relative_to(ROOT).as_posix())
    return importers


def test_metadata_classifiers_and_urls_accepted() -> None:
    meta = project()["project"]
    assert meta["authors"] and meta["urls"]["Homepage"].startswith("https://")
    classifiers = meta["classifiers"]
    assert "Typing :: Typed" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")], "PEP 639: license only"
    for minor in ("3.11", "3.12", "3.13"):  # each run whole (tests/project/test_python_versions.py)
        assert f"Programming Language :: Python :: {minor}" in classifiers


def test_one_version_source_accepted() -> None:
    meta = project()
    assert "version" not in meta["project"] and meta["project"]["dynamic"] == ["version"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "forest_files.__version__"}
    init = (ROOT / "forest_files" / "__init__.py").read_text(encoding="utf-8")
    assert len(re.findall(r"^__version__ = \"[0-9.]+\"$", init, re.M)) == 1
    assert metadata.version("forest-files") == __version__
    done = subprocess.run([FOREST, "--version"], capture_output=True, text=True, check=False)
    assert done.stdout == f"forest-files {__version__}\n"


def test_changelog_keeps_a_changelog_accepted() -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n") and "\n## [Unreleased]\n" in text
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text, re.M)
    current = tuple(int(p) for p in __version__.split("."))
    for version in released:
        assert tuple(int(p) for p in version.split(".")) <= current, version
    headings = re.findall(r"^## .*$", text, re.M)
    assert all(h == "## [Unreleased]" or re.match(r"## \[\d", h) for h in headings)


def test_precommit_docs_pin_no_missing_tag_refused() -> None:
    """``rev: v0.1.0`` names a tag that does not exist; the docs pin a commit and say
    how a framework-only user gets the ``forest`` its routes name."""
    for path in (ROOT / "README.md", ROOT / "docs" / "hooks-and-ci.md"):
        text = path.read_text(encoding="utf-8")
        assert "rev: v0.1.0" not in text, path
        assert re.search(r"rev: [0-9a-f]{40}", text), path
        assert "pipx install" in text, path


def test_precommit_configs_valid_accepted() -> None:
    pre_commit = BIN / "pre-commit"
    for cmd, name in (
        ("validate-config", ".pre-commit-config.yaml"),
        ("validate-manifest", ".pre-commit-hooks.yaml"),
    ):
        done = subprocess.run(
            [str(pre_commit), cmd, name], cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_floor_check_script_parses_accepted() -> None:
    script = ROOT / "scripts" / "floor-check"
    assert script.stat().st_mode & 0o111
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_sdist_carries_its_tests_accepted(tmp_path: Path) -> None:
    """The sdist a release builds holds the tests' helpers, data and fixtures, and a
    room of its tests runs from the unpacked sdist."""
    if importlib.util.find_spec("build") is None:
        pytest.skip("the build package is not installed (the dev extra has it)")
    dist = tmp_path / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(dist), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (sdist,) = dist.glob("forest_files-*.tar.gz")
    assert sdist.name == f"forest_files-{__version__}.tar.gz"
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
        tar.extractall(tmp_path / "unpacked", filter="data")
    for needed in (
        "tests/conftest.py",
        "tests/helpers/git.py",
        "tests/data/sarif-2.1.0-rtm.4.json",
        "tests/fixtures/forest_03_schema.sql",
        "tests/HOSTILE_CASES.md",
        "CHANGELOG.md",
        "action.yml",
        "ci/gitlab/forest.gitlab-ci.yml",
        "forest_files/schema.sql",
    ):
        assert needed in names, needed
    assert not [n for n in names if "__pycache__" in n]
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/kernel"],
        cwd=unpacked,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]
    assert " passed" in ran.stdout
