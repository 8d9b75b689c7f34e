"""The MCP server over stdio (the official ``mcp`` SDK's low-level server): tools
that read custody and one that proposes, each bound section a resource.

Stores: nothing itself (tools.py; every call audited, audit.py). The SDK's own log
lines go to stderr with each control character escaped (an agent's tool name is in
them).
Refuses: a tool it does not advertise (``propose`` under ``--read-only`` is not
advertised and not callable), arguments outside a tool's schema, an unknown or
malformed ``forest://`` URI; each as one ``forest: …`` line, never a traceback
and never a body (a damaged ledger's names the ``forest verify`` that lists its
every fault).
Returns: ``serve(root, read_only=)``, which runs until the client closes stdin
(over stdio.py, which answers a line that is no JSON-RPC message itself), or a stop
signal (SIGTERM, SIGHUP or its terminal hanging up, Ctrl-C: a call running finishes
and is recorded, then its KeyboardInterrupt or ``Terminated`` is raised; with a read
or write still blocked, the boundary's ``stranded`` ends the process at once, its one
line said; so too after an internal error: its crash log, exit 3);
``build(session, read_only=)``, the server object (for tests and the bench).
Test: tests/doors/test_mcp_server.py, tests/doors/test_mcp_claimed_names.py
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.shared.exceptions import McpError

from forest_files.doors.mcp import schemas as s
from forest_files.doors.mcp import tools
from forest_files.doors.mcp.audit import record_call
from forest_files.doors.mcp.propose_checks import LINE_CHARS
from forest_files.doors.mcp.session import Session
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import printable

SCHEME = "forest://"
RESOURCE_PAGE = 500
NAME = "forest"
INSTRUCTIONS = (
    "Forest custody of one repository. Ground is text a person adopted; you may read it, "
    "search it, see what drifted, and propose new text for a bound section. A proposal "
    "waits for a person (`forest review`); nothing you call here makes ground."
)

Tool = tuple[type[s._Input], Callable[[Session, Any], tools.Answer], str]
TOOLS: dict[str, Tool] = {
    "ground": (s.GroundIn, tools.ground, "The bound sections with their status, paged."),
    "read_ground": (
        s.ReadGroundIn,
        tools.read_ground,
        "The ground text of one binding (sealed or erased text never), with next_offset.",
    ),
    "recall": (
        s.RecallIn,
        tools.recall,
        "Full-text search over custody (ground and its history): packets, jurisdiction "
        "first, bounded excerpts; never proposals or local text.",
    ),
    "check": (s.CheckIn, tools.check, "The working tree's findings (body-free), paged."),
    "proposals": (s.ProposalsIn, tools.proposals, "The open proposals (never their text)."),
    "propose": (
        s.ProposeIn,
        tools.propose,
        "Propose new text for a bound section, with your signature and a reason. Kept "
        "for a person to review; never touches the file or ground.",
    ),
}
WRITE_TOOLS = frozenset({"propose"})


def advertised(read_only: bool) -> dict[str, Tool]:
    return {k: v for k, v in TOOLS.items() if not (read_only and k in WRITE_TOOLS)}


def one_line(exc: BaseException) -> str:
    """``forest: …``: a ForestError's first line (they never carry a body), or only
    the type of anything else (its message might); a damaged ledger's, which names its
    first fault only, with the ``forest verify`` that lists them all (as the command
    line's doors say it)."""
    if isinstance(exc, ForestError):
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    else:
        text = f"internal error ({type(exc).__name__}); nothing was written"
    more = _every_fault(exc, text)
    return "forest: " + text[: LINE_CHARS - len(more)] + more


def _every_fault(exc: BaseException, text: str) -> str:
    from forest_files.kernel.shellword import forest_text
    from forest_files.ledger.fault import LedgerError

    verify = forest_text("verify")
    # a ledger read from git (``source``) is not the one verify reads: nothing to add
    if not isinstance(exc, LedgerError) or exc.source is not None or verify in text:
        return ""
    return f" (`{verify}` lists every fault of the ledger)"


def call(
    session: Session, name: str, arguments: object, *, read_only: bool
) -> types.CallToolResult:
    """One tool call, audited, as the result the client receives."""
    tool = advertised(read_only).get(name)
    if tool is None:
        record_call(session, "unknown", "refused", code="no-such-tool")
        return _error(f"forest: no tool named {name[:64]!r} here; list the tools")
    model, run, _ = tool
    actor = arguments.get("signature") if isinstance(arguments, dict) else None
    try:
        answer = run(session, s.parse(name, model, arguments))
    except Exception as exc:
        from forest_files.custody.auditlog import reason_of

        record_call(session, name, "refused", actor=_str(actor), code=reason_of(exc)[:40])
        return _error(one_line(exc))
    record_call(
        session,
        name,
        answer.outcome,
        actor=_str(actor),
        targets=answer.targets,
        counts=answer.counts,
    )
    text = json.dumps(answer.data, ensure_ascii=False)  # packets keep jurisdiction first
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structuredContent=answer.data
    )


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _error(line: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=line)], isError=True)


def mime_type(path: str) -> str:
    """What a resource of a binding in ``path`` is, listed and read alike."""
    return "text/markdown" if path.endswith(".md") else "text/plain"


def resource_uri(selector: str) -> str:
    return SCHEME + quote(selector, safe="")


def resources(session: Session, cursor: str | None) -> types.ListResourcesResult:
    """One resource per live binding, ``RESOURCE_PAGE`` at a time."""
    start = int(cursor[:9]) if cursor is not None and cursor[:9].isdigit() else 0
    live = [b for b in session.bindings() if not b.contested]
    page = live[start : start + RESOURCE_PAGE]
    nxt = start + RESOURCE_PAGE
    found = [
        types.Resource(
            uri=resource_uri(b.selector),  # type: ignore[arg-type]  # pydantic coerces str to AnyUrl
            name=b.selector,
            description=f"ground of binding {b.bind_act}",
            mimeType=mime_type(b.path),
        )
        for b in page
    ]
    return types.ListResourcesResult(
        resources=found, nextCursor=str(nxt) if nxt < len(live) else None
    )


def read(session: Session, uri: str) -> list[ReadResourceContents]:
    """A ``forest://<selector>`` resource: its ground text, bounded (read_ground)."""
    if not uri.startswith(SCHEME) or len(uri) > 3 * s.MAX_READ_CHARS:
        record_call(session, "resource", "refused", code="bad-uri")
        raise McpError(types.ErrorData(code=types.INVALID_PARAMS, message=_BAD_URI))
    selector = unquote(uri[len(SCHEME) :])
    try:
        answer = tools.read_ground(session, s.ReadGroundIn.model_validate({"binding": selector}))
    except Exception as exc:
        from forest_files.custody.auditlog import reason_of

        record_call(session, "resource", "refused", code=reason_of(exc)[:40])
        raise McpError(types.ErrorData(code=types.INVALID_PARAMS, message=one_line(exc))) from None
    record_call(session, "resource", "ok", targets=answer.targets, counts=answer.counts)
    data = answer.data
    meta = {k: data[k] for k in ("binding", "ground", "body_hash", "total_chars", "next_offset")}
    from forest_files.text.selector import parse_selector

    mime = mime_type(parse_selector(str(data["selector"])).path)
    return [ReadResourceContents(content=data["text"], mime_type=mime, meta=meta)]


_BAD_URI = "forest: a resource URI is forest://<selector, URL-quoted>; list the resources"


def build(session: Session, *, read_only: bool = False) -> Server[Any, Any]:
    """The server for the repository ``session`` holds."""
    server: Server[Any, Any] = Server(NAME, instructions=INSTRUCTIONS)
    offered = advertised(read_only)

    @server.list_tools()  # type: ignore[no-untyped-call, untyped-decorator]  # the SDK's decorators are untyped
    async def _list_tools() -> list[types.Tool]:
        return [
            types.Tool(name=name, description=doc, inputSchema=s.json_schema(model))
            for name, (model, _, doc) in offered.items()
        ]

    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]  # validated by schemas.parse
    async def _call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return call(session, name, arguments, read_only=read_only)

    @server.list_resources()  # type: ignore[no-untyped-call, untyped-decorator]  # the SDK's decorators are untyped
    async def _list_resources(req: types.ListResourcesRequest) -> types.ListResourcesResult:
        return resources(session, req.params.cursor if req.params else None)

    @server.read_resource()  # type: ignore[no-untyped-call, untyped-decorator]  # the SDK's decorators are untyped
    async def _read_resource(uri: Any) -> list[ReadResourceContents]:
        return read(session, str(uri))

    return server


def serve(root: Path, *, read_only: bool = False) -> None:
    """Serve ``root`` over stdin/stdout until the client closes the stream."""
    import anyio

    from forest_files.doors.mcp.blocking import Blocking
    from forest_files.doors.mcp.stdio import stdio

    _escaped_sdk_log()
    session = Session(root)
    server = build(session, read_only=read_only)
    blocking = Blocking()

    async def main() -> None:
        async with stdio(blocking=blocking) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    except (Exception, KeyboardInterrupt) as exc:  # a stop signal, or an internal error
        session.close()  # the audit log closed, every call's record written
        if blocking.stranded:  # a read or write left blocking holds its stream's lock
            from forest_files.doors.boundary import stranded

            stranded(exc, "mcp", sys.argv, repo=root)
        raise
    finally:
        session.close()


class _Escaped(logging.Formatter):
    def formatMessage(self, record: logging.LogRecord) -> str:
        return printable(super().formatMessage(record))


def _escaped_sdk_log() -> None:
    """The SDK logs what an agent sent (the name of a tool it does not list) through
    Python's last-resort handler, raw, to stderr: a client's log file, read later in a
    terminal. Its records go there still, each control character escaped."""
    sdk = logging.getLogger("mcp")
    if any(isinstance(h.formatter, _Escaped) for h in sdk.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)  # what the last-resort handler printed
    handler.setFormatter(_Escaped("%(message)s"))
    sdk.addHandler(handler)
    sdk.propagate = False
