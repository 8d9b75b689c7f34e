"""The watcher and a folder of bound files this user may not read, as a user who is not
root meets it (tests/helpers/unprivileged.py), with a real watchdog observer: the watcher
says the folder's ``chmod`` "then it is judged again", and once that ``chmod`` is run it
is, with no recheck asked and no reconcile waited for, and later edits in the folder are
seen. Before, the folder's own watch was never set (it could not be while unreadable)
and its ``chmod`` raised no event the handler took, so a drifted file in it went unsaid
and the stale problem stayed until the periodic reconcile (300 s by default)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    hand_over,
    handed_copy,
    run_as_user,
    script_beside,
)

DOC = "# Doc\n\nThe sky is blue.\n"
NOTE = "# Note\n\nThe sea is grey.\n"

WATCH = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from forest_files.doors.watch.settings import WatchSettings
    from forest_files.doors.watch.watcher import Watcher

    root = Path(sys.argv[1])
    w = Watcher(root, WatchSettings(quiet=0.1, ceiling=1.0, grace=0.5, reconcile=3600))
    w.start()

    def verdicts(path):
        return [r.detail for r in w.journal.items("verdict") if r.path == path]

    def verdicts_reach(path, n):  # polled: a journal record wakes the wait
        w.journal.wait_for(lambda rs: len(verdicts(path)) >= n, 20)
        return verdicts(path)

    try:
        w.journal.wait_for(lambda rs: any(r.kind in ("reconciled", "error") for r in rs), 60)
        print("NOTE", verdicts_reach("note.md", 1))
        print("BEFORE", verdicts("docs/doc.md"), bool(w.problem))
        os.chmod(root / "docs", 0o755)  # the advice the watcher gave
        print("AFTER", verdicts_reach("docs/doc.md", 1))
        (root / "docs" / "doc.md").write_text(sys.argv[2])  # put back: clean again
        print("EDIT", verdicts_reach("docs/doc.md", 2), repr(w.problem))
    finally:
        w.stop()
    """
)


place = module_place({"docs/doc.md": DOC, "note.md": NOTE}, "docs/doc.md", "note.md")


def test_watch_unreadable_folder_judged_once_its_chmod_is_run(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "watched", hand=False)
    script = script_beside(repo, "watch_unreadable_folder.py", WATCH)
    (repo / "docs" / "doc.md").write_text(DOC.replace("blue", "green"))  # drifted
    (repo / "note.md").write_text(NOTE.replace("grey", "red"))
    hand_over(repo)
    (repo / "docs").chmod(0)

    done = run_as_user(repo, f"python3 {script} {repo} '{DOC}'", bin_dir)

    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "NOTE ['drifted']" in out, out
    assert "BEFORE [] True" in out, out  # said unreadable, not judged missing
    assert "AFTER ['drifted']" in out, out  # judged once readable, no recheck asked
    assert "EDIT ['drifted', 'clean'] ''" in out, out  # its edits now seen; problem gone
