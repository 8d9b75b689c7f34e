"""The watcher and a bound file this user may not read, as a user who is not root meets
it (tests/helpers/unprivileged.py), with a real watchdog observer: the file is said once
as unreadable with the ``chmod`` that gives it back (kernel/access.py), not again at
every full recheck, and every other bound file is judged as usual meanwhile (its drift
reported); once readable, the file is judged again. Before, every full recheck failed
whole on the one file: no other file's drift was reported, and the log line had no
``chmod``."""

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
    import logging, os, sys, time
    from pathlib import Path
    from forest_files.doors.watch.settings import WatchSettings
    from forest_files.doors.watch.watcher import Watcher

    said = []
    class Keep(logging.Handler):
        def emit(self, record):
            said.append(record.getMessage())
    logging.getLogger("forest_files.doors.watch").addHandler(Keep())
    logging.getLogger("forest_files.doors.watch").setLevel(logging.INFO)

    root = Path(sys.argv[1])
    w = Watcher(root, WatchSettings(quiet=0.1, ceiling=1.0, grace=0.5, reconcile=3600))
    w.start()

    def verdicts(path):
        return [r.detail for r in w.journal.items("verdict") if r.path == path]

    def full_recheck():  # True once it reconciled; False when it failed instead
        n, errs = w.journal.counts.get("reconciled", 0), w.error_count
        w.collector.hold({}, frozenset({"full"}), 0.0)
        deadline = time.monotonic() + 60  # a repeated error adds no journal record: polled
        while time.monotonic() < deadline and w.error_count == errs:
            if w.journal.wait_for(lambda rs: w.journal.counts.get("reconciled", 0) > n, 0.1):
                return True
        # a check meeting the unreadable file counts too, just before its reconcile
        return w.journal.wait_for(lambda rs: w.journal.counts.get("reconciled", 0) > n, 1.0)

    try:
        # the start-up reconcile itself, not its error record: a recheck asked while it
        # still runs would queue one more, in flight when the file is made readable
        w.journal.wait_for(lambda rs: any(r.kind == "reconciled" for r in rs), 60)
        print("NOTE", verdicts("note.md"))
        print("RECHECKS", full_recheck(), full_recheck())
        print("ERRORS", [r.detail for r in w.journal.items("error")])
        print("WARNINGS", len([s for s in said if "doc.md" in s and "error" in s]))
        print("PROBLEM", w.problem)
        print("ALIVE", w._thread is not None and w._thread.is_alive())
        os.chmod(root / "doc.md", 0o644)
        print("AFTER", full_recheck(), verdicts("doc.md"), repr(w.problem))
    finally:
        w.stop()
    """
)


place = module_place({"doc.md": DOC, "note.md": NOTE}, "doc.md", "note.md")


def test_watch_unreadable_bound_file_said_once_others_judged_recovers(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "watched", hand=False)
    script = script_beside(repo, "watch_one_unreadable.py", WATCH)
    (repo / "doc.md").write_text(DOC.replace("blue", "green"))
    (repo / "doc.md").chmod(0)
    (repo / "note.md").write_text(NOTE.replace("grey", "red"))  # readable, drifted
    hand_over(repo)

    done = run_as_user(repo, f"python3 {script} {repo}", bin_dir)

    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "NOTE ['drifted']" in out, out  # the rest judged while doc.md is unreadable
    assert "RECHECKS True True" in out, out
    fix = f"chmod u+rwX {repo} {repo / 'doc.md'}, then it is judged again"
    line = f"cannot use {repo / 'doc.md'} (Permission denied); {fix}"
    assert f"ERRORS [{line!r}]" in out, out  # one line, not one per recheck
    assert "WARNINGS 1" in out, out
    assert f"PROBLEM {line}" in out, out
    assert "ALIVE True" in out, out
    assert "AFTER True ['drifted'] ''" in out, out
    assert "missing" not in out, out
