"""The watcher's ``[require]`` coverage and error count while a bound file is unreadable,
as a user who is not root meets it (tests/helpers/unprivileged.py), with a real
watchdog observer: a required file no binding covers, beside the unreadable one, is
reported ``unbound`` at once, and every check that meets the unreadable file counts in
``error_count`` (the daemon state) until it is readable. Before, a full recheck judged
only the readable bound files, so the ``[require]`` finding waited for the unreadable
file's ``chmod``, and ``error_count`` stayed 0 while ``problem`` named the file."""

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
        print(tag, found, w.error_count, bool(w.problem))

    try:
        w.journal.wait_for(lambda rs: any(r.kind == "reconciled" for r in rs), 60)
        show("START")
        recheck()
        show("AGAIN")
        os.chmod(root / "doc.md", 0o644)
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

    done = run_as_user(repo, f"python3 {script} {repo}", bin_dir)

    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "START ['unbound new.md'] 1 True" in out, out  # not withheld for doc.md
    assert "AGAIN ['unbound new.md'] 2 True" in out, out  # counted while it lasts
    assert "READABLE ['unbound new.md'] 2 False" in out, out
