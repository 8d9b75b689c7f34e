"""The move search and a file this user may not read, at ``forest check`` and the watcher,
as a user who is not root meets it (tests/helpers/unprivileged.py).

A bound file moved away with a plain ``mv``: an unreadable file elsewhere in the tree
is passed by and the moved file still found (``moved``). Moved into a file this user
may not read, the search cannot find it: the ``missing`` finding says the file was not
searched, with the ``chmod`` that gives it back (kernel/access.py), and once that is
run the file is found where it stands. Before, the finding said only "the bound file
is gone", as if the whole tree had been searched. Neither is the batch's error.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    hand_over,
    handed_copy,
    run_as_user,
    script_beside,
)
from tests.helpers.watch import RECHECK

DOC = "# Doc\n\nThe sky is blue.\n"
NOTE = "# Note\n\nThe sea is grey.\n"

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
        w.journal.wait_for(lambda rs: any(r.kind == "reconciled" for r in rs), 60)
        assert recheck(w)  # a full recheck begun after now, waited for
        for r in w.open_findings():
            print("OPEN", r.finding.kind, r.finding.detail)
        print("PROBLEM", repr(w.problem), w.error_count)
    finally:
        w.stop()
    """
)


place = module_place({"doc.md": DOC, "note.md": NOTE}, "doc.md")


def _moved(base: Path, name: str, shut: str) -> Path:
    """A copy of ``base`` whose ``doc.md`` was moved to ``moved.md``, ``shut`` at mode
    ``000``, handed to the unprivileged user."""
    repo = handed_copy(base, name, hand=False)
    (repo / "doc.md").rename(repo / "moved.md")
    (repo / shut).chmod(0)
    hand_over(repo)
    return repo


def _findings(repo: Path, bin_dir: Path) -> tuple[int, list[dict[str, object]], str]:
    done = run_as_user(repo, "forest check --json", bin_dir)
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)["findings"], done.stderr


def test_check_move_search_unreadable_file_passed_by_detected(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    apart = _moved(base, "apart", "note.md")  # another file unreadable: passed by
    code, found, err = _findings(apart, bin_dir)
    assert code == 1, err
    assert [(f["kind"], f["moved_to"]) for f in found] == [("moved", "moved.md")], found
    assert "not searched" not in str(found[0]["detail"])

    hidden = _moved(base, "hidden", "moved.md")  # the moved file itself unreadable
    code, found, err = _findings(hidden, bin_dir)
    assert code == 1, err
    assert [f["kind"] for f in found] == ["missing"], found
    fix = f"chmod u+rwX {hidden} {hidden / 'moved.md'}"
    said = f"moved.md was not searched: this user may not read it ({fix}, then check again)"
    assert found[0]["detail"] == f"the bound file is gone; {said}", found
    text = run_as_user(hidden, "forest check", bin_dir)
    assert f"missing doc.md the bound file is gone; {said}" in text.stdout, text.stdout

    both = _moved(base, "both", "moved.md")  # two files passed by: the first named
    (both / "note.md").chmod(0)
    code, found, err = _findings(both, bin_dir)
    fix2 = f"chmod u+rwX {both} {both / 'moved.md'}"
    said2 = f"2 files were not searched: this user may not read them, moved.md the first ({fix2}"
    assert found[0]["detail"] == f"the bound file is gone; {said2}, then check again)", found

    done = run_as_user(hidden, fix, bin_dir)  # the command said, pasted
    assert done.returncode == 0, done.stderr
    code, found, err = _findings(hidden, bin_dir)
    assert [(f["kind"], f["moved_to"]) for f in found] == [("moved", "moved.md")], found


def test_watch_move_search_unreadable_file_passed_by_detected(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = _moved(base, "watched", "moved.md")
    script = script_beside(repo, "watch_move_unreadable.py", WATCH)

    done = run_as_user(repo, f"python3 {script} {repo}", bin_dir)

    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    fix = f"chmod u+rwX {repo} {repo / 'moved.md'}"
    said = f"moved.md was not searched: this user may not read it ({fix}, then check again)"
    assert f"OPEN missing the bound file is gone; {said}" in out, out
    assert "PROBLEM '' 0" in out, out  # no file the watcher judges is unreadable
