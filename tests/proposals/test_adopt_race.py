"""``forest proposals adopt`` and another command acting on the same binding at once
meet in one order: the adopt reads, writes and records inside the restore gate
(custody/restore_gate.py, proposals/adopt.py), which looks again at the ground and
the place it judged against under the index's write lock.

Real repositories and real processes: the other command runs to its end, as a
``forest`` process of its own, right after the adopt has judged the proposal fresh
(its ground the one the proposal diverged from) and before it reads the section —
the library's ``refuse_erased`` call between the two, wrapped. The end state must be
one that running the two commands one after the other gives.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import forest_files.custody.tombstone as tombstone_mod
from forest_files.check.path import run_check
from forest_files.custody.proposals import ProposalStore
from forest_files.kernel.errors import ForestError
from forest_files.proposals.adopt import ProposalStale, adopt_proposal
from tests.helpers.custody import BY, DOC
from tests.helpers.git import pasted
from tests.helpers.watch import EDITED, bound_repo, captured_proposal

LATER = DOC.replace("kept words", "later words")


def _meanwhile(monkeypatch: pytest.MonkeyPatch, root: Path, command: str) -> None:
    """Run ``command`` once, as its own process, between the adopt's look and its read."""
    real = tombstone_mod.refuse_erased
    ran: list[str] = []

    def late(*args: Any, **kwargs: Any) -> None:
        if not ran:
            ran.append(command)
            done = pasted(root, command)
            assert done.returncode == 0, (command, done.stdout, done.stderr)
        real(*args, **kwargs)

    monkeypatch.setattr(tombstone_mod, "refuse_erased", late)


def _failed(root: Path) -> list[str]:
    return [f"{r.finding.kind} {r.finding.selector}" for r in run_check(root, "worktree").items]


def _open(root: Path) -> list[str]:
    with ProposalStore(root) as kept:
        return [p.id for p in kept.open_proposals()]


@pytest.mark.slow  # the other command is a `forest` process of its own
def test_adopt_ground_superseded_while_it_ran_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process supersedes a.md#Keep with a later text after the adopt judged
    the proposal fresh: the adopt records nothing and leaves the later text in the
    file (before: it wrote the proposal over it and recorded it on top of the later
    ground — an end no one-at-a-time order gives)."""
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    (root / "a.md").write_text(LATER, encoding="utf-8")
    _meanwhile(monkeypatch, root, "forest supersede a.md --words 'the later text is right'")
    with pytest.raises(ProposalStale, match="while this adopt ran; nothing was written"):
        adopt_proposal(root, pid, words="adopt the proposal", by=BY)
    assert (root / "a.md").read_text(encoding="utf-8") == LATER
    assert [line for line in _failed(root) if not line.startswith("clean")] == []


@pytest.mark.slow  # the other command is a `forest` process of its own
def test_adopt_binding_rebound_without_words_while_it_ran_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process rebinds a.md#Keep to b.md, which holds its ground (no words: the
    ground is unchanged, only the place moved), after the adopt judged the proposal
    fresh: the adopt records nothing (before: it recorded the text read at the old
    place as ground, and b.md, where the binding now stands, showed drifted)."""
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    (root / "b.md").write_text(DOC, encoding="utf-8")
    _meanwhile(monkeypatch, root, "forest rebind 'a.md#Title/Keep' 'b.md#Title/Keep'")
    with pytest.raises(ProposalStale, match=re.escape("the place of a.md#Title/Keep")):
        adopt_proposal(root, pid, words="adopt the proposal", by=BY)
    assert _failed(root) == ["clean b.md#Title/Keep"]
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED
    assert pid in _open(root)  # left for a person to look at again


def test_adopt_file_saved_by_a_person_while_it_ran_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person saves a.md after the adopt read the section and worked out the file
    with the proposed text, before its rename (the bounds judged between the two,
    wrapped): the adopt leaves the person's save, records nothing and keeps the
    proposal open (before: it renamed its file over the save, which no capture held)."""
    import forest_files.custody.recording as recording_mod
    from tests.helpers.state import shared_state

    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    (root / "a.md").write_text(DOC, encoding="utf-8")  # the proposal is to be written in
    real = recording_mod.within_policy

    def saved(*args: Any, **kwargs: Any) -> None:
        (root / "a.md").write_text(LATER, encoding="utf-8")  # the person's save
        real(*args, **kwargs)

    monkeypatch.setattr(recording_mod, "within_policy", saved)
    with pytest.raises(ForestError, match="changed while this adopt ran; nothing was written"):
        adopt_proposal(root, pid, words="adopt the proposal", by=BY)
    assert (root / "a.md").read_text(encoding="utf-8") == LATER
    assert not list((shared_state(root) / "captures").glob("*"))
    assert pid in _open(root)
    assert _failed(root) == ["drifted a.md#Title/Keep"]
