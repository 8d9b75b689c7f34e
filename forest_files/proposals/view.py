"""What ``forest proposal show`` and ``forest review`` print for a proposal.

Stores: nothing.
Refuses: an unknown id, a damaged row (custody/proposals.py ``checked``).
Returns: lines: the proposal's facts (id, selector, ground it diverged from,
status, earlier versions kept; an agent's door, claimed signature and reason, escaped
and each invisible character written as its code),
then the word-level diff ground → proposal as ``forest diff --words`` prints it:
the changed lines with one line of context and an ``@@ line N @@`` header per
hunk (N counted in the section, heading line 1), at most ``MAX_SHOWN_LINES`` of them
then one line saying how many more and the ``--full`` command that prints every one
(``bounded``), or with ``full`` every line of the section; coloured when asked;
each control character escaped (kernel/shellword.py ``printable``), each character
that shows as nothing written as its code, and each word mixing look-alike scripts
named after it (text/unseen.py); a rebind proposal's lines
(old -> new selector, ground -> the new section now) alike: a selector is written as
the claims are, and the route it stands for writes such a character as ``$'\\ooo'``
(kernel/shellword.py), so it pastes and is seen. Machine output uses
``Proposal.as_dict`` (no text). Where the state folder may not be written, ground's
words come from the ledger's body file the in-step binding map names (``ground_of``),
or the index's erased marker for a ground an erase removed, and a ground superseded
or sealed since from the ledger alone, nothing written; an index not in step is refused
as a sync is, in one line; a sealed ground is ``[sealed]`` and a ground's body file the
ledger lacks refused, by both doors alike (proposals/ground_words.py). A proposal the
text left behind (superseded, or back at ground) is shown there as the writing door's
closing leaves it (``shown_proposal``: status, a discarded text gone), both doors saying
one status, with the note naming the show that closes it where it may be written
(``settled_note``).
Test: tests/proposals/test_proposals.py, tests/proposals/test_show_text_read_only.py,
tests/proposals/test_show_erased_ground.py, tests/proposals/test_show_ground_damaged.py,
tests/proposals/test_show_moved_on.py, tests/proposals/test_rebinds.py,
tests/doors/test_diff_header_name.py, tests/proposals/test_show_bound.py,
tests/proposals/test_settle.py, tests/doors/test_printed_where_typed.py
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from forest_files.custody.proposals import Proposal


class Shown(NamedTuple):
    """A proposal as a show says it, its earlier versions counted, and why it is
    settled where the show could not close it (``None``: as recorded)."""

    proposal: Proposal
    versions: int
    why: str | None


def facts(p: Proposal, versions: int) -> list[str]:
    lines = [
        f"proposal {p.id} {p.status} for {_seen(p.selector)}",
        f"  derived from ground {p.derived_from[:12]}; text {p.text_hash[:12]}; "
        f"{versions} earlier version(s) kept; updated {p.updated_at}",
    ]
    if p.source != "watch":  # an agent's door: what it claims, never authenticated
        lines.append(f"  proposed through {p.source} by {_seen(p.claimed_by or '?')} (claimed)")
        if p.reason:
            lines.append(f"  reason: {_seen(p.reason)}")
    return lines


def _seen(claim: str) -> str:
    """A claim or a selector as a reviewer must read it: it never forges a line nor
    passes, by a zero-width space, for a name it is not."""
    from forest_files.kernel.shellword import printable
    from forest_files.text.unseen import shown

    return shown(printable(claim))


def same_lines(root: Path, p: Proposal) -> list[str]:
    """What follows a proposal whose text the section holds now (its diff is the
    drift's, printed above it): its look-alike words, named as ``diff_lines`` names them."""
    from forest_files.text.unseen import lookalikes

    if p.text is None:
        return []
    return lookalikes(ground_of(root, p.derived_from) or "", p.text)


def ground_of(root: Path, content_id: str, *, write: bool = True) -> str | None:
    """The words of ground ``content_id``, from the index brought in step; not ``write``
    (the state folder may not be written: a show is a read), from the ledger when the
    one way into custody finds the index in step, live or not; a sealed ground withheld
    and a body file the ledger lacks refused alike by both (proposals/ground_words.py)."""
    from forest_files.proposals.ground_words import in_index, read_only

    return in_index(root, content_id) if write else read_only(root, content_id)[0]


def diff_lines(
    root: Path, p: Proposal, *, full: bool = False, colour: bool = False, write: bool = True
) -> list[str]:
    """Ground → proposal by words: every line with ``full``; else the changed lines with
    context, at most ``MAX_SHOWN_LINES`` lines (the text aligned no further) then, when
    more follow, one saying so and ``forest proposal show ID --full``; the look-alike
    notes after the diff, or above it when it is cut (a long diff never hides them);
    ground's words read without writing unless ``write`` (``ground_of``)."""
    from forest_files.check.diff import word_diff
    from forest_files.kernel.shellword import printable

    if p.text is None:
        return ["  (its text was discarded)"]
    from forest_files.text.unseen import lookalikes, shown

    raw = ground_of(root, p.derived_from, write=write) or ""
    # an escape or a C1 control shown, not obeyed; what shows as nothing, as its code
    ground = shown(printable(raw, keep="\t\n"))
    text = shown(printable(p.text, keep="\t\n"))
    cut = None if full else max(MAX_SHOWN_LINES - 2, 0)  # under the two heads
    diff = word_diff(ground, text, context=None if full else 1, colour=colour, limit=cut)
    head = [f"--- ground {_seen(p.selector)}", f"+++ proposal {p.id}", diff or "(no change)"]
    if cut is None:
        return [*head, *lookalikes(raw, p.text)]
    notes = lookalikes(raw, p.text)
    if diff.count("\n") >= cut:  # more lines than shown: the notes go first, never cut
        return [*notes, *bounded(head, p.id, counted=False)]
    return bounded([*head, *notes], p.id)


def shown_proposal(root: Path, pid: str, *, write: bool = True) -> Shown:
    """The proposal ``pid`` as ``forest proposal show`` says it: the file opened
    read-only unless ``write`` (proposals/settle.py ``proposal_store``); not ``write``,
    as the closing the writing door makes would leave it (``left_behind``: its status,
    a discarded one's text and earlier versions gone), nothing written."""
    from forest_files.proposals.settle import judged, left_behind, proposal_store

    with proposal_store(root, pid, write=write) as store:
        p = store.checked(pid)  # what is shown is the text its hash names
        versions = store.versions(p.id)
    settled = None if write else left_behind(root, [p], judged(root)).get(p.id)
    if settled is None:
        return Shown(p, versions, None)
    closed, why = settled
    kept = versions if closed.text is not None else 0  # a discard keeps none
    return Shown(closed, kept, why)


def show_lines(
    root: Path, seen: Shown, *, full: bool = False, colour: bool = False, write: bool = True
) -> list[str]:
    """``forest proposal show``: the facts of ``seen`` (``shown_proposal``), then the
    diff, bounded unless ``full``; ground's words read without writing unless ``write``."""
    diff = diff_lines(root, seen.proposal, full=full, colour=colour, write=write)
    return [*facts(seen.proposal, seen.versions), "", *diff]


def settled_note(root: Path, seen: Shown) -> str:
    """The note of a show where the proposals files may not be written, of a proposal
    the text left behind (``seen.why``): it is settled, and where it may be written,
    the command that closes it (this door cannot)."""
    from forest_files.kernel.shellword import forest_text, shell_word
    from forest_files.kernel.state import shared_dir

    folder = shell_word(str(shared_dir(root, create=False)))
    show = forest_text("proposal", "show", seen.proposal.id)
    return (
        f"forest: note: nothing was changed: proposal {seen.proposal.id} is settled "
        f"({seen.why}), but {folder} may not be written here, so it is still recorded "
        f"as open; `{show}` where it may be written closes it"
    )


# Lines of a diff ``forest proposal show`` prints without --full: a proposal's text may
# be as long as [policy] max_body_bytes allows (megabytes), and a terminal is no pager.
MAX_SHOWN_LINES = 500


def bounded(lines: list[str], pid: str, *, counted: bool = True) -> list[str]:
    """``lines`` (each may hold more, split at ``\n``) as at most ``MAX_SHOWN_LINES``
    lines, then, when more were left out, one saying how many (unless not ``counted``:
    a diff aligned no further than its shown lines) and the command that prints every
    one."""
    from forest_files.kernel.shellword import forest_text

    every = [x for line in lines for x in line.split("\n")]
    if len(every) <= MAX_SHOWN_LINES:
        return every
    full = forest_text("proposal", "show", pid, options=("--full",))
    more = f"{len(every) - MAX_SHOWN_LINES} more line(s)" if counted else "more lines"
    return [*every[:MAX_SHOWN_LINES], f"… {more} not shown; every line: `{full}`"]


def rebind_lines(
    root: Path, pid: str, *, full: bool = False, colour: bool = False, write: bool = True
) -> list[str]:
    """A rebind proposal: old -> new selector, the route it stands for, and ground ->
    the new section now, by words, shown as a drift's diff is (``for_terminal``) with
    its look-alike words named: the working tree's text, which anyone may have written;
    the file opened read-only unless ``write``."""
    from forest_files.check.diff import for_terminal, word_diff
    from forest_files.check.findings import WORDS_PLACEHOLDER
    from forest_files.kernel.shellword import for_bash, forest_text
    from forest_files.proposals.rebinds import RebindStore
    from forest_files.text.unseen import lookalikes

    with RebindStore(root) if write else RebindStore.reading(root) as store:
        p = store.get(pid)
    words = ("--words", WORDS_PLACEHOLDER)  # pasted as it stands, refused: the user says why
    lines = [
        f"proposal {p.id} {p.status}: rebind {_seen(p.old_selector)} -> {_seen(p.new_selector)}",
        f"  derived from ground {p.derived_from[:12]}; the new section shares "
        f"{p.score:.0%} of ground's body; updated {p.updated_at}",
        for_bash(
            f"  stands for: {forest_text('rebind', p.old_selector, p.new_selector, options=words)}"
        ),
        "",
    ]
    now = _section_now(root, p.new_selector, p.binding, write=write)
    if now is None:
        return [*lines, "  (the new section is not readable now)"]
    ground = ground_of(root, p.derived_from, write=write) or ""
    cut = None if full else max(MAX_SHOWN_LINES - 2, 0)  # under the two heads, as above
    diff = word_diff(ground, now, context=None if full else 1, limit=cut)
    out = f"--- ground {p.old_selector}\n+++ now {p.new_selector}\n{diff or '(no change)'}"
    if cut is not None and diff.count("\n") >= cut:  # more lines than shown
        return [*lines, *bounded([for_terminal(out, colour=colour)], p.id, counted=False)]
    shown = [for_terminal(out, colour=colour), *lookalikes(ground, now)]
    return [*lines, *(shown if full else bounded(shown, p.id))]


def _section_now(root: Path, selector: str, binding: str, *, write: bool) -> str | None:
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.config import load_config
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_section
    from forest_files.kernel.errors import ForestError

    if write:
        with Repository(root) as repo:
            found = [b for b in all_bindings(repo.synced()) if b.bind_act == binding]
            limit = repo.config.max_body_bytes
    else:  # the one way into custody: its map in step, or a sync (refused as above)
        from forest_files.check.opening import WORKTREE, open_custody

        with open_custody(root, WORKTREE) as custody:
            found = [b for b in custody.bindings if b.bind_act == binding]
        limit = load_config(root).max_body_bytes
    excludes = found[0].excludes if found else ()
    try:
        return read_section(root, selector, excludes, max_bytes=limit).text
    except ForestError:
        return None
