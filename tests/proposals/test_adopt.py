"""Adopting a proposal never costs the user's newer edit: whatever refuses it — the
size bound, authority, the words, a ledger that cannot be written — leaves the file
byte-identical, no capture, the ledger as it was and the proposal open
(proposals/adopt.py).

Real repositories: a proposal the watcher's judge kept, then the user's own newer
edit saved over it, then the adoption (the library, and the CLI for the ledger
that cannot be written: ``chattr +i``, tests/helpers/immutable.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from forest_files.kernel.errors import ForestError
from forest_files.proposals.adopt import adopt_proposal
from tests.helpers.cli import forest
from tests.helpers.custody import BY, DOC
from tests.helpers.immutable import immutable
from tests.helpers.state import files_state, shared_state
from tests.helpers.watch import EDITED, bound_repo, captured_proposal

MINE = DOC.replace("kept words", "mine")  # shorter than the proposal's EDITED


def _bound(root: Path, limit: int) -> None:
    cfg = root / "forest.toml"
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(
        re.sub(r"(?m)^max_body_bytes = .*$", f"max_body_bytes = {limit}", text), encoding="utf-8"
    )


def _pending(tmp_path: Path) -> tuple[Path, str]:
    """A proposal of EDITED, then the user's newer edit MINE saved in a.md."""
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    (root / "a.md").write_text(MINE, encoding="utf-8")
    return root, pid


def _agent_proposal(root: Path, text: str, selector: str | None = None) -> str:
    """An open proposal of ``text`` for ``selector`` (default: the one binding,
    a.md#Keep) against its current ground, kept as an agent's would be (nothing
    checks it against the file); its id."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.record import ground_body
    from forest_files.custody.repository import Repository

    with Repository(root) as repo:
        store = repo.synced()
        (binding,) = [b for b in all_bindings(store) if selector in (None, b.selector)]
        head, _state = ground_body(store, binding)
        assert head is not None
        cid, ground_hash = store.content_id(head), store.get(head)["body_hash"]
    with ProposalStore(root) as kept:
        done = kept.propose(
            binding=binding.bind_act,
            path=binding.path,
            selector=binding.selector,
            derived_from=cid,
            ground_hash=ground_hash,
            text=text,
            source="mcp",
        )
    return done.proposal.id


def _still_open(root: Path, pid: str) -> None:
    with ProposalStore(root) as store:
        assert store.get(pid).status == "open"


def test_proposal_adopt_file_over_max_body_bytes_refused(tmp_path: Path) -> None:
    root, pid = _pending(tmp_path)
    _bound(root, len(EDITED.encode()) - 1)  # MINE is within it; the proposed file is not
    before = files_state(root)
    with pytest.raises(ForestError, match="max_body_bytes"):
        adopt_proposal(root, pid, words="take the proposal", by=BY)
    assert files_state(root) == before
    assert (root / "a.md").read_text(encoding="utf-8") == MINE
    _still_open(root, pid)


def test_proposal_adopt_file_at_max_body_bytes_accepted(tmp_path: Path) -> None:
    root, pid = _pending(tmp_path)
    _bound(root, len(EDITED.encode()))
    adopt_proposal(root, pid, words="take the proposal", by=BY)
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED
    with ProposalStore(root) as store:
        assert store.get(pid).status == "adopted"


def test_proposal_adopt_words_over_max_body_bytes_refused(tmp_path: Path) -> None:
    root, pid = _pending(tmp_path)
    _bound(root, len(EDITED.encode()))  # the file fits; the words do not
    before = files_state(root)
    with pytest.raises(ForestError, match="max_body_bytes"):
        adopt_proposal(root, pid, words="w" * (len(EDITED.encode()) + 1), by=BY)
    assert files_state(root) == before
    _still_open(root, pid)


def test_proposal_adopt_segments_unwritable_recovers(tmp_path: Path) -> None:
    root, pid = _pending(tmp_path)
    before = files_state(root)
    with immutable(root / ".forest" / "ledger" / "segments"):
        result = forest(root, "proposal", "adopt", pid, "--words", "take the proposal")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: cannot write .forest/ledger/segments"), line
    assert files_state(root) == before
    assert (root / "a.md").read_text(encoding="utf-8") == MINE
    _still_open(root, pid)
    again = forest(root, "proposal", "adopt", pid, "--words", "take the proposal")
    assert again.exit_code == 0, again.output
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED


@pytest.mark.parametrize(
    "text",
    [
        "agent words\n\n",  # the heading dropped
        "## Kept\n\nagent words\n\n",  # the heading renamed
        "# Keep\n\nagent words\n\n",  # the heading raised out of its parent
        "## Keep\n\nagent words\n\n## Extra\n\nmore\n\n",  # a heading that ends it
    ],
    ids=["heading-dropped", "heading-renamed", "heading-raised", "heading-inside"],
)
def test_proposal_adopt_text_not_standing_as_section_refused(tmp_path: Path, text: str) -> None:
    """An agent's text is never checked against the file: adopting one that, written in,
    would not read back as the section names the proposal and its ways out (not
    restore's words, nor the headings of a file that was never written)."""
    root = bound_repo(tmp_path)
    pid = _agent_proposal(root, text)
    before = files_state(root)
    result = forest(root, "proposal", "adopt", pid, "--words", "take the proposal", "--as", BY)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"forest: proposal {pid}: its text would not stand as a.md#Title/Keep")
    assert f"`forest proposal discard {pid}`" in line and "restored" not in line
    assert files_state(root) == before
    _still_open(root, pid)


def test_proposal_adopt_over_newer_edit_capture_named_accepted(tmp_path: Path) -> None:
    """Adopting writes the proposed text over the user's newer edit of the section: the
    edit is kept as restore keeps one, and the line says where, as restore's does."""
    root, pid = _pending(tmp_path)
    result = forest(root, "proposal", "adopt", pid, "--words", "take the proposal", "--as", BY)
    assert result.exit_code == 0, result.output
    (capture,) = (shared_state(root) / "captures").glob("*")
    assert f"; the replaced text is kept in {capture}\n" in result.stdout
    assert "mine" in capture.read_text(encoding="utf-8")
    assert (root / "a.md").read_text(encoding="utf-8") == EDITED


def test_proposal_adopt_inner_section_names_enclosing_binding_detected(tmp_path: Path) -> None:
    """The proposed text written into an inner section changes the enclosing bound
    section too: the adoption says so and gives its supersede; pasted with words, the
    file is clean again (the enclosing binding was left drifted without a word)."""
    from tests.helpers.cli import kinds, ok
    from tests.helpers.git import commit_all, make_repo, pasted, write

    root = make_repo(tmp_path)
    canon = "# Canon\n\n## Rules\n\nThe sky is green.\n\n### Detail\n\nInner text.\n"
    write(root, "canon.md", canon)
    commit_all(root, "start")
    ok(root, "init")
    ok(root, "adopt", "canon.md#Canon/Rules", "--words", "Outer", "--as", BY)
    ok(root, "adopt", "canon.md#Canon/Rules/Detail", "--words", "Inner", "--as", BY)
    commit_all(root, "custody")
    pid = _agent_proposal(root, "### Detail\n\nBetter text.\n", "canon.md#Canon/Rules/Detail")
    result = forest(root, "proposal", "adopt", pid, "--words", "Right", "--as", BY)
    assert result.exit_code == 0, result.output
    assert "Better text." in (root / "canon.md").read_text(encoding="utf-8")
    (note,) = [ln for ln in result.stdout.splitlines() if ln.startswith("note:")]
    assert "canon.md#Canon/Rules too" in note, note
    route = note.rsplit(": ", 1)[1]
    assert route == "forest supersede 'canon.md#Canon/Rules' --words '…'", route
    assert sorted(kinds(root)) == ["clean", "drifted"]
    done = pasted(root, route.replace("'…'", "'Holds the better detail'") + f" --as '{BY}'")
    assert done.returncode == 0, done.stderr
    assert kinds(root) == ["clean", "clean"]
