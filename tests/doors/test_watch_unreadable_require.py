"""The watcher's ``[require]`` coverage and error count while a file is unreadable, as
a user who is not root meets it (tests/helpers/unprivileged.py), with a real watchdog
observer. A bound file unreadable: a required file no binding covers, beside it, is
reported ``unbound`` at once (before, a full recheck judged only the readable bound
files, so the ``[require]`` finding waited for the unreadable file's ``chmod``). A
required file nothing binds unreadable: it is said once with its ``chmod``, every other
file is judged meanwhile, and once readable it is reported ``unbound`` (before, nothing
at all was said of it: check/coverage.py took read()'s None for "not a regular file").
Either way each check that meets the unreadable file counts in ``error_count`` (the
daemon state) until it is readable (before, it stayed 0 while ``problem`` named it)."""

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
from tests.helpers.watch import RECHECK

DOC = "# Doc\n\nThe sky is blue.\n"
NOTE = "# Note\n\nThe sea is grey.\n"

WATCH = RECHECK + textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from forest_files.doors.watch.settings import WatchSettings
    from forest_files.doors.watch.watcher import Watcher

    root, shut = Path(sys.argv[1]), sys.argv[2]
    w = Watcher(root, WatchSettings(quiet=0.1, ceiling=1.0, grace=0.5, reconcile=3600))
    w.start()

    def show(tag):
        found = sorted(f"{r.finding.kind} {r.finding.path}" for r in w.open_findings())
        said = sum("chmod" in e and shut in e for e in w.errors)
        print(tag, found, w.error_count, said, bool(w.problem))

    try:
        w.journal.wait_for(lambda rs: any(r.kind == "reconciled" for r in rs), 60)
        show("START")
        assert recheck(w)
        show("AGAIN")
        os.chmod(root / shut, 0o644)
        assert recheck(w)
        show("READABLE")
    finally:
        w.stop()
    """
)


place = module_place({"doc.md": DOC, "note.md": NOTE}, "doc.md", "note.md")


def test_watch_unreadable_bound_file_require_judged_beside_it_detected(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "watched", hand=False)
    script = script_beside(repo, "watch_require_unreadable.py", WATCH)
    with (repo / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"*.md" = "file"\n')
    (repo / "new.md").write_text("# New\n\nNot bound yet.\n")  # required, bound by none
    (repo / "doc.md").chmod(0)
    hand_over(repo)

    done = run_as_user(repo, f"python3 {script} {repo} doc.md", bin_dir)

    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "START ['unbound new.md'] 1 1 True" in out, out  # not withheld for doc.md
    assert "AGAIN ['unbound new.md'] 3 1 True" in out, out  # both checks of the recheck counted
    assert "READABLE ['unbound new.md'] 3 1 False" in out, out


def test_watch_unreadable_required_file_said_once_others_judged_recovers(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "watched-required", hand=False)
    script = script_beside(repo, "watch_required_unreadable.py", WATCH)
    with (repo / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"*.md" = "file"\n')
    (repo / "note.md").write_text(NOTE.replace("grey", "green"))  # drifted meanwhile
    (repo / "new.md").write_text("# New\n\nNot bound yet.\n")  # required, bound by none
    (repo / "new.md").chmod(0)
    hand_over(repo)

    done = run_as_user(repo, f"python3 {script} {repo} new.md", bin_dir)

    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "START ['drifted note.md'] 1 1 True" in out, out  # the rest judged, said once
    assert "AGAIN ['drifted note.md'] 3 1 True" in out, out  # counted, not said again
    assert "READABLE ['drifted note.md', 'unbound new.md'] 3 1 False" in out, out
