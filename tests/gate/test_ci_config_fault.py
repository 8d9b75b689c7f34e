"""``forest ci`` with a broken forest.toml at HEAD still writes a complete report in
every format (stdout and ``--report``): the fault is a finding, exit 1."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
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


BAD, FIXED = "docs/b\x1b[31m.md", "docs/b_[31m.md"


def _without_argv(obj: object, argvs: list[object]) -> object:
    """``obj`` with each route's ``argv`` taken out into ``argvs``."""
    if isinstance(obj, dict):
        if "argv" in obj:
            argvs.append(obj["argv"])
        return {k: _without_argv(v, argvs) for k, v in obj.items() if k != "argv"}
    if isinstance(obj, list):
        return [_without_argv(v, argvs) for v in obj]
    return obj


def _strings(obj: object) -> set[str]:
    if isinstance(obj, dict):
        return set().union(*map(_strings, obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*map(_strings, obj)) if obj else set()
    return {obj} if isinstance(obj, str) else set()


def test_ci_control_character_path_every_format_detected(tmp_path: Path) -> None:
    """Hostile: a required file named with an escape sequence. Every format is written
    whole and valid, never holding it raw (XML forbids it, a terminal would obey it):
    text, JUnit and GitHub show it as ``\\x1b``; JSON and SARIF carry the exact name
    (JSON-escaped, ``\\u001b``) where a finding names it, and the escaped one in their
    messages; the rename route quotes it as ``$'\\033'``, its argv holds it exact."""
    root = make_repo(tmp_path)
    write(root, "docs/a.md", "# A\n\ntext\n")
    commit_all(root, "a")
    ok(root, "init")
    config = root / "forest.toml"
    config.write_text(config.read_text() + '\n[require]\n"docs/*.md" = { bind = "file" }\n')
    ok(root, "adopt", "docs/a.md", "--words", "the first words", "--as", "Ada <ada@example.org>")
    write(root, "docs/b\x1b[31m.md", "text\n")
    commit_all(root, "a file with an escape in its name")
    out = tmp_path / "reports"
    specs = [f"{f}={out}/r.{f}" for f in ("text", "json", "sarif", "junit", "github")]
    result = forest(root, "ci", *[a for s in specs for a in ("--report", s)])
    assert result.exit_code == 1, result.stderr
    for fmt in ("text", "json", "sarif", "junit", "github"):
        text = (out / f"r.{fmt}").read_text(encoding="utf-8")
        if fmt in ("json", "sarif"):  # the rename's argv names the file as it is
            argvs: list[object] = []
            text = json.dumps(_without_argv(json.loads(text), argvs))
            assert argvs == [[["git", "--literal-pathspecs", "mv", "--", BAD, FIXED]]], argvs
            assert "mv -- docs/b$'" in text, fmt  # the command quotes it as $'\\033'
            assert BAD in _strings(json.loads(text)), fmt  # a finding's exact name
        assert "\x1b" not in text, fmt
        if fmt == "sarif":
            text = text.replace("\\\\", "\\")  # JSON writes the backslash twice
        if fmt != "json":  # JSON has no message: only the exact name
            assert "docs/b\\x1b[31m.md" in text, fmt
    ET.parse(out / "r.junit")


def test_ci_branch_forked_before_custody_every_format_detected(tmp_path: Path) -> None:
    """A pull request forked before ``forest init`` reached main: HEAD has no
    forest.toml. Every format is still written whole (it wrote nothing, exit 1 with
    one line saying ``forest init``, a route that would start a second custody); the
    finding names the merge of the base, and that route pasted lets the gate pass."""
    root = make_repo(tmp_path)
    write(root, "a.md", "# A\n\ntext\n")
    commit_all(root, "a")
    git(root, "branch", "old")
    ok(root, "init")
    ok(root, "adopt", "a.md", "--words", "the first words", "--as", "Ada <ada@example.org>")
    commit_all(root, "custody")
    git(root, "checkout", "-q", "old")
    write(root, "README.md", "readme\n")
    commit_all(root, "an old pull request")
    out = tmp_path / "reports"
    specs = [f"{f}={out}/r.{f}" for f in ("text", "json", "sarif", "junit", "github")]
    result = forest(root, "ci", "--base", "main", *[a for s in specs for a in ("--report", s)])
    assert result.exit_code == 1, result.stderr
    (found,) = json.loads((out / "r.json").read_text())["findings"]
    assert "forest init" not in found["detail"] and "main" in found["detail"]
    (route,) = found["routes"]
    assert json.loads((out / "r.sarif").read_text())["runs"][0]["results"]
    assert ET.parse(out / "r.junit").getroot().get("failures") == "1"
    assert (out / "r.github").read_text().startswith("::error file=forest.toml")
    assert route["command"] in (out / "r.text").read_text()
    done = pasted(root, route["command"])
    assert done.returncode == 0, done.stderr
    assert forest(root, "ci", "--base", "main").exit_code == 0
