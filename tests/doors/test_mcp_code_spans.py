"""The commands an MCP refusal names, read as Markdown (an agent's client renders the
line): each is a code span, and a place whose name holds a backquote (a ledger's
selector is a claim, any text) ended the single-backquote span early, so the reader
saw a command cut at the backquote and the rest as prose. Now each span's fence is
longer than any run of backquotes inside (text/codespan.py), and a CommonMark parser
reads back exactly the command ``forest check`` prints; pasted, it runs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from forest_files.doors.mcp import schemas as s
from forest_files.doors.mcp import tools
from forest_files.doors.mcp.session import Session
from tests.helpers.cli import forest
from tests.helpers.git import git, pasted
from tests.helpers.rebound import origin, rebound_clone

pytest.importorskip("mcp")

B, C = "`B``.md", "C`x.md"  # a leading backquote, a run of two, one alone


def _spans(line: str) -> list[str]:
    """The code spans of ``line`` as a CommonMark reader gets them; no backquote left
    in its prose."""
    (inline,) = MarkdownIt().parseInline(line)
    tokens = inline.children or []
    assert all("`" not in t.content for t in tokens if t.type != "code_inline"), line
    return [t.content for t in tokens if t.type == "code_inline"]


def test_mcp_refusal_route_with_backquoted_place_reads_back_whole_accepted(
    tmp_path: Path,
) -> None:
    origin(tmp_path)
    b, c = rebound_clone(tmp_path, B, "b"), rebound_clone(tmp_path, C, "c")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(c), "HEAD")
    (said,) = [
        f
        for f in json.loads(forest(b, "check", "--json").stdout)["findings"]
        if f["kind"] == "contested"
    ]
    routes = [r["command"] for r in said["routes"]]
    assert any("``" in r for r in routes), routes
    other = ({f"{B}#X", f"{C}#X"} - {said["selector"]}).pop()
    for call in (
        lambda: tools.read_ground(Session(b), s.ReadGroundIn.model_validate({"binding": other})),
        lambda: tools.propose(
            Session(b),
            s.parse(
                "propose",
                s.ProposeIn,
                {"selector": other, "text": "# X\n", "signature": "A <a@b.c>", "reason": "r"},
            ),
        ),
    ):
        with pytest.raises(tools.ToolRefused) as refused:
            call()
        spans = _spans(str(refused.value))
        assert spans[-len(routes) :] == routes, str(refused.value)
        assert set(spans[: -len(routes)]) == {said["selector"], other}, str(refused.value)
    done = pasted(b, spans[-len(routes)])  # the rebind that keeps it where it stands
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")
    assert forest(b, "check").exit_code == 0
