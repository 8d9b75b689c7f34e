"""The watcher meeting a file forest.toml's ``[require]`` asks for, bound by nothing,
that the user who runs it (not root: tests/helpers/unprivileged.py) may not read, with
a real watchdog observer: the file is said once with its ``chmod``, every other file is
judged meanwhile, and each check that meets it counts in ``error_count``; once readable
it is reported ``unbound``. (Before: nothing at all was said of it and error_count
stayed 0: check/coverage.py took read()'s None for "not a regular file".)"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.unprivileged import (
    adopted_place,
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

    def recheck():
        n = w.journal.counts.get("reconciled", 0)
        w.collector.hold({}, frozenset({"full"}), 0.0)
        return w.journal.wait_for(lambda rs: w.journal.counts.get("reconciled", 0) > n, 60)

    def show(tag):
        found = sorted(f"{r.finding.kind} {r.finding.path}" for r in w.open_findings())
        said = sum("chmod" in e and "new.md" in e for e in w.errors)
        print(tag, found, w.error_count, said, bool(w.problem))

    try:
        w.journal.wait_for(lambda rs: any(r.kind == "reconciled" for r in rs), 60)
        show("START")
        recheck()
        show("AGAIN")
        os.chmod(root / "new.md", 0o644)
        recheck()
        show("READABLE")
    finally:
        w.stop()
    """
)


@pytest.fixture(scope="module")
def place() -> Iterator[tuple[Path, Path]]:
    with adopted_place({"doc.md": DOC, "note.md": NOTE}, "doc.md", "note.md") as made:
        yield made


def test_watch_unreadable_required_file_said_once_others_judged_recovers(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "watched", hand=False)
    script = script_beside(repo, "watch_required_unreadable.py", WATCH)
    with (repo / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"*.md" = "file"\n')
    (repo / "note.md").write_text(NOTE.replace("grey", "green"))  # drifted meanwhile
    (repo / "new.md").write_text("# New\n\nNot bound yet.\n")  # required, bound by none
    (repo / "new.md").chmod(0)
    hand_over(repo)

    done = run_as_user(repo, f"python3 {script} {repo}", bin_dir)

    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "START ['drifted note.md'] 1 1 True" in out, out  # the rest judged, said once
    assert "AGAIN ['drifted note.md'] 2 1 True" in out, out  # counted, not said again
    assert "READABLE ['drifted note.md', 'unbound new.md'] 2 1 False" in out, out
