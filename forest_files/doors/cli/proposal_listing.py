"""The open proposals listed (``forest proposals``, ``forest proposal list``), and what a
listing or a show says before it: the proposals the text left behind closed first
(doors/review/closing.py), or, where the proposals files may not be written (a read-only
``.git/forest``, another user's clone), the note that nothing was closed.

Stores: nothing itself (``settle`` closes through doors/review/closing.py).
Refuses: what opening the proposals files refuses (before ``forest init``: the config).
Returns: text, or ``--json`` rows (ids, selectors, hashes, the worktree that captured
each, by key and by path — never proposal text).
Test: tests/proposals/test_proposals.py, tests/proposals/test_list_read_only.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from forest_files.kernel.shellword import printable, shell_word

if TYPE_CHECKING:
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
    from forest_files.proposals.settle import open_read_only, writable
    from forest_files.proposals.whose import Worktrees

    root = find_root(repo)
    load_config(root)  # before `forest init`: refused, no local.db made
    found: list[Proposal | Rebind] = []
    if not writable(root):  # a listing is a read: read-only files, nothing settled
        found += open_read_only(root)
        if found and not as_json:
            typer.echo(unsettled(root), err=True)
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
    return (
        f"forest: note: nothing was changed: {folder} may not be written here, so a "
        "proposal whose section is back at ground or superseded is still shown as open"
    )


def settle(root: Path, quiet: bool) -> None:
    """Close what the text left behind before anything is listed (said on stderr)."""
    from forest_files.doors.review.closing import close_left_behind, said

    for line in said(close_left_behind(root)):
        if not quiet:
            typer.echo(line, err=True)
