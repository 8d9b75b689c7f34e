"""What one line of the stdio stream is (stdio.py reads it): the message, validated once
with the SDK's own models; the JSON-RPC error a line that is no message gets; or
nothing, for one that needs no answer.

Stores: nothing.
Refuses: a line that is not UTF-8 JSON (invalid UTF-8, a lone surrogate escape, nested
deeper than the SDK's JSON parser goes, cut short): ``-32700`` with ``id`` null; JSON
that is no JSON-RPC 2.0 message (not an object, no ``"jsonrpc": "2.0"``, a ``method``
that is not a string, an ``id`` neither string nor integer): ``-32600`` with the
line's ``id`` when the one parse read a string or integer there, else null; a request
for a method MCP has no client request for, or one this server does not serve
(``prompts/list``, ``completion/complete``): ``-32601``, naming the methods it
serves (``SERVED``); a request whose ``params`` do
not fit its method's model (a tool name that is a number, arguments that are no
object): ``-32602``, naming the field; before the session is opened (``unopened``), a
request but ``initialize`` or ``ping``: ``-32600``, naming ``initialize``. The error
message is one ``forest: …`` line naming what to send; it never echoes the line, and
nothing of the line reaches the log or stderr. Dropped, unanswered and unlogged
(``IGNORED``): a notification but the two the session acts on (``ACTED_ON``:
``notifications/initialized`` and ``notifications/cancelled``; a progress or
roots notification passed to it cost the session some 300 µs, for nothing), one but
``notifications/initialized`` before the session is opened, and a response or error
(this server sends no request, so every one answers nothing it asked).
Returns: ``judge(line)`` (the message, the ``Refusal`` to answer, or ``IGNORED``);
``unopened(message)`` and ``opens(message)`` (what comes before ``initialize``);
``Refusal`` (its ``line()``: the JSON-RPC error, written as one line).
Test: tests/doors/test_mcp_stdio.py, tests/doors/test_mcp_opening.py

The SDK's session logs, values included, every request and notification whose
params its models refuse and every response it did not ask for, to stderr: the
client's log file. So each message is judged here against the very model the session
validates it with before the session sees it. The SDK's ``JSONRPCError`` cannot carry
``id`` null, so a refusal is its own line, written beside the session's answers.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, get_args

import mcp.types as types
from pydantic import BaseModel, ValidationError

NOT_JSON = "forest: not JSON ({why}); send each JSON-RPC message as one line of UTF-8 JSON"
NOT_MESSAGE = (
    'forest: not a JSON-RPC 2.0 message; send one object with "jsonrpc": "2.0", '
    'a string "method" and, for a request, a string or integer "id"'
)
# The requests this server answers: the session's initialize and ping, and the
# handlers server.build registers (a test holds the two lists the same).
SERVED = ("initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/read")
NO_METHOD = "forest: not a method an MCP client sends; send one of " + ", ".join(SERVED)
NOT_SERVED = "forest: {method} is not served here; send one of " + ", ".join(SERVED)
BAD_PARAMS = "forest: {method}: {where}: {why}; send the params MCP's schema gives it"
NOT_OPENED = (
    "forest: {method} before initialize; send the initialize request first "
    "(only ping is answered before it)"
)
OPENING = frozenset({"initialize", "notifications/initialized"})  # what opens a session
# The client notifications the session acts on; the server (server.build) registers
# no handler for any other (progress, roots/list_changed, tasks/status).
ACTED_ON = frozenset({"notifications/initialized", "notifications/cancelled"})
WHY_CHARS = 120

RequestId = str | int
_UNSAFE = re.compile(r"[^\w.\-/]")


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


class Ignored:
    """A message that needs no answer and that the session could not take: dropped."""


IGNORED = Ignored()


def judge(line: bytes | bytearray) -> types.JSONRPCMessage | Refusal | Ignored:
    """``line`` as the message it is (validated by the SDK's models: the message's,
    then its method's), the refusal to answer it with, or ``IGNORED``."""
    try:
        message = types.JSONRPCMessage.model_validate_json(line)
    except ValidationError as exc:
        return _refusal(exc.errors(include_url=False))
    root = message.root
    if isinstance(root, types.JSONRPCNotification) and "id" in (root.model_extra or {}):
        # An id the SDK cannot hold (true, 1.5, null, an object) makes the request
        # pass for a notification, which nothing answers.
        return Refusal(types.INVALID_REQUEST, NOT_MESSAGE)
    if isinstance(root, types.JSONRPCRequest):
        return _fits(root) or message
    if isinstance(root, types.JSONRPCNotification):
        return message if root.method in ACTED_ON and _valid(root) else IGNORED
    return IGNORED  # a response or an error: this server asked nothing


def unopened(message: types.JSONRPCMessage) -> Refusal | Ignored | None:
    """What ``message`` gets before the session is opened (nothing of ``OPENING`` yet
    passed to it): a request but ``ping`` or ``initialize`` its refusal, a notification
    but ``notifications/initialized`` ``IGNORED``; None to pass it on. The SDK's
    session would answer such a request "Invalid request parameters" and log it, and
    log such a notification with its params, through the root logger (stderr, raw)."""
    root = message.root
    if isinstance(root, types.JSONRPCRequest) and root.method not in ("ping", *OPENING):
        # the method is one of _REQUESTS (judge refused any other): no value echoed
        return Refusal(types.INVALID_REQUEST, NOT_OPENED.format(method=root.method), root.id)
    if isinstance(root, types.JSONRPCNotification) and root.method not in OPENING:
        return IGNORED
    return None


def opens(message: types.JSONRPCMessage) -> bool:
    """Whether the session is opened once ``message`` reaches it."""
    root = message.root
    return isinstance(root, types.JSONRPCRequest | types.JSONRPCNotification) and (
        root.method in OPENING
    )


def _methods(union: Any) -> dict[str, type[BaseModel]]:
    """Each model of an SDK union (ClientRequestType, …) by the method it is for."""
    return {get_args(m.model_fields["method"].annotation)[0]: m for m in get_args(union)}


_REQUESTS = _methods(types.ClientRequestType)
_NOTIFICATIONS = _methods(types.ClientNotificationType)


def _valid(root: types.JSONRPCNotification) -> bool:
    dumped = root.model_dump(by_alias=True, mode="json", exclude_none=True)
    try:
        _NOTIFICATIONS[root.method].model_validate(dumped)
    except ValidationError:
        return False
    return True


def _fits(root: types.JSONRPCRequest) -> Refusal | None:
    """The refusal of a request the session's model would refuse (and log), or None."""
    model = _REQUESTS.get(root.method)
    if model is None:
        return Refusal(types.METHOD_NOT_FOUND, NO_METHOD, root.id)
    if root.method not in SERVED:  # one of MCP's (no value echoed); the SDK said "Method not found"
        return Refusal(types.METHOD_NOT_FOUND, NOT_SERVED.format(method=root.method), root.id)
    try:
        model.model_validate(root.model_dump(by_alias=True, mode="json", exclude_none=True))
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(_UNSAFE.sub("?", str(part))[:64] for part in first["loc"]) or "params"
        why = BAD_PARAMS.format(method=root.method, where=where, why=first["msg"][:200])
        return Refusal(types.INVALID_PARAMS, why, root.id)
    return None


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
