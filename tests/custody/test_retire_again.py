"""``forest retire`` typed again once it succeeded: a no-op refusal saying the binding is
retired already, naming the retire act, when and by whom (it said "no binding", as for
a target nothing ever bound); nothing is recorded, the ledger stays byte-identical."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import forest_files.doors.cli  # noqa: F401  (registers every command)
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, pasted, write

CANON = "# Canon\n\nIntro.\n\n## Rules\n\nThe first rule stands.\n\n## Elsewhere\n\nOther.\n"


def _ledger(repo: Path) -> dict[str, bytes]:
    root = repo / ".forest" / "ledger"
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path)
    ok(path, "init")
    write(path, "canon.md", CANON)
    commit_all(path, "init")
    ok(path, "adopt", "canon.md#Rules", "--words", "adopted")
    commit_all(path, "adopt")
    return path


def _retire_id(out: str) -> str:
    found = re.search(r"\(binding ([0-9a-f]{12})\)", out)
    assert found, out
    return found[1]


@pytest.mark.parametrize("typed", ["canon.md#Rules", "canon.md#Canon/Rules"])
def test_retire_typed_again_says_retired_already_refused(repo: Path, typed: str) -> None:
    ok(repo, "retire", "canon.md#Rules", "--words", "This rule is gone")
    commit_all(repo, "retired")
    before = _ledger(repo)
    again = forest(repo, "retire", typed, "--words", "This rule is gone")
    assert again.exit_code == 1, again.stdout
    line = again.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("forest: "), line
    assert "retired already" in line and "no binding" not in line, line
    assert "by Test Author <author@example.org>: “This rule is gone”" in line, line
    assert re.search(r"act [0-9a-f]{12}", line) and re.search(r"\d{4}-\d\d-\d\dT", line), line
    assert "nothing was recorded" in line, line
    assert _ledger(repo) == before
    route = re.search(r"`([^`]+)`", line)
    assert route and route[1] == "forest log 'canon.md#Canon/Rules'", line
    shown = pasted(repo, route[1])
    assert shown.returncode == 0 and "(retired)" in shown.stdout, shown.stderr


def test_retire_again_after_a_second_adoption_names_the_last_retire_refused(
    repo: Path,
) -> None:
    ok(repo, "retire", "canon.md#Rules", "--words", "first end")
    ok(repo, "adopt", "canon.md#Rules", "--words", "adopted again")
    second = _retire_id(ok(repo, "retire", "canon.md#Rules", "--words", "second end").stdout)
    again = forest(repo, "retire", "canon.md#Rules", "--words", "third")
    assert again.exit_code == 1
    line = again.stderr.strip()
    assert f"binding {second}" in line and "“second end”" in line, line
    assert "first end" not in line, line


def test_retire_of_a_section_never_bound_still_says_no_binding_refused(repo: Path) -> None:
    again = forest(repo, "retire", "canon.md#Elsewhere", "--words", "never bound")
    assert again.exit_code == 1
    assert "no binding" in again.stderr and "retired" not in again.stderr, again.stderr
