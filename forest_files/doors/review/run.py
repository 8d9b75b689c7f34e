"""``forest review`` in a repository: judge, close what was left behind, walk, sum up.

Stores: nothing itself (closing.py closes proposals; each key's command
records what it records).
Refuses: nothing itself (session.py refuses keys and empty words).
Returns: the ``Tally``; prints each item (the finding's block as ``forest
check`` prints it, coloured as it is, then its binding's contest if it has one;
the proposal's lines as ``forest proposal
show`` prints them, proposals/view.py: its changed lines, at most
``MAX_SHOWN_LINES`` then how many more and ``forest proposal show ID --full``, or,
when its text is the section's, the look-alike words of it), the summary, and the
commit reminder when an act was recorded.
Test: tests/doors/test_review_pty.py, tests/doors/test_review_session.py
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from forest_files.doors.review.keys import Console
from forest_files.doors.review.session import Item, Run, Session, Tally, gather
from forest_files.kernel.shellword import for_bash, stage_ledger
from forest_files.proposals.rebinds import open_rebinds


def shower(root: Path, colour: bool) -> Callable[[Item], list[str]]:
    """What is printed for an item."""
    from forest_files.check.text import block
    from forest_files.custody.proposals import ProposalStore
    from forest_files.proposals.view import diff_lines, facts, rebind_lines, same_lines

    def show(item: Item) -> list[str]:
        lines = [] if item.reported is None else block(item.reported, colour=colour)
        if item.contest is not None and item.contest is not item.reported:
            lines += block(item.contest, colour=colour)  # its binding's: only its routes run
        if item.rebind is not None:
            return [*lines, *rebind_lines(root, item.rebind.id, colour=colour)]
        p = item.proposal
        if p is None:
            return lines
        with ProposalStore(root) as store:
            lines += facts(p, store.versions(p.id))
        same = item.reported is not None and item.reported.finding.actual_hash == p.text_hash
        if same:  # the diff above is the proposal's text already
            return [*lines, "  (its text is what the section holds now)", *same_lines(root, p)]
        # bounded as `forest proposal show` is: a watcher's text may be megabytes
        return [*lines, *diff_lines(root, p, colour=colour)]

    return show


def review_here(
    root: Path,
    as_: str | None,
    *,
    colour: bool,
    run: Run,
    console: Console | None = None,
) -> Tally:
    from forest_files.check.path import run_check
    from forest_files.custody.proposals import ProposalStore
    from forest_files.doors.review.closing import close_left_behind, said

    con = console or Console()
    report = run_check(root, "worktree", diffs=True)
    for line in said(close_left_behind(root, [r.finding for r in report.items])):
        con.say(line)
    with ProposalStore(root) as store:
        found = store.open_proposals()
    items = gather(list(report.failed), found, open_rebinds(root))
    if not items:
        con.say("nothing to review: no drift, no open proposal")
        return Tally(0)
    con.say(f"{len(items)} item(s) to review; ? lists the keys")
    tally = Session(con, run, shower(root, colour), as_).walk(items)
    con.say("")
    con.say(tally.summary())
    if tally.recorded():
        con.say(for_bash(f"commit the acts with the files: {stage_ledger()}"))
    return tally
