"""``forest mcp`` while others work on the repository: the real stdio server (the
SDK's own client) kept running while another process records an act or a person
edits the bound file. The server never answers from custody the ledger superseded,
and no proposal made before a person's edit is adopted over it unseen."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from forest_files.custody.proposals import ProposalStore
from tests.doors.test_mcp_server import AGENT, NEW, answer, session
from tests.helpers.cli import forest, ok
from tests.helpers.custody import BY, DOC
from tests.helpers.git import pasted
from tests.helpers.watch import bound_repo

pytest.importorskip("mcp")
pytestmark = pytest.mark.slow  # a server process, and the other commands processes too

LATER = DOC.replace("kept words", "later words")
LATER_GROUND = "## Keep\n\nlater words\n\n"


def _in_between(root: Path, first: Any, command: str, then: Any) -> tuple[Any, Any]:
    """``first(session)``, then ``command`` pasted as its own process while the same
    server keeps running, then ``then(session)``."""

    async def main() -> tuple[Any, Any]:
        async with session(root) as s:
            before = await asyncio.wait_for(first(s), timeout=120)
            done = await asyncio.to_thread(pasted, root, command)
            assert done.returncode == 0, (command, done.stdout, done.stderr)
            return before, await asyncio.wait_for(then(s), timeout=120)

    return asyncio.run(main())


def _args(text: str) -> dict[str, str]:
    return {"selector": "a.md#Keep", "text": text, "signature": AGENT, "reason": "clearer"}


def test_mcp_ground_superseded_by_another_process_never_answered_stale_refused(
    tmp_path: Path,
) -> None:
    """Another process supersedes a.md#Keep while the server runs (its index already
    holds the act when the server next syncs: nothing left to apply): read_ground and
    ground give the new ground, and a propose of the new ground's text is refused as
    ground already, one of other text derived from it."""
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(LATER, encoding="utf-8")

    async def first(s: Any) -> dict[str, Any]:
        return answer(await s.call_tool("read_ground", {"binding": "a.md#Keep"}))

    async def then(s: Any) -> tuple[Any, ...]:
        read = answer(await s.call_tool("read_ground", {"binding": "a.md#Keep"}))
        listed = answer(await s.call_tool("ground", {}))
        same = await s.call_tool("propose", _args(LATER_GROUND))
        other = answer(await s.call_tool("propose", _args(NEW)))
        return read, listed, same, other

    before, (read, listed, same, other) = _in_between(
        root, first, "forest supersede a.md --words 'the later text is right'", then
    )
    assert read["text"] == LATER_GROUND and read["ground"] != before["ground"]
    assert listed["bindings"][0]["ground"] == read["ground"]
    assert listed["bindings"][0]["status"] == "clean"
    assert same.isError and "its ground already" in same.content[0].text, same.content[0].text
    assert other["derived_from"] == read["ground"]


def test_mcp_binding_retired_by_another_process_propose_refused(tmp_path: Path) -> None:
    """Another process retires a.md#Keep while the server runs: the next propose is
    refused as no live binding, and nothing is kept."""
    root = bound_repo(tmp_path)

    async def first(s: Any) -> dict[str, Any]:  # the server holds the binding now
        return answer(await s.call_tool("read_ground", {"binding": "a.md#Keep"}))

    async def then(s: Any) -> Any:
        return await s.call_tool("propose", _args(NEW))

    before, refused = _in_between(
        root, first, f"forest retire 'a.md#Title/Keep' --words 'gone' --as '{BY}'", then
    )
    assert before["text"] == "## Keep\n\nkept words\n\n"
    assert refused.isError and "no single live binding" in refused.content[0].text
    with ProposalStore(root) as kept:
        assert kept.open_proposals() == []


def test_mcp_proposal_then_ground_superseded_adopt_refused(tmp_path: Path) -> None:
    """A proposal made through the server, then another process supersedes the ground
    it was derived from: adopting it is refused (ground moved on), the file and the
    ledger untouched."""
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(LATER, encoding="utf-8")

    async def first(s: Any) -> dict[str, Any]:
        return answer(await s.call_tool("propose", _args(NEW)))

    async def then(s: Any) -> dict[str, Any]:
        return answer(await s.call_tool("proposals", {}))

    made, listed = _in_between(
        root, first, "forest supersede a.md --words 'the later text is right'", then
    )
    assert [p["id"] for p in listed["proposals"]] == [made["id"]]
    got = forest(root, "proposal", "adopt", made["id"], "--words", "take it", "--as", BY)
    assert got.exit_code == 1 and "moved on" in got.stderr, got.output
    assert (root / "a.md").read_text(encoding="utf-8") == LATER


def test_mcp_proposal_then_a_persons_edit_adopt_keeps_the_edit_accepted(
    tmp_path: Path,
) -> None:
    """A proposal made through the server, then a person edits the same section: a
    person's adopt writes the proposed text over the edit only by keeping the edit in
    a capture it names (as forest restore does; docs/watch.md), never unseen; their
    edit of another part of the file stays as it is."""
    root = bound_repo(tmp_path)

    async def first(s: Any) -> dict[str, Any]:
        return answer(await s.call_tool("propose", _args(NEW)))

    async def then(s: Any) -> dict[str, Any]:
        return answer(await s.call_tool("proposals", {}))

    edit = "printf '%s' \"$(sed 's/kept words/mine/; s/other words/other, mine/' a.md)\" > a.md"
    made, _listed = _in_between(root, first, edit, then)
    got = ok(root, "proposal", "adopt", made["id"], "--words", "take it", "--as", BY)
    capture = Path(got.stdout.split("; the replaced text is kept in ", 1)[1].split("\n", 1)[0])
    assert "mine" in capture.read_text(encoding="utf-8")
    text = (root / "a.md").read_text(encoding="utf-8")
    assert "kept words, and a better line" in text and "other, mine" in text
