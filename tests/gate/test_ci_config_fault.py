"""``forest ci`` with a broken forest.toml at HEAD still writes a complete report in
every format (stdout and ``--report``): the fault is a finding, exit 1."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.template import built_once, copy_repo


def _build(tmp: Path) -> Path:
    root = make_repo(tmp)
    write(root, "a.md", "# A\n\ntext\n")
    commit_all(root, "a")
    ok(root, "init")
    ok(root, "adopt", "a.md", "--words", "the first words", "--as", "Ada <ada@example.org>")
    commit_all(root, "custody")
    write(root, "forest.toml", "x = " + "[" * 3000 + "]" * 3000 + "\n")
    commit_all(root, "a broken forest.toml")
    return root


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _build)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_ci_broken_config_every_format_detected(template: Path, tmp_path: Path, fmt: str) -> None:
    root = copy_repo(template, tmp_path / "r")
    out = tmp_path / "reports"
    result = forest(
        root, "ci", "--format", fmt, "--report", f"json={out}/r.json",
        "--report", f"sarif={out}/r.sarif", "--report", f"junit={out}/r.xml",
    )  # fmt: skip
    assert result.exit_code == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "forest.toml" in result.stdout
    if fmt in ("json", "sarif"):
        json.loads(result.stdout)
    if fmt == "junit":
        ET.fromstring(result.stdout)
    kinds = [f["kind"] for f in json.loads((out / "r.json").read_text())["findings"]]
    assert "config-governance" in kinds
    assert json.loads((out / "r.sarif").read_text())["runs"][0]["results"]
    assert ET.parse(out / "r.xml").getroot().get("failures") == "1"
