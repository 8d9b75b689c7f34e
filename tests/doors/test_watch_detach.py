"""``forest watch --detach`` as the user types it: it says the watcher started only once
the watcher has read forest.toml and is observing (else the watcher's own refusal,
exit 1); the commands it and ``watch status`` print are pasted where they were typed
(``forest -C ../repo watch status``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from forest_files.doors.watch.daemon import stop
from forest_files.doors.watch.detach import detach
from forest_files.doors.watch.lock import running
from forest_files.kernel.errors import UnusableConfig
from forest_files.kernel.exits import exit_code
from forest_files.kernel.paths import WATCH_LOG
from tests.helpers.cli import console
from tests.helpers.git import pasted
from tests.helpers.state import local_state
from tests.helpers.watch import EDITED, bound_repo, captured_proposal, until, watch_state

FAST = ("--quiet=0.1", "--ceiling=1", "--grace=0.5")


@pytest.fixture
def root(tmp_path: Path) -> Iterator[Path]:
    path = bound_repo(tmp_path)
    yield path
    stop(path)  # whatever a test left running


def _quoted(line: str) -> list[str]:
    """The commands a line names between backticks."""
    return re.findall(r"`([^`]+)`", line)


def _paste(where: Path, command: str) -> str:
    done = pasted(where, command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return done.stdout


def _beside(root: Path) -> Path:
    """A directory beside the repository: where the user types ``forest -C ../repo``."""
    beside = root.parent / "beside"
    beside.mkdir()
    return beside


def test_watch_dash_c_hints_pasted_where_typed_accepted(root: Path) -> None:
    """Before, ``forest -C ../repo watch status`` printed ``forest watch --detach``, and
    ``--detach`` then ``forest watch status`` and ``forest watch stop``: pasted beside
    the repository, none found it."""
    beside = _beside(root)
    idle = console(beside, "-C", "../repo", "watch", "status")
    assert idle.returncode == 0, idle.stderr
    (start,) = _quoted(idle.stdout)
    assert start == "forest -C ../repo watch --detach", idle.stdout
    seen, stop_it = _quoted(_paste(beside, start))
    assert (seen, stop_it) == ("forest -C ../repo watch status", "forest -C ../repo watch stop")
    assert _paste(beside, seen).startswith("watching (pid ")
    assert "stopped the watcher" in _paste(beside, stop_it)
    assert running(root) is None


def test_watch_status_dash_c_proposal_hint_pasted_where_typed_accepted(root: Path) -> None:
    beside = _beside(root)
    pid = captured_proposal(root, EDITED)
    shown = console(beside, "-C", "../repo", "watch", "status")
    (show,) = _quoted(next(x for x in shown.stdout.splitlines() if x.startswith("proposal ")))
    assert show == f"forest -C ../repo proposal show {pid}", shown.stdout
    assert "{+edited+} words" in _paste(beside, show)


def test_watch_detach_broken_config_refusal_said_refused(root: Path) -> None:
    """forest.toml broken by the time the detached watcher reads it (the door's own
    look came first): the child's refusal is said, exit 2 as `forest watch` gives
    (before: "watching in the background (pid N)", then the watcher died at once).
    Repaired, it says it started only once the watcher has read it and observes."""
    good = (root / "forest.toml").read_text(encoding="utf-8")
    (root / "forest.toml").write_text(good + "\n[watch\n", encoding="utf-8")
    with pytest.raises(UnusableConfig) as told:
        detach(root, list(FAST))
    said = str(told.value)
    assert said.startswith("the watcher did not start: ") and "not valid TOML" in said, said
    assert exit_code(told.value) == 2 and running(root) is None
    (root / "forest.toml").write_text(good, encoding="utf-8")
    pid = detach(root, list(FAST))
    state = watch_state(root)  # at once: written before the parent was told
    assert (state["pid"], state["running"], state["mode"]) == (pid, True, "events"), state


def test_watch_detach_damaged_ledger_refusal_said_refused(root: Path) -> None:
    """A ledger segment edited by hand: `forest watch --detach` (whose own look reads
    forest.toml alone) prints the watcher's refusal in one `forest:` line and exits 3,
    as `forest check` would; no watcher is left running."""
    (segment,) = (root / ".forest" / "ledger" / "segments").glob("*.jsonl")
    with segment.open("a", encoding="utf-8") as fh:
        fh.write("garbage\n")
    done = pasted(root, "forest watch --detach --quiet 0.1")
    lines = done.stderr.splitlines()
    assert done.returncode == 3 and len(lines) == 1, (done.stdout, done.stderr)
    assert lines[0].startswith("forest: the watcher did not start: ledger segment "), lines
    assert "watching" not in done.stdout and running(root) is None


@pytest.mark.slow  # three processes: the door, its watcher child, the pasted verify
def test_watch_detach_dash_c_child_refusal_pasted_where_typed_accepted(root: Path) -> None:
    """Before, the detached watcher spoke as at the top: ``forest -C ../repo watch
    --detach`` relayed its refusal naming a bare `forest verify`, which found no
    repository beside it. The child is told where the command was typed."""
    beside = _beside(root)
    (segment,) = (root / ".forest" / "ledger" / "segments").glob("*.jsonl")
    with segment.open("a", encoding="utf-8") as fh:
        fh.write("garbage\n")
    done = console(beside, "-C", "../repo", "watch", "--detach", *FAST)
    assert done.returncode == 3 and running(root) is None, (done.stdout, done.stderr)
    (verify,) = _quoted(done.stderr)
    assert verify == "forest -C ../repo verify", done.stderr
    listed = pasted(beside, verify)
    assert listed.returncode == 3 and segment.stem in listed.stdout + listed.stderr, listed


@pytest.mark.slow  # the door, its watcher child, the pasted commands
@pytest.mark.parametrize("where", ["global", "--repo"])
def test_watch_absolute_dash_c_child_lines_keep_it_absolute_pasted_accepted(
    root: Path, where: str
) -> None:
    """Before, ``forest watch --detach --repo /abs/repo`` printed ``forest -C ../repo
    watch status``, and the detached child of ``forest -C /abs/repo watch --detach``
    logged ``forest -C ../repo proposal show …``: right only in the directory it was
    typed in. Every line keeps the absolute path the user gave, as the other doors'."""
    beside = _beside(root)
    top = str(root.resolve())
    given = ("-C", top, "watch") if where == "global" else ("watch", "--repo", top)
    done = console(beside, *given, "--detach", *FAST)
    assert done.returncode == 0, (done.stdout, done.stderr)
    seen, stop_it = _quoted(done.stdout)
    assert (seen, stop_it) == (f"forest -C {top} watch status", f"forest -C {top} watch stop")
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    log = local_state(root) / WATCH_LOG
    lead = "holds this text (new): "
    assert until(lambda: lead in log.read_text(encoding="utf-8")), log.read_text("utf-8")
    (line,) = [x for x in log.read_text(encoding="utf-8").splitlines() if lead in x]
    show = line.split(lead, 1)[1]
    assert show.startswith(f"forest -C {top} proposal show "), line
    assert "{+edited+} words" in _paste(root / ".forest", show)  # pasted anywhere else
    assert "stopped the watcher" in _paste(beside.parent, stop_it)
