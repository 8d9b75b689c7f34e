"""``forest proposals``, ``forest proposal list|show|adopt|discard``, ``forest review``.

Stores: nothing itself: adopting is ``proposals.adopt`` (an ordinary
supersession), discarding is ``ProposalStore.discard``; a review key runs the
very command it prints (through this same CLI, doors/review/). Listing, showing
and reviewing first close the proposals the text left behind (back at ground,
or superseded: doors/review/closing.py); a listing or a show where the proposals
files may not be written (a read-only ``.git/forest``, another user's clone) reads
them read-only, closes nothing and says so on stderr (proposals/settle.py
``writable``); a show's text form then reads ground's words without writing once the
index is in step (proposals/view.py ``ground_of``), else is refused in one line, and
says the status the writing door would record for a proposal the text left behind,
naming the show that closes it where it may be written (proposals/view.py
``shown_proposal``, ``settled_note``); ``--json`` is the record as it stands.
Refuses: ``--words`` of ``proposal adopt`` that are a printed route's placeholder
(``…``), blank or over their bound, as every recording command does
(``options.words_given``), before anything is read; ``forest review`` whose
output is not a terminal refuses, naming the commands to use instead.
Returns: text, or ``--json`` (ids, selectors, hashes — never proposal text).
Test: tests/proposals/test_proposals.py, tests/doors/test_review_pty.py,
tests/proposals/test_list_read_only.py, tests/proposals/test_show_status_read_only.py,
tests/proposals/test_show_text_read_only.py, tests/doors/test_review_cmd.py,
tests/proposals/test_show_moved_on.py
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import AsOpt, JsonOpt, RepoOpt, app, identity, words_given
from forest_files.doors.cli.proposal_listing import listing, settle, unsettled
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import for_bash, printable, shell_word

if TYPE_CHECKING:
    pass

proposal_app = typer.Typer(
    help="Proposals: divergent text a watcher or agent found, waiting for adoption."
    "\n\nExample: forest proposal list;  forest proposal show <proposal-id> --full",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(proposal_app, name="proposal")
IdArg = Annotated[str, typer.Argument(help="A proposal id (or a unique prefix).")]
FullOpt = Annotated[
    bool,
    typer.Option(
        "--full",
        help="Every line of the section, not only the changed ones, and no bound on how "
        "many are printed (without it: 500 lines, then how many more).",
    ),
]
AdoptWordsOpt = Annotated[
    str,
    typer.Option("--words", help="Why this text becomes ground (required).", callback=words_given),
]


def colour_wanted() -> bool:
    """Colour as ``forest check``: on a terminal, unless NO_COLOR is set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


@app.command()
@boundary
def proposals(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """List open proposals (same as `forest proposal list`).

    Example: forest proposals --json
    """
    listing(repo, as_json)


@proposal_app.command("list")
@boundary
def list_(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """List open proposals: id, selector, the ground each diverged from.

    Example: forest proposal list
    """
    listing(repo, as_json)


@proposal_app.command("show")
@boundary
def show(
    pid: IdArg,
    full: FullOpt = False,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """One proposal and its changed lines against ground, words marked
    ([-removed-]{+added+}) with a line of context, as `forest diff --words` prints.

    Example: forest proposal show <proposal-id> --full
    """
    from forest_files.custody.config import load_config
    from forest_files.custody.repository import find_root
    from forest_files.proposals.settle import proposal_store, writable
    from forest_files.proposals.view import settled_note, show_lines, shown_proposal

    root = find_root(repo)
    load_config(root)  # before `forest init`: refused, no local.db made
    write = writable(root)  # else a show is a read: read-only files, nothing settled
    if write:
        settle(root, as_json)
    from forest_files.proposals.rebinds import find
    from forest_files.proposals.view import rebind_lines

    rebind = find(root, pid, read_only=not write)
    if as_json:  # ids and hashes only, as recorded: nothing of custody read
        if rebind is not None:
            typer.echo(json.dumps(rebind.as_dict(), sort_keys=True))
            return
        with proposal_store(root, pid, write=write) as store:
            typer.echo(json.dumps(store.get(pid).as_dict(), sort_keys=True))
        return
    note = unsettled(root)
    if rebind is not None:
        lines = rebind_lines(root, rebind.id, full=full, colour=colour_wanted(), write=write)
    else:
        seen = shown_proposal(root, pid, write=write)
        lines = show_lines(root, seen, full=full, colour=colour_wanted(), write=write)
        note = note if seen.why is None else settled_note(root, seen)
    if not write:  # said once shown: a show refused (the index not in step) is one line
        typer.echo(for_bash(note), err=True)
    typer.echo("\n".join(lines))


@proposal_app.command("adopt")
@boundary
def adopt(pid: IdArg, words: AdoptWordsOpt, as_: AsOpt = None, repo: RepoOpt = Path(".")) -> None:
    """Supersede the binding with exactly the proposed text (writing it into the section
    first if the file no longer holds it); refused if ground moved on meanwhile.

    Example: forest proposal adopt <proposal-id> --words "Accepted the agent's wording"
    """
    from forest_files.custody.repository import find_root
    from forest_files.custody.restore_leftovers import swept_lines
    from forest_files.doors.cli.commit_step import commit_step
    from forest_files.kernel.shellword import forest_text
    from forest_files.proposals.adopt import adopt
    from forest_files.proposals.rebinds import adopt_rebind, find

    root = find_root(repo)
    if find(root, pid) is not None:
        moved = adopt_rebind(root, pid, words=words, by=identity(repo, as_))
        typer.echo(printable(f"adopted proposal {pid}: rebound to {moved}"))
        typer.echo(commit_step(root))
        return
    done = adopt(root, pid, words=words, by=identity(repo, as_))
    # The section held other text (a newer edit): say where it went, as restore does.
    kept = (
        "" if done.kept is None else "; the replaced text is kept in " + shell_word(str(done.kept))
    )
    typer.echo(for_bash(printable(f"adopted proposal {pid}: {done.content_id} is ground{kept}")))
    if done.changed:  # an enclosing bound section holds the text written in
        again = forest_text("supersede", *done.changed, options=("--words", "…"))
        said = printable(f"note: the text written in changed {', '.join(done.changed)} too")
        typer.echo(for_bash(f"{said}; supersede it as well, or the commit is refused: {again}"))
    for line in swept_lines(done.swept):
        typer.echo(for_bash(line))
    typer.echo(commit_step(root, [done.path]))


def _discard(pid: str, repo: Path) -> None:
    from forest_files.custody.proposals import ProposalStore
    from forest_files.custody.repository import find_root
    from forest_files.doors.doorlog import record_proposal
    from forest_files.proposals.rebinds import RebindStore, find

    root = find_root(repo)
    if find(root, pid) is not None:
        with RebindStore(root) as rebinds:
            gone = rebinds.close(pid, "discarded")
        record_proposal(root, (gone.id, gone.binding, gone.old_selector), "discarded")
        typer.echo(printable(f"discarded proposal {gone.id} (rebind {gone.old_selector})"))
        return
    with ProposalStore(root) as store:
        done = store.discard(pid)
    record_proposal(root, (done.id, done.binding, done.selector, done.text_hash), "discarded")
    said = f"discarded proposal {done.id} ({done.selector})"
    typer.echo(printable(f"{said}; nothing of its text is kept"))


@proposal_app.command("discard")
@boundary
def discard(pid: IdArg, repo: RepoOpt = Path(".")) -> None:
    """Close a proposal and keep nothing of its text.

    Example: forest proposal discard <proposal-id>
    """
    _discard(pid, repo)


@proposal_app.command("drop")
@boundary
def drop(pid: IdArg, repo: RepoOpt = Path(".")) -> None:
    """The same as `forest proposal discard`.

    Example: forest proposal drop <proposal-id>
    """
    _discard(pid, repo)


@app.command()
@boundary
def review(repo: RepoOpt = Path("."), as_: AsOpt = None) -> None:
    """Walk every drifted binding and open proposal, one key each (no Enter): restore,
    supersede, adopt or discard the proposal, next, quit, ? for help.

    Each key runs the command it prints; words are typed, never defaulted.
    Example: forest review
    """
    if not sys.stdout.isatty():
        from forest_files.kernel.shellword import forest_text

        check = forest_text("check", options=("--show-diff",))
        raise ForestError(
            f"forest review needs a terminal; use `{check}`, `{forest_text('proposals')}` and "
            f"`{forest_text('proposal', 'adopt', 'ID', options=('--words', '…'))}` instead"
        )
    from forest_files.custody.repository import find_root
    from forest_files.doors.review.run import review_here

    root = find_root(repo)
    review_here(root, as_, colour=colour_wanted(), run=run_in_process(root))


def run_in_process(root: Path) -> Callable[[list[str]], int]:
    """Run a printed ``forest …`` command through this same CLI, in ``root`` (``--repo``
    before a ``--``: review/session.py ``with_options``); a usage error is said in one
    line and is exit 2 for the item, never an exception."""
    from forest_files.doors.review.session import with_options

    def run(argv: list[str]) -> int:
        try:
            code = app(args=with_options(argv[1:], "--repo", str(root)), standalone_mode=False)
        except typer.Exit as done:
            return int(done.exit_code)
        except Exception as exc:  # click's usage errors (vendored by typer or not)
            message = getattr(exc, "format_message", None)
            if message is None or not hasattr(exc, "exit_code"):
                raise
            typer.echo(f"forest: {message()}", err=True)
            return int(exc.exit_code)
        return int(code or 0)

    return run
