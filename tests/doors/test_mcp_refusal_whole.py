"""The MCP refusals that name a person's commands, as the client receives them: the
server keeps one line of at most 400 characters, and a section two bindings claim
(two 64-digit binding ids, each in a ``forest retire … --binding ID`` route) or a
binding rebound on three merged branches (three ``forest rebind … --words '…'``
routes) said more: the client got the line cut inside a command, its backquote never
closed. Now every command in the line is whole, each as ``forest check`` prints it,
or, where they do not fit, the line names ``forest check``, which prints them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from forest_files.doors.mcp import server
from forest_files.doors.mcp.propose_checks import LINE_CHARS
from forest_files.doors.mcp.session import Session
from tests.doors.test_mcp_two_bindings import AGENT, RULES, two_bindings
from tests.helpers.cli import forest
from tests.helpers.git import write
from tests.helpers.rebound import three_merged

pytest.importorskip("mcp")


def _said(root: Path, tool: str, args: dict[str, str]) -> str:
    got = server.call(Session(root), tool, args, read_only=False)
    assert got.isError
    (text,) = [c.text for c in got.content]
    return str(text)


def _routes(root: Path) -> list[str]:
    found = json.loads(forest(root, "check", "--json").stdout)["findings"]
    return [r["command"] for f in found if f["kind"] == "contested" for r in f["routes"]]


def _whole(line: str, routes: list[str], names: set[str]) -> None:
    """Every backquoted span of ``line`` is closed and is a route ``forest check``
    prints, ``forest check`` itself, one of ``names`` (a selector the line says) or a
    binding id."""
    assert "\n" not in line and line.count("`") % 2 == 0, line
    spans = re.findall(r"`([^`]*)`", line)
    named = names | {s for s in spans if re.fullmatch("[0-9a-f]{64}", s)}
    assert spans and all(s in routes or s == "forest check" or s in named for s in spans), line
    assert any(s in routes or s == "forest check" for s in spans), line


def test_mcp_two_bindings_refusal_commands_whole_at_the_client_detected(
    tmp_path: Path,
) -> None:
    root = two_bindings(tmp_path)
    routes = _routes(root)
    for tool, args in (
        ("read_ground", {"binding": RULES}),
        (
            "propose",
            {"selector": RULES, "text": "## Rules\n\nx\n", "signature": AGENT, "reason": "clearer"},
        ),
    ):
        _whole(_said(root, tool, args), routes, {RULES})


def test_mcp_rebound_three_times_refusal_commands_whole_at_the_client_detected(
    tmp_path: Path,
) -> None:
    root = three_merged(tmp_path)
    for name in ("B.md", "C.md", "D.md"):
        write(root, name, "# X\n\nother words\n")  # each rebind takes --words '…'
    routes = _routes(root)
    args = {"selector": "C.md#X", "text": "# X\n\nnew\n", "signature": AGENT, "reason": "r"}
    _whole(_said(root, "propose", args), routes, {"B.md#X", "C.md#X", "D.md#X"})


def test_mcp_two_bindings_of_a_long_heading_refusal_names_forest_check_accepted(
    tmp_path: Path,
) -> None:
    title = "Rules " + "and more rules " * 24  # 366 characters: the routes do not fit
    selector = f"canon.md#Canon/{title.strip()}"
    root = two_bindings(tmp_path, f"# Canon\n\n## {title.strip()}\n\none\n", selector)
    line = _said(root, "read_ground", {"binding": selector})
    assert len(line) <= LINE_CHARS and "--binding" not in line, line
    _whole(line, _routes(root), {selector})
    assert len(_routes(root)) == 2 and all(r.startswith("forest retire") for r in _routes(root))
