"""``forest review`` on a contested binding offers only what settles the contest.

A binding two merged branches each rebound, its section edited where it stands:
review offered ``s`` (supersede) on the drift and, typed, recorded an act on that
place as if it were settled (the MCP tools refuse any proposal there), the contest
itself offering nothing but next and quit. Now the drift and the contest are one item
whose keys are the contest's routes (as ``forest check`` prints them), then next and
quit; a route's key runs it and the contest is settled.
"""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

from forest_files.doors.cli.review_cmd import run_in_process
from forest_files.doors.review.keys import Console
from forest_files.doors.review.run import review_here
from tests.helpers.cli import forest
from tests.helpers.custody import BY
from tests.helpers.git import pasted, write
from tests.helpers.rebound import merged_clones


def _segments(root: Path) -> list[str]:
    return sorted(p.name for p in (root / ".forest" / "ledger" / "segments").iterdir())


def _contest(root: Path) -> dict[str, object]:
    doc = json.loads(forest(root, "check", "--json").stdout)
    (said,) = [f for f in doc["findings"] if f["kind"] == "contested"]
    return dict(said)


def test_review_drift_on_binding_rebound_twice_offers_only_its_routes_refused(
    tmp_path: Path,
) -> None:
    b, _ = merged_clones(tmp_path)
    stands = str(_contest(b)["selector"])
    other = ({"B.md#X", "C.md#X"} - {stands}).pop()
    write(b, stands.split("#")[0], "# X\n\nhand edit\n")
    said = _contest(b)  # its keep route takes words now: the text there is not ground
    before = _segments(b)
    out = io.StringIO()
    console = Console(io.StringIO("s\nmy words\n?\nq\n"), out)
    tally = review_here(b, BY, colour=False, run=run_in_process(b), console=console)
    shown = out.getvalue()
    assert "$ forest supersede" not in shown and "'s' is not an answer here" in shown
    assert _segments(b) == before  # nothing recorded on one side
    assert tally.total == 1  # the drift and its binding's contest: one item
    assert f"1 keep it at {stands}, 2 or move it to {other}, n next, q quit" in shown
    routes = [r["command"] for r in said["routes"]]  # type: ignore[attr-defined]
    assert all(f"  {n}  " in shown and r in shown for n, r in enumerate(routes, 1))
    assert "r  restore" not in shown and "s  supersede" not in shown


def test_review_contest_route_key_settles_it_recovers(tmp_path: Path) -> None:
    b, _ = merged_clones(tmp_path)
    stands = str(_contest(b)["selector"])
    other = ({"B.md#X", "C.md#X"} - {stands}).pop()
    write(b, stands.split("#")[0], "# X\n\nhand edit\n")
    out = io.StringIO()
    console = Console(io.StringIO("2\n"), out)
    review_here(b, BY, colour=False, run=run_in_process(b), console=console)
    shown = out.getvalue()
    assert "$ " + shlex.join(["forest", "rebind", stands, other]) in shown, shown
    assert "1 of 1 seen: 1 rebound" in shown and "commit the acts" in shown
    assert pasted(b, "git add -- .forest/ledger").returncode == 0
    doc = json.loads(forest(b, "check", "--json").stdout)
    assert doc["ok"] is True and [f["selector"] for f in doc["findings"]] == [other]
