"""``forest proposal show`` prints a bounded diff: a proposal whose text is megabytes
long is shown by its first lines, aligned no further, then one line saying more follow
and the command that prints every one (``--full``)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from forest_files.doors.watch import judge
from forest_files.proposals import view
from tests.helpers.cli import ok
from tests.helpers.custody import DOC
from tests.helpers.git import pasted
from tests.helpers.watch import bound_repo

LINES = 3000


def _proposed(tmp_path: Path, lines: int = LINES) -> tuple[Path, str]:
    """A proposal for ``#Keep`` holding ``lines`` new lines."""
    root = bound_repo(tmp_path)
    body = "".join(f"line {i} of the proposal\n" for i in range(lines))
    (root / "a.md").write_text(DOC.replace("kept words\n", body), encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    done = judge.capture(root, item, (), 1 << 24)
    assert done is not None
    return root, done.split(" ")[0]


def _diff(out: str) -> list[str]:
    """The lines after the facts (the blank line ends them)."""
    lines = out.splitlines()
    return lines[lines.index("") + 1 :]


def test_proposal_show_long_text_bounded_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: every one of the 3,000 lines was printed (a 20 MB text: all of it)."""
    root, pid = _proposed(tmp_path)
    shown = _diff(ok(root, "proposal", "show", pid).stdout)
    assert len(shown) == view.MAX_SHOWN_LINES + 1
    limit = view.MAX_SHOWN_LINES
    monkeypatch.setattr(view, "MAX_SHOWN_LINES", 10 * LINES)
    whole = _diff(ok(root, "proposal", "show", pid).stdout)
    assert len(whole) > LINES
    assert shown[:-1] == whole[:limit]
    tail = shown[-1]
    assert tail.startswith("… more lines not shown"), tail  # not counted: not aligned
    (route,) = re.findall(r"`([^`]*)`", tail)
    assert route == f"forest proposal show {pid} --full"
    every = pasted(root, route)
    assert every.returncode == 0, every.stderr
    assert "line 2999 of the proposal" in every.stdout


@pytest.mark.parametrize("spare", [0, 1])
def test_proposal_show_bound_at_its_limit_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spare: int
) -> None:
    """A diff of exactly the bound is printed whole; one line more, and the last line
    says so (one more line, never a line cut to make room)."""
    root, pid = _proposed(tmp_path, lines=20)
    monkeypatch.setattr(view, "MAX_SHOWN_LINES", 10_000)
    whole = _diff(ok(root, "proposal", "show", pid).stdout)
    monkeypatch.setattr(view, "MAX_SHOWN_LINES", len(whole) - spare)
    shown = _diff(ok(root, "proposal", "show", pid).stdout)
    if not spare:
        assert shown == whole
    else:
        assert shown[:-1] == whole[: len(whole) - 1]
        assert shown[-1].startswith("… more lines not shown"), shown[-1]


def test_proposal_show_long_text_lookalike_past_the_bound_named_detected(tmp_path: Path) -> None:
    """A look-alike word (U+0430, a Cyrillic a, in ``pay``) on the proposal's last
    line, past the 500 shown: its note followed the diff and was cut with it, so padding
    a proposal hid it. It is said above the cut diff now, whatever the diff's length."""
    root = bound_repo(tmp_path)
    body = "".join(f"line {i} of the proposal\n" for i in range(LINES)) + "p\u0430y now\n"
    (root / "a.md").write_text(DOC.replace("kept words\n", body), encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    done = judge.capture(root, item, (), 1 << 24)
    assert done is not None
    pid = done.split(" ")[0]
    out = ok(root, "proposal", "show", pid).stdout
    notes = [line for line in out.splitlines() if "look-alike:" in line]
    assert len(notes) == 1 and "U+0430" in notes[0], out[-2000:]
    assert out.index("look-alike:") < out.index("--- ground"), out[:2000]
