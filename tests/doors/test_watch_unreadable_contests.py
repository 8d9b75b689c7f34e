"""The watcher's contests bound to no file while a bound file is unreadable, as a user
who is not root meets it (tests/helpers/unprivileged.py), with a real watchdog observer.

Two clones each supersede ground adopted as text only (bound to no file); one merges
the other while its bound ``doc.md`` is mode ``000``. Before, a full recheck meeting
the unreadable file was limited to the paths beside it, and a contest bound to no file
lies under no path: the merged contest went unsaid, and one said before stayed open
after ``forest resolve`` settled it, until the file was readable again. Now the
watcher asks the one check path for the whole tree but the unreadable file
(check/apart.py): contests bound to no file are judged as ``forest check`` judges
them, while ``doc.md`` keeps its last verdict.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.kernel.hashing import hash_body
from tests.helpers.cli import ok
from tests.helpers.custody import BY
from tests.helpers.git import commit_all, git, isolate, make_repo, write
from tests.helpers.unprivileged import (
    hand_over,
    open_folder,
    run_as_user,
    script_beside,
    unprivileged_bin,
)
from tests.helpers.watch import RECHECK

DOC = "# Doc\n\nThe sky is blue.\n"
WORDS = "I adopt these words as written"

WATCH = RECHECK + textwrap.dedent(
    """
    import json, os, subprocess, sys
    from pathlib import Path
    from forest_files.doors.watch.settings import WatchSettings
    from forest_files.doors.watch.watcher import Watcher

    root = Path(sys.argv[1])
    doc = root / "doc.md"
    w = Watcher(root, WatchSettings(quiet=0.1, ceiling=1.0, grace=0.5, reconcile=3600))
    w.start()

    def run(*argv):
        return subprocess.run(argv, cwd=root, capture_output=True, text=True, check=False)

    def watcher_says():
        found = [r.finding for r in w.open_findings() if r.finding.kind == "contested"]
        return sorted([f.path, list(f.candidates)] for f in found)

    def check_says():  # forest check, the file readable again; unreadable once more after
        os.chmod(doc, 0o644)
        done = run("forest", "check", "--json")
        os.chmod(doc, 0)
        found = json.loads(done.stdout)["findings"]
        assert recheck(w)
        said = [f for f in found if f["kind"] == "contested"]
        return sorted([f["path"], f["candidates"]] for f in said)

    try:
        w.journal.wait_for(lambda rs: any(r.kind == "reconciled" for r in rs), 60)
        print("START", watcher_says(), bool(w.problem))
        merged = run("git", "merge", "-q", "--no-ff", "--no-verify", "--no-edit", "FETCH_HEAD")
        print("MERGE", merged.returncode, merged.stderr.strip())
        assert recheck(w)
        said, told = watcher_says(), check_says()
        print("MERGED", said == told, said, bool(w.problem))
        heads = told[0][1] if told else ["", ""]  # the heads forest check names
        pick = ("forest", "resolve", heads[0], "--pick", heads[1], "--words", "C's")
        done = run(*pick)
        print("RESOLVE", done.returncode, done.stderr.strip())
        assert recheck(w)
        said = watcher_says()
        print("RESOLVED", said == check_says(), said, bool(w.problem))
    finally:
        w.stop()
    """
)


def _adopt_text(root: Path, text: str) -> str:
    with Repository(root) as r:
        return r.adopt_text(text, words=WORDS, by=BY)


def _supersede(root: Path, old: str, text: str) -> None:
    with Repository(root) as r:
        r.supersede(old, text, words=WORDS, by=BY, expected_body_hash=hash_body(text))


def _sides(folder: Path) -> Path:
    """Clone ``b`` of an origin whose ``doc.md`` is bound and whose other ground is
    text only; ``b`` and ``c`` each superseded that ground, ``b`` fetched ``c``."""
    origin = make_repo(folder, "origin")
    ok(origin, "init")
    write(origin, "doc.md", DOC)
    commit_all(origin, "init")
    ok(origin, "adopt", "doc.md", "--words", "the doc")
    ground = _adopt_text(origin, "Ground adopted as text only.")
    commit_all(origin, "adopt")
    b, c = folder / "b", folder / "c"
    git(folder, "clone", "-q", str(origin), str(b))
    git(folder, "clone", "-q", str(origin), str(c))
    _supersede(b, ground, "B's version.")
    commit_all(b, "b")
    _supersede(c, ground, "C's version.")
    commit_all(c, "c")
    git(b, "fetch", "-q", str(c), "main")
    return b


def test_watch_contest_bound_to_no_file_beside_unreadable_file_detected() -> None:
    with open_folder() as folder, pytest.MonkeyPatch.context() as patch:
        isolate(patch)
        bin_dir = unprivileged_bin(folder)
        b = _sides(folder)
        script = script_beside(b, "watch_contest_unreadable.py", WATCH)
        (b / "doc.md").chmod(0)
        hand_over(folder / "c")
        hand_over(b)
        os.utime(b / "doc.md", (1e9, 1e9))  # not racily clean: git merges without reading it
        git(b, "-c", f"safe.directory={b}", "update-index", "-q", "--refresh")  # as it is now
        hand_over(b / ".git")

        done = run_as_user(b, f"python3 {script} {b}", bin_dir)

    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "START [] True" in out, out  # doc.md unreadable: the watcher's problem
    assert "MERGE 0 " in out, out
    merged = [line for line in out.splitlines() if line.startswith("MERGED ")]
    assert merged and merged[0].startswith("MERGED True [['', ['"), out  # said, as check says
    assert merged[0].endswith("True"), out  # doc.md still unreadable meanwhile
    assert "RESOLVE 0 " in out, out
    assert "RESOLVED True [] True" in out, out  # closed, as check says
