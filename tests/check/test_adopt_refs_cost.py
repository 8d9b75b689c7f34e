"""``forest adopt``'s warning about definitions outside a section costs no git process
per file: the adoption's git calls are the same for 2 files and for 12. Counted from
git's own trace (``GIT_TRACE``), real processes. (Its first cut re-ran the refusal
checks per file, one set of git calls each: 200 s for 10,000 files.)

Test: forest_files/check/adopt_refs.py (unheld, _document).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.gittrace import git_traced

ADA = "Ada Lovelace <ada@example.org>"


def _git_calls(tmp_path: Path, n: int, monkeypatch: pytest.MonkeyPatch) -> int:
    root = make_repo(tmp_path, f"repo{n}")
    Repository.init(root, project_id="p-cost").close()
    for i in range(n):  # each file's section uses a link defined outside it
        write(
            root,
            f"docs/d{i}.md",
            f"# D{i}\n\n## Terms\n\nSee [the rules][r].\n\n## Notes\n\n[r]: https://example.org/{i}\n",
        )
    commit_all(root, "files")
    trace = tmp_path / f"trace{n}"
    args = ["adopt", "docs/*.md#Terms", "--words", "Adopted terms", "--as", ADA, "-y", "-C"]
    with git_traced(monkeypatch, trace):
        result = CliRunner().invoke(app, [*args, str(root)])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stderr.count("uses [r]") == n, result.stderr  # every section warned
    return sum(1 for line in trace.read_text(encoding="utf-8").splitlines() if "git " in line)


def test_adopt_outside_definitions_warning_git_calls_per_file_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _git_calls(tmp_path, 12, monkeypatch) == _git_calls(tmp_path, 2, monkeypatch)
