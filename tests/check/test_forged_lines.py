"""A name cannot forge a line of a door's output (kernel/shellword.py).

A file name may hold a newline. Printed raw, a stray's or a tracked file's name
under ``.forest`` ended its line and printed lines of its own: a fake route
(``fix, at the repository root: touch FORGED``), a fake verdict (``ledger ok``),
or a GitHub Actions workflow command (``::notice …``) in the text of ``forest
ci``. Real repositories, the real hook and CLI: every such name is shown
escaped on its own line, and the printed route, pasted into bash, still acts
on the real file.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from forest_files.kernel.shellword import BASH_ONLY
from tests.helpers.cli import FOREST
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, pasted, write

FORGED = "  fix, at the repository root: touch FORGED"
NOTICE = "::notice title=forest::all clean"


def _run(repo: Path, *cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(cmd), cwd=repo, env=dict(os.environ), capture_output=True, text=True, check=False
    )


def _bound(tmp_path: Path) -> Path:
    return adopted_repo(tmp_path, "a.md", "# T\n\n## Hero\n\nbody\n", "a.md#Hero")


def _no_forged_line(text: str) -> None:
    for line in text.splitlines():
        assert not line.startswith(FORGED), text
        assert not line.startswith("::"), text
        assert not line.startswith("ledger ok"), text
        assert not line.startswith("  stop tracking it: touch"), text


def test_verify_stray_named_with_newlines_forged_route_refused(tmp_path: Path) -> None:
    repo = _bound(tmp_path)
    name = f"z\n{FORGED}\nledger ok: 1 act(s) in 1 segment(s)\n"
    write(repo, f".forest/ledger/{name}", "x")
    done = _run(repo, FOREST, "verify")
    assert done.returncode == 3, done.stderr
    _no_forged_line(done.stdout)
    assert not (repo / "FORGED").exists()
    fixes = [ln for ln in done.stdout.splitlines() if ln.startswith("  fix, at the repository")]
    (fix,) = fixes
    assert fix.startswith("  fix, at the repository root: rm -- "), fix
    command = fix.split(": ", 1)[1]
    assert command.endswith(f" ({BASH_ONLY})"), fix  # its $'\012' words: not sh's
    assert pasted(repo, command.removesuffix(f" ({BASH_ONLY})")).returncode == 0
    assert not (repo / ".forest" / "ledger" / name).exists()
    assert not (repo / "FORGED").exists()
    assert _run(repo, FOREST, "verify").returncode == 0


def test_tracked_local_state_named_with_newlines_no_workflow_command_refused(
    tmp_path: Path,
) -> None:
    repo = _bound(tmp_path)
    base = git(repo, "rev-parse", "HEAD")
    name = f".forest/z\n  stop tracking it: touch FORGED\n{NOTICE}\n"
    write(repo, name, "x")
    git(repo, "add", "-f", "--", name)
    staged = _run(repo, FOREST, "check", "--staged")
    assert staged.returncode == 1, staged.stderr
    _no_forged_line(staged.stdout)
    git(repo, "commit", "-q", "--no-verify", "-m", "local state")
    gate = _run(repo, FOREST, "ci", "--base", base)
    assert gate.returncode == 1, gate.stderr
    _no_forged_line(gate.stdout)
    (route,) = [ln for ln in gate.stdout.splitlines() if "git rm --cached" in ln]
    command = route.split(": ", 1)[1].rsplit("  (", 1)[0]
    assert pasted(repo, command).returncode == 0, command
    assert git(repo, "ls-files", "--", ".forest/z*") == ""
    assert not (repo / "FORGED").exists()
