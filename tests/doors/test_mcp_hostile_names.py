"""The MCP refusal that lists a file's bound selectors, of a file whose name holds a
bidirectional override or a zero-width space (git takes any name; a ledger's selector
is a claim). The names were said raw: an override (U+202E) reordered what the client
shows ("Trojan Source"), a zero-width space hid in the name. Now each name is said as
``forest check`` says it (kernel ``printable``): one plain line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.doors.mcp import server
from forest_files.doors.mcp.session import Session
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, make_repo, write

pytest.importorskip("mcp")

# A line break or a carriage return in a name is refused when bound (the selector
# parser), so only names a binding can hold are tried here.
NAMES = ["a\u202edm.b.md", "-$(touch pwned)'.md", "a\u200bb.md"]


@pytest.mark.parametrize("name", NAMES)
def test_mcp_unknown_selector_of_hostile_file_name_said_whole_detected(
    tmp_path: Path, name: str
) -> None:
    root = make_repo(tmp_path, "repo")
    write(root, name, "# T\n\n## Keep\n\nwords\n")
    init_and_adopt(root, [f"{name}#T/Keep"])
    commit_all(root, "adopt")
    got = server.call(Session(root), "read_ground", {"binding": f"{name}#T/Gone"}, read_only=True)
    assert got.isError
    (said,) = [c.text for c in got.content]
    assert said.isprintable(), said  # no line break, no override, nothing cut
    assert said.endswith("or a binding id the `ground` tool lists"), said
    assert not (root / "pwned").exists()
