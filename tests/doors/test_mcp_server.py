"""``forest mcp`` driven by the SDK's own client over stdio (``ClientSession`` on
``stdio_client``): initialise, list tools and resources, call each tool, read a
resource, propose and see it in ``forest proposals``; ``--read-only`` serves no
``propose``; every advertised tool called with hostile arguments leaves the ledger,
the files and ground byte-identical, and answers in one line without a body."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from forest_files.custody.auditlog import AuditLog
from forest_files.custody.repository import Repository
from forest_files.kernel.bounds import MAX_SELECTOR_CHARS
from tests.helpers.cli import forest, ok
from tests.helpers.custody import BY, supersede_as_it_stands
from tests.helpers.git import commit_all, write
from tests.helpers.state import shared_state
from tests.helpers.watch import bound_repo

mcp = pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402
from mcp.shared.exceptions import McpError  # noqa: E402

pytestmark = pytest.mark.slow
SENTINEL = "OCELOT-SENTINEL-8812"
AGENT = "Claude (agent) <agent@example.org>"
NEW = "## Keep\n\nkept words, and a better line\n\n"


@asynccontextmanager
async def session(root: Path, *extra: str, command: list[str] | None = None) -> AsyncIterator[Any]:
    argv = command or [sys.executable, "-m", "forest_files.doors.mcp"]
    params = StdioServerParameters(command=argv[0], args=[*argv[1:], "-C", str(root), *extra])
    async with stdio_client(params) as (read, write_), ClientSession(read, write_) as s:
        await s.initialize()
        yield s


def run(root: Path, body: Callable[[Any], Awaitable[Any]], *extra: str, **kw: Any) -> Any:
    async def main() -> Any:
        async with session(root, *extra, **kw) as s:
            return await asyncio.wait_for(body(s), timeout=120)

    return asyncio.run(main())


def answer(result: Any) -> dict[str, Any]:
    assert not result.isError, result.content[0].text
    data: dict[str, Any] = json.loads(result.content[0].text)
    return data


def test_mcp_client_calls_every_tool_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)

    async def body(s: Any) -> dict[str, Any]:
        names = sorted(t.name for t in (await s.list_tools()).tools)
        out: dict[str, Any] = {"tools": names}
        out["ground"] = answer(await s.call_tool("ground", {}))
        out["read"] = answer(await s.call_tool("read_ground", {"binding": "a.md#Keep"}))
        out["part"] = answer(
            await s.call_tool("read_ground", {"binding": "a.md#Keep", "offset": 3, "max_chars": 4})
        )
        out["recall"] = answer(await s.call_tool("recall", {"query": "kept words", "limit": 3}))
        out["check"] = answer(await s.call_tool("check", {}))
        resources = (await s.list_resources()).resources
        out["uris"] = [str(r.uri) for r in resources]
        out["mimes"] = [r.mimeType for r in resources]
        out["resource"] = await s.read_resource(resources[0].uri)
        args = {"selector": "a.md#Keep", "text": NEW, "signature": AGENT, "reason": "clearer"}
        out["propose"] = answer(await s.call_tool("propose", args))
        out["proposals"] = answer(await s.call_tool("proposals", {}))
        return out

    out = run(root, body)
    assert out["tools"] == ["check", "ground", "proposals", "propose", "read_ground", "recall"]
    (row,) = out["ground"]["bindings"]
    assert (row["selector"], row["status"], out["ground"]["next_cursor"]) == (
        "a.md#Title/Keep",
        "clean",
        None,
    )
    assert out["read"]["text"] == "## Keep\n\nkept words\n\n" and out["read"]["next_offset"] is None
    assert (out["part"]["text"], out["part"]["next_offset"]) == ("Keep", 7)
    packet = out["recall"]["packets"][0]
    assert next(iter(packet)) == "jurisdiction" and packet["id"] == row["ground"]
    assert out["check"]["ok"] is True and out["check"]["findings"][0]["kind"] == "clean"
    assert out["uris"] == ["forest://a.md%23Title%2FKeep"]
    assert out["resource"].contents[0].text == out["read"]["text"]
    assert out["resource"].contents[0].mimeType == out["mimes"][0] == "text/markdown"
    assert out["propose"]["outcome"] == "new" and out["propose"]["source"] == "mcp"
    assert "text" not in out["proposals"]["proposals"][0]
    listed = ok(root, "proposals")
    assert out["propose"]["id"] in listed.stdout and "via mcp" in listed.stdout
    shown = ok(root, "proposal", "show", out["propose"]["id"]).stdout
    assert f"by {AGENT} (claimed)" in shown and "reason: clearer" in shown
    assert (root / "a.md").read_text(encoding="utf-8").count("kept words\n") == 1  # file untouched
    records = AuditLog(root).page(limit=100)
    reasons = {r.reason for r in records}
    assert {"mcp-ground", "mcp-read-ground", "mcp-recall", "mcp-propose"} <= reasons
    assert any(r.actor == AGENT and r.reason == "mcp-propose" for r in records)
    assert "mcp-" in ok(root, "audit").stdout


def test_mcp_read_only_serves_no_propose_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    args = {"selector": "a.md#Keep", "text": NEW, "signature": AGENT, "reason": "r"}

    async def body(s: Any) -> tuple[list[str], Any]:
        names = [t.name for t in (await s.list_tools()).tools]
        return names, await s.call_tool("propose", args)

    script = Path(sys.executable).with_name("forest")  # the console script, as a client runs it
    command = [str(script), "mcp"] if script.exists() else None
    names, refused = run(root, body, "--read-only", command=command)
    assert "propose" not in names and "read_ground" in names
    assert refused.isError and "no tool named 'propose'" in refused.content[0].text
    assert "0 open proposal(s)" in ok(root, "proposals").stdout


def _custody(root: Path) -> dict[str, bytes]:
    """The ledger's bytes, every bound file's bytes, and the ground listing."""
    out = {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted((root / ".forest" / "ledger").rglob("*"))
        if p.is_file()
    }
    for p in sorted(root.rglob("*.md")):
        out[p.relative_to(root).as_posix()] = p.read_bytes()
    with Repository(root) as repo:
        out["ground"] = json.dumps([g.content_id for g in repo.ground()]).encode()
    return out


def _hostile_repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """Three bound files: one ground sealed, one superseded then forgotten."""
    root = bound_repo(tmp_path, files=3)
    with Repository(root) as repo:
        bindings = {g.content_id for g in repo.ground()}
    write(root, "d/f2.md", "# Title\n\n## Keep\n\nnewer words\n\n## Other\n\nother words\n")
    supersede_as_it_stands(root, "d/f2.md#Keep")
    with Repository(root) as repo:
        now = {g.content_id for g in repo.ground()}
    (old,) = bindings - now
    ok(root, "forget", old, "--words", "pasted by mistake", "--as", BY)
    sealed = sorted(now - bindings)[0]
    with Repository(root) as repo:
        repo.seal(sealed, words="withheld for now", by=BY)
    commit_all(root, "custody")
    return root, {"erased": old, "sealed": sealed}


def _hostile_values(ids: dict[str, str], other: str) -> list[object]:
    return [
        ids["erased"],
        ids["sealed"],
        other,
        "f" * 64,  # a forged hash
        "../../../etc/passwd",
        "/etc/passwd#root",
        "a.md#Keep\x00",
        "x" * (MAX_SELECTOR_CHARS + 1) + SENTINEL,
        "forest://a.md%23Keep",
        -1,
        1 << 70,
        None,
        ["a.md#Keep"],
    ]


def test_mcp_every_tool_hostile_arguments_never_promote_refused(tmp_path: Path) -> None:
    root, ids = _hostile_repo(tmp_path)
    with Repository(root) as repo:
        other = repo.synced().conn.execute("SELECT bind_act FROM binding_events").fetchone()[0]
    before = _custody(root)

    async def body(s: Any) -> list[tuple[str, bool, str]]:
        seen: list[tuple[str, bool, str]] = []
        for tool in (await s.list_tools()).tools:
            props = list(tool.inputSchema.get("properties", {}))
            base = {p: "a.md#Keep" for p in props if p in ("binding", "selector")}
            base |= {"query": "kept", "signature": AGENT, "reason": "r", "text": NEW}
            base = {k: v for k, v in base.items() if k in props}
            for prop in props:
                for value in _hostile_values(ids, other):
                    result = await s.call_tool(tool.name, {**base, prop: value})
                    seen.append((tool.name, result.isError, result.content[0].text))
            result = await s.call_tool(tool.name, {**base, "path": "/etc", "root": True})
            seen.append((tool.name, result.isError, result.content[0].text))
        for uri in ("forest://" + ids["sealed"], "forest://..%2F..%2Fetc%2Fpasswd", "file:///etc"):
            try:
                await s.read_resource(uri)
                seen.append(("resource", False, uri))
            except McpError as exc:
                seen.append(("resource", True, str(exc)))
        return seen

    seen = run(root, body)
    assert _custody(root) == before
    assert {name for name, _, _ in seen} >= {"ground", "read_ground", "recall", "propose"}
    for name, failed, text in seen:
        assert SENTINEL not in text and "Traceback" not in text, (name, text[:200])
        if failed:
            assert "\n" not in text and text.startswith("forest: "), (name, text[:200])
    assert all(failed for name, failed, _ in seen if name == "resource")
    reads = [json.loads(t) for n, f, t in seen if n == "read_ground" and not f]
    assert all(r["ground"] not in (ids["sealed"], ids["erased"]) for r in reads)
    logged = b"".join(p.read_bytes() for p in shared_state(root).glob("audit.db*"))
    assert logged and SENTINEL.encode() not in logged


def test_mcp_outside_custody_refused(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "forest_files.doors.mcp", "-C", str(tmp_path)],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and done.stderr.startswith("forest: ")
    assert "Traceback" not in done.stderr
    assert forest(tmp_path, "mcp").exit_code != 0


def test_mcp_client_gone_mid_call_nothing_half_written_recovers(tmp_path: Path) -> None:
    """A client that sends ``propose`` and closes its pipes at once: the server ends,
    and the proposal is kept whole or not at all; the ledger and ground are as before."""
    import subprocess

    from forest_files.custody.proposals import ProposalStore
    from forest_files.kernel.hashing import hash_body

    root = bound_repo(tmp_path)
    before = _custody(root)
    client = {"name": "t", "version": "1"}
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}
    args = {"arguments": {"selector": "a.md#Keep", "text": NEW, "signature": AGENT, "reason": "r"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "propose", **args}},
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "forest_files.doors.mcp", "-C", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None
    proc.stdin.write("".join(json.dumps(x) + "\n" for x in lines).encode())
    proc.stdin.close()  # gone before any answer is read
    assert proc.wait(timeout=60) == 0  # the normal end of a stdio session, not a crash
    with ProposalStore(root) as store:
        kept = store.open_proposals()
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert all(p.text == NEW and p.text_hash == hash_body(NEW) for p in kept) and len(kept) <= 1
    assert _custody(root) == before


def test_mcp_propose_forged_lines_and_controls_refused(tmp_path: Path) -> None:
    """A reason with line breaks would print as lines of its own under ``forest proposal
    show`` and ``forest review`` (a forged "adopted" line, a forged command); a C1 control
    (U+009B, a terminal's CSI) in the signature, the reason or the text would be obeyed by
    the terminal. Each is refused in one line; nothing is kept; ``forest audit`` shows the
    refused call's claimed signature escaped."""
    root = bound_repo(tmp_path)
    before = _custody(root)
    base = {"selector": "a.md#Keep", "text": NEW, "signature": AGENT, "reason": "clearer"}
    hostile = [
        {"reason": "clearer\nproposal 0123456789ab adopted\n  forest proposal adopt X --words y"},
        {"reason": "clearer\r  proposed through cli by Ada <ada@example.org> (verified)"},
        {"reason": "clearer\u2028forged"},
        {"reason": "clearer \u009b2K"},
        {"signature": "Ada \u009b2K <ada@example.org>"},
        {"text": "## Keep\n\nkept \u009b31mred\u009b0m words\n\n"},
        {"text": "## Keep\n\nkept words\n\n\x1f"},
    ]

    async def body(s: Any) -> list[Any]:
        return [await s.call_tool("propose", {**base, **h}) for h in hostile]

    for h, result in zip(hostile, run(root, body), strict=True):
        text = result.content[0].text
        assert result.isError and text.startswith("forest: ") and "\n" not in text, (h, text)
        assert "one line" in text or "remove it" in text, (h, text)
    assert "0 open proposal(s)" in ok(root, "proposals").stdout
    assert _custody(root) == before
    audit = ok(root, "audit").stdout
    assert "\u009b" not in audit and "mcp-propose" in audit


def test_mcp_propose_signed_as_authority_holder_refused(tmp_path: Path) -> None:
    """An agent that claims to be a holder of ``[authority]`` (the holder's exact
    signature, the same ``<email>`` in another case, the same words respaced) is refused
    in one line and nothing is kept; signed as itself, it proposes."""
    root = bound_repo(tmp_path)
    holder = "Ada Lovelace <ada@example.org>"
    config = (root / "forest.toml").read_text(encoding="utf-8")
    write(root, "forest.toml", config + f'\n[authority]\n"**" = ["{holder}"]\n')
    commit_all(root, "authority")
    before = _custody(root)
    base = {"selector": "a.md#Keep", "text": NEW, "reason": "clearer"}
    claims = [holder, "Assistant <ADA@Example.org>", "ada  lovelace <ada@example.org>"]

    async def body(s: Any) -> tuple[list[Any], Any]:
        refused = [await s.call_tool("propose", {**base, "signature": c}) for c in claims]
        return refused, await s.call_tool("propose", {**base, "signature": AGENT})

    refused, accepted = run(root, body)
    for claim, result in zip(claims, refused, strict=True):
        text = result.content[0].text
        assert result.isError and text.startswith("forest: ") and "\n" not in text, claim
        assert "holder of [authority]" in text and "sign as the agent" in text, text
    assert answer(accepted)["claimed_by"] == AGENT
    listed = ok(root, "proposals").stdout
    assert "1 open proposal(s)" in listed and "Ada" not in listed
    assert _custody(root) == before
