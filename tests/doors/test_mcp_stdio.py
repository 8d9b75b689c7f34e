"""``forest mcp`` over its own pipes, a line at a time: every line that is no JSON-RPC
message (nested too deep, a lone surrogate, invalid UTF-8, not an object, a bad
``method`` or ``id``) gets its JSON-RPC error at once (``-32700`` or ``-32600``, ``id``
null or the line's own), nothing of the line is echoed or logged, and the server goes
on answering; in process, ``judge`` reads the id from the one parse only."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

from tests.helpers.watch import bound_repo

pytest.importorskip("mcp")
from forest_files.doors.mcp.stdio import Refusal, judge

SENTINEL = "OCELOT-SENTINEL-5501"
WAIT = 60.0  # seconds for one answer: generous on purpose; a hang fails, never blocks
PARSE, INVALID = -32700, -32600
CLIENT = {"name": "t", "version": "1"}
INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": CLIENT}


def _request(ident: object, method: object, params: object = None) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body).encode()


def _nested(depth: int) -> bytes:
    """A ``tools/list`` request whose line nests ``depth`` arrays and objects in all."""
    inner = depth - 3  # the request, its params and their _meta
    arrays = b"[" * inner + b"]" * inner
    head = b'{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"x":'
    return head + arrays + b"}}}"


class Pipes:
    """A running ``forest mcp`` and its stdout read a line at a time, with a deadline."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, args=(proc.stdout,), daemon=True).start()

    def _pump(self, stream: IO[bytes] | None) -> None:
        assert stream is not None
        for line in stream:
            self.lines.put(line)

    def tell(self, line: bytes) -> None:
        """Send one line that gets no answer (a notification)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def send(self, line: bytes) -> dict[str, Any]:
        """Send one line; the one answer it gets (a line that never comes fails)."""
        self.tell(line)
        try:
            got = self.lines.get(timeout=WAIT)
        except queue.Empty:
            pytest.fail(f"no answer to {line[:60]!r} within {WAIT}s")
        assert SENTINEL.encode() not in got
        answer: dict[str, Any] = json.loads(got)
        return answer


@contextmanager
def served(root: Path) -> Iterator[Pipes]:
    script = Path(sys.executable).with_name("forest")  # the console script, as a client runs it
    module = [sys.executable, "-m", "forest_files.doors.mcp"]
    argv = [str(script), "mcp"] if script.exists() else module
    proc = subprocess.Popen(
        [*argv, "-C", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        yield Pipes(proc)
    finally:
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.close()
        proc.wait(timeout=WAIT)
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        assert SENTINEL not in err and "Traceback" not in err, err[-2000:]


def _refused(answer: dict[str, Any], code: int, ident: object) -> str:
    assert answer["jsonrpc"] == "2.0" and "result" not in answer, answer
    assert (answer["error"]["code"], answer["id"]) == (code, ident), answer
    message: str = answer["error"]["message"]
    assert message.startswith("forest: ") and "\n" not in message, message
    return message


@pytest.mark.slow
def test_mcp_stdio_unparsable_lines_each_answered_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    secret = json.dumps(SENTINEL).encode()
    with served(root) as pipes:
        assert pipes.send(_request(1, "initialize", INIT))["result"]["serverInfo"]
        pipes.tell(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        parse_errors = [
            _nested(250),
            _nested(202),
            b'{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"x":"\\ud800"}},"s":'
            + secret
            + b"}",
            b'{"jsonrpc":"2.0","id":3,"method":"tools/list\xff","s":' + secret + b"}",
            b"\xc3\x28" + secret,
            b'{"jsonrpc":"2.0","id":4,"method":"tools/list"',
        ]
        for line in parse_errors:
            why = _refused(pipes.send(line), PARSE, None)
            assert "send each JSON-RPC message as one line of UTF-8 JSON" in why
        invalid: list[tuple[bytes, object]] = [
            (b"[1]", None),
            (b"[]", None),
            (b"42", None),
            (secret, None),
            (_request(True, "tools/list"), None),  # an id the SDK would take for a notification
            (_request(1.5, "tools/list"), None),
            (_request(7, 5), 7),
            (_request("seven", None), "seven"),
            (b'{"jsonrpc":"1.0","id":8,"method":"tools/list"}', 8),
            (b'{"jsonrpc":"2.0","method":5,"s":' + secret + b"}", None),
        ]
        for line, ident in invalid:
            assert '"jsonrpc": "2.0"' in _refused(pipes.send(line), INVALID, ident)
        deep = pipes.send(_nested(201))  # as deep as the SDK's JSON parser goes: answered
        assert [t["name"] for t in deep["result"]["tools"]][:1] == ["ground"]
        listed = pipes.send(_request(9, "tools/list"))
        assert listed["id"] == 9 and {t["name"] for t in listed["result"]["tools"]} >= {
            "ground",
            "propose",
        }
        called = pipes.send(_request(10, "tools/call", {"name": "ground", "arguments": {}}))
        assert called["id"] == 10 and not called["result"].get("isError")


@pytest.mark.slow
def test_mcp_stdio_blank_lines_skipped_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with served(root) as pipes:
        assert "result" in pipes.send(b"\n  \r\n" + _request(1, "initialize", INIT))
        assert pipes.send(b"\r\n" + _request(2, "ping"))["id"] == 2


def test_mcp_stdio_invalid_request_id_from_the_one_parse_refused() -> None:
    """The id of a refused line comes from the one parse (a field missing at the top
    of a message shape carries the object); an id deeper down is never taken."""
    cases: list[tuple[bytes, object]] = [
        (b'{"jsonrpc":"2.0","id":"x-1","method":[]}', "x-1"),
        (b'{"jsonrpc":"2.0","id":-3,"method":{}}', -3),
        (b'{"jsonrpc":"2.0","id":false,"method":3}', None),
        (b'{"jsonrpc":"2.0","id":null,"method":"ping"}', None),
        (b'{"jsonrpc":"2.0","error":{"id":4}}', None),
        (b'{"jsonrpc":"2.0","params":{"id":5},"method":6}', None),
    ]
    for line, ident in cases:
        judged = judge(line)
        assert isinstance(judged, Refusal) and (judged.code, judged.id) == (INVALID, ident), line
    accepted = judge(_request(11, "tools/list"))
    assert not isinstance(accepted, Refusal) and accepted.root.id == 11  # type: ignore[union-attr]
