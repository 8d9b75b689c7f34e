"""Adopting a proposal: an ordinary supersession by an authority-holder, with words.

Stores: through ``custody.record.supersede_section`` (one transaction, one
ledger segment); if the file no longer holds the proposed text it is first
written into exactly that section (``custody.restore_rewrite.write_rewrite``, which
captures what was there). The section is read, written and recorded inside the
restore gate (custody/restore_gate.py: the index's write lock every recording
takes, entered once the ground and the binding's place are seen unchanged), so a
supersede, rebind or restore of another process meets it in one order. The
proposal is closed as adopted before that, in local.db's transaction (its write
lock taken before the index's), and named the new ground after: a local.db held by
another writer or not writable refuses the adopt with nothing written or recorded
(only a commit the disk refuses at the very end, or a kill once the act is in the
ledger, leaves the ground recorded and the proposal open: the adopt typed again, or
the next listing, closes it as adopted). Every bound
(the file's and each body's size, authority, the words) is judged before that
write; if recording is refused after it (a ledger that cannot be written, a
refusal of the applier) the file is put back byte for byte and the capture
dropped — unless the file changed meanwhile (or cannot be written): then it is
left as it is and the refusal names the capture.
Refuses (nothing written): a signer without authority over the path; empty
words, or a printed route's placeholder (``…``) pasted as the words; a proposal
that is not open; a row of local.db edited outside forest-files
(``ProposalStore.checked``); a binding that is gone (retired); ground that moved on since
the proposal was made to another text (``ProposalStale``, naming how to look again;
moved on to exactly the proposed text, the proposal is closed as adopted), or whose
ground or place another command changed while the adopt ran (the same, said so); a
file a person saved after the adopt read it (the proposed text is written by
compare-and-swap: their save is left as it is, nothing recorded);
a text that
would not stand as the section once written in (its heading dropped or renamed, a
heading inside it ending the section), naming the discard and the edit by hand; a
text that would remove another bound section standing in the section's lines now (a
bound subsection its ground holds: custody/restore_nested.py), naming it, its line,
the discard and its retire; a section an edit in the file made hide the sections
after it where they cannot stay, or cut short with a heading made of the proposed
lines or put among them (custody/restore_swallowed.py, restore_cut_short.py), naming
the edit, what to take out, and the discard (those judged in adopt_plan.py).
Once adopted, the temp files a killed adopt or restore left beside the file are
removed (custody/restore_leftovers.py; those a writer may still be writing kept).
Returns: the new ground's content id (``adopt``: with where the text the section
held before the proposed text was written in is kept, and the temp files swept, for
the door to name).
Test: tests/proposals/test_proposals.py, tests/proposals/test_adopt.py,
tests/proposals/test_adopt_race.py, tests/proposals/test_adopt_nested.py,
tests/proposals/test_adopt_swallowed.py
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody.proposals import Proposal, ProposalStore
from forest_files.custody.restore_leftovers import Swept
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.shellword import forest_text

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.record import SectionText
    from forest_files.custody.repository import Repository
    from forest_files.custody.restore_rewrite import Rewrite
    from forest_files.store.forest import ForestStore


class ProposalStale(ForestError):
    """The binding's ground is no longer the one the proposal diverged from."""


def _binding(bindings: list[Binding], proposal: Proposal) -> Binding:
    for b in bindings:
        if b.bind_act == proposal.binding:
            return b
    raise ForestError(
        f"proposal {proposal.id}: {proposal.selector} is no longer bound; "
        f"drop it with `{forest_text('proposal', 'drop', proposal.id)}`"
    )


@dataclass(frozen=True)
class Adopted:
    """A proposal made ground: the new ground's content id, where the text the
    section held before the proposed text was written in is kept (None: the file held
    the proposed text already, or was recreated), and the bound file (to commit with
    the ledger)."""

    content_id: str
    kept: Path | None
    path: str
    changed: tuple[str, ...] = ()  # other bound sections of the file the write changed
    swept: Swept = field(default_factory=Swept)  # temp files killed writers left beside it


def adopt_proposal(root: Path, pid: str, *, words: str, by: str) -> str:
    """Supersede the proposal's binding with exactly the proposed text; the new
    ground's content id (``adopt``: where the replaced text is kept, too)."""
    return adopt(root, pid, words=words, by=by).content_id


def adopt(root: Path, pid: str, *, words: str, by: str) -> Adopted:
    """Supersede the proposal's binding with exactly the proposed text; then remove
    the temp files beside the file an adopt or restore killed before its rename left
    (custody/restore_leftovers.py)."""
    from forest_files.custody.restore_leftovers import sweep_leftovers

    done = _adopted(root, pid, words=words, by=by)
    return replace(done, swept=sweep_leftovers(root, [done.path]))


def _adopted(root: Path, pid: str, *, words: str, by: str) -> Adopted:
    """Supersede the proposal's binding with exactly the proposed text."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.record import ground_body
    from forest_files.custody.repository import Repository
    from forest_files.praise import placeholder_words

    if not words.strip():
        raise ForestError("adopt without words refused: say why this text becomes ground")
    if (why := placeholder_words(words)) is not None:  # a route's ``…`` pasted as is
        raise ForestError(why)
    with ProposalStore(root) as proposals, Repository(root) as repo:
        proposal = proposals.checked(pid)  # the text shown is the text adopted
        if proposal.status != "open" or proposal.text is None:
            raise ForestError(f"proposal {proposal.id} is {proposal.status}, not open")
        store = repo.synced()
        bindings = all_bindings(store)
        binding = _binding(bindings, proposal)
        repo.authorize(binding.path, by)  # before any byte of the file is touched
        head, state = ground_body(store, binding)
        if head is not None and _ground_already(store, head, proposal):
            # an adopt killed once its act was in the ledger, before local.db's commit
            # closed the proposal: the act stands, so the proposal is closed as adopted
            cid = store.content_id(head)
            proposals.mark_adopted(proposal.id, cid)
            return Adopted(cid, None, binding.path)
        if head is None or store.content_id(head) != proposal.derived_from:
            raise ProposalStale(
                f"proposal {proposal.id}: ground of {binding.selector} moved on since it was "
                f"made ({state}); compare with "
                f"`{forest_text('proposal', 'show', proposal.id)}` and supersede by hand, "
                "or drop it"
            )
        from forest_files.custody.restore_gate import grounds_held
        from forest_files.custody.tombstone import refuse_erased

        refuse_erased(store, repo.config.project_id, proposal.text, f"proposal {proposal.id}")
        # local.db's write lock, then the index's (no path takes them the other way
        # round): the proposal is closed first, so a file it may not write refuses
        # before anything is written or recorded, and a refused act rolls it back.
        with proposals.transaction():
            proposals.mark_adopted(proposal.id, None)
            # Read, written and recorded under the index's write lock, once the ground
            # and the place judged above are seen to stand still (restore_gate.py): a
            # supersede, rebind or restore of another process meets this one in one order.
            with grounds_held(store, [(binding, proposal.derived_from)])() as moved:
                if moved:
                    raise ProposalStale(_moved(proposal, binding))
                done = _recorded(repo, bindings, binding, proposal, words=words, by=by)
            proposals.adopted_as(proposal.id, done.content_id)
        return done


def _ground_already(store: ForestStore, head: int, proposal: Proposal) -> bool:
    """Whether the ground moved on to exactly the proposed text (as ``settle`` closes
    a proposal as adopted: the act an adopt recorded, or a supersede with that text)."""
    moved = store.content_id(head) != proposal.derived_from
    return moved and str(store.require(head, "adopt")["body_hash"]) == proposal.text_hash


def _recorded(
    repo: Repository,
    bindings: list[Binding],
    binding: Binding,
    proposal: Proposal,
    *,
    words: str,
    by: str,
) -> Adopted:
    """The proposed text recorded as the binding's ground (written in first when the
    section holds another)."""
    from forest_files.custody.record import supersede_section

    section = _section_now(repo.root, binding, repo.config.max_body_bytes)
    if section is not None and hash_body(section.text) == proposal.text_hash:
        new = supersede_section(
            repo, binding, section, words=words, by=by, expected_body_hash=proposal.text_hash
        )
        return Adopted(new, None, binding.path)
    beside = [b for b in bindings if b.path == binding.path and b is not binding]
    return _write_and_supersede(repo, binding, beside, proposal, words=words, by=by)


def _moved(proposal: Proposal, binding: Binding) -> str:
    """Another command recorded a new ground for the binding, or moved or ended it,
    between this adopt's look and its write: nothing written, nothing recorded."""
    show = forest_text("proposal", "show", proposal.id)
    return (
        f"proposal {proposal.id}: another forest command changed the ground or the place of "
        f"{binding.selector} while this adopt ran; nothing was written or recorded — look "
        f"again (`{show}`, `{forest_text('check')}`), then adopt again or supersede by hand"
    )


def _write_and_supersede(
    repo: Repository,
    binding: Binding,
    beside: list[Binding],
    proposal: Proposal,
    *,
    words: str,
    by: str,
) -> Adopted:
    """Write the proposed text into the section, then supersede with it. Every bound
    is judged before the write; anything refused after it puts the file back. The
    sections of ``beside`` (the file's other bindings) the write changed are named:
    one enclosing the section now differs from its ground."""
    from forest_files.custody.record import supersede_section
    from forest_files.custody.restore_rewrite import RewriteChanged, write_rewrite
    from forest_files.custody.targets import read_section
    from forest_files.proposals.adopt_plan import plan_written_in, within_bounds

    assert proposal.text is not None  # an open proposal holds its text
    root, limit = repo.root, repo.config.max_body_bytes
    plan = plan_written_in(repo, binding, proposal, beside)
    kept: Path | None = None
    before: dict[str, str | None] = {}
    if plan is not None:
        within_bounds(repo, plan, proposal.text, words)
        before = _texts(root, beside, limit)
        try:
            kept = write_rewrite(root, plan)
        except RewriteChanged:  # a person saved the file since it was read: theirs wins
            show = forest_text("proposal", "show", proposal.id)
            raise ForestError(
                f"proposal {proposal.id}: {plan.path} changed while this adopt ran; nothing "
                f"was written or recorded — look again (`{show}`), then adopt again"
            ) from None
    try:
        section = read_section(root, binding.selector, binding.excludes, max_bytes=limit)
        new = supersede_section(
            repo, binding, section, words=words, by=by, expected_body_hash=proposal.text_hash
        )
    except BaseException as exc:
        if plan is not None and not _put_back(root, plan, kept):
            held = f"; the text it held before is kept in {kept}" if kept is not None else ""
            raise ForestError(
                f"proposal {proposal.id} was not adopted ({exc}); {plan.path} now holds the "
                f"proposed text or a later edit{held}"
            ) from exc
        raise
    after = _texts(root, beside, limit) if before else {}
    changed = tuple(sel for sel, text in before.items() if after.get(sel) != text)
    return Adopted(new, kept, binding.path, changed)


def _texts(root: Path, bindings: list[Binding], limit: int) -> dict[str, str | None]:
    """Each binding's section text as the file holds it (None: it resolves to none)."""
    found: dict[str, str | None] = {}
    for b in bindings:
        section = _section_now(root, b, limit)
        found[b.selector] = None if section is None else section.text
    return found


def _put_back(root: Path, plan: Rewrite, kept: Path | None) -> bool:
    """``undo_rewrite``; False when it could not (changed meanwhile, or unwritable)."""
    from forest_files.custody.restore_rewrite import undo_rewrite

    try:
        return undo_rewrite(root, plan, kept)
    except OSError:
        return False


def _section_now(root: Path, binding: Binding, limit: int) -> SectionText | None:
    from forest_files.custody.targets import read_section

    try:
        return read_section(root, binding.selector, binding.excludes, max_bytes=limit)
    except ForestError:
        return None
