"""Issue 26's measure: the writer's canon replayed through the hook costs fewer ceremonies.

Runs bench/ceremony_bench.py's replay (tests/data/canon-history: nested headings,
a versioned H1, a parent renamed, a section moved, a merge, two reviewed
releases, a retitle) three ways in real git repositories with the installed
hook: ``before`` (per-binding ceremonies), ``after`` (the routes the hook
prints, pasted through bash; headings bound by path) and ``anchors`` (the same,
headings bound by their ``{ #id }``). Asserts the goal's properties, never
totals:

- no step needs more ceremonies now than before;
- every release is one command, the hook's one route for the commit (``forest
  supersede --staged --expect DIGEST``), bound by heading paths or by anchors:
  the route also rebinds a retitled heading (with its bound descendants) when
  its section stands at exactly one new place (issue 26, parts 3 and 6);
- no ceremony only follows a heading, either way: a section moved unchanged
  under another parent is rebound by the same route that adopts its old and
  new parents' text.

Stores: three throwaway repositories under tmp_path.
Test: this file; the bench prints the same figures (bench/README.md).
"""

from __future__ import annotations

import importlib.util
import shlex
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ceremony_bench.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ceremony_bench", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("ceremony_bench", module)
    spec.loader.exec_module(module)
    return module


cb = _bench()


def _argv(command: str) -> list[str]:
    return shlex.split(command.split("&&")[0])


@pytest.mark.slow
def test_ceremony_count_canon_history_goals_accepted(tmp_path: Path) -> None:
    """One replay of each way (one test, so no two workers replay it twice)."""
    replays = cb.replay_all(tmp_path)
    _never_more_than_before(replays)
    _release_one_command(replays)
    _no_ceremony_only_follows(replays)


def _never_more_than_before(replays: dict[str, Any]) -> None:
    before = replays["before"]
    for mode in ("after", "anchors"):
        for b, a in zip(before, replays[mode], strict=True):
            assert a.label == b.label
            assert a.count <= b.count, (mode, a.label, a.ceremonies)
    # the history exercises what issue 26 is about: before, a version bump is
    # one rebind per descendant; now one command
    version = next(i for i, s in enumerate(before) if s.label == "version-h1")
    assert before[version].follows > 1
    assert replays["after"][version].count == 1


def _release_one_command(replays: dict[str, Any]) -> None:
    for mode in ("after", "anchors"):
        releases = [s for s in replays[mode] if s.release]
        assert len(releases) >= 2
        for step in releases:
            assert len(step.ceremonies) == 1, (mode, step.ceremonies)
            last = _argv(step.ceremonies[0].command)
            assert last[:3] == ["forest", "supersede", "--staged"], (mode, step.ceremonies)


def _no_ceremony_only_follows(replays: dict[str, Any]) -> None:
    for mode in ("after", "anchors"):
        follows = [(s.label, c.command) for s in replays[mode] for c in s.ceremonies if c.follows]
        assert not follows, (mode, follows)
    # the steps that only followed headings before are decisions now: the moved
    # section and the H1 bump of the second release are taken in by one route
    after = {s.label: s for s in replays["after"]}
    assert after["move-section"].count == 1
    assert after["release-2"].count == 1


def test_ceremony_history_edit_not_once_refused(tmp_path: Path) -> None:
    """A scripted edit whose text is not in the file exactly once stops the replay
    rather than replaying a different history."""
    (tmp_path / "canon").mkdir()
    (tmp_path / "canon" / "a.md").write_text("# A\n\nsame\n\nsame\n", "utf-8")
    step = {"label": "x", "edit": [{"path": "canon/a.md", "old": "same", "new": "other"}]}
    with pytest.raises(SystemExit, match=r"is not once in canon/a\.md"):
        cb.apply_step(tmp_path, step)
    assert (tmp_path / "canon" / "a.md").read_text("utf-8") == "# A\n\nsame\n\nsame\n"
