"""``forest ci``'s route for a stray committed under .forest/ledger, labelled "remove it
and commit", pasted where the forest hooks are installed: it commits the removal, so
the gate passes with nothing more typed.

The route ran only ``git rm``: pasted, HEAD still held the stray and the gate still
refused it. It now commits that path alone (``git commit -m … -- PATH``), as the
gate's other routes carry their commit, leaving any other staged work staged.

Real repositories, the hooks installed by ``forest hooks install``, the routes pasted
into bash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.gate.ci import run_gate
from tests.helpers.cli import ok
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, pasted_under_hooks, write

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

LEDGER = ".forest/ledger"


def test_ci_stray_committed_remove_and_commit_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    ok(root, "hooks", "install")
    git(root, "checkout", "-q", "-b", "feature")
    write(root, f"{LEDGER}/segments/notes.txt", "forged\n")
    write(root, f"{LEDGER}/odd/y.txt", "a directory\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "strays")
    report = run_gate(root, "main")
    assert not report.ok
    strays = [f for f in report.check.extra if "stray:" in f.finding.detail]
    assert sorted(f.finding.path for f in strays) == [
        f"{LEDGER}/odd",
        f"{LEDGER}/segments/notes.txt",
    ]
    write(root, "c.md", "other work, staged\n")
    git(root, "add", "--", "c.md")
    for found in strays:
        (route,) = found.routes
        assert route.label == "remove it and commit"
        pasted_under_hooks(root, route.command)
    assert run_gate(root, "main").ok
    assert git(root, "diff", "--cached", "--name-only") == "c.md"  # still staged, alone
