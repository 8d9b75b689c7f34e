"""The one route for a commit never rebinds a binding onto a section another binding
holds under another name. Two headings of one name are bound as ``#Notes/Results[1]``
and ``[2]``; a writer deletes the first: ``[1]`` now reads the second's text
(drifted) and ``[2]``'s unchanged text stands at ``#Notes/Results``, the section
``[1]`` names. ``forest rebind`` refuses that move (the section is bound already);
the commit's route recorded it, leaving two live bindings of one section."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from forest_files.doors import hooks as githooks
from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.git import pasted as bash
from tests.helpers.template import copied_from

pytestmark = pytest.mark.slow  # commits with the hook, routes pasted

NOTES = """# Notes

Intro.

## Results

First results.

## Results

Second results.

## Method

How.
"""
ROUTE = re.compile(r"forest supersede --staged --expect [0-9a-f]+ --words '…'")


def _build(base: Path) -> Path:
    repo = make_repo(base)
    in_process.ok(repo, "init")
    write(repo, "notes.md", NOTES)
    in_process.ok(repo, "adopt", "notes.md", "--headings", "--yes", "--words", "canon")
    commit_all(repo, "canon")
    return repo


repo = copied_from(_build)


def test_commit_plan_rebind_onto_section_held_by_another_name_refused(repo: Path) -> None:
    githooks.install(repo)
    write(repo, "notes.md", NOTES.replace("## Results\n\nFirst results.\n\n", ""))
    git(repo, "add", "-A")
    refused = bash(repo, "git commit -q -m dedupe")
    assert refused.returncode != 0
    assert "moved notes.md#Notes/Results[2]" in refused.stderr, refused.stderr
    found = ROUTE.search(refused.stderr)
    if found is not None:  # what it records leaves no section bound twice
        pasted = bash(repo, found.group(0).replace("'…'", "'dedupe'"))
        assert pasted.returncode == 0, pasted.stderr
        assert "rebound" not in pasted.stdout, pasted.stdout
    status = json.loads(in_process.forest(repo, "status", "--json").stdout)
    selectors = [row["selector"] for row in status["findings"]]
    assert "notes.md#Notes/Results" not in selectors, selectors
