"""A real ``forest review`` process driven through a pseudo-terminal: single keys
(no Enter), ``?`` help, an unknown key asked again, Enter at the words prompt
refused, ``a``/``s`` running the commands they print, ``q``, the summary, and
colour as ``forest check`` prints it (NO_COLOR honoured)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import subprocess
import termios
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from forest_files.doors.watch import judge
from tests.helpers.cli import FOREST
from tests.helpers.custody import BY, DOC
from tests.helpers.git import git_env
from tests.helpers.watch import bound_repo

TIMEOUT = 30.0


def _controlling() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Pty:
    """``forest review`` on the slave side of a fresh pseudo-terminal."""

    def __init__(self, root: Path, **env: str) -> None:
        self.master, slave = os.openpty()
        environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        environ.update(git_env(), TERM="xterm", **env)
        self.proc = subprocess.Popen(
            [FOREST, "review", "--as", BY],
            cwd=root,
            env=environ,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=_controlling,  # after setsid: the pty is its terminal, as in a shell
        )
        os.close(slave)
        self.seen = ""

    def expect(self, pattern: str) -> str:
        """Read until ``pattern`` (a regex) appears in what was printed since the last
        match; returns that stretch of output."""
        deadline = time.monotonic() + TIMEOUT
        while not (m := re.search(pattern, self.seen)):
            left = deadline - time.monotonic()
            assert left > 0, f"no {pattern!r} in {self.seen[-2000:]!r}"
            if select.select([self.master], [], [], left)[0]:
                try:
                    data = os.read(self.master, 4096)
                except OSError:  # EIO: the process closed the terminal
                    data = b""
                assert data, f"ended before {pattern!r}: {self.seen[-2000:]!r}"
                self.seen += data.decode("utf-8", "replace")
        got, self.seen = self.seen[: m.end()], self.seen[m.end() :]
        return got

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        try:
            code = self.proc.wait(timeout=TIMEOUT)
        finally:
            self.kill()
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        with contextlib.suppress(OSError):  # closed already
            os.close(self.master)


@pytest.fixture
def started() -> Iterator[list[Pty]]:
    """Every ``Pty`` a test appends is killed afterwards, passed or not."""
    ptys: list[Pty] = []
    yield ptys
    for t in ptys:
        t.kill()


def _drift_two(tmp_path: Path) -> tuple[Path, str]:
    """``a.md`` drifted with a watcher's proposal, ``d/f1.md`` drifted by hand."""
    root = bound_repo(tmp_path, files=2)
    (root / "a.md").write_text(DOC.replace("kept words", "proposed words"), encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    done = judge.capture(root, item, (), 1 << 20)
    assert done is not None
    (root / "d" / "f1.md").write_text(DOC.replace("kept words", "hand words"), encoding="utf-8")
    return root, done.split(" ")[0]


def test_review_pty_single_keys_words_and_summary_accepted(
    tmp_path: Path, started: list[Pty]
) -> None:
    root, pid = _drift_two(tmp_path)
    t = Pty(root)
    started.append(t)
    first = t.expect(r"1 of 2 — .*: ")
    assert "\x1b[31mdrifted\x1b[0m a.md#Title/Keep" in first  # coloured as `forest check`
    t.send("?")  # no Enter anywhere: one key is the whole answer
    assert "Enter is not an answer" in t.expect(r"1 of 2 — .*: ")
    t.send("x")
    assert "'x' is not an answer here" in t.expect(r"1 of 2 — .*: ")
    t.send("a")
    t.expect(r"words \(.*\): ")
    t.send("\r")  # Enter at the words prompt: refused, asked again
    assert "words are required and have no default" in t.expect(r"words \(.*\): ")
    t.send("adopted through a terminal\r")
    ran = t.expect(r"2 of 2 — .*: ")
    assert f"$ forest proposal adopt {pid} --words 'adopted through a terminal'" in ran
    t.send("q")
    assert "review: 1 of 2 seen: 1 adopted; 1 not reached" in t.expect(r"git add -- \.forest")
    assert t.close() == 0
    with ProposalStore(root) as store:
        assert store.get(pid).status == "adopted"


def test_review_pty_supersede_key_no_colour_accepted(tmp_path: Path, started: list[Pty]) -> None:
    root, _pid = _drift_two(tmp_path)
    t = Pty(root, NO_COLOR="1")
    started.append(t)
    first = t.expect(r"1 of 2 — .*: ")
    assert "\x1b[" not in first
    t.send("n")
    t.expect(r"2 of 2 — .*: ")
    t.send("s")
    t.expect(r"words \(.*\): ")
    t.send("the hand edit is right\r")
    ran = t.expect(r"commit the acts with the files: git add -- \.forest")
    assert "$ forest supersede" in ran
    assert "review: 2 of 2 seen: 1 kept, 1 superseded" in ran
    assert t.close() == 0


def test_review_pty_ctrl_c_records_nothing_recovers(tmp_path: Path, started: list[Pty]) -> None:
    """Ctrl-C at a key prompt: one `forest: interrupted` line, exit 130, the terminal
    mode given back, nothing recorded. The prompt shows only once the key is awaited
    (cbreak mode set, nothing left to import): a Ctrl-C sent the moment it shows once
    landed in an import's clean-up, was swallowed as "Exception ignored", and the
    review sat waiting for a key."""
    root, pid = _drift_two(tmp_path)
    segments = sorted((root / ".forest" / "ledger" / "segments").iterdir())
    t = Pty(root)
    started.append(t)
    t.expect(r"1 of 2 — .*: ")
    lflag = termios.tcgetattr(t.master)[3]  # the mode as the prompt shows
    assert not lflag & termios.ICANON and not lflag & termios.ECHO
    t.send("\x03")
    got = t.expect(r"interrupted")
    assert "forest: interrupted" in got and "Exception ignored" not in got, got
    assert t.proc.wait(timeout=TIMEOUT) == 130
    lflag = termios.tcgetattr(t.master)[3]  # the mode the terminal was left in
    assert lflag & termios.ICANON and lflag & termios.ECHO
    assert t.close() == 130
    assert sorted((root / ".forest" / "ledger" / "segments").iterdir()) == segments
    with ProposalStore(root) as store:
        assert store.get(pid).status == "open"


def test_review_pty_long_drift_diff_bounded_accepted(tmp_path: Path, started: list[Pty]) -> None:
    """A real ``forest review`` of a 30,000-line section rewritten whole: the drift's block
    (check/explain.py ``with_diffs``, as ``forest check`` prints it) holds at most
    ``MAX_DIFF_LINES`` lines of its word diff, then "… more lines not shown" and the
    ``forest diff`` that prints every one (60,000 lines of diff otherwise)."""
    from forest_files.check.diff import MAX_DIFF_LINES
    from tests.helpers.custody import adopted_repo
    from tests.helpers.git import write

    lines = 30_000
    old = "".join(f"line {i} says alpha beta\n" for i in range(lines))
    root = adopted_repo(tmp_path, "f.md", f"# A\n\n{old}\n# B\n\nx\n", "f.md#A")
    new = "".join(f"row {i} reads delta\n" for i in range(lines))
    write(root, "f.md", f"# A\n\n{new}\n# B\n\nx\n")
    t = Pty(root, NO_COLOR="1")
    started.append(t)
    first = t.expect(r"1 of 1 — .*: ").replace("\r\n", "\n").split("\n")
    start = first.index("--- ground f.md#A")
    (tail,) = [i for i, x in enumerate(first) if x.startswith("… ")]
    assert tail - start == MAX_DIFF_LINES, tail - start
    route = "forest diff 'f.md#A' --words"
    assert first[tail] == f"… more lines not shown; every line: `{route}`", first[tail]
    assert "row 29999" not in "\n".join(first) and "line 29999" not in "\n".join(first)
    t.send("q")
    t.expect(r"review: 0 of 1 seen")
    assert t.close() == 0
