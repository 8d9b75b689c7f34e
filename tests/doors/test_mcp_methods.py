"""``forest mcp`` asked for a method MCP has that it does not serve (prompts,
templates, completions, logging levels, subscriptions, tasks): ``-32601``, its id, one
``forest:`` line naming the methods it serves, as a method MCP lacks gets; the SDK's
bare "Method not found" named none."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from tests.doors.test_mcp_stdio import INIT, _refused, _request, served
from tests.helpers.watch import bound_repo

pytest.importorskip("mcp")

from forest_files.doors.mcp.messages import SERVED
from forest_files.doors.mcp.server import build
from forest_files.doors.mcp.session import Session

UNSERVED = [
    ("prompts/list", None),
    ("prompts/get", {"name": "p"}),
    ("resources/templates/list", None),
    ("resources/subscribe", {"uri": "forest://a.md%23Keep"}),
    ("logging/setLevel", {"level": "info"}),
    (
        "completion/complete",
        {"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": "v"}},
    ),
    ("tasks/list", None),
]


@pytest.mark.slow
def test_mcp_method_not_served_names_served_methods_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with served(root) as pipes:
        assert pipes.send(_request(1, "initialize", INIT))["result"]["serverInfo"]
        pipes.tell(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for ident, (method, params) in enumerate(UNSERVED, start=2):
            why = _refused(pipes.send(_request(ident, method, params)), -32601, ident)
            assert method in why and "tools/call, resources/list, resources/read" in why, why
        listed = pipes.send(_request(99, "tools/list"))
        assert listed["id"] == 99 and listed["result"]["tools"]


def test_mcp_served_methods_are_the_servers_handlers_accepted() -> None:
    """``SERVED`` (what a refusal names) is the server's handlers and initialize."""
    handlers = build(Session(Path("unopened"))).request_handlers
    methods = {get_args(t.model_fields["method"].annotation)[0] for t in handlers}
    assert methods | {"initialize"} == set(SERVED)
