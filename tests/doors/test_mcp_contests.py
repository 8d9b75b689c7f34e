"""The MCP tools on a contest, as ``forest check`` judges it (doors/mcp/contested.py).

A binding two merged branches each rebound: ``ground`` listed it ``clean`` (``check``
said ``contested``); ``read_ground`` and ``propose`` at the other branch's place said
it "names no single live binding", and ``propose`` where it stands kept a proposal.
A bound ground with two live heads was refused without the ``forest resolve`` that
ends it. Now each is refused naming where it stands and the routes ``forest check``
prints; pasted by a person, the proposal is taken.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.doors.mcp import schemas as s
from forest_files.doors.mcp import tools
from forest_files.doors.mcp.session import Session
from forest_files.kernel.hashing import hash_body
from tests.helpers.cli import forest
from tests.helpers.custody import BY, DOC, init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.rebound import merged_clones

pytest.importorskip("mcp")

AGENT = "Claude (agent) <agent@example.org>"
TEXT = "# X\n\nclearer words\n"


def _propose(root: Path, selector: str, text: str = TEXT) -> tools.Answer:
    args = {"selector": selector, "text": text, "signature": AGENT, "reason": "clearer"}
    return tools.propose(Session(root), s.parse("propose", s.ProposeIn, args))


def _read(root: Path, binding: str) -> tools.Answer:
    return tools.read_ground(Session(root), s.ReadGroundIn.model_validate({"binding": binding}))


def test_mcp_binding_rebound_twice_refused_with_its_rebinds_then_recovers(tmp_path: Path) -> None:
    b, _ = merged_clones(tmp_path)
    (said,) = [
        f
        for f in json.loads(forest(b, "check", "--json").stdout)["findings"]
        if f["kind"] == "contested"
    ]
    stands = said["selector"]
    other = ({"B.md#X", "C.md#X"} - {stands}).pop()
    routes = [f"`{r['command']}`" for r in said["routes"]]
    (row,) = tools.ground(Session(b), s.GroundIn.model_validate({})).data["bindings"]
    assert (row["selector"], row["status"]) == (stands, "contested")  # as check says
    assert _read(b, stands).data["selector"] == stands  # its one ground, where it stands
    with pytest.raises(tools.ToolRefused) as read_there:
        _read(b, other)
    assert f"it stands at `{stands}`, also rebound to `{other}`" in str(read_there.value)
    assert f"pass `{stands}`" in str(read_there.value)
    assert all(r in str(read_there.value) for r in routes), read_there.value
    for place in (stands, other, said["binding"]):
        with pytest.raises(tools.ToolRefused) as kept:
            _propose(b, place)
        assert "a proposal waits" in str(kept.value)
        assert all(r in str(kept.value) for r in routes), kept.value
    assert forest(b, "proposal", "list").stdout.startswith("0 open")
    done = pasted(b, said["routes"][0]["command"])  # a person settles it where it stands
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")
    assert _propose(b, stands).data["outcome"] == "new"


def _contested_bound(tmp_path: Path) -> tuple[Path, tuple[str, str]]:
    """``a.md#Keep`` bound, its ground superseded on two clones (the file untouched),
    merged: one binding whose ground has two live heads."""
    origin = make_repo(tmp_path, "origin")
    write(origin, "a.md", DOC)
    init_and_adopt(origin, ["a.md#Keep"])
    commit_all(origin, "adopt")
    with Repository(origin) as r:
        (ground,) = [g.content_id for g in r.ground()]
    heads = []
    for name in ("b", "c"):
        clone = tmp_path / name
        git(tmp_path, "clone", "-q", str(origin), str(clone))
        text = f"## Keep\n\n{name}'s words"
        with Repository(clone) as r:
            heads.append(
                r.supersede(ground, text, words="w", by=BY, expected_body_hash=hash_body(text))
            )
        commit_all(clone, name)
    b = tmp_path / "b"
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(tmp_path / "c"), "HEAD")
    return b, (heads[0], heads[1])


def test_mcp_contested_ground_refused_naming_its_resolves(tmp_path: Path) -> None:
    b, heads = _contested_bound(tmp_path)
    first = min(heads)
    for call in (lambda: _read(b, "a.md#Keep"), lambda: _propose(b, "a.md#Keep", DOC)):
        with pytest.raises(tools.ToolRefused) as refused:
            call()
        said = str(refused.value)
        assert "its ground is contested (2 heads)" in said
        assert all(f"`forest resolve {first} --pick {h} --words" in said for h in heads), said
