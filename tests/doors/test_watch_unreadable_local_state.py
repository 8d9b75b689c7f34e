"""The watcher and tracked local state (a file under ``.forest/`` git tracks, not the
ledger) beside a bound file this user may not read (mode ``000``), as a user who is not
root meets it (tests/helpers/unprivileged.py), the work tree's root at ``0755``, or one
this user may enter and write but not list (``0311``, ``0300``).

With a file it may not read, the watcher judges the whole tree but that file
(check/apart.py ``rest``): its entries are the root's listing. Before, a root it could
not list gave no entries but the bound paths, so ``.forest`` was never among them and a
tracked ``.forest/`` file passed unsaid, while at ``0755`` (and through ``forest
check``, once the file is readable) it is a ``tracked-local-state`` finding. Now it is
said whatever the root's mode.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.helpers.git import git
from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    hand_over,
    handed_copy,
    run_as_user,
    script_beside,
)
from tests.helpers.watch import RECHECK

DOC = "# Doc\n\nThe sky is blue.\n"

WATCH = RECHECK + textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from forest_files.doors.watch.settings import WatchSettings
    from forest_files.doors.watch.watcher import Watcher

    root = Path(sys.argv[1])
    w = Watcher(root, WatchSettings(quiet=0.1, ceiling=1.0, grace=0.5, reconcile=3600))
    w.start()
    try:
        w.journal.wait_for(lambda rs: any(r.kind in ("reconciled", "error") for r in rs), 60)
        assert recheck(w)  # a full recheck begun after the start-up one ended
        print("OPEN", sorted((r.finding.kind, r.finding.path) for r in w.open_findings()))
    finally:
        w.stop()
    """
)


place = module_place({"a.md": DOC, "b.md": DOC}, "a.md", "b.md")


@pytest.mark.parametrize("mode", [0o755, 0o311, 0o300], ids=oct)
def test_watch_tracked_local_state_root_unlisted_detected(
    place: tuple[Path, Path], mode: int
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, f"watched-{mode:o}", hand=False)
    (repo / ".forest" / "woods.db").write_text("a machine's own index\n")
    git(repo, "add", "-f", ".forest/woods.db")
    git(repo, "commit", "-qm", "local state committed")
    script = script_beside(repo, "watch_local_state.py", WATCH)
    hand_over(repo)
    (repo / "a.md").chmod(0)
    repo.chmod(mode)
    try:
        done = run_as_user(repo, f"python3 {script} {repo}", bin_dir)
    finally:
        repo.chmod(0o755)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "OPEN [('tracked-local-state', '.forest/woods.db')]" in done.stdout, done.stdout
    (repo / "a.md").chmod(0o644)
    said = run_as_user(repo, "forest check", bin_dir)  # the file readable: check says it
    assert said.returncode == 1 and "tracked-local-state .forest/woods.db" in said.stdout, said
