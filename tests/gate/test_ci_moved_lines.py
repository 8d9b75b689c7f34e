"""A ``moved`` finding carries the lines where its unchanged text stands now, so every
``forest ci`` format points at them: text's ``lines A-B``, JSON's ``start_line`` and
``end_line``, SARIF's ``region``, GitHub's ``line=``/``endLine=``, JUnit's ``where``.
The moved search knew the copy's first line and dropped it: annotations and SARIF
named the file only. A whole file moved names no lines (the file is the place)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from forest_files.gate.ci import run_gate
from forest_files.gate.render import render
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, write

B = "# B\n\nbeta\n"


def _moved_section(tmp_path: Path) -> Path:
    """``a.md#B`` adopted on main; ``feat`` cuts it out of a.md and pastes it at lines
    7-9 of b.md, committed past the hook."""
    repo = make_repo(tmp_path)
    write(repo, "a.md", f"# A\n\nalpha\n\n{B}")
    write(repo, "b.md", "# Other\n\nx\n\ny\n")
    write(repo, "whole.md", "whole\n")
    init_and_adopt(repo, ["a.md#B", "whole.md"])
    commit_all(repo, "adopt")
    git(repo, "checkout", "-q", "-b", "feat")
    write(repo, "a.md", "# A\n\nalpha\n")
    write(repo, "b.md", f"# Other\n\nx\n\ny\n\n{B}")
    git(repo, "mv", "whole.md", "renamed.md")
    commit_all(repo, "move B to b.md, rename whole.md")
    return repo


def test_ci_moved_section_lines_in_every_format_detected(tmp_path: Path) -> None:
    report = run_gate(_moved_section(tmp_path), "main")
    doc = json.loads(render(report, "json"))
    moved = {f["path"]: f for f in doc["findings"] if f["kind"] == "moved"}
    assert (moved["a.md"]["start_line"], moved["a.md"]["end_line"]) == (7, 9), moved
    assert moved["a.md"]["moved_to"] == "b.md#B"
    assert (moved["whole.md"]["start_line"], moved["whole.md"]["end_line"]) == (None, None)
    # the lines are b.md's: said after the place they are of, never after a.md#B
    assert "moved a.md#B its unchanged text stands at b.md#B lines 7-9" in render(report, "text")
    sarif: Any = json.loads(render(report, "sarif"))
    located = {
        r["properties"]["selector"]: r["locations"][0]["physicalLocation"]
        for r in sarif["runs"][0]["results"]
    }
    assert located["a.md#B"] == {
        "artifactLocation": {"uri": "b.md"},
        "region": {"startLine": 7, "endLine": 9},
    }
    assert located["whole.md"] == {"artifactLocation": {"uri": "renamed.md"}}
    github = render(report, "github")
    assert "::error file=b.md,line=7,endLine=9,title=forest/moved::" in github, github
    junit = ET.fromstring(render(report, "junit"))
    texts = [f.text or "" for f in junit.iter("failure")]
    assert any("where: b.md:7-9" in t for t in texts), texts
