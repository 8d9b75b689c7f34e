"""The open proposals listed (``forest proposals``, ``forest proposal list``), and what a
listing or a show says before it: the proposals the text left behind closed first
(doors/review/closing.py), or, where the proposals files may not be written (a read-only
``.git/forest``, another user's clone), the note that nothing was closed: one judged by
one check (proposals/settle.py ``left_behind``) is not listed as open, and the one note
(``left_note``) says the status its closing records, as ``forest proposal show`` says
it there and the writable listing records it, and names the listing that closes it
where the folder may be written (``forest watch status`` says it alike).

Stores: nothing itself (``settle`` closes through doors/review/closing.py).
Refuses: what opening the proposals files refuses (before ``forest init``: the config).
Returns: text, or ``--json`` rows (ids, selectors, hashes, the worktree that captured
each, by key and by path — never proposal text): the record as it stands, nothing
judged (a left-behind proposal is ``open`` there until a writing door closes it).
Test: tests/proposals/test_proposals.py, tests/proposals/test_list_read_only.py,
tests/proposals/test_list_settled_read_only.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from forest_files.kernel.shellword import for_bash, printable, shell_word

if TYPE_CHECKING:
    from collections.abc import Mapping

    from forest_files.custody.proposals import Proposal
    from forest_files.proposals.rebinds import Rebind
    from forest_files.proposals.whose import Worktrees


def listing(repo: Path, as_json: bool) -> None:
    """The open proposals of the repository at ``repo``, settled first where it may be
    written (``settle``), else read read-only with the note (``unsettled``)."""
    from forest_files.custody.config import load_config
    from forest_files.custody.proposals import ProposalStore
    from forest_files.custody.repository import find_root
    from forest_files.proposals.rebinds import open_rebinds
    from forest_files.proposals.settle import judged, left_behind, open_read_only, writable
    from forest_files.proposals.whose import Worktrees

    root = find_root(repo)
    load_config(root)  # before `forest init`: refused, no local.db made
    found: list[Proposal | Rebind] = []
    if not writable(root):  # a listing is a read: read-only files, nothing settled
        found += open_read_only(root)
        if found and not as_json:  # said as the writing door records it (one check)
            gone = left_behind(root, found, judged(root))
            found = [x for x in found if x.id not in gone]
            typer.echo(left_note(root, gone) if gone else unsettled(root), err=True)
    else:
        settle(root, as_json)
        with ProposalStore(root) as store:
            found += store.open_proposals()
        found += open_rebinds(root)
    trees = Worktrees(root)  # git asked once, if any proposal is another worktree's
    if as_json:  # each row names the worktree that captured it, by key and by path
        rows = [{**x.as_dict(), "worktree_path": trees.place(x.worktree)} for x in found]
        typer.echo(json.dumps(rows, sort_keys=True))
        return
    for line in _lines(trees, found):
        typer.echo(line)
    typer.echo(f"{len(found)} open proposal(s)")


def _lines(trees: Worktrees, found: list[Proposal | Rebind]) -> list[str]:
    """One line per proposal, names spelled as `forest check` spells them (printable),
    each character a terminal shows as nothing written as its code (``Eli<U+200B>as``:
    a rebind onto a heading that reads as the old name); another worktree's named by
    its path (``in worktree PATH``)."""
    from forest_files.proposals.rebinds import Rebind
    from forest_files.text.unseen import shown

    def seen(name: str) -> str:
        return shown(printable(name))

    lines = []
    for x in found:
        whose = [w] if (w := trees.elsewhere(x.worktree)) else []
        if isinstance(x, Rebind):
            moved = f"{seen(x.old_selector)} -> {seen(x.new_selector)}"
            lines.append(f"{x.id} rebind {moved} ({', '.join([x.updated_at, *whose])})")
            continue
        via = [] if x.source == "watch" else [f"via {printable(x.source)}"]
        notes = [f"from ground {x.derived_from[:12]}", x.updated_at, *via, *whose]
        lines.append(f"{x.id} {seen(x.selector)} ({', '.join(notes)})")
    return lines


def unsettled(root: Path) -> str:
    """The note of a listing or show where the proposals files may not be written."""
    from forest_files.kernel.state import shared_dir

    folder = shell_word(str(shared_dir(root, create=False)))
    return for_bash(
        f"forest: note: nothing was changed: {folder} may not be written here, so a "
        "proposal whose section is back at ground or superseded is still shown as open"
    )


def left_note(root: Path, gone: Mapping[str, tuple[Proposal, str]]) -> str:
    """The one note of a listing where the proposals files may not be written, for the
    proposals the text left behind (proposals/settle.py ``left_behind``): each with the
    status its closing records, as ``forest proposal show`` says it there, and the
    listing that closes them where the folder may be written."""
    from forest_files.kernel.shellword import forest_text
    from forest_files.kernel.state import shared_dir
    from forest_files.text.unseen import shown

    folder = shell_word(str(shared_dir(root, create=False)))
    said = ", ".join(
        f"{p.id} {p.status} for {shown(printable(p.selector))} ({why})" for p, why in gone.values()
    )
    one = len(gone) == 1
    are = "1 proposal" if one else f"{len(gone)} proposals"
    return for_bash(
        f"forest: note: nothing was changed: {folder} may not be written here, so {are} "
        f"still recorded as open {'is' if one else 'are'} settled: {said}; "
        f"`{forest_text('proposals')}` where it may be written closes {'it' if one else 'them'}"
    )


def settle(root: Path, quiet: bool) -> None:
    """Close what the text left behind before anything is listed (said on stderr)."""
    from forest_files.doors.review.closing import close_left_behind, said

    for line in said(close_left_behind(root)):
        if not quiet:
            typer.echo(line, err=True)
