"""A ``.gitattributes`` clean filter added after adoption: the staged blob is the
filter's output, so the hook and ``forest check --staged`` reported drift (or "not
valid Python") while the working tree was clean, with no word about the filter. The
finding now names the attribute and the ``git check-attr -a -- PATH`` that shows it;
a staged edit with no conversion says nothing of the kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.check.staged import judge_staged
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, git, make_repo, write

SOURCE = "def total():\n    return 1\n"


def _adopted(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "m.py", SOURCE)
    ok(root, "adopt", "m.py::total", "--words", "Signed off")
    commit_all(root, "adopt")
    return root


def _staged_details(root: Path) -> list[str]:
    out = json.loads(forest(root, "check", "--staged", "--json").stdout)
    return [f["detail"] for f in out["findings"]]


@pytest.mark.slow  # three checks of one repository: > 0.5 s
def test_clean_filter_added_after_adoption_named_at_staged_check_and_hook_detected(
    tmp_path: Path,
) -> None:
    root = _adopted(tmp_path)
    git(root, "config", "filter.bump.clean", "sed s/return/yield/")
    git(root, "config", "filter.bump.smudge", "cat")
    with (root / ".gitattributes").open("a") as f:
        f.write("*.py filter=bump\n")
    git(root, "add", "--renormalize", "--", ".gitattributes", "m.py")
    assert [f["kind"] for f in findings(root)] == ["clean"]  # the working tree is clean
    (staged,) = _staged_details(root)
    hook = [r.finding.detail for r in judge_staged(root).items if r.finding.failed]
    for detail in (staged, *hook):
        assert "filter=bump" in detail and "git check-attr -a -- m.py" in detail, detail
    assert len(hook) == 1


def test_staged_edit_without_conversion_no_filter_clause_detected(tmp_path: Path) -> None:
    root = _adopted(tmp_path)
    write(root, "m.py", SOURCE.replace("1", "2"))
    git(root, "add", "m.py")
    (staged,) = _staged_details(root)
    assert "conversion" not in staged and "check-attr" not in staged
