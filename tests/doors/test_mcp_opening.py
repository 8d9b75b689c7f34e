"""``forest mcp`` sent messages before its session is opened (before ``initialize``):
each request but ``ping`` answered at once with its JSON-RPC error, one ``forest:``
line naming ``initialize``; each notification dropped; nothing of any line on stderr;
nothing kept; after ``initialize`` the same requests are served."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from tests.doors.test_mcp_stdio import (
    AGENT,
    INIT,
    INVALID,
    NEW,
    SENTINEL,
    WAIT,
    Pipes,
    _forest_mcp,
    _refused,
    _request,
)
from tests.helpers.watch import bound_repo

pytest.importorskip("mcp")


@pytest.mark.slow
def test_mcp_stdio_messages_before_initialize_never_logged_refused(tmp_path: Path) -> None:
    """The SDK answered a request before ``initialize`` with -32602 "Invalid request
    parameters" (its params were fine) and logged it; it logged a notification before
    ``initialize`` through Python's root logger, its params whole (the sentinel) on
    stderr, the client's log."""
    root = bound_repo(tmp_path)
    proc = _forest_mcp(root)
    pipes = Pipes(proc)
    propose = {"selector": "a.md#Keep", "text": NEW + SENTINEL, "signature": AGENT, "reason": "r"}
    early = [
        _request(1, "tools/call", {"name": "propose", "arguments": propose}),
        _request("two", "tools/list"),
        _request(3, "resources/read", {"uri": "forest://a.md%23Keep"}),
    ]
    for line in early:
        why = _refused(pipes.send(line), INVALID, json.loads(line)["id"])
        assert "initialize" in why and SENTINEL not in why, why
    for method in ("notifications/roots/list_changed", "notifications/progress"):
        params = {"_meta": {"x": SENTINEL + "\x1b]0;owned\x07"}, "progressToken": 1, "progress": 1}
        pipes.tell(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())
    assert pipes.send(_request(4, "ping")) == {"jsonrpc": "2.0", "id": 4, "result": {}}
    assert pipes.send(_request(5, "initialize", INIT))["result"]["serverInfo"]
    pipes.tell(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    listed = pipes.send(_request(6, "tools/list"))
    assert "propose" in {t["name"] for t in listed["result"]["tools"]}
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.close()
    assert proc.wait(timeout=WAIT) == 0
    assert pipes.lines.empty()
    err = proc.stderr.read().decode("utf-8", errors="replace")
    proc.stderr.close()
    assert err == "", err[-2000:]
    with ProposalStore(root) as store:
        assert store.open_proposals() == []
