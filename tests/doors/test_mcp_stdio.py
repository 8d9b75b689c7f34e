"""``forest mcp`` over its own pipes, a line at a time: every line that is no JSON-RPC
message (nested too deep, a lone surrogate, invalid UTF-8, not an object, a bad
``method`` or ``id``) gets its JSON-RPC error at once (``-32700`` or ``-32600``, ``id``
null or the line's own), nothing of the line is echoed or logged, and the server goes
on answering; a line over the bound is refused without being held, one at the bound
is judged; the end of input ends the server, status 0; in process, ``judge`` reads the
id from the one parse only and ``Lines`` holds no more than the bound."""

from __future__ import annotations

import io
import json
import queue
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

from forest_files.custody.auditlog import AuditLog
from forest_files.custody.proposals import ProposalStore
from forest_files.kernel.paths import CRASH_DIR
from tests.helpers.state import shared_state
from tests.helpers.watch import bound_repo

pytest.importorskip("mcp")
from forest_files.doors.mcp.lines import CHUNK, OVERLONG, Lines
from forest_files.doors.mcp.messages import Refusal, judge
from forest_files.doors.mcp.stdio import too_long
from forest_files.kernel.bounds import MAX_MCP_LINE_BYTES

SENTINEL = "OCELOT-SENTINEL-5501"
AGENT = "Claude (agent) <agent@example.org>"
NEW = "## Keep\n\nkept words, and a better line\n\n"
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


def _forest_mcp(root: Path) -> subprocess.Popen[bytes]:
    script = Path(sys.executable).with_name("forest")  # the console script, as a client runs it
    module = [sys.executable, "-m", "forest_files.doors.mcp"]
    argv = [str(script), "mcp"] if script.exists() else module
    return subprocess.Popen(
        [*argv, "-C", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


@contextmanager
def served(root: Path) -> Iterator[Pipes]:
    proc = _forest_mcp(root)
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


def _padded(ident: int, size: int) -> bytes:
    """A ``ping`` request of exactly ``size`` bytes (its ``_meta`` padded), no newline."""
    head = b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"_meta":{"pad":"' % ident
    tail = b'"}}}'
    return head + b"x" * (size - len(head) - len(tail)) + tail


def _peak_kib(pid: int) -> int:
    """The process's peak resident memory (``VmHWM``), in KiB."""
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmHWM:"):
            return int(row.split()[1])
    raise AssertionError("no VmHWM")


def test_mcp_stdio_line_at_bound_accepted_over_bound_refused() -> None:
    """N bytes before the newline are a line, N + 1 are not; an over-long line is read
    to its newline and the next line is whole; at the end of input, the last line
    (with no newline) is still a line, an over-long one still refused; docs/mcp.md
    states the bound and the refusal as they are."""
    limit = 3 * CHUNK + 5  # over several chunks, not a multiple of one
    at = _padded(1, limit)
    stream = io.BytesIO(
        at + b"\n" + _padded(2, limit + 1) + b"\n" + b"y" * (8 * limit) + b"\r\n"
        b"\n" + _request(3, "ping") + b"\n" + b"z" * (limit + 1)
    )
    lines = Lines(stream, limit)
    got = [lines.next() for _ in range(6)]
    assert got[0] == at + b"\n" and not isinstance(judge(bytes(at)), Refusal)
    assert got[1:3] == [OVERLONG, OVERLONG] and got[3] == b"\n"
    assert got[4] == _request(3, "ping") + b"\n"
    assert got[5] is OVERLONG and lines.next() is None
    last = Lines(io.BytesIO(b"\n" + at), limit)
    assert last.next() == b"\n" and last.next() == at
    page = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")
    assert too_long(MAX_MCP_LINE_BYTES).message in page  # the bound and refusal documented
    assert f"{MAX_MCP_LINE_BYTES:,} bytes" in page


class _Flood(io.RawIOBase):
    """``size`` bytes of ``x``, a newline and ``tail``, made as they are read."""

    def __init__(self, size: int, tail: bytes) -> None:
        self.left, self.tail = size, b"\n" + tail

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self.left:
            n = min(self.left, len(view))
            view[:n] = b"x" * n
            self.left -= n
            return n
        n = min(len(self.tail), len(view))
        view[:n], self.tail = self.tail[:n], self.tail[n:]
        return n


def test_mcp_stdio_over_long_line_memory_bounded_refused() -> None:
    """A line 32 times the bound streams through while the reader holds at most the
    bound and a chunk (Python's own allocations, traced), and the next line is whole."""
    limit = 4 * CHUNK
    stream = io.BufferedReader(_Flood(32 * limit, _request(4, "ping")))
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        lines = Lines(stream, limit)
        refused = lines.next()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused is OVERLONG
    assert peak < limit + 4 * CHUNK, peak  # the line is 32 * limit
    assert lines.next() == _request(4, "ping")
    assert lines.next() is None


@pytest.mark.slow
def test_mcp_stdio_over_long_line_answered_refused_then_served(tmp_path: Path) -> None:
    """Through a real ``forest mcp``: a line 8 times the bound is answered ``-32600``
    (id null, the bound named) without the server's peak memory growing by the line;
    a line at the bound is judged and answered; one byte more is refused; then
    ``tools/list`` is answered."""
    root = bound_repo(tmp_path)
    size = 8 * MAX_MCP_LINE_BYTES
    with served(root) as pipes:
        assert pipes.send(_request(1, "initialize", INIT))["result"]["serverInfo"]
        pipes.tell(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        before = _peak_kib(pipes.proc.pid)
        head = _padded(2, 200)[:-4]  # a request's start, then its padding goes on and on
        piece = SENTINEL.encode() * (CHUNK // len(SENTINEL))
        assert pipes.proc.stdin is not None
        pipes.proc.stdin.write(head)
        for _ in range(size // len(piece) + 1):
            pipes.proc.stdin.write(piece)
        why = _refused(pipes.send(b'"}}}'), INVALID, None)
        assert f"over {MAX_MCP_LINE_BYTES} bytes" in why and "one line within it" in why
        grown = (_peak_kib(pipes.proc.pid) - before) * 1024
        assert grown < size // 4, (grown, size)
        assert pipes.send(_padded(3, MAX_MCP_LINE_BYTES)) == {
            "jsonrpc": "2.0",
            "id": 3,
            "result": {},
        }
        _refused(pipes.send(_padded(4, MAX_MCP_LINE_BYTES + 1)), INVALID, None)
        listed = pipes.send(_request(5, "tools/list"))
        assert listed["id"] == 5 and listed["result"]["tools"]


@pytest.mark.slow
def test_mcp_stdio_end_of_input_mid_request_exits_accepted(tmp_path: Path) -> None:
    """The client closes stdin with a tool call in flight and a last line without its
    newline (a request, then half an over-long line): the server exits promptly with
    status 0, every answer it wrote whole, no traceback."""
    root = bound_repo(tmp_path)
    call = _request(2, "tools/call", {"name": "check", "arguments": {}})
    for last in (_request(3, "ping"), _padded(4, 2 * CHUNK)[: CHUNK + 7]):
        with served(root) as pipes:
            assert pipes.send(_request(1, "initialize", INIT))["result"]["serverInfo"]
            pipes.tell(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
            assert pipes.proc.stdin is not None
            pipes.proc.stdin.write(call + b"\n" + last)
            pipes.proc.stdin.close()
            closed = time.monotonic()
            assert pipes.proc.wait(timeout=WAIT) == 0
            assert time.monotonic() - closed < 20.0  # promptly: no read or answer waited on
            while not pipes.lines.empty():
                answer = json.loads(pipes.lines.get())
                assert answer["id"] in (2, 3, None), answer


def _ends_quietly(proc: subprocess.Popen[bytes], root: Path) -> None:
    """Status 0, nothing on stderr, no crash log: a hang-up is no error."""
    assert proc.wait(timeout=WAIT) == 0
    assert proc.stderr is not None
    assert proc.stderr.read() == b""
    assert not list((shared_state(root) / CRASH_DIR).glob("*.log"))


def _audited(root: Path, reason: str) -> bool:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        with AuditLog(root) as log:
            if any(r.reason == reason for r in log.page(limit=50)):
                return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
def test_mcp_stdio_client_hangs_up_before_answer_exits_accepted(tmp_path: Path) -> None:
    """The client reads the answer to ``propose``, closes the server's stdout and sends
    ``check``: the answer it can no longer hear is dropped (no BrokenPipeError, no crash
    log), the next line (or the end of input) ends the server with status 0, and both
    calls are recorded."""
    root = bound_repo(tmp_path)
    proc = _forest_mcp(root)
    assert proc.stdin is not None and proc.stdout is not None
    args = {"selector": "a.md#Keep", "text": NEW, "signature": AGENT, "reason": "r"}
    proc.stdin.write(_request(1, "initialize", INIT) + b"\n")
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    proc.stdin.write(_request(2, "tools/call", {"name": "propose", "arguments": args}) + b"\n")
    proc.stdin.flush()
    answers = [json.loads(proc.stdout.readline()) for _ in range(2)]
    proposed = answers[1]["result"]["structuredContent"]
    assert answers[1]["id"] == 2 and proposed["outcome"] == "new"
    proc.stdout.close()  # the client hangs up before its next answer
    proc.stdin.write(_request(3, "tools/call", {"name": "check", "arguments": {}}) + b"\n")
    proc.stdin.flush()
    assert _audited(root, "mcp-check")  # answered into the closed pipe by now, or about to be
    # The line after a hang-up ends the server, or, when that line came before the
    # check's answer met the closed pipe (it is then served, and unheard), the end of
    # input does: both are closed here, so the test never waits on that race.
    proc.stdin.write(_request(4, "ping") + b"\n")
    proc.stdin.flush()
    proc.stdin.close()
    _ends_quietly(proc, root)
    with ProposalStore(root) as kept:
        assert [p.id for p in kept.open_proposals()] == [proposed["id"]]
    with AuditLog(root) as log:
        assert {r.reason for r in log.page(limit=50)} >= {"mcp-propose", "mcp-check"}


@pytest.mark.slow
def test_mcp_stdio_end_of_input_after_initialize_exits_accepted(tmp_path: Path) -> None:
    """stdin closed right after ``initialize`` was answered: status 0, quiet, no crash log."""
    root = bound_repo(tmp_path)
    proc = _forest_mcp(root)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(_request(1, "initialize", INIT) + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["result"]["serverInfo"]
    proc.stdin.close()
    _ends_quietly(proc, root)
    proc.stdout.close()


@pytest.mark.slow
def test_mcp_stdio_unknown_tool_name_never_raw_on_stderr_refused(tmp_path: Path) -> None:
    """The SDK logs the name of a tool it does not list to stderr, which a client keeps
    in its log file: an agent's name holding a terminal escape reached it raw (ESC
    and all), read later with ``tail`` in a terminal. It is escaped there, as in the
    answer."""
    root = bound_repo(tmp_path)
    proc = _forest_mcp(root)
    pipes = Pipes(proc)
    assert pipes.send(_request(1, "initialize", INIT))["result"]["serverInfo"]
    pipes.tell(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    name = "\x1b]0;owned\x07\x1b[31mevil\u009b2J"
    called = pipes.send(_request(2, "tools/call", {"name": name, "arguments": {}}))
    assert called["result"]["isError"], called
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.close()
    assert proc.wait(timeout=WAIT) == 0
    err = proc.stderr.read().decode("utf-8", errors="replace")
    proc.stderr.close()
    assert "\x1b" not in err and "\x07" not in err and "\u009b" not in err, err


@pytest.mark.slow
def test_mcp_stdio_message_the_sdk_cannot_take_never_logged_refused(tmp_path: Path) -> None:
    """A JSON-RPC message whose params fit no MCP request (a tool name that is a number,
    arguments that are a string, a resource URI that is a number), a method MCP has no
    request for, a notification MCP does not have, a response or error to a request this
    server never sent: the SDK logged each to stderr with its values (a propose text,
    whole) and answered an unknown method with -32602 and an unsolicited response with
    an "Internal Server Error" notification. Each request gets its JSON-RPC error here,
    one ``forest:`` line naming the field, never its value; the rest is dropped;
    nothing reaches stderr and the next request is answered."""
    root = bound_repo(tmp_path)
    proc = _forest_mcp(root)
    pipes = Pipes(proc)
    assert pipes.send(_request(1, "initialize", INIT))["result"]["serverInfo"]
    pipes.tell(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    secret = {"text": SENTINEL, "signature": SENTINEL}
    bad_params: list[tuple[bytes, str]] = [
        (_request(2, "tools/call", {"name": 5, "arguments": secret}), "params.name"),
        (_request("3", "tools/call", {"name": "propose", "arguments": SENTINEL}), "arguments"),
        (_request(4, "resources/read", {"uri": 5, "x": SENTINEL}), "params.uri"),
        (_request(5, "tools/call"), "params"),
    ]
    for line, field in bad_params:
        ident = json.loads(line)["id"]
        why = _refused(pipes.send(line), -32602, ident)
        assert field in why and ("tools/call" in why or "resources/read" in why), why
    unknown = _refused(pipes.send(_request(6, "no/such", {"x": SENTINEL})), -32601, 6)
    assert "tools/call" in unknown, unknown
    for line in (
        b'{"jsonrpc":"2.0","method":"notifications/nope","params":{"x":"%s\\u001b[31m"}}',
        b'{"jsonrpc":"2.0","id":"%s","result":{"x":1}}',
        b'{"jsonrpc":"2.0","id":77,"error":{"code":1,"message":"%s"}}',
    ):
        pipes.tell(line % SENTINEL.encode())
    assert pipes.send(_request(8, "ping")) == {"jsonrpc": "2.0", "id": 8, "result": {}}
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.close()
    assert proc.wait(timeout=WAIT) == 0
    assert pipes.lines.empty()
    err = proc.stderr.read().decode("utf-8", errors="replace")
    proc.stderr.close()
    assert err == "", err[-2000:]
