"""``forest mcp`` driven as a shell script or a CI job drives it: every request
written, then standard input closed at once. Each request read before the end of
input is answered before the process exits, status 0; in process, one the session
never answers within the transport's bound gets a JSON-RPC error with its id, never
dropped."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import anyio
import pytest

from tests.doors.test_mcp_stdio import INIT, WAIT, _forest_mcp, _request
from tests.helpers.watch import bound_repo

pytest.importorskip("mcp")

import mcp.types as types
from mcp.shared.message import SessionMessage

from forest_files.doors.mcp.stdio import stdio

INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}'


@pytest.mark.slow
def test_mcp_requests_then_end_of_input_each_answered_accepted(tmp_path: Path) -> None:
    """``printf '<init>\\n<initialized>\\n<list>\\n<call>\\n' | forest mcp -C repo``:
    the end of input used to cancel what the session had read and not yet answered
    (the read_ground call went unanswered); every request gets its answer, exit 0."""
    root = bound_repo(tmp_path)
    call = {"name": "read_ground", "arguments": {"binding": "a.md#Keep"}}
    lines = [
        _request(1, "initialize", INIT),
        INITIALIZED,
        _request(2, "tools/list"),
        _request(3, "tools/call", call),
    ]
    proc = _forest_mcp(root)
    out, err = proc.communicate(b"\n".join(lines) + b"\n", timeout=WAIT)
    assert proc.returncode == 0, err
    answers = {a["id"]: a for a in map(json.loads, out.splitlines())}
    assert sorted(answers) == [1, 2, 3], out
    assert answers[1]["result"]["serverInfo"]["name"] == "forest"
    assert "read_ground" in {t["name"] for t in answers[2]["result"]["tools"]}
    read = answers[3]["result"]
    assert not read.get("isError") and read["structuredContent"]["selector"] == "a.md#Title/Keep"
    assert err == b""


@pytest.mark.slow
def test_mcp_requests_then_end_of_input_many_each_answered_accepted(tmp_path: Path) -> None:
    """Forty tool calls behind one ``initialize``, then the end of input: forty answers."""
    root = bound_repo(tmp_path)
    calls = [_request(i, "tools/call", {"name": "check", "arguments": {}}) for i in range(2, 42)]
    proc = _forest_mcp(root)
    data = b"\n".join([_request(1, "initialize", INIT), INITIALIZED, *calls]) + b"\n"
    out, err = proc.communicate(data, timeout=WAIT)
    assert proc.returncode == 0, err
    answers = [json.loads(line) for line in out.splitlines()]
    assert sorted(a["id"] for a in answers) == list(range(1, 42))
    assert all("result" in a for a in answers), answers


def test_mcp_request_never_answered_by_end_of_input_errored_detected() -> None:
    """A request the session holds past the bound after the end of input (a stuck
    call) is answered by the transport: a JSON-RPC error with its id, one forest:
    line; an answer the session gives it later is not written a second time."""
    sent = [_request(7, "ping"), _request("x", "ping")]
    stdin = io.BytesIO(b"\n".join(sent) + b"\n")
    stdout = io.BytesIO()

    async def main() -> None:
        # a bound on the whole session: a transport that never ends fails here, named,
        # instead of holding the suite (and CI) until its own time limit
        with anyio.fail_after(60):
            async with stdio(stdin, stdout, drain=0.2) as (incoming, outgoing), incoming, outgoing:
                held = [await incoming.receive() for _ in sent]
                await anyio.sleep(0.5)  # past the bound: the transport answers both
                assert all(isinstance(m, SessionMessage) for m in held)
                late = types.JSONRPCResponse(jsonrpc="2.0", id=7, result={})
                await outgoing.send(SessionMessage(types.JSONRPCMessage(late)))  # dropped

    started = time.monotonic()
    anyio.run(main)
    assert time.monotonic() - started < 20.0  # the 0.2 s bound, not the 30 s default
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [7, "x"], answers
    for a in answers:
        assert a["error"]["code"] == types.CONNECTION_CLOSED and "result" not in a
        assert a["error"]["message"].startswith("forest: ")
        assert "\n" not in a["error"]["message"]
