"""A place path or selector a ledger line claims, seen through every door.

A ledger line is a claim: written by hand (its ids and segment name recomputed), it can
name a bound path or a heading that ``forest adopt``'s parser would refuse: a leading
``-``, a single quote, ``$(...)``, a bidirectional override (U+202E), a zero-width
space (U+200B), a newline or a carriage return. Each door either refuses the ledger in
one ``forest:`` line (a control character: the codec's and the replay's check) or
prints the name escaped and every route as a command that, pasted into bash, does
what it says (and runs nothing the name holds); ``forest ci --format github`` never
prints a workflow command the name made; no door rewrites the ledger.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from forest_files.doors.cli.review_cmd import run_in_process
from forest_files.doors.review.keys import Console
from forest_files.doors.review.run import review_here
from forest_files.kernel.shellword import printable
from tests.helpers.claimed import CLAIMS, REFUSED, forged, ledger_bytes, settled_by
from tests.helpers.cli import forest
from tests.helpers.custody import BY

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f\u200b\u202a-\u202e\u2066-\u2069]")
ROUTE = re.compile(r"^  (?:[a-z][a-z ]*[a-z]): ((?:forest|git) .*?)(?:  \(.*)?$")


def _routes(text: str) -> list[str]:
    return [m.group(1) for line in text.splitlines() if (m := ROUTE.match(line))]


def _json_routes(doc: dict[str, Any]) -> list[str]:
    return [r["command"] for f in doc["findings"] for r in f["routes"]]


def _unforged(text: str) -> None:
    """No character a terminal obeys or hides, raw."""
    assert not RAW.search(text), text


@pytest.mark.parametrize("claim", CLAIMS)
def test_ledger_claimed_name_every_door_escapes_routes_paste_recovers(
    tmp_path: Path, claim: dict[str, str]
) -> None:
    root = forged(tmp_path, **claim)
    path, heading = claim.get("path", "a.md"), claim.get("heading", "Hero")
    selector = f"{path}#T/{heading}"
    ledger = ledger_bytes(root)
    text = forest(root, "check")
    assert text.exit_code == 1, text.output
    _unforged(text.stdout)
    assert text.stdout.startswith(f"drifted {printable(selector)}"), text.stdout
    said = _routes(text.stdout)
    doc = json.loads(forest(root, "check", "--json").stdout)
    assert [f["selector"] for f in doc["findings"]] == [selector]
    assert _json_routes(doc) == said and len(said) == 2, (said, doc)
    gate = json.loads(forest(root, "ci", "--base", "main", "--format", "json").stdout)
    in_head = _json_routes(gate)
    github = forest(root, "ci", "--base", "main", "--format", "github").stdout
    _unforged(github)
    assert [ln.split(" ", 1)[0] for ln in github.splitlines() if ln.startswith("::")] == ["::error"]
    sarif = json.loads(forest(root, "ci", "--base", "main", "--format", "sarif").stdout)
    (result,) = sarif["runs"][0]["results"]
    assert [r["command"] for r in result["properties"]["routes"]] == in_head
    junit = forest(root, "ci", "--base", "main", "--format", "junit").stdout
    _unforged(junit)
    (case,) = ElementTree.fromstring(junit).iter("testcase")
    assert case.get("name") == printable(selector), case.attrib
    assert all(c in junit.replace("&amp;", "&") for c in in_head), junit
    verify = forest(root, "verify")
    assert verify.exit_code == 0 and verify.stdout.startswith("ledger ok"), verify.output
    log = forest(root, "log")
    _unforged(log.stdout)
    assert f"adopt {printable(selector)} -> " in log.stdout, log.stdout
    shown = io.StringIO()
    console = Console(io.StringIO("q\n"), shown)
    review_here(root, BY, colour=False, run=run_in_process(root), console=console)
    _unforged(shown.getvalue())
    assert all(c in shown.getvalue() for c in said), shown.getvalue()
    assert ledger_bytes(root) == ledger  # no door rewrote a line
    settled_by(root, said, heading)


@pytest.mark.parametrize("claim", REFUSED)
def test_ledger_claimed_control_char_every_door_refuses_one_line_refused(
    tmp_path: Path, claim: dict[str, str]
) -> None:
    root = forged(tmp_path, **claim)
    ledger = ledger_bytes(root)
    for door in (("check",), ("check", "--json"), ("log",)):
        done = forest(root, *door)
        assert done.exit_code == 3 and done.stdout == "", (door, done.output)
        (line,) = done.stderr.splitlines()
        assert line.startswith("forest: ") and "control character" in line, (door, line)
        assert "valid selectors" not in line, (door, line)  # a ledger's, never typed
    github = forest(root, "ci", "--base", "main", "--format", "github")
    assert github.exit_code == 3, github.output
    _unforged(github.stdout)
    (fault,) = [ln for ln in github.stdout.splitlines() if ln.startswith("::")]
    assert fault.startswith("::error file=.forest/ledger/segments/"), fault
    assert "title=forest/ledger-fault::" in fault and "PWNED" not in fault, fault
    for fmt in ("sarif", "junit", "json"):
        done = forest(root, "ci", "--base", "main", "--format", fmt)
        assert done.exit_code == 3 and "ledger-fault" in done.stdout, (fmt, done.output)
        _unforged(done.stdout)
    verify = forest(root, "verify")
    assert verify.exit_code == 3, verify.output
    _unforged(verify.stdout + verify.stderr)
    assert "ledger FAULTY" in verify.stdout
    assert ledger_bytes(root) == ledger  # refused, never rewritten
