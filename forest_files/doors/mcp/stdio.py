"""The stdio transport ``forest mcp`` serves on: one JSON-RPC message per line, each
line validated once with the SDK's own model; a line that is no message is answered
here, with the JSON-RPC error itself, and never left waiting.

Stores: nothing.
Refuses: a line that is not UTF-8 JSON (invalid UTF-8, a lone surrogate escape, nested
deeper than the SDK's JSON parser goes, cut short): ``-32700`` with ``id`` null; JSON
that is no JSON-RPC 2.0 message (not an object, no ``"jsonrpc": "2.0"``, a ``method``
that is not a string, an ``id`` neither string nor integer): ``-32600`` with the
line's ``id`` when the one parse read a string or integer there, else null. The error
message is one ``forest: …`` line naming what to send; it never echoes the line, and
nothing of the line reaches the log or stderr. A blank line is no message: skipped.
Returns: ``judge(line)`` (the message, or the ``Refusal`` to answer);
``stdio(stdin, stdout)``, an async context of the (read, write) streams the SDK's
``Server.run`` takes.
Test: tests/doors/test_mcp_stdio.py

The SDK's own ``stdio_server`` hands an unparsable line to the session as an
exception, which logs it (values included) and answers nothing: the client waits
for ever. The SDK's ``JSONRPCError`` cannot carry ``id`` null, so refusals are
written here, beside the session's answers, one whole line at a time.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO

import anyio
import mcp.types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

NOT_JSON = "forest: not JSON ({why}); send each JSON-RPC message as one line of UTF-8 JSON"
NOT_MESSAGE = (
    'forest: not a JSON-RPC 2.0 message; send one object with "jsonrpc": "2.0", '
    'a string "method" and, for a request, a string or integer "id"'
)
WHY_CHARS = 120

RequestId = str | int


@dataclass(frozen=True)
class Refusal:
    """The JSON-RPC error a line that is no message gets."""

    code: int
    message: str
    id: RequestId | None = None

    def line(self) -> bytes:
        error = {"code": self.code, "message": self.message}
        body = {"jsonrpc": "2.0", "id": self.id, "error": error}
        return json.dumps(body, separators=(",", ":")).encode()


def judge(line: bytes) -> types.JSONRPCMessage | Refusal:
    """``line`` as the message it is (validated once, by the SDK's model), or the
    refusal to answer it with."""
    try:
        message = types.JSONRPCMessage.model_validate_json(line)
    except ValidationError as exc:
        return _refusal(exc.errors(include_url=False))
    root = message.root
    if isinstance(root, types.JSONRPCNotification) and "id" in (root.model_extra or {}):
        # An id the SDK cannot hold (true, 1.5, null, an object) makes the request
        # pass for a notification, which nothing answers.
        return Refusal(types.INVALID_REQUEST, NOT_MESSAGE)
    return message


def _refusal(errors: list[Any]) -> Refusal:
    for error in errors:
        if error["type"] == "json_invalid":
            why = str(error.get("ctx", {}).get("error", "unreadable"))[:WHY_CHARS]
            return Refusal(types.PARSE_ERROR, NOT_JSON.format(why=why))
    return Refusal(types.INVALID_REQUEST, NOT_MESSAGE, _id_read(errors))


def _id_read(errors: list[Any]) -> RequestId | None:
    """The line's ``id``, as the one parse read it: a required field missing at the
    top of a message shape carries the whole object as its input."""
    for error in errors:
        found = error.get("input")
        if error["type"] == "missing" and len(error["loc"]) == 2 and isinstance(found, dict):
            ident = found.get("id")
            if isinstance(ident, str) or (isinstance(ident, int) and not isinstance(ident, bool)):
                return ident
    return None


Streams = tuple[
    MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]
]


@asynccontextmanager
async def stdio(
    stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> AsyncIterator[Streams]:
    """The session's streams over ``stdin``/``stdout`` (the process's own by default,
    read and written as bytes: UTF-8 is judged per line, never replaced)."""
    source = anyio.wrap_file(stdin or sys.stdin.buffer)
    sink = anyio.wrap_file(stdout or sys.stdout.buffer)
    lock = anyio.Lock()  # a refusal and an answer never share a line
    to_session, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    outgoing, from_session = anyio.create_memory_object_stream[SessionMessage](0)

    async def emit(data: bytes) -> None:
        async with lock:
            await sink.write(data + b"\n")
            await sink.flush()

    async def read() -> None:
        async with to_session:
            async for line in source:
                if not line.strip():
                    continue
                judged = judge(line)
                if isinstance(judged, Refusal):
                    await emit(judged.line())
                    continue
                try:
                    await to_session.send(SessionMessage(judged))
                except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                    return  # the session has ended

    async def write() -> None:
        async with from_session:
            async for answer in from_session:
                text = answer.message.model_dump_json(by_alias=True, exclude_none=True)
                await emit(text.encode())

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(read)
        tasks.start_soon(write)
        try:
            yield incoming, outgoing
        finally:
            outgoing.close()
