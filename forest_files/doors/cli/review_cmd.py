"""``forest proposals``, ``forest proposal list|show|adopt|discard``, ``forest review``.

Stores: nothing itself: adopting is ``proposals.adopt`` (an ordinary
supersession), discarding is ``ProposalStore.discard``; a review key runs the
very command it prints (through this same CLI).
Refuses: nothing itself; ``forest review`` without a terminal refuses,
naming the commands to use instead.
Returns: text, or ``--json`` (ids, selectors, hashes — never proposal text).
Test: tests/proposals/test_proposals.py
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import AsOpt, JsonOpt, RepoOpt, app, identity
from forest_files.kernel.errors import ForestError

proposal_app = typer.Typer(
    help="Proposals: divergent text a watcher or agent found, waiting for adoption."
    "\n\nExample: forest proposal list;  forest proposal show ID",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(proposal_app, name="proposal")
IdArg = Annotated[str, typer.Argument(help="A proposal id (or a unique prefix).")]
AdoptWordsOpt = Annotated[
    str, typer.Option("--words", help="Why this text becomes ground (required).")
]


def _listing(repo: Path, as_json: bool) -> None:
    from forest_files.custody.config import load_config
    from forest_files.custody.proposals import ProposalStore
    from forest_files.custody.repository import find_root

    root = find_root(repo)
    load_config(root)  # before `forest init`: refused, no local.db made
    with ProposalStore(root) as store:
        found = store.open_proposals()
    if as_json:
        typer.echo(json.dumps([p.as_dict() for p in found], sort_keys=True))
        return
    for p in found:
        via = "" if p.source == "watch" else f", via {p.source}"
        typer.echo(f"{p.id} {p.selector} (from ground {p.derived_from[:12]}, {p.updated_at}{via})")
    typer.echo(f"{len(found)} open proposal(s)")


@app.command()
@boundary
def proposals(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """List open proposals (same as `forest proposal list`).

    Example: forest proposals --json
    """
    _listing(repo, as_json)


@proposal_app.command("list")
@boundary
def list_(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """List open proposals: id, selector, the ground each diverged from.

    Example: forest proposal list
    """
    _listing(repo, as_json)


@proposal_app.command("show")
@boundary
def show(pid: IdArg, repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """One proposal and its word-level diff against ground ([-removed-] {+added+}).

    Example: forest proposal show 3f2a9c
    """
    from forest_files.custody.proposals import ProposalStore
    from forest_files.custody.repository import find_root
    from forest_files.proposals.view import show_lines

    root = find_root(repo)
    if as_json:
        with ProposalStore(root) as store:
            typer.echo(json.dumps(store.get(pid).as_dict(), sort_keys=True))
        return
    typer.echo("\n".join(show_lines(root, pid)))


@proposal_app.command("adopt")
@boundary
def adopt(pid: IdArg, words: AdoptWordsOpt, as_: AsOpt = None, repo: RepoOpt = Path(".")) -> None:
    """Supersede the binding with exactly the proposed text (writing it into the section
    first if the file no longer holds it); refused if ground moved on meanwhile.

    Example: forest proposal adopt 3f2a9c --words "Accepted the agent's wording"
    """
    from forest_files.custody.repository import find_root
    from forest_files.proposals.adopt import adopt_proposal

    new = adopt_proposal(find_root(repo), pid, words=words, by=identity(repo, as_))
    typer.echo(f"adopted proposal {pid}: {new} is ground; commit .forest/ledger with the file")


def _discard(pid: str, repo: Path) -> None:
    from forest_files.custody.proposals import ProposalStore
    from forest_files.custody.repository import find_root
    from forest_files.doors.doorlog import record_proposal

    root = find_root(repo)
    with ProposalStore(root) as store:
        done = store.discard(pid)
    record_proposal(root, (done.id, done.binding, done.selector, done.text_hash), "discarded")
    typer.echo(f"discarded proposal {done.id} ({done.selector}); nothing of its text is kept")


@proposal_app.command("discard")
@boundary
def discard(pid: IdArg, repo: RepoOpt = Path(".")) -> None:
    """Close a proposal and keep nothing of its text.

    Example: forest proposal discard 3f2a9c
    """
    _discard(pid, repo)


@proposal_app.command("drop")
@boundary
def drop(pid: IdArg, repo: RepoOpt = Path(".")) -> None:
    """The same as `forest proposal discard`.

    Example: forest proposal drop 3f2a9c
    """
    _discard(pid, repo)


Ask = Callable[[str], str]
KEYS = "[r]estore [s]upersede [a]dopt proposal [k]eep/[n]ext [q]uit"


@app.command()
@boundary
def review(repo: RepoOpt = Path("."), as_: AsOpt = None) -> None:
    """Walk every drifted binding and open proposal: the diff, then restore, supersede,
    adopt the proposal, keep, next or quit — each key runs the command it prints.

    Example: forest review
    """
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise ForestError(
            "forest review needs a terminal; use `forest check --show-diff`, "
            "`forest proposals` and `forest proposal adopt ID --words …` instead"
        )
    walk(repo, lambda prompt: typer.prompt(prompt, default="n"), as_)


def walk(repo: Path, ask: Ask, as_: str | None = None) -> int:
    """The review loop; returns how many commands ran."""
    from forest_files.check.findings import Reported
    from forest_files.check.path import run_check
    from forest_files.check.text import block
    from forest_files.custody.proposals import Proposal, ProposalStore
    from forest_files.custody.repository import find_root
    from forest_files.proposals.view import show_lines

    root = find_root(repo)
    report = run_check(root, "worktree", diffs=True)
    with ProposalStore(root) as store:
        open_by_binding: dict[str, list[Proposal]] = {}
        for p in store.open_proposals():  # the watcher's and an agent's may both be open
            open_by_binding.setdefault(p.binding, []).append(p)
    ran = 0
    items: list[tuple[Reported | None, Proposal | None]] = []
    for r in report.failed:
        mine: list[Proposal | None] = [*open_by_binding.pop(r.finding.binding, [])] or [None]
        items += [(r if n == 0 else None, p) for n, p in enumerate(mine)]
    items += [(None, p) for ps in open_by_binding.values() for p in ps]
    for reported, proposal in items:
        if reported is not None:
            typer.echo("\n".join(block(reported)))
        if proposal is not None:
            typer.echo("\n".join(show_lines(root, proposal.id)))
        answer = ask(KEYS).strip().lower()[:1]
        if answer == "q":
            break
        argv = _command(answer, reported, proposal, ask)
        if argv is None:
            continue
        typer.echo("$ " + " ".join(argv))
        if as_ and argv[1] in ("supersede", "proposal"):
            argv = [*argv, "--as", as_]
        code = app(args=[*argv[1:], "--repo", str(root)], standalone_mode=False)
        ran += 1
        if code:
            typer.echo(f"(exit {code})")
    return ran


def _command(answer: str, reported: object, proposal: object, ask: Ask) -> list[str] | None:
    """The printed command a key stands for (the finding's own route, words filled in)."""
    from forest_files.check.findings import WORDS_PLACEHOLDER, Reported
    from forest_files.custody.proposals import Proposal

    if answer == "a" and isinstance(proposal, Proposal):
        return ["forest", "proposal", "adopt", proposal.id, "--words", ask("words")]
    if answer not in ("r", "s") or not isinstance(reported, Reported):
        return None
    verb = "restore" if answer == "r" else "supersede"
    for route in reported.routes:
        for step in route.steps:
            if len(step) > 1 and step[0] == "forest" and step[1] == verb:
                if WORDS_PLACEHOLDER in step:
                    words = ask("words")
                    return [words if w == WORDS_PLACEHOLDER else w for w in step]
                return list(step)
    return None
