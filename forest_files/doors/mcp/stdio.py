"""The stdio transport ``forest mcp`` serves on: one JSON-RPC message per line, each
line judged once (messages.py ``judge``) before the session sees it; a line that is no
message is answered here, with the JSON-RPC error itself, and never left waiting.

Stores: nothing.
Refuses: a line longer than ``MAX_MCP_LINE_BYTES`` before its newline (bounds.py: the
largest ``propose`` call, every character escaped at its most): ``-32600`` with ``id``
null, its bytes read on to the newline and dropped (lines.py), never held whole;
every line messages.py refuses, with its ``Refusal`` (before the session's
``initialize``, what ``unopened`` refuses too). Dropped, unanswered and unlogged: a
blank line, and what messages.py ignores.
Returns: ``stdio(stdin, stdout)``, an async context of the (read, write) streams the
SDK's ``Server.run`` takes (its input read as lines.py reads it: what came together
in one blocking read); it ends when ``stdin`` does (a last line without its newline
is still judged), once each request read is answered (owed.py: ``DRAIN_SECONDS`` at
most, then a ``-32000`` error for each still owed), or at the first line after the
client closed ``stdout`` (a hang-up, ``hung_up``: no error; answers still owed are
dropped, and a call already running finishes and is recorded, as tool calls run
whole between two awaits); when an answer
cannot be written (/dev/full, a full disk, standard output closed: no hang-up) it ends
the same way, then raises that error (the boundary's ``cannot write standard output``
line, exit 1; it was an internal error and a crash log); at a stop signal (SIGTERM,
SIGHUP, Ctrl-C) it ends at the session's next await, a read or write that blocks
left behind (blocking.py), then raises ``Terminated`` or KeyboardInterrupt; so too
when the terminal ``stdin`` reads hangs up (its read fails with EIO, with or without
the SIGHUP beside it): ``Terminated`` by SIGHUP, never an internal error; when
``stdin`` cannot be read (closed at start, open for writing only) it ends as at its
end, then raises ``InputLost`` (the boundary's ``cannot read standard input`` line).
Test: tests/doors/test_mcp_stdio.py, tests/doors/test_mcp_end_of_input.py

The SDK's own ``stdio_server`` hands an unparsable line to the session as an
exception, which logs it (values included) and answers nothing: the client waits
for ever; and a refusal cannot go through the session (its ``JSONRPCError`` cannot
carry ``id`` null), so refusals are written here, beside the session's answers, one
whole line at a time.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import BinaryIO

import anyio
import mcp.types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from forest_files.doors.mcp.blocking import Blocking, hang_up, is_terminal, stopped, watch_stops
from forest_files.doors.mcp.lines import Lines, More, Overlong
from forest_files.doors.mcp.messages import Ignored, Refusal, judge, opens, unopened
from forest_files.doors.mcp.owed import DRAIN_SECONDS, Owed
from forest_files.doors.streams import InputLost
from forest_files.kernel.bounds import MAX_MCP_LINE_BYTES, MAX_PROPOSED_CHARS

TOO_LONG = (
    "forest: a line over {limit} bytes, the bound of one message (a propose text of "
    "{chars} characters fits it); send each JSON-RPC message as one line within it"
)


def too_long(limit: int) -> Refusal:
    return Refusal(types.INVALID_REQUEST, TOO_LONG.format(limit=limit, chars=MAX_PROPOSED_CHARS))


Streams = tuple[
    MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]
]


def hung_up(stdout: BinaryIO) -> None:
    """The client closed the stream the answers go to: the normal end of a stdio
    session, not an error. What the buffer still holds, and the interpreter's last
    flush, then go to /dev/null instead of raising BrokenPipeError again."""
    from forest_files.kernel.exits import output_to_devnull

    try:
        fd = stdout.fileno()
    except (OSError, ValueError):  # no descriptor (an in-memory stream): nothing to flush
        return
    output_to_devnull(fd)


def _write(target: BinaryIO, data: bytes) -> None:
    target.write(data)
    target.flush()


@asynccontextmanager
async def stdio(
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    blocking: Blocking | None = None,
    drain: float = DRAIN_SECONDS,
) -> AsyncIterator[Streams]:
    """The session's streams over ``stdin``/``stdout`` (the process's own by default,
    read and written as bytes: UTF-8 is judged per line, never replaced), each read
    and write run by ``blocking``; at the end of input, the session's own input held
    open until each request it was given is answered, ``drain`` seconds at most."""
    source = stdin or sys.stdin.buffer
    lines = Lines(source)
    target = stdout or sys.stdout.buffer
    calls = blocking or Blocking()
    lock = anyio.Lock()  # a refusal and an answer never share a line
    gone = anyio.Event()  # the client closed our stdout: nothing more can reach it
    lost: list[OSError] = []  # ... or it could not be written, or stdin not read
    caught: list[int] = []  # a stop signal: SIGTERM, SIGHUP, Ctrl-C; or stdin hung up
    terminal = is_terminal(source)
    owed = Owed()  # requests passed to the session, until their answers are written
    to_session, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    outgoing, from_session = anyio.create_memory_object_stream[SessionMessage](0)

    async def emit(data: bytes) -> None:
        async with lock:
            if gone.is_set():
                return
            try:
                await calls.run(_write, target, data + b"\n")
            except BrokenPipeError:
                gone.set()
                hung_up(target)
            except OSError as exc:  # /dev/full, a full disk: no answer can arrive
                gone.set()  # said once the session ends (the boundary's line, exit 1)
                lost.append(exc)

    async def next_or_hung_up(lines: Lines) -> bytearray | Overlong | None:
        while isinstance(got := lines.take(), More):
            if (data := await read_or_hung_up(lines)) is None:
                return None
            lines.feed(data)
        return got

    async def read_or_hung_up(lines: Lines) -> bytes | None:
        try:
            return await calls.run(lines.read)
        except OSError as exc:
            if not hang_up(exc, terminal):  # closed (`<&-`), for writing only: said at the end
                lost.append(exc if isinstance(exc, InputLost) else InputLost(*exc.args[:2]))
                return None
            caught.append(signal.SIGHUP)  # ended as the SIGHUP beside it would end it
            tasks.cancel_scope.cancel()
            return None

    async def read() -> None:
        opened = False  # the session's initialize passed on: before it, messages.unopened
        async with to_session:
            while (line := await next_or_hung_up(lines)) is not None:
                if gone.is_set():
                    return  # no answer can be heard: nothing more is served
                if isinstance(line, Overlong):
                    await emit(too_long(MAX_MCP_LINE_BYTES).line())
                    continue
                if line.isspace():
                    continue
                judged = judge(line)
                if not opened and not isinstance(judged, Refusal | Ignored):
                    opened, judged = opens(judged), unopened(judged) or judged
                if isinstance(judged, Ignored):
                    continue
                if isinstance(judged, Refusal):
                    await emit(judged.line())
                    continue
                owed.owe(judged)  # before the send: its answer may come before it returns
                try:
                    await to_session.send(SessionMessage(judged))
                except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                    return  # the session has ended
            if not gone.is_set():  # the end of input: each request read is answered
                for unanswered in await owed.settle(drain):
                    await emit(unanswered.line())

    async def write() -> None:
        async with from_session:
            async for answer in from_session:
                if not owed.heard(answer.message):
                    continue  # already answered at the end of input: its bound passed
                text = answer.message.model_dump_json(by_alias=True, exclude_none=True)
                await emit(text.encode())

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(read)
        tasks.start_soon(write)
        watching = await tasks.start(watch_stops, tasks.cancel_scope, caught)
        try:
            yield incoming, outgoing
        finally:
            outgoing.close()
            watching.cancel()
    if caught:
        raise stopped(caught[0])
    if lost:
        raise lost[0]
