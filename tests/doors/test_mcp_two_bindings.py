"""The MCP tools on a section two live bindings claim (two branches each adopted it,
then merged): ``read_ground`` and ``propose`` were refused with "two bindings claim
this section; resolve it first", naming no command (and ``forest resolve`` is not what
ends it). Now the refusal names each binding's ``forest retire --binding`` exactly as
``forest check`` prints it (check/route_contest.py); pasted by a person, the tools
answer again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.doors.mcp import schemas as s
from forest_files.doors.mcp import tools
from forest_files.doors.mcp.session import Session
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

pytest.importorskip("mcp")

AGENT = "Claude (agent) <agent@example.org>"
RULES = "canon.md#Canon/Rules"
CANON = "# Canon\n\n## Rules\n\none\n\ntwo\n"


def two_bindings(tmp_path: Path, canon: str = CANON, selector: str = RULES) -> Path:
    """Branches ``a`` and ``b`` each adopt the untouched section ``selector`` of
    ``canon.md`` (``canon``); main merges both."""
    root = make_repo(tmp_path)
    write(root, "canon.md", canon)
    ok(root, "init")
    commit_all(root, "init")
    for branch in ("a", "b"):
        git(root, "checkout", "-q", "-b", branch, "main")
        ok(root, "adopt", selector, "--words", f"{branch} adopts")
        commit_all(root, branch)
        git(root, "checkout", "-q", "main")
    for branch in ("a", "b"):
        git(root, "merge", "-q", "--no-edit", branch)
    return root


def _propose(root: Path) -> tools.Answer:
    text = "## Rules\n\none\n\nthree\n"
    args = {"selector": RULES, "text": text, "signature": AGENT, "reason": "clearer"}
    return tools.propose(Session(root), s.parse("propose", s.ProposeIn, args))


def test_mcp_section_two_bindings_claim_refused_with_check_routes_then_recovers(
    tmp_path: Path,
) -> None:
    root = two_bindings(tmp_path)
    found = json.loads(forest(root, "check", "--json").stdout)["findings"]
    routes = [r["command"] for f in found if f["kind"] == "contested" for r in f["routes"]]
    assert len(routes) == 2 and all(r.startswith("forest retire") for r in routes), routes
    read = s.ReadGroundIn.model_validate({"binding": RULES})
    for ask in (lambda: tools.read_ground(Session(root), read), lambda: _propose(root)):
        with pytest.raises(tools.ToolRefused) as refused:
            ask()
        said = str(refused.value)
        assert "\n" not in said and "resolve it first" not in said, said
        assert all(f"`{r}`" in said for r in routes), said
    done = pasted(root, routes[0].replace("'…'", "'one adoption is enough'"))
    assert done.returncode == 0, done.stderr
    assert forest(root, "check").exit_code == 0
    assert tools.read_ground(Session(root), read).data["selector"] == RULES
    assert _propose(root).data["outcome"] == "new"
