"""check/hidden_heading.py: the routes ``forest check`` prints for a heading a fence
hides are the ones ``forest restore`` takes: each one's command pasted succeeds, and
the advice followed as written leaves the check clean."""

from __future__ import annotations

from pathlib import Path

from forest_files.check.finding import Finding, Reason
from forest_files.check.routes import routes_for
from tests.helpers.cli import finding_of, ok
from tests.helpers.git import commit_all, make_repo, pasted, write

CUT = "# A\n\ntext a\n\n## sub\n\ns\n\n# B\n\nb\n"


def test_check_hidden_heading_holder_excluding_a_part_no_refused_restore_routed(
    tmp_path: Path,
) -> None:
    """A fence left open in bound A (``--exclude '#sub'``) over bound B: ``forest
    check`` routed B to ``forest restore 'f.md#A' 'f.md#B'``, which pasted is refused
    (a section that excludes parts keeps no hidden heading); the judge knew the bound
    selectors, not their exclusions. Every route's command pasted succeeds now, and
    the first route, close the block, followed as written leaves B clean."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "f.md", CUT)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A", "--exclude", "#sub", "--words", "kept")
    ok(repo, "adopt", "f.md#B", "--words", "kept")
    commit_all(repo, "adopt")
    edited = CUT.replace("text a\n", "text a\n```\n")
    write(repo, "f.md", edited)
    found = finding_of(repo, "f.md#B")
    routes = found["routes"]
    for command in [r["command"] for r in routes if r["command"]]:
        if "retire" in command:  # ends the binding: no way back to clean, nor meant as one
            continue
        got = pasted(repo, command)
        assert got.returncode == 0, (command, got.stderr)
    assert routes[0]["label"] == "close the block", routes
    close = "close the code fence opened at line 4 before line 10 (or take it out)"
    assert routes[0]["note"] == close, routes
    lines = edited.splitlines(keepends=True)
    write(repo, "f.md", "".join([*lines[:9], "```\n", *lines[9:]]))
    assert finding_of(repo, "f.md#B")["kind"] == "clean"


GROUND = "a" * 64


def _routes(root: Path, reason: Reason) -> list[tuple[str, str]]:
    f = Finding("unresolved", "f.md", "f.md#{^treaty}", "b" * 64, GROUND, "c" * 64, reason=reason)
    return [(r.label, r.note) for r in routes_for(f, root=root, source="worktree")]


def test_hidden_route_label_chosen_by_reason_not_advice_words_accepted(tmp_path: Path) -> None:
    """The route's label is chosen by the typed reason (``hidden-split``: only taking
    the fence's line out mends the block), never by the advice's words: route_unresolved.py
    chose "take the block out" when the advice began "take out", and gave a reworded
    advice "close the block"."""
    root = make_repo(tmp_path)
    reworded = "remove line 4, the code fence opened inside the paragraph at line 2"
    routes = _routes(root, Reason("hidden-split", "", 5, advice=reworded))
    assert routes[0] == ("take the block out", reworded), routes
    held = _routes(root, Reason("hidden-split", "f.md#A", 5, advice=reworded))
    assert held[1] == ("or take the block out", reworded), held
    worded = "take out line 4 (as the close advice might one day begin)"
    assert _routes(root, Reason("hidden", "", 5, advice=worded))[0][0] == "close the block"
