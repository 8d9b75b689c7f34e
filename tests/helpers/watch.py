"""Builders for watcher tests: a bound repository, a running watcher, save styles.

Every wait is on a condition of the watcher's journal (or of the file system)
with a generous timeout, never a bare sleep: a loaded machine only makes a
test slower, not flaky.
"""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from forest_files.doors.watch.journal import Record
from forest_files.doors.watch.settings import WatchSettings
from forest_files.doors.watch.watcher import Watcher
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.paths import WATCH_STATE
from tests.helpers.custody import DOC, age_files, init_and_adopt
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import local_state
from tests.helpers.template import reused

TIMEOUT = 30.0  # seconds: generous on purpose
FAST = WatchSettings(quiet=0.1, ceiling=1.0, grace=0.5, reconcile=3600)
EDITED = DOC.replace("kept words", "edited words")


def bound_repo(tmp_path: Path, *, files: int = 1) -> Path:
    """``a.md`` (and ``f1.md`` … for ``files`` > 1) bound at ``#Keep``, committed, aged,
    at ``tmp_path / "repo"`` (a private copy of one built once per worker process)."""
    return reused(("bound_repo", files), tmp_path / "repo", lambda d: _bound_repo(d, files))


def _bound_repo(tmp_path: Path, files: int) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    names = ["a.md"]
    for i in range(1, files):
        write(root, f"d/f{i}.md", DOC.replace("kept", f"kept {i}"))
        names.append(f"d/f{i}.md")
    init_and_adopt(root, [f"{n}#Keep" for n in names])
    commit_all(root, "adopt")
    age_files(root)
    return root


@contextmanager
def watching(root: Path, settings: WatchSettings = FAST, **kw: object) -> Iterator[Watcher]:
    """A started watcher whose start-up reconcile has finished; stopped afterwards."""
    w = Watcher(root, settings, **kw)  # type: ignore[arg-type]
    w.start()
    try:
        assert w.journal.wait_for(lambda rs: any(r.kind == "reconciled" for r in rs), TIMEOUT)
        yield w
    finally:
        w.stop()


def count(kind: str) -> Callable[[list[Record]], int]:
    return lambda rs: sum(1 for r in rs if r.kind == kind)


def verdicts(w: Watcher, path: str = "a.md") -> list[str]:
    return [r.detail for r in w.journal.items("verdict") if r.path == path]


def wait_verdict(w: Watcher, kind: str, path: str = "a.md", after: int = 0) -> None:
    """Wait until the ``after``-th verdict or a later one for ``path`` is ``kind``."""
    ok = w.journal.wait_for(
        lambda rs: kind in [r.detail for r in rs if r.kind == "verdict" and r.path == path][after:],
        TIMEOUT,
    )
    assert ok, f"no {kind} verdict for {path}; journal: {w.journal.items()}"


def wait_checks(w: Watcher, n: int) -> None:
    assert w.journal.wait_for(lambda rs: count("check")(rs) >= n, TIMEOUT), w.journal.items()


# ``recheck(w)`` for a watcher script another user runs (tests/helpers/unprivileged.py
# ``run_as_user``): the script begins with it. One ask waits on any reconcile that ends
# after it, and one in flight (start-up's, or one a merge's own events call for) began
# before it, maybe before the test changed a file: the first wait may end with that one.
# The worker judges one batch at a time, so the reconcile the second wait sees began
# after the first ended. False when a wait timed out.
RECHECK = textwrap.dedent(
    """
    def recheck(w, timeout=60):
        for _ in range(2):
            n = w.journal.counts.get("reconciled", 0)
            w.collector.hold({}, frozenset({"full"}), 0.0)
            more = lambda rs, n=n: w.journal.counts.get("reconciled", 0) > n
            if not w.journal.wait_for(more, timeout):
                return False
        return True
    """
)


def checks(w: Watcher) -> int:
    return w.journal.counts.get("check", 0)


def settle(w: Watcher, root: Path, path: str = "a.md") -> None:
    """Put a bound path's bytes in place again by one rename (one event) and wait for
    its check: every earlier event has been taken by then."""
    n = checks(w)
    full = root / path
    tmp = full.with_name(full.name + ".settle~")
    tmp.write_bytes(full.read_bytes())
    os.replace(tmp, full)
    wait_checks(w, n + 1)


# -- save styles ---------------------------------------------------------------
def save_in_place(full: Path, text: str) -> None:
    with full.open("w", encoding="utf-8") as fh:  # truncate, then write (VS Code)
        fh.write(text)


def save_by_rename(full: Path, text: str) -> None:
    tmp = full.with_name(full.name + ".tmp~")  # temp + rename (agents, sed -i)
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, full)


def save_with_backup(full: Path, text: str) -> None:
    backup = full.with_name(full.name + "~")  # vim: move the old one aside, write anew
    os.replace(full, backup)
    full.write_text(text, encoding="utf-8")
    backup.unlink()


def save_jetbrains(full: Path, text: str) -> None:
    tmp = full.with_name(full.name + "___jb_tmp___")
    old = full.with_name(full.name + "___jb_old___")
    tmp.write_text(text, encoding="utf-8")
    os.replace(full, old)
    os.replace(tmp, full)
    old.unlink()


def save_delete_recreate(full: Path, text: str) -> None:
    full.unlink()
    full.write_text(text, encoding="utf-8")


SAVE_STYLES = {
    "in_place": save_in_place,
    "rename": save_by_rename,
    "backup": save_with_backup,
    "jetbrains": save_jetbrains,
    "delete_recreate": save_delete_recreate,
}


def section_hash(text: str) -> str:
    return hash_body(text)


def wait_proposal(w: Watcher, path: str = "a.md") -> None:
    ok = w.journal.wait_for(
        lambda rs: any(r.kind == "proposal" and r.path == path for r in rs), TIMEOUT
    )
    assert ok, w.journal.items()


def until(predicate: Callable[[], bool], timeout: float = TIMEOUT) -> bool:
    """Wait for a condition another process brings about (no event crosses processes)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def watch_state(root: Path) -> dict[str, object]:
    """The state file a watcher process writes after every batch ({} before the first)."""
    try:
        return dict(json.loads((local_state(root) / WATCH_STATE).read_text()))
    except (OSError, ValueError):
        return {}


def open_kinds(root: Path) -> list[str]:
    """The kinds of the open findings that state file lists."""
    return [str(o["kind"]) for o in watch_state(root).get("open", [])]  # type: ignore[attr-defined]


def captured_proposal(root: Path, text: str, path: str = "a.md") -> str:
    """What the watcher does for a drifted section: ``text`` saved into ``path``, judged,
    kept as an open proposal; its id."""
    import threading

    from forest_files.doors.watch import judge

    (root / path).write_text(text, encoding="utf-8")
    (item,) = judge.check(root, (path,), threading.Event())
    assert item.finding.kind == "drifted"
    done = judge.capture(root, item, (), 1 << 20)
    assert done is not None
    return done.split(" ")[0]


def fake_notify_send(bin_dir: Path, out: Path) -> None:
    """A real executable ``notify-send`` in ``bin_dir`` (put it first on PATH) that
    appends its argv to ``out``, one JSON list a line."""
    import sys

    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "notify-send"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        f"with open({str(out)!r}, 'a', encoding='utf-8') as fh:\n"
        "    fh.write(json.dumps(sys.argv[1:]) + '\\n')\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
