"""A bound file this user may not read (mode 000, another user's 0600 file, a folder
it may not enter) is not gone: as a user who is not root (tests/helpers/unprivileged.py),
``forest check`` and ``forest status`` refuse with one ``forest: cannot use …`` line
naming the path and its ``chmod``, never a ``missing`` finding whose route,
``git checkout -- doc.md``, run by that user replaced the unread edit with HEAD's. The
watcher says it and keeps running. A readable drifted file, a removed one, still get
their findings; an unreadable file that is not bound does not stop the moved-file
search for a removed one."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    hand_over,
    handed_copy,
    run_as_user,
)

DOC = "# Doc\n\nThe sky is blue.\n"
NOTE = "# Note\n\nThe sea is grey.\n"
EDITED = DOC.replace("blue", "green, an edit not yet committed")


# doc.md and sub/note.md adopted and committed, in a folder the unprivileged user
# reaches, and the bin folder that user runs forest from.
place = module_place(
    {"doc.md": DOC, "sub/note.md": NOTE}, "doc.md", "sub/note.md", words="the docs"
)


def _copy(place: tuple[Path, Path], name: str) -> Path:
    return handed_copy(place[0], name, hand=False)


def _file_000(repo: Path) -> Path:
    (repo / "doc.md").write_text(EDITED)
    (repo / "doc.md").chmod(0)
    return repo / "doc.md"


def _folder_shut(repo: Path) -> Path:
    (repo / "sub" / "note.md").write_text(NOTE.replace("grey", "green"))
    (repo / "sub").chmod(0o644)  # listed, not entered
    return repo / "sub" / "note.md"


UNREADABLE: dict[str, Callable[[Path], Path]] = {"file-000": _file_000, "folder": _folder_shut}


@pytest.mark.parametrize("command", ["forest check", "forest status"])
@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_unreadable_bound_file_is_refused_not_missing(
    place: tuple[Path, Path], case: str, command: str
) -> None:
    _, bin_dir = place
    repo = _copy(place, f"{case}-{command.split()[1]}")
    hand_over(repo)
    shut = UNREADABLE[case](repo)
    folder = shut.parent
    mode = folder.stat().st_mode
    folder.chmod(0o755)
    before = shut.read_bytes()
    folder.chmod(mode)

    done = run_as_user(repo, command, bin_dir)

    said = done.stdout + done.stderr
    assert "missing" not in said, said
    assert "git checkout" not in said and "restore" not in said, said
    assert "Traceback" not in said and "internal error" not in said, said
    assert done.returncode == 1, said
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"forest: cannot use {shut} (Permission denied); chmod u+rwX"), last
    folder.chmod(0o755)
    assert shut.read_bytes() == before  # the unread edit is where the user left it


def test_readable_drift_and_removed_file_keep_their_findings(place: tuple[Path, Path]) -> None:
    _, bin_dir = place
    repo = _copy(place, "readable")
    (repo / "doc.md").write_text(EDITED)
    hand_over(repo)
    drifted = run_as_user(repo, "forest check", bin_dir)
    assert drifted.returncode == 1, drifted.stderr
    assert "drifted doc.md" in drifted.stdout, drifted.stdout

    (repo / "doc.md").unlink()
    (repo / "secret.md").write_text(DOC)  # not bound, and not this user's to read
    (repo / "secret.md").chmod(0)
    gone = run_as_user(repo, "forest check", bin_dir)
    assert gone.returncode == 1, gone.stderr
    assert "missing doc.md" in gone.stdout, gone.stdout + gone.stderr
    assert "git checkout -- doc.md" in gone.stdout, gone.stdout


WATCH = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from forest_files.doors.watch.settings import WatchSettings
    from forest_files.doors.watch.watcher import Watcher

    root = Path(sys.argv[1])
    doc = root / "doc.md"
    w = Watcher(root, WatchSettings(quiet=0.1, ceiling=1.0, grace=0.5, reconcile=3600))
    w.start()
    try:
        assert w.journal.wait_for(lambda rs: any(r.kind == "error" for r in rs), 60), "no error"
        print("ERRORS", w.errors)
        print("ALIVE", w._thread is not None and w._thread.is_alive())
        print("VERDICTS", [r.detail for r in w.journal.items("verdict") if r.path == "doc.md"])
        os.chmod(doc, 0o644)
        w.collector.hold({"doc.md": 0.0}, frozenset({"full"}), 0.0)
        judged = w.journal.wait_for(
            lambda rs: any(r.kind == "verdict" and r.path == "doc.md" for r in rs), 60
        )
        print("AFTER", judged, [r.detail for r in w.journal.items("verdict") if r.path == "doc.md"])
    finally:
        w.stop()
    """
)


def test_watcher_says_it_and_keeps_running(place: tuple[Path, Path]) -> None:
    _, bin_dir = place
    repo = _copy(place, "watched")
    script = repo.parent / "watch_unreadable.py"
    script.write_text(WATCH)
    script.chmod(0o644)
    _file_000(repo)
    hand_over(repo)

    done = run_as_user(repo, f"python3 {script} {repo}", bin_dir)

    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert f"cannot use {repo / 'doc.md'} (Permission denied); chmod u+rwX" in out, out
    assert "ALIVE True" in out, out
    assert "VERDICTS []" in out, out  # nothing judged missing while it could not be read
    assert "AFTER True ['drifted']" in out, out
    assert (repo / "doc.md").read_text() == EDITED
