"""``forest proposal show ID`` for a proposal whose ground moved on since it was made
(superseded, or sealed), where ``.git/forest`` is read-only to a user who is not root
(tests/helpers/unprivileged.py) and where it is not, on one repository each: the ground
is no longer live, so the in-step binding map does not name it; its words come from the
ledger alone (the entry an act declares, its body file), as the index replayed from
that ledger holds them (proposals/ground_words.py).

Before the fix the read-only door refused both, exit 1, with ``woods.db: attempt to
write a readonly database`` and a ``chmod`` (a sync, for a read), while the writable
door showed them; and the writable door printed a sealed ground's words, which ``forest
seal`` withholds from every read (``forest show`` prints ``[sealed]``). Once shown, a
superseded proposal was then ``open`` through the read-only door, under a general note,
while the writable door closed it and said ``discarded``: now both say the status the
closing records, and the read-only door names the show that closes it where it may.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.custody import age_files
from tests.helpers.git import isolate
from tests.helpers.read_only_state import proposal_handed_over, state_digests, state_modes
from tests.helpers.unprivileged import open_folder, run_as_user

NOTE = "forest: note: nothing was changed: "


@contextmanager
def _moved_on(move: str) -> Iterator[tuple[Path, Path, str, str]]:
    """``a.md#Keep`` adopted, a proposal captured (the file keeps its edit), the
    repository handed to the unprivileged user, who shows it, then types ``move`` (its
    ground moved on) and commits, the index in step: the repository, the user's bin
    folder, the proposal, and what the show printed before the ground moved on."""
    with open_folder() as folder, pytest.MonkeyPatch.context() as patch:
        isolate(patch)
        repo, bin_dir, pid = proposal_handed_over(folder, "moved-on")
        first = run_as_user(repo, f"forest proposal show {pid}", bin_dir)
        assert first.returncode == 0 and "[-kept-]{+edited+} words" in first.stdout, first
        done = run_as_user(repo, f"{move} && git add -A && git commit -qm 'moved on'", bin_dir)
        assert done.returncode == 0, done.stdout + done.stderr
        age_files(repo)
        assert run_as_user(repo, "forest status", bin_dir).returncode in (0, 1)  # in step
        yield repo, bin_dir, pid, first.stdout


SUPERSEDED = (
    "sed -i 's/edited words/third words/' a.md && forest supersede a.md#Keep --words 'on'"
    " && sed -i 's/third words/edited words/' a.md"
)
SEALED = "forest seal a.md#Keep --words 'withheld'"


def _said(repo: Path, bin_dir: Path, pid: str) -> tuple[list[str], str]:
    """What ``forest proposal show`` says of ``pid`` (its ``updated`` time left out: a
    door that closes the proposal writes it): its lines, and its note."""
    shown = run_as_user(repo, f"forest proposal show {pid}", bin_dir)
    assert shown.returncode == 0, shown.stderr
    return [line.split("; updated ")[0] for line in shown.stdout.splitlines()], shown.stderr


def test_proposal_show_ground_superseded_read_only_accepted() -> None:
    with _moved_on(SUPERSEDED) as (repo, bin_dir, pid, _first):
        state = repo / ".git" / "forest"
        state_modes(state, 0o555, 0o444)
        before = state_digests(repo)

        lines, note = _said(repo, bin_dir, pid)

        assert state_digests(repo) == before  # nothing closed, nothing written
        assert lines[0] == f"proposal {pid} discarded for a.md#Title/Keep", lines
        (said,) = note.splitlines()
        assert said.startswith(NOTE) and f"proposal {pid} is settled (superseded)" in said, said
        assert f"`forest proposal show {pid}`" in said and "may not be written" in said, said
        state_modes(state, 0o755, 0o644)
        writable = run_as_user(repo, f"forest proposal show {pid}", bin_dir)
        assert writable.returncode == 0, writable.stderr  # settled there: closed
        assert f"closed proposal {pid} (a.md#Title/Keep): superseded" in writable.stderr
        assert _said(repo, bin_dir, pid) == (lines, "")  # two doors, one status said


def test_proposal_show_ground_superseded_by_its_text_read_only_detected() -> None:
    """Superseded by exactly the proposed text: ``adopted``, as the ground it became,
    said alike by both doors; the read-only door names the closing it cannot write."""
    with _moved_on("forest supersede a.md#Keep --words 'taken'") as (repo, bin_dir, pid, _):
        state = repo / ".git" / "forest"
        state_modes(state, 0o555, 0o444)
        before = state_digests(repo)

        lines, note = _said(repo, bin_dir, pid)

        assert state_digests(repo) == before
        assert lines[0] == f"proposal {pid} adopted for a.md#Title/Keep", lines
        assert "[-kept-]{+edited+} words" in "\n".join(lines), lines  # its text kept
        assert f"proposal {pid} is settled (adopted by supersede)" in note, note
        state_modes(state, 0o755, 0o644)
        again, said = _said(repo, bin_dir, pid)
        assert again == lines and "closed proposal" in said, said  # two doors, one status


def test_proposal_show_ground_sealed_both_doors_accepted() -> None:
    with _moved_on(SEALED) as (repo, bin_dir, pid, _first):
        state = repo / ".git" / "forest"
        state_modes(state, 0o555, 0o444)
        before = state_digests(repo)

        shown = run_as_user(repo, f"forest proposal show {pid}", bin_dir)

        assert state_digests(repo) == before
        state_modes(state, 0o755, 0o644)
        writable = run_as_user(repo, f"forest proposal show {pid}", bin_dir)
        assert writable.returncode == 0 and writable.stderr == "", writable.stderr
        assert "[-[sealed]-]{+## Keep+}" in writable.stdout, writable.stdout
        assert "kept words" not in writable.stdout  # the sealed words, withheld
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout == writable.stdout  # two doors, one diff
        (note,) = shown.stderr.splitlines()
        assert note.startswith(NOTE), note
