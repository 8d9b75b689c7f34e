"""``forest mcp`` under a flood of notifications: lines that came together are read
in one blocking read, not one each (each cost a thread's start and a wake of the
event loop, some 300 µs: 100,000 notifications held the next request about 50 s)."""

from __future__ import annotations

import io
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

import mcp.types as types
from mcp.shared.message import SessionMessage

from forest_files.doors.mcp.blocking import Blocking
from forest_files.doors.mcp.lines import CHUNK
from forest_files.doors.mcp.stdio import stdio

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
