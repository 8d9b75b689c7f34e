"""A binding rebound twice whose place holds other text: its rebind route asks for words.

Two merged branches each rebound ``A.md#X`` (tests/helpers/rebound.py). When the
section where it stands was edited, or the other place holds other text, ``forest
rebind X X`` (or ``X Y``) is refused there ("add --words '…'"), yet every door printed
it without ``--words``: pasted, it failed, and review's key failed the same way. Now
the rebind to a place whose text is not the ground's carries ``--words '…'`` at every
door (check, ``--staged``, ci, verify, log, the MCP refusal, review's key), from the
one route builder; with ``…`` replaced, each works pasted.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from forest_files.doors.cli.review_cmd import run_in_process
from forest_files.doors.review.keys import Console
from forest_files.doors.review.run import review_here
from tests.helpers.cli import FOREST
from tests.helpers.custody import BY
from tests.helpers.git import commit_all, git, git_env, pasted, write
from tests.helpers.rebound import merged_clones

EDITED = "# X\n\nhand edit\n"


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def _said(doc: dict[str, Any]) -> dict[str, Any]:
    (found,) = [f for f in doc["findings"] if f["kind"] == "contested"]
    return dict(found)


def _commands(root: Path, *args: str) -> list[str]:
    proc = _run(root, *args)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return [r["command"] for r in _said(json.loads(proc.stdout))["routes"]]


def _places(root: Path) -> tuple[str, str]:
    stands = str(_said(json.loads(_run(root, "check", "--json").stdout))["selector"])
    return stands, ({"B.md#X", "C.md#X"} - {stands}).pop()


def _edited(tmp_path: Path, where: int) -> tuple[Path, str, str]:
    """Clone ``b`` with the section where it stands (``where`` 0) or at the other
    place (1) edited, committed (no hook is installed)."""
    b, _ = merged_clones(tmp_path)
    places = _places(b)
    write(b, places[where].split("#")[0], EDITED)
    commit_all(b, "edit")
    return b, *places


def _filled(command: str) -> str:
    return command.replace(shlex.quote("…"), shlex.quote("the text there is right"))


@pytest.mark.parametrize("where", [0, 1])
def test_rebound_twice_route_to_other_text_pasted_recovers(tmp_path: Path, where: int) -> None:
    b, stands, other = _edited(tmp_path, where)
    said = _commands(b, "check", "--json")
    words = ("--words", "…")
    assert said == [
        shlex.join(["forest", "rebind", stands, place, *(words if n == where else ())])
        + " && git add -- .forest/ledger"
        for n, place in enumerate((stands, other))
    ]
    for door in (("check", "--staged", "--json"), ("ci", "--format", "json")):
        assert _commands(b, *door) == said, door
    logged = json.loads(_run(b, "log", "--json").stdout)
    assert [r["command"] for r in _said(logged)["routes"]] == said
    verify = _run(b, "verify")
    assert verify.returncode == 1 and all(c in verify.stdout for c in said), verify.stdout
    done = pasted(b, _filled(said[where]))
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")
    doc = json.loads(_run(b, "check", "--json").stdout)
    assert doc["ok"] is True, doc["findings"]
    assert [f["selector"] for f in doc["findings"]] == [(stands, other)[where]]


def test_rebound_twice_mcp_refusal_names_the_words_accepted(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from forest_files.doors.mcp import schemas as s
    from forest_files.doors.mcp import tools
    from forest_files.doors.mcp.session import Session

    b, stands, _ = _edited(tmp_path, 0)
    said = _commands(b, "check", "--json")
    assert shlex.join(["--words", "…"]) in said[0]  # the edited place where it stands
    args = {"selector": stands, "text": EDITED, "signature": BY, "reason": "r"}
    with pytest.raises(tools.ToolRefused) as refused:
        tools.propose(Session(b), s.parse("propose", s.ProposeIn, args))
    assert all(f"`{c}`" in str(refused.value) for c in said), refused.value


def test_rebound_twice_review_key_asks_words_recovers(tmp_path: Path) -> None:
    b, stands, _ = _edited(tmp_path, 0)
    out = io.StringIO()
    console = Console(io.StringIO("1\nthe edit is right\n"), out)
    review_here(b, BY, colour=False, run=run_in_process(b), console=console)
    shown = out.getvalue()
    assert "1 of 1 seen: 1 rebound" in shown, shown
    git(b, "add", "--", ".forest/ledger")
    git(b, "commit", "-q", "-m", "settle")
    doc = json.loads(_run(b, "check", "--json").stdout)
    assert doc["ok"] is True and [f["selector"] for f in doc["findings"]] == [stands]
