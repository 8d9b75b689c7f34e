"""check/hidden_heading.py: the routes ``forest check`` prints for a heading a fence
hides are the ones ``forest restore`` takes: each one's command pasted succeeds, and
the advice followed as written leaves the check clean."""

from __future__ import annotations

from pathlib import Path

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
