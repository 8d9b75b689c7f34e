"""``forest review``'s loop fed line by line (stdin not a terminal): every key is
asked again until it is an answer, words are never defaulted, a summary ends it."""

from __future__ import annotations

import io
import threading
from pathlib import Path

from forest_files.custody.proposals import ProposalStore
from forest_files.doors.cli.review_cmd import run_in_process
from forest_files.doors.review.keys import Console
from forest_files.doors.review.run import review_here
from forest_files.doors.watch import judge
from forest_files.kernel.hashing import hash_body
from tests.helpers.custody import BY, DOC
from tests.helpers.watch import EDITED, bound_repo


def _capture(root: Path, text: str) -> str:
    (root / "a.md").write_text(text, encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    done = judge.capture(root, item, (), 1 << 20)
    assert done is not None
    return done.split(" ")[0]


def _review(root: Path, typed: str) -> tuple[str, object]:
    out = io.StringIO()
    console = Console(io.StringIO(typed), out)
    tally = review_here(root, BY, colour=False, run=run_in_process(root), console=console)
    return out.getvalue(), tally


def _segments(root: Path) -> list[str]:
    return sorted(p.name for p in (root / ".forest" / "ledger" / "segments").iterdir())


def test_review_adopt_key_with_typed_words_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = _capture(root, EDITED)
    shown, _ = _review(root, "a\nadopting in review\n")
    with ProposalStore(root) as store:
        assert store.get(pid).status == "adopted"
    assert "[1 of 1]" in shown and "1 of 1 seen: 1 adopted" in shown
    assert f"$ forest proposal adopt {pid} --words 'adopting in review'" in shown
    assert "git add -- .forest/ledger" in shown


def test_review_empty_words_refused(tmp_path: Path) -> None:
    """Enter (and spaces) at the words prompt record nothing; the end of input goes
    back to the keys and ends the review, the proposal still open."""
    root = bound_repo(tmp_path)
    pid = _capture(root, EDITED)
    before = _segments(root)
    shown, _ = _review(root, "a\n\n   \n")
    assert shown.count("words are required and have no default") == 2
    assert _segments(root) == before
    with ProposalStore(root) as store:
        assert store.get(pid).status == "open"
    assert "review: 0 of 1 seen: nothing done; 1 not reached" in shown


def test_review_unknown_key_reprompted_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    _capture(root, EDITED)
    shown, _ = _review(root, "x\n\nn\n")
    assert shown.count("is not an answer here") == 2  # 'x', then a bare Enter
    assert "1 of 1 seen: 1 kept" in shown


def test_review_adopt_without_proposal_refused(tmp_path: Path) -> None:
    """``a`` on a finding without a proposal is not an answer (it used to end the
    review silently); the item is asked again and ``r`` restores it."""
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(DOC.replace("kept words", "hand edit"), encoding="utf-8")
    shown, _ = _review(root, "a\nr\n")
    assert "'a' is not an answer here" in shown
    assert "1 of 1 seen: 1 restored" in shown
    assert hash_body((root / "a.md").read_text()) == hash_body(DOC)


def test_review_help_key_lists_offered_keys_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    shown, _ = _review(root, "?\nq\n")
    assert "s  supersede:" in shown and "r  restore:" in shown
    assert "a  adopt:" not in shown  # no proposal here: not offered
    assert "Enter is not an answer" in shown
    assert "review: 0 of 1 seen" in shown


def test_review_nothing_to_do_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    shown, _ = _review(root, "")
    assert "nothing to review" in shown


def test_review_rebind_proposal_adopted_with_words_accepted(tmp_path: Path) -> None:
    from forest_files.doors.watch.renames import propose_rebind
    from forest_files.proposals.rebinds import RebindStore

    root = bound_repo(tmp_path)
    other = DOC.replace("other words", "nothing alike here at all")
    (root / "a.md").write_text(other.replace("## Keep", "## Kept"), encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    done = propose_rebind(root, item, (), frozenset())
    assert done is not None
    shown, _ = _review(root, "a\n\nthe heading was renamed\n")
    assert "rebind a.md#Title/Keep -> a.md#Title/Kept" in shown
    assert "words are required" in shown and "1 of 1 seen: 1 adopted" in shown
    with RebindStore(root) as store:
        assert store.get(done[0]).status == "adopted"


def test_review_discard_key_keeps_no_text_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = _capture(root, EDITED)
    shown, _ = _review(root, "d\n")
    assert f"$ forest proposal discard {pid}" in shown and "1 of 1 seen: 1 discarded" in shown
    with ProposalStore(root) as store:
        assert (store.get(pid).status, store.get(pid).text) == ("discarded", None)
    # nothing was recorded in the ledger: no reminder to commit acts
    assert "commit the acts with the files" not in shown


def test_review_command_usage_error_leaves_item_refused(tmp_path: Path) -> None:
    """A printed command that click refuses (a usage error) is exit 2 for the item,
    never an exception out of the review."""
    assert run_in_process(tmp_path)(["forest", "proposal", "adopt"]) == 2


def test_review_capture_same_as_section_lookalike_named_detected(tmp_path: Path) -> None:
    """The watcher's capture of an edit that slipped in a word with a Cyrillic o
    (``w\u043erds``): ``forest proposal show`` names it, but ``forest review`` printed
    the drift's diff alone (the proposal's text being the section's) and never named
    it; it names it as ``proposal show`` does."""
    root = bound_repo(tmp_path)
    pid = _capture(root, DOC.replace("kept words", "kept w\u043erds"))
    shown, _ = _review(root, "n\n")
    assert "(its text is what the section holds now)" in shown
    (note,) = [line for line in shown.splitlines() if "look-alike" in line]
    assert "line 3" in note and "U+043E" in note, note
    with ProposalStore(root) as store:
        assert store.get(pid).status == "open"


def test_review_invisible_in_claimed_signature_shown_detected(tmp_path: Path) -> None:
    """An agent's proposal whose claimed signature and reason hold a zero-width space
    and U+200F (which MCP lets through: they end or move no line): review and ``forest
    proposal show`` printed ``Ada <ada@example.org>`` as it reads to the eye, a holder's
    name that is not it; each is written as its code."""
    from forest_files.custody.repository import Repository
    from tests.helpers.cli import ok

    root = bound_repo(tmp_path)
    with Repository(root) as repo:
        (g,) = repo.ground()
    with ProposalStore(root) as store:
        pid = store.propose(
            binding="b", path="a.md", selector="a.md#Title/Keep",
            derived_from=g.content_id, ground_hash=g.body_hash,
            text="## Keep\n\nproposed words\n\n", source="mcp",
            claimed_by="Ada <ada@exa\u200bmple.org>", reason="\u200fclearer",
        ).proposal.id  # fmt: skip
    for shown in (_review(root, "n\n")[0], ok(root, "proposal", "show", pid).stdout):
        assert "by Ada <ada@exa<U+200B>mple.org> (claimed)" in shown, shown
        assert "reason: <U+200F>clearer" in shown, shown
        assert not any(c in shown for c in "\u200b\u200f"), shown


def test_review_long_proposal_diff_bounded_accepted(tmp_path: Path) -> None:
    """A watcher's proposal of 3,000 lines, the section edited again since: review printed
    the proposal's whole diff (as ``proposal show`` did before it was bounded); it prints
    what ``forest proposal show`` prints, at most ``MAX_SHOWN_LINES`` lines, then how many
    more and the ``--full`` command, which pasted prints every one."""
    import re

    from forest_files.proposals.view import MAX_SHOWN_LINES
    from tests.helpers.git import pasted

    root = bound_repo(tmp_path)
    body = "".join(f"line {i} of the proposal\n" for i in range(3000))
    pid = _capture(root, DOC.replace("kept words\n", body))
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    shown, _ = _review(root, "n\n")
    assert 0 < shown.count(" of the proposal") <= MAX_SHOWN_LINES, shown.count(" of the proposal")
    (tail,) = [line for line in shown.splitlines() if "more lines not shown" in line]
    (route,) = re.findall(r"`([^`]*)`", tail)
    assert route == f"forest proposal show {pid} --full"
    every = pasted(root, route)
    assert every.returncode == 0, every.stderr
    assert "line 2999 of the proposal" in every.stdout
