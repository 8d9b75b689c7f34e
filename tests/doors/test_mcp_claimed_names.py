"""The MCP tools on a ledger line that claims a hostile bound path or heading.

A ledger line is a claim (tests/helpers/claimed.py): it can name a path or heading
holding a leading ``-``, a single quote, ``$(...)``, a bidirectional override, a
zero-width space, a newline or a carriage return. Each tool gives such a name back as
the exact value of a JSON field (data), says it in a refusal escaped as ``forest
check`` says it (kernel ``printable``), and names only commands that, pasted into
bash, do what they say; no tool rewrites the ledger.

A claim holding a line break or a carriage return is a damaged ledger: every tool
refuses it in one line. That line named no way on, where ``forest check`` names
``forest verify`` (which lists every fault of the ledger); now it names it too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forest_files.doors.mcp import server
from forest_files.doors.mcp.session import Session
from forest_files.kernel.shellword import printable
from tests.helpers.claimed import CLAIMS, REFUSED, forged, ledger_bytes, settled_by
from tests.helpers.cli import forest
from tests.helpers.git import pasted

pytest.importorskip("mcp")

SIGNED = {"signature": "Agent <agent@example.org>", "reason": "clearer"}


def _call(session: Session, tool: str, args: dict[str, Any]) -> tuple[bool, Any]:
    """(refused, the answer's data or the refusal's one line)."""
    got = server.call(session, tool, args, read_only=False)
    (said,) = [c.text for c in got.content]
    if got.isError:
        assert said.isprintable() and said.startswith("forest: "), (tool, said)
        return True, said
    assert json.loads(said) == got.structuredContent
    return False, got.structuredContent


@pytest.mark.parametrize("claim", CLAIMS)
def test_mcp_ledger_claimed_name_data_exact_refusal_escaped_route_pastes(
    tmp_path: Path, claim: dict[str, str]
) -> None:
    root = forged(tmp_path, **claim)
    path, heading = claim.get("path", "a.md"), claim.get("heading", "Hero")
    selector = f"{path}#T/{heading}"
    ledger = ledger_bytes(root)
    session = Session(root)
    try:
        refused, listed = _call(session, "ground", {})
        assert not refused
        ((row),) = listed["bindings"]
        assert (row["selector"], row["path"], row["status"]) == (selector, path, "drifted")
        refused, found = _call(session, "check", {})
        (finding,) = found["findings"]
        assert finding["selector"] == selector
        routes = [r["command"] for r in finding["routes"]]
        said = json.loads(forest(root, "check", "--json").stdout)
        assert routes == [r["command"] for f in said["findings"] for r in f["routes"]]
        refused, read = _call(session, "read_ground", {"binding": selector})
        assert not refused and read["selector"] == selector and "body" in read["text"]
        assert _call(session, "read_ground", {"binding": row["binding"]})[1] == read
        refused, line = _call(session, "read_ground", {"binding": f"{path}#T/Gone"})
        assert refused, line
        assert f"(those of {printable(path)}: {printable(selector)})" in line, line
        refused, recalled = _call(session, "recall", {"query": "body"})
        assert not refused and recalled["packets"][0]["id"] == read["ground"]
        text = f"## {heading}\n\nnew words\n"
        refused, kept = _call(session, "propose", {"selector": selector, "text": text, **SIGNED})
        if "\u202e" in heading:  # a bidirectional control is never proposed text
            assert refused and "bidirectional control" in kept, kept
        else:
            assert not refused and kept["selector"] == selector and kept["path"] == path, kept
    finally:
        session.close()
    assert ledger_bytes(root) == ledger  # no tool rewrote a line
    settled_by(root, routes, heading)


@pytest.mark.parametrize("claim", REFUSED)
def test_mcp_ledger_claimed_control_char_every_tool_refuses_naming_verify_refused(
    tmp_path: Path, claim: dict[str, str]
) -> None:
    root = forged(tmp_path, **claim)
    ledger = ledger_bytes(root)
    calls = {
        "ground": {},
        "check": {},
        "read_ground": {"binding": "a.md#T/Hero"},
        "recall": {"query": "body"},
        "propose": {"selector": "a.md#T/Hero", "text": "## Hero\n\nnew\n", **SIGNED},
    }
    session = Session(root)
    try:
        for tool, args in calls.items():
            refused, line = _call(session, tool, args)
            assert refused and line.startswith("forest: ledger"), (tool, line)
            assert "control character" in line and "PWNED" not in line, (tool, line)
            assert "valid selectors" not in line and len(line) < 400, (tool, line)
            assert line.endswith(" (`forest verify` lists every fault of the ledger)"), line
    finally:
        session.close()
    done = pasted(root, "forest verify")  # the command the refusal names, as pasted
    assert done.returncode == 3 and "ledger FAULTY" in done.stdout, done.stdout + done.stderr
    assert ledger_bytes(root) == ledger  # refused, never rewritten
    assert not (root / "PWNED").exists()
