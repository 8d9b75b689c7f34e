"""The answers the stdio transport owes its client: each request passed to the session,
until the session's answer to it is written; what lets the end of input wait for them.

Stores: nothing.
Refuses: nothing; an answer the session gives a request already answered here (given
up at the bound) is not written a second time.
Returns: ``Owed`` (``owe(message)``, ``heard(message)``, ``settle(seconds)``);
``UNANSWERED``, the message of the JSON-RPC error (``-32000``, the request's ``id``)
a request given up gets.
Test: tests/doors/test_mcp_end_of_input.py

Why: at the end of input the SDK's ``Server.run`` cancels every handler still
running, and its session closes the stream answers go out on, so a client that
writes its requests and closes stdin (a shell's ``printf … | forest mcp``, a CI job)
got no answer to what was read but not yet answered. The transport holds the
session's input open until each is answered, ``DRAIN_SECONDS`` at most; a tool call
runs whole between two awaits, so the bound is met at the first await after it.
"""

from __future__ import annotations

from collections import Counter

import anyio
import mcp.types as types

from forest_files.doors.mcp.messages import Refusal, RequestId

DRAIN_SECONDS = 30.0
UNANSWERED = (
    "forest: standard input ended and this request was not answered within {seconds:g} s "
    "of it; keep standard input open until each answer has come"
)


class Owed:
    """The requests the session was given and has not answered, by id (an id sent
    twice is owed twice)."""

    def __init__(self) -> None:
        self._ids: Counter[RequestId] = Counter()
        self._given_up: set[RequestId] = set()
        self._changed = anyio.Event()

    def owe(self, message: types.JSONRPCMessage) -> None:
        """``message`` is passed to the session: a request is owed its answer."""
        if isinstance(message.root, types.JSONRPCRequest):
            self._ids[message.root.id] += 1

    def heard(self, message: types.JSONRPCMessage) -> bool:
        """Whether the session's ``message`` is written: all but an answer to a
        request given up (already answered with ``UNANSWERED``)."""
        root = message.root
        if not isinstance(root, types.JSONRPCResponse | types.JSONRPCError):
            return True
        if root.id in self._given_up:
            return False
        self._ids[root.id] -= 1
        if self._ids[root.id] <= 0:
            del self._ids[root.id]
        self._changed.set()
        return True

    async def settle(self, seconds: float = DRAIN_SECONDS) -> list[Refusal]:
        """Wait until every request is answered, ``seconds`` at most; the errors that
        answer those still owed then, each given up."""
        with anyio.move_on_after(seconds):
            while self._ids:
                self._changed = anyio.Event()
                await self._changed.wait()
        left = list(self._ids.elements())
        self._given_up.update(left)
        self._ids.clear()
        message = UNANSWERED.format(seconds=seconds)
        return [Refusal(types.CONNECTION_CLOSED, message, ident) for ident in left]
