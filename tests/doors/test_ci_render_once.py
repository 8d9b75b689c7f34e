"""``forest ci`` renders each format of a run once (doors/gatecmd.py ``_rendered``),
however many of stdout and the ``--report`` files take it: ``--format json --report
json=FILE`` built the 5.7 MB JSON report of 10,000 bindings twice, and each more file
of one format once more. No timing is asserted: the renderer's calls are counted, and
every file is checked to hold what stdout printed, byte for byte."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files.gate import render as gate_render
from forest_files.gate.ci import GateReport
from tests.helpers.cli import forest
from tests.helpers.custody import DOC, init_and_adopt
from tests.helpers.git import commit_all, make_repo, write


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each format's renderer runs from here on."""
    counted: Counter[str] = Counter()

    def counting(kind: str, real: Callable[[GateReport], str]) -> Callable[[GateReport], str]:
        def run(report: GateReport) -> str:
            counted[kind] += 1
            return real(report)

        return run

    for kind, real in dict(gate_render._RENDERERS).items():
        monkeypatch.setitem(gate_render._RENDERERS, kind, counting(kind, real))
    return counted


@pytest.mark.parametrize("fmt", ["json", "sarif", "text"])
def test_ci_format_also_reported_twice_rendered_once_accepted(
    tmp_path: Path, renders: Counter[str], fmt: str
) -> None:
    root = make_repo(tmp_path, "repo")
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#Keep"])
    commit_all(root, "adopt")
    one, two = tmp_path / "one.out", tmp_path / "two.out"
    other = tmp_path / "junit.xml"
    done = forest(
        root,
        "ci",
        "--format",
        fmt,
        "--report",
        f"{fmt}={one}",
        "--report",
        f"{fmt}={two}",
        "--report",
        f"junit={other}",
    )
    assert done.exit_code == 0, done.output
    assert renders == Counter({fmt: 1, "junit": 1})
    assert one.read_text(encoding="utf-8") == done.stdout
    assert two.read_text(encoding="utf-8") == done.stdout
    assert other.read_text(encoding="utf-8").startswith("<?xml")
