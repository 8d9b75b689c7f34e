"""docs/mcp.md's walkthrough, as a newcomer follows it: the novel it describes, the
client launching ``forest mcp -C DIR`` as the registration block says, the tool calls
with the page's own arguments, then the page's shell lines pasted (the proposal id
swapped for the real one): the outputs look as the page shows them, and the adopted
section leaves the file as well-formed as it was."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, make_repo, pasted, write

pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

pytestmark = pytest.mark.slow
PAGE = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"
DOC_ID = "3f2a9c41d0e7"  # the proposal id the page shows
NOVEL = (
    "# Cast\n\n### Elias\n\nElias keeps the harbour light. He does not speak to anyone\n"
    "in the village, and he has not for years.\n\n### Mara\n\nMara mends nets on the quay.\n"
)


def _walkthrough() -> str:
    text = PAGE.read_text(encoding="utf-8")
    return text[text.index("## Walkthrough") : text.index("## Performance")]


def _shell_lines(page: str) -> list[tuple[str, str]]:
    """(command, comment) of each line of the walkthrough's ``sh`` blocks; a comment
    on a line of its own belongs to the command above it."""
    lines: list[tuple[str, str]] = []
    for block in re.findall(r"```sh\n(.*?)```", page, re.S):
        for line in block.splitlines():
            command, _, comment = line.partition("# ")
            if command.strip():
                lines.append((command.strip(), comment.strip()))
            elif lines:
                lines[-1] = (lines[-1][0], comment.strip())
    return lines


def _shown(comment: str) -> re.Pattern[str]:
    """A comment's example output as a pattern: the page's proposal id and ``9c1d…``
    stand for any id, any other ``…`` for what differs."""
    pieces = re.split(rf"({DOC_ID}|\b[0-9a-f]+…|…)", comment)
    return re.compile(
        "".join(
            "[0-9a-f]{12}"
            if p == DOC_ID
            else "[0-9a-f]+"
            if p.endswith("…") and p != "…"
            else ".*?"
            if p == "…"
            else re.escape(p)
            for p in pieces
        )
    )


async def _calls(root: Path, page: str) -> dict[str, Any]:
    command = Path(sys.executable).with_name("forest")  # the console script a client runs
    module = [sys.executable, "-m", "forest_files.doors.mcp"]
    argv = [str(command), "mcp"] if command.exists() else module
    params = StdioServerParameters(command=argv[0], args=[*argv[1:], "-C", str(root)])
    read_args = json.loads(re.search(r"`read_ground` with `(\{.*?\})`", page)[1])  # type: ignore[index]
    recall_args = json.loads(re.search(r"`recall` with `(\{.*?\})`", page)[1])  # type: ignore[index]
    propose_args = json.loads(re.search(r"```json\n(.*?)```", page, re.S)[1])  # type: ignore[index]
    out: dict[str, Any] = {}
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        for name, args in [
            ("ground", {}),
            ("read_ground", read_args),
            ("recall", recall_args),
            ("propose", propose_args),
        ]:
            result = await asyncio.wait_for(s.call_tool(name, args), timeout=120)
            assert not result.isError, (name, result.content[0].text)
            out[name] = json.loads(result.content[0].text)
    return out


def test_mcp_docs_walkthrough_as_written_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "canon/characters.md", NOVEL)
    init_and_adopt(root, ["canon/characters.md#Elias"])
    commit_all(root, "canon")
    page = _walkthrough()
    shell = _shell_lines(page)
    status = dict(shell)["forest status"]
    assert _shown(status).match(pasted(root, "forest status").stdout), status

    out = asyncio.run(_calls(root, page))
    (row,) = out["ground"]["bindings"]
    assert (row["selector"], row["status"]) == ("canon/characters.md#Cast/Elias", "clean")
    assert out["read_ground"]["text"].startswith("### Elias\n\nElias keeps the harbour light.")
    assert out["recall"]["packets"][0]["id"] == row["ground"]
    real_id = out["propose"]["id"]
    assert out["propose"]["outcome"] == "new"

    for command, comment in shell:
        if command.startswith(("cd ", "forest status", "forest review")):
            continue  # where the page stands; shown above; a prompt for keys
        done = pasted(root, command.replace(DOC_ID, real_id))
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        if comment and command == "forest proposals":
            assert _shown(comment).search(done.stdout), (comment, done.stdout)
    adopted = (root / "canon/characters.md").read_text(encoding="utf-8")
    assert "Elias keeps the harbour light and speaks to no one.\n\n### Mara\n" in adopted
    assert pasted(root, "git status --porcelain").stdout == ""
    assert pasted(root, "forest check").returncode == 0
