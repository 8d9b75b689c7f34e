"""``forest mcp`` under a flood of notifications: lines that came together are read
in one blocking read, not one each (each cost a thread's start and a wake of the
event loop, some 300 µs: 100,000 notifications held the next request about 50 s),
and a notification nothing on the server acts on (progress) is dropped before the
SDK's session, which spent as much again on each."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

import mcp.types as types
from mcp.shared.message import SessionMessage

from forest_files.doors.mcp.blocking import Blocking
from forest_files.doors.mcp.lines import CHUNK
from forest_files.doors.mcp.server import build
from forest_files.doors.mcp.session import Session
from forest_files.doors.mcp.stdio import stdio
from tests.doors.test_mcp_stdio import INIT, WAIT, _forest_mcp, _request
from tests.helpers.watch import bound_repo

FLOOD = 10_000
UNKNOWN = b'{"jsonrpc":"2.0","method":"notifications/whatever","params":{"n":1}}\n'
PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'


class _Counted(Blocking):
    """The session's blocking calls, counted (reads and writes alike)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    async def run(self, fn: Any, *args: Any) -> Any:
        self.calls += 1
        return await super().run(fn, *args)


def test_mcp_flood_of_notifications_read_in_chunks_accepted() -> None:
    """10,000 notifications and a ping in one stream: the ping reaches the session
    after a blocking read per ``CHUNK`` of input (about 10), never one per line."""
    data = UNKNOWN * FLOOD + PING
    blocking = _Counted()
    stdout = io.BytesIO()

    async def main() -> list[Any]:
        got = []
        streams = stdio(io.BytesIO(data), stdout, blocking)
        async with streams as (incoming, outgoing), incoming, outgoing:
            got.append(await incoming.receive())
            pong = types.JSONRPCResponse(jsonrpc="2.0", id=1, result={})
            await outgoing.send(SessionMessage(types.JSONRPCMessage(pong)))
        return got

    got = anyio.run(main)
    assert [m.message.root.method for m in got] == ["ping"]
    assert stdout.getvalue() == b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
    reads = blocking.calls - 1  # the one write
    assert reads <= len(data) // CHUNK + 3, reads  # one line each was 10,002


PROGRESS = (
    b'{"jsonrpc":"2.0","method":"notifications/progress",'
    b'"params":{"progressToken":"t","progress":1}}\n'
)
INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'


def _answer(ident: int) -> SessionMessage:
    pong = types.JSONRPCResponse(jsonrpc="2.0", id=ident, result={})
    return SessionMessage(types.JSONRPCMessage(pong))


def test_mcp_flood_of_progress_notifications_never_reach_session_accepted() -> None:
    """An opened session, then 10,000 ``notifications/progress`` and a ping: the session
    is handed the ping next (nothing on the server acts on a progress notification; each
    cost the SDK's session some 300 µs, 100,000 about 30 s)."""
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT})
    data = init.encode() + b"\n" + INITIALIZED + PROGRESS * FLOOD + PING.replace(b":1,", b":2,")

    async def main() -> list[str]:
        seen: list[str] = []
        streams = stdio(io.BytesIO(data), io.BytesIO())
        async with streams as (incoming, outgoing), incoming, outgoing:
            while not seen or seen[-1] != "ping":
                got = await incoming.receive()
                assert isinstance(got, SessionMessage)
                root = got.message.root
                assert isinstance(root, types.JSONRPCRequest | types.JSONRPCNotification)
                seen.append(root.method)
                if isinstance(root, types.JSONRPCRequest):
                    await outgoing.send(_answer(int(root.id)))
        return seen

    assert anyio.run(main) == ["initialize", "notifications/initialized", "ping"]
    # what messages.ACTED_ON holds: the server acts on no other notification
    assert build(Session(Path("unopened"))).notification_handlers == {}


@pytest.mark.slow
def test_mcp_flood_of_notifications_next_request_answered_accepted(
    tmp_path: Path,
) -> None:
    """``forest mcp`` sent 30,000 notifications (progress, unknown) then a ping: the
    ping is answered, nothing is said on stderr, and the end of input ends it with 0.
    How long the flood holds the ping up is measured, not asserted here:
    bench/mcp_flood_bench.py (30.5 s before, under 1 s now)."""
    root = bound_repo(tmp_path)
    proc = _forest_mcp(root)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(_request(1, "initialize", INIT) + b"\n" + INITIALIZED)
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    proc.stdin.write((2 * PROGRESS + UNKNOWN) * FLOOD + _request(2, "ping") + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline()) == {"jsonrpc": "2.0", "id": 2, "result": {}}
    proc.stdin.close()
    assert proc.wait(timeout=WAIT) == 0
    assert proc.stderr is not None and proc.stderr.read() == b""
