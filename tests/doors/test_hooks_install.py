"""``forest hooks install`` is all or nothing (doors/hooks/installer.py).

Real repositories, hooks folder of git's own. A foreign hook that cannot be
moved (immutable: the tests may run as root) refused the install after three of
five hooks were written, as an internal error; a directory where a hook goes was
"chained" and every later commit failed. Both are refused now with one line, and
the hooks folder is left exactly as it was.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.doors.cli import app
from tests.helpers.git import make_repo, write
from tests.helpers.immutable import immutable

runner = CliRunner()


def _hooks(repo: Path) -> dict[str, bytes | None]:
    folder = repo / ".git" / "hooks"
    return {
        p.name: (None if p.is_dir() else p.read_bytes())
        for p in sorted(folder.iterdir())
        if not p.name.endswith(".sample")
    }


def test_hooks_install_foreign_hook_immutable_nothing_installed_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    foreign = write(repo, ".git/hooks/post-checkout", "#!/bin/sh\necho mine\n")
    foreign.chmod(0o755)
    before = _hooks(repo)
    with immutable(foreign):
        result = runner.invoke(app, ["hooks", "install", "--repo", str(repo)])
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "cannot be written" in line and "no hook was installed" in line, line
    assert "internal error" not in line
    assert _hooks(repo) == before
    assert runner.invoke(app, ["hooks", "install", "--repo", str(repo)]).exit_code == 0


def test_hooks_install_directory_named_like_a_hook_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".git" / "hooks" / "pre-commit").mkdir()
    before = _hooks(repo)
    result = runner.invoke(app, ["hooks", "install", "--repo", str(repo)])
    assert result.exit_code == 1, result.output
    assert "is a directory; git runs a hook from a file there" in result.stderr
    assert _hooks(repo) == before
