"""Differential: a bound heading an edit hid, at every door.

An unclosed fence (or ``<!--``) an edit put into bound ``# A`` hides ``# B`` and ``# C``
after it: the selectors find no heading. Each door says what hides them (the block,
its line, the section holding it: custody/restore_hidden.py's detection) and routes
the restore that brings them back, ``forest restore 'f.md#A' 'f.md#B'`` (pasted: clean),
not ``forest show`` / ``rebind`` (no heading was renamed: it stands there, hidden).
Every door says the same: the working tree, the index (``check --staged``, the
installed hook), the commit (``check --rev``) and ``forest ci`` in a fresh clone. A
block no binding holds (or closed further on) is routed to be closed, not restored.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from forest_files.doors import hooks as githooks
from tests.helpers.cli import console, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import copied_from

BOOK = "# A\n\ntext a\nmore a\n\n# B\n\nb\n\n# C\n\nc\n"
FENCED = BOOK.replace("text a", "```\ntext a")
SAID = (
    "f.md#B: its heading `# B` (line 7) is hidden by the code fence opened at line 3 in f.md#A, "
    "which an edit left open over it, so no heading matches"
)
BOTH = "forest restore 'f.md#A' 'f.md#B'"
CLOSE = "close the code fence opened at line 3 before line 7 (or take it out)"


def _build(base: Path) -> Path:
    root = make_repo(base)
    ok(root, "init")
    write(root, "f.md", BOOK)
    commit_all(root, "files")
    ok(root, "adopt", "f.md#A", "f.md#B", "f.md#C", "--words", "as it stands")
    commit_all(root, "adopt")
    return root


repo = copied_from(_build)


def _b(proc: Any) -> dict[str, Any]:
    """f.md#B's finding in a door's JSON output."""
    (one,) = [f for f in json.loads(proc.stdout)["findings"] if f["selector"] == "f.md#B"]
    return dict(one)


def _commands(found: dict[str, Any]) -> list[str]:
    return [r["command"] for r in found["routes"] if r["command"]]


def test_heading_hidden_by_fence_in_bound_section_routed_every_door_detected(
    repo: Path, tmp_path: Path
) -> None:
    """Before: ``unresolved f.md#B no heading matches; nearby headings: #A``, routed to
    ``forest show``, a rebind and a retire; the fence never named."""
    write(repo, "f.md", FENCED)
    found = _b(console(repo, "check", "--json"))
    assert (found["kind"], found["detail"]) == ("unresolved", SAID), found
    assert found["candidates"] == []
    commands = _commands(found)
    assert commands[0] == BOTH, commands
    assert not any(c.startswith("forest show") for c in commands), commands
    text = console(repo, "check").stdout
    assert f"unresolved f.md#B {SAID.removeprefix('f.md#B: ')}" in text and BOTH in text, text
    git(repo, "add", "-A")
    staged = _b(console(repo, "check", "--staged", "--json"))
    assert staged["detail"] == SAID, staged
    assert _commands(staged)[0] == f"{BOTH} && git add -- f.md", staged
    githooks.install(repo)
    hook = pasted(repo, "git commit -q -m 'fence opened'")
    said = hook.stdout + hook.stderr
    assert hook.returncode != 0 and SAID.removeprefix("f.md#B: ") in said, said
    assert f"{BOTH} && git add -- f.md" in said, said
    done = pasted(repo, BOTH)
    assert done.returncode == 0, done.stderr
    assert (repo / "f.md").read_text() == BOOK
    after = json.loads(console(repo, "check", "--json").stdout)["findings"]
    assert {f["kind"] for f in after} == {"clean"}, after


def test_heading_hidden_by_fence_committed_routed_to_close_every_door_detected(
    repo: Path, tmp_path: Path
) -> None:
    """The fence committed (``--no-verify``): HEAD's file hides ``# B`` too, so the
    restore of A with B is refused (restore_swallowed.py: B may be a line of the fence);
    ``check``, ``check --rev HEAD`` and ``forest ci`` route to close the fence, never to
    that restore."""
    base = git(repo, "rev-parse", "HEAD")
    write(repo, "f.md", FENCED)
    git(repo, "commit", "-q", "-a", "--no-verify", "-m", "fence opened")
    refused = pasted(repo, BOTH)
    assert refused.returncode == 1 and "close that code fence" in refused.stderr, refused.stderr
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    ci = console(clone, "ci", "--base", base, "--format", "json")
    assert ci.returncode == 1, ci.stdout + ci.stderr
    for found in (
        _b(console(repo, "check", "--json")),
        _b(console(repo, "check", "--rev", "HEAD", "--json")),
        _b(ci),
    ):
        assert found["detail"] == SAID, found
        assert found["routes"][0]["label"] == "close the block", found["routes"]
        assert found["routes"][0]["note"].startswith(CLOSE), found["routes"]
        assert not any(c.startswith("forest restore") for c in _commands(found)), found


@pytest.mark.parametrize(
    ("text", "where", "close"),
    [
        (
            BOOK.replace("more a", "more a\n<!--"),
            "HTML comment or block opened at line 5 in #A, which an edit left open over it",
            "close the HTML comment or block opened at line 5 before line 7 (or take it out)",
        ),
        (
            FENCED.replace("\nb\n", "\nb\n```\n"),
            "code fence opened at line 3 in f.md#A, which runs over it to line 10",
            "take out line 10 (the code fence's closing line: left, it would open a code "
            "fence of its own), then close the code fence opened at line 3 before line 7 "
            "(or take it out)",
        ),
    ],
)
def test_heading_hidden_no_restore_brings_back_routed_to_close_detected(
    repo: Path, text: str, where: str, close: str
) -> None:
    """The block opened in A but closed inside B (a restore of A would be refused too),
    or in A unbound (``forest retire`` of A first): routed to close the block, never to
    a restore or to ``forest show``."""
    if "<!--" in text:
        ok(repo, "retire", "f.md#A", "--words", "no longer kept")
    write(repo, "f.md", text)
    found = _b(console(repo, "check", "--json"))
    assert found["kind"] == "unresolved", found
    assert re.match(r"f.md#B: its heading `# B` \(line [0-9]+\) is hidden by the ", found["detail"])
    assert where in found["detail"], found["detail"]
    shut = [r for r in found["routes"] if r["label"] == "close the block"]
    own = "the same as f.md#A's route (follow it once, for both): "  # A bound: its close
    assert shut[0]["note"].removeprefix(own).startswith(close), found["routes"]
    commands = _commands(found)
    assert not any(c.startswith(("forest show", "forest restore")) for c in commands), commands


def test_heading_not_found_without_a_block_routes_unchanged_accepted(repo: Path) -> None:
    """A heading renamed (no block hides it): the put-back and rebind routes as before."""
    write(repo, "f.md", BOOK.replace("# B", "# Bee"))
    found = _b(console(repo, "check", "--json"))
    assert found["detail"].startswith("f.md#B: no heading matches"), found
    assert "hidden" not in found["detail"]
    assert any(c.startswith("forest rebind 'f.md#B'") for c in _commands(found)), found


NESTED = "# T\n\ntext t\n\n# U\n\nu\n\n## install\n\ni\n\n# V\n\nv\n"


def test_heading_hidden_with_its_parent_close_advice_followed_clean_accepted(
    tmp_path: Path,
) -> None:
    """A fence opened in T (unbound) hides ``# U`` and ``## install`` under it: bound
    ``U/install`` is found again only when the fence is closed before ``# U`` (line 6),
    so that is the line ``forest check`` and ``forest restore`` name; the advice followed
    to the letter (a closing fence line put before it) leaves the check clean (before:
    "before line 10", the heading's own line: ``# U`` stayed in the fence and the check
    said U/install moved to T/install)."""
    from tests.custody.test_restore_hidden import bound_book
    from tests.helpers.cli import forest

    repo = bound_book(tmp_path, "f.md#U/install", text=NESTED)
    write(repo, "f.md", NESTED.replace("text t", "```\ntext t"))
    (found,) = json.loads(console(repo, "check", "--json").stdout)["findings"]
    (note,) = [r["note"] for r in found["routes"] if r["label"] == "close the block"]
    assert note.startswith("close the code fence opened at line 3 before line 6 "), note
    refused = forest(repo, "restore", "f.md#U/install").stderr
    assert "close that code fence before line 6 (or take it out)" in refused, refused
    before = int(re.findall(r"before line ([0-9]+)", note)[0])
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    write(repo, "f.md", "".join([*lines[: before - 1], "```\n", *lines[before - 1 :]]))
    after = json.loads(console(repo, "check", "--json").stdout)["findings"]
    assert [f["kind"] for f in after] == ["clean"], after


INSTALL = "# A\n\ntext a\n\n# install\n\ni\n\n# B\n\nb\n"


def test_heading_hidden_with_a_line_of_its_name_in_the_block_close_followed_clean_detected(
    tmp_path: Path,
) -> None:
    """A ```` ```sh ```` fence left open in bound A holding ``# install`` (a shell
    comment) hides the real ``# install`` too: without the fence's first line the
    selector matches twice, both inside the block. The finding and the refusal name the
    fence and the last of them (line 9: the block closed before it, the comment stays
    code and one heading matches); followed to the letter, ``f.md#install`` is clean
    (before: "no heading matches; nearby headings: #A", routed to ``forest show``)."""
    from tests.custody.test_restore_hidden import bound_book
    from tests.helpers.cli import forest

    repo = bound_book(tmp_path, "f.md#A", "f.md#install", text=INSTALL)
    write(repo, "f.md", INSTALL.replace("text a\n", "text a\n\n```sh\n# install\nmake\n"))
    found = json.loads(console(repo, "check", "--json").stdout)["findings"]
    (install,) = [f for f in found if f["selector"] == "f.md#install"]
    assert install["detail"].startswith(
        "f.md#install: its heading `# install` (line 9) is hidden by the code fence opened at "
        "line 5 in f.md#A"
    ), install
    (note,) = [r["note"] for r in install["routes"] if r["label"] == "close the block"]
    assert note.startswith("close the code fence opened at line 5 before line 9 "), note
    assert not any(c.startswith("forest show") for c in _commands(install)), install
    refused = forest(repo, "restore", "f.md#install").stderr
    assert "close that code fence before line 9 (or take it out)" in refused, refused
    lines = (repo / "f.md").read_text().splitlines(keepends=True)
    write(repo, "f.md", "".join([*lines[:8], "```\n", *lines[8:]]))
    after = json.loads(console(repo, "check", "--json").stdout)["findings"]
    assert [(f["selector"], f["kind"]) for f in after] == [
        ("f.md#A", "drifted"),
        ("f.md#install", "clean"),
    ], after


def test_heading_hidden_diff_of_it_alone_names_the_bound_holder_as_check_detected(
    repo: Path,
) -> None:
    """``forest diff 'f.md#B'`` checked B alone, so the fence's holder was no binding it
    knew: it said the fence was opened "in #A" (as if A were unbound) where ``forest
    check`` says "in f.md#A". It checks every binding of the chosen files and prints
    the chosen ones: both doors say the same."""
    write(repo, "f.md", FENCED)
    shown = console(repo, "diff", "f.md#B")
    assert shown.returncode == 0, shown.stderr
    text = console(repo, "check").stdout
    assert f"unresolved f.md#B {SAID.removeprefix('f.md#B: ')}" in text, text
    assert shown.stdout.splitlines()[0] == f"unresolved f.md#B {SAID.removeprefix('f.md#B: ')}"
