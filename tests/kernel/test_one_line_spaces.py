"""The one error line joins line breaks only: a run of spaces in a quoted file name
stays, so the printed command names the same file when pasted."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

from forest_files.kernel.errors import ForestError
from forest_files.kernel.exits import one_line
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, pasted, write


def _route(line: str) -> str:
    found = re.search(r"`([^`]+)`", line)
    assert found, line
    return found.group(1)


def test_one_line_joins_line_breaks_keeps_other_spaces_accepted() -> None:
    exc = ForestError("  first  part\r\n   then\ttab\n\nlast  ")
    assert one_line(exc) == "first  part then\ttab last"


def test_already_bound_name_with_two_spaces_route_pasted_recovers(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "two  sp.md", "# T\n\nfirst\n")
    ok(repo, "adopt", "two  sp.md", "--words", "first")
    commit_all(repo, "adopt")
    write(repo, "two  sp.md", "# T\n\nsecond\n")
    result = forest(repo, "adopt", "two  sp.md", "--words", "again")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    route = _route(line)
    assert route == "forest supersede 'two  sp.md' --words '…'"
    done = pasted(repo, route.replace("'…'", "'second words'"))
    assert done.returncode == 0, done.stderr
    assert "two  sp.md" in done.stdout


def test_restore_gone_directory_with_two_spaces_route_pasted_recovers(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    target = "d  ir/x.md"
    write(repo, target, "# X\n\nX.\n")
    ok(repo, "adopt", target, "--words", "first")
    commit_all(repo, "adopt")
    shutil.rmtree(repo / "d  ir")
    result = forest(repo, "restore", target)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    route = _route(line)
    assert route == f"mkdir -p 'd  ir' && forest restore {shlex.quote(target)}"
    done = pasted(repo, route)
    assert done.returncode == 0, done.stderr
    assert (repo / target).read_text(encoding="utf-8") == "# X\n\nX.\n"
