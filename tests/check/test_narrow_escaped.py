"""``forest check x\\#y.md``: the escaped spelling status, routes and log print
checks the same file as ``forest check 'x#y.md'``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write


def _paths(repo: Path, arg: str) -> list[tuple[str, str]]:
    result = forest(repo, "check", "--json", arg)
    assert result.exit_code in (0, 1), (arg, result.output)
    return [(f["kind"], f["path"]) for f in json.loads(result.stdout)["findings"]]


def test_check_escaped_whole_file_selector_names_the_file_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "x#y.md", "# T\n\nwords\n")
    write(repo, "d#e/z.md", "# T\n\nmore\n")
    write(repo, "other.md", "# T\n\nelse\n")
    for target in ("x\\#y.md", "d\\#e/z.md", "other.md"):
        ok(repo, "adopt", target, "--words", "first")
    commit_all(repo, "adopt")
    assert "x\\#y.md" in ok(repo, "status").stdout
    for arg in ("x\\#y.md", "x#y.md"):
        assert "1 binding(s) checked" in ok(repo, "check", arg).stdout
        assert _paths(repo, arg) == [("clean", "x#y.md")]
    assert _paths(repo, "d\\#e") == _paths(repo, "d#e") == [("clean", "d#e/z.md")]
    write(repo, "x#y.md", "# T\n\nchanged\n")
    assert forest(repo, "check", "x\\#y.md").exit_code == 1
    assert _paths(repo, "x\\#y.md") == [("drifted", "x#y.md")]
    assert _paths(repo, "other.md") == [("clean", "other.md")]
    missed = forest(repo, "check", "nope\\#.md")
    assert missed.exit_code == 2 and "names no binding" in missed.stderr
