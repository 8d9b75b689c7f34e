"""The watcher judges a binding with its recorded normalisations: a style-only save is
clean, a changed word is drift, and the proposal it keeps is the section as the
binding reads it (judge.check and judge.capture, the watcher's own two steps)."""

from __future__ import annotations

import threading
from pathlib import Path

from forest_files.custody.bindings import all_bindings
from forest_files.custody.proposals import ProposalStore
from forest_files.custody.repository import Repository
from forest_files.doors.watch.judge import capture, check
from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, make_repo, write

DOC = "# Notes\n\nThe _lighthouse_ stands.\n\n* one\n"


def test_watch_normalised_binding_style_clean_word_detected(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    in_process.ok(root, "init")
    write(root, "n.md", DOC)
    in_process.ok(root, "adopt", "n.md", "--normalise", "emphasis", "--normalise",
                  "list-markers", "--words", "Adopted notes")  # fmt: skip
    commit_all(root, "notes")
    write(root, "n.md", DOC.replace("_lighthouse_", "*lighthouse*").replace("* one", "- one"))
    assert [r.finding.kind for r in check(root, (), threading.Event())] == ["clean"]
    write(root, "n.md", DOC.replace("_lighthouse_", "_tower_"))
    [item] = check(root, (), threading.Event())
    assert item.finding.kind == "drifted"
    with Repository(root) as repo:  # what the watcher hands capture: the binding's rules
        [binding] = all_bindings(repo.synced())
    assert binding.excludes == ("normalise:emphasis@1", "normalise:list-markers@1")
    assert capture(root, item, binding.excludes, 1 << 20) is not None
    with ProposalStore(root) as store:
        [proposal] = store.open_proposals()
    assert proposal.text == "# Notes\n\nThe *tower* stands.\n\n- one\n"
