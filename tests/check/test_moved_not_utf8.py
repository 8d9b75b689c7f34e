"""A bound section moved into a file whose name is not UTF-8: the ledger cannot
record that name, so the ``moved`` finding routes the rename (``git mv`` to the
name its bytes read as Latin-1, the route the coverage check prints for such a
file), never a rebind that ``forest rebind`` would refuse, and the commit's one
route leaves it out.

Real git, the routes read from ``forest check --staged --json`` and pasted through
``bash -c``: the rename, then the rebind the next check prints, leave the staged
change clean.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import copied_from

LEGACY = os.fsdecode(b"caf\xe9.md")  # a Latin-1 name, as git's bytes decode: "caf\udce9.md"
# how every printed command spells it: the byte as $'\ooo' (kernel/shellword.py)
LEGACY_WORD = "caf$'\\351'.md"
RENAMED = "café.md"
MENU = "# Menu\n\n## Soup\n\nsoup of the day\n\n## Bread\n\nrye and spelt\n"
NOTES = "# Notes\n\n## Tea\n\ngreen\n\n## Coffee\n\nblack\n"
SOUP = "menu.md#Menu/Soup"


def _build(where: Path) -> Path:
    root = make_repo(where)
    write(root, "menu.md", MENU)
    write(root, "notes.md", NOTES)
    commit_all(root, "docs")
    assert forest(root, "init").exit_code == 0
    for target in (SOUP, "notes.md#Notes/Tea", "notes.md#Notes/Coffee"):
        done = forest(root, "adopt", target, "--words", "as agreed")
        assert done.exit_code == 0, done.stdout + done.stderr
    commit_all(root, "custody")
    return root


repo = copied_from(_build)


def _staged(root: Path) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(forest(root, "check", "--staged", "--json").stdout)
    return out


def _finding(report: dict[str, Any], selector: str) -> dict[str, Any]:
    found = [f for f in report["findings"] if f["selector"] == selector]
    assert len(found) == 1, report
    return found[0]


def test_moved_into_not_utf8_name_rebind_refused(repo: Path) -> None:
    """No route, and no step of the commit's route, rebinds onto the name the
    ledger cannot record; the rename route is first, the retire route after it."""
    git(repo, "mv", "menu.md", LEGACY)
    git(repo, "mv", "notes.md", "kept.md")  # two plain moves: the commit route takes them
    report = _staged(repo)
    soup = _finding(report, SOUP)
    assert soup["kind"] == "moved" and soup["moved_to"] == f"{LEGACY}#Menu/Soup", soup
    commands = [r["command"] for r in soup["routes"]]
    assert not any("rebind" in c for c in commands), commands
    rename = f"git mv -- {LEGACY_WORD} {shlex.quote(RENAMED)}"
    assert commands[0] == f"{rename} && git add -- {shlex.quote(RENAMED)}", commands
    assert commands[1].startswith(f"forest retire {shlex.quote(SOUP)} "), commands
    route = report["commit_route"]
    assert route is not None, report
    assert "2 rebound" in route["label"] and "needs its own route" in route["note"], route
    for selector in ("notes.md#Notes/Tea", "notes.md#Notes/Coffee"):
        assert _finding(report, selector)["routes"][0]["label"] == "move the binding"


def test_moved_into_not_utf8_name_rename_then_rebind_recovers(repo: Path) -> None:
    git(repo, "mv", "menu.md", LEGACY)
    rename = _finding(_staged(repo), SOUP)["routes"][0]["command"]
    done = pasted(repo, rename)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (repo / RENAMED).read_text(encoding="utf-8") == MENU
    soup = _finding(_staged(repo), SOUP)
    assert soup["kind"] == "moved" and soup["moved_to"] == f"{RENAMED}#Menu/Soup", soup
    rebind = soup["routes"][0]["command"]
    assert rebind.startswith("forest rebind "), rebind
    done = pasted(repo, rebind)
    assert done.returncode == 0, done.stdout + done.stderr
    after = forest(repo, "check", "--staged")
    assert after.exit_code == 0, after.stdout + after.stderr


def test_moved_into_non_ascii_utf8_name_rebind_accepted(repo: Path) -> None:
    """A UTF-8 name that is not ASCII keeps the rebind route (only bytes that are not
    UTF-8 need the rename)."""
    git(repo, "mv", "menu.md", RENAMED)
    routes = _finding(_staged(repo), SOUP)["routes"]
    assert routes[0]["label"] == "move the binding", routes
    assert routes[0]["command"].startswith("forest rebind "), routes


def test_renamed_and_edited_into_not_utf8_name_rebind_refused(repo: Path) -> None:
    """The file renamed to a name that is not UTF-8 and its section edited: the
    ``missing`` finding's candidate there is routed to the rename, never to a
    rebind ``forest rebind`` would refuse; pasted, the next check offers the rebind."""
    git(repo, "mv", "menu.md", LEGACY)
    write(repo, LEGACY, MENU.replace("soup of the day", "soup of the night"))
    git(repo, "add", "--", LEGACY)
    soup = _finding(_staged(repo), SOUP)
    assert soup["kind"] == "missing" and soup["candidates"] == [f"{LEGACY}#Menu/Soup"], soup
    commands = [r["command"] for r in soup["routes"]]
    assert not any(c.startswith("forest rebind") for c in commands), commands
    rename = f"git mv -- {LEGACY_WORD} {shlex.quote(RENAMED)}"
    assert f"{rename} && git add -- {shlex.quote(RENAMED)}" in commands, commands
    done = pasted(repo, f"{rename} && git add -- {shlex.quote(RENAMED)}")
    assert done.returncode == 0, done.stdout + done.stderr
    again = _finding(_staged(repo), SOUP)
    assert any(r["command"].startswith("forest rebind ") for r in again["routes"]), again
