"""check/route_swallowed.py: a drifted section bound with exclusions, whose edit hides
a heading, is routed to close the block, not to a ``forest restore`` that refuses
pasted; every command the check prints works pasted, and the advice followed as
written, then the restore it names, leaves the check clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers.cli import findings
from tests.helpers.git import pasted, write
from tests.helpers.hidden import CUT, cut_open

# The close advice in a route's note: the line to write before, the line to write
# (a fence's mark as many times, an HTML block's end), the restore to run after.
ADVICE = re.compile(
    r"before line (\d+) \(or take it out\): (?:a line of just (\d+) (backticks|tildes)"
    r"|the line (\S+)) closes it; then `([^`]+)`"
)


@pytest.mark.parametrize("bound_b", [False, True])
@pytest.mark.parametrize("opened", ["```\n", "~~~~\n", "<!-- draft\n"])
def test_check_drift_excluding_part_hidden_heading_routed_to_close_not_refused_restore(
    tmp_path: Path, opened: str, bound_b: bool
) -> None:
    """A bound with ``--exclude '#sub'``, a block left open in it over ``## sub``:
    ``forest check`` routed A to ``forest restore 'f.md#A'``, which pasted is refused
    (a section that excludes parts keeps no heading an edit hides). Now every route's
    command pasted (each in a fresh copy) succeeds, A's first route is the close
    advice, and that advice followed as written, then the restore it names pasted,
    leaves every binding clean."""
    repo = cut_open(tmp_path / "repo", opened, bound_b=bound_b)
    failed = [f for f in findings(repo) if f["kind"] != "clean"]
    commands = [r["command"] for f in failed for r in f["routes"] if r["command"]]
    for n, command in enumerate(commands):
        if "retire" in command:  # ends the binding: no way back to clean, nor meant as one
            continue
        fresh = cut_open(tmp_path / f"paste{n}", opened, bound_b=bound_b)
        got = pasted(fresh, command.replace("'…'", "'the edit is right'"))  # as told
        assert got.returncode == 0, (command, got.stderr)
    (a,) = [f for f in failed if f["selector"] == "f.md#A"]
    first = a["routes"][0]
    assert first["label"] == "close the block" and first["command"] is None, a["routes"]
    said = ADVICE.search(first["note"])
    assert said is not None, first["note"]
    before, count, marks, end, then = said.groups()
    closer = ("`" if marks == "backticks" else "~") * int(count) if count else end
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    n = int(before) - 1
    write(repo, "f.md", "".join([*lines[:n], f"{closer}\n", *lines[n:]]))
    got = pasted(repo, then)
    assert got.returncode == 0, (then, got.stderr)
    assert {f["kind"] for f in findings(repo)} == {"clean"}
    assert (repo / "f.md").read_text() == CUT
