"""``forest watch`` (foreground, or ``--detach``), ``forest watch stop``, ``forest watch status``.

Stores: nothing itself (``forest_files.doors.watch.daemon`` keeps the lock, pid,
state and log under ``.git/forest/``; proposals go to ``.git/forest/local.db``).
Refuses: nothing itself; a second watcher on one repository exits 1.
Returns: live lines as drift appears and clears (the same blocks ``forest
check`` prints); ``status`` as text or ``--json`` (selectors and ids, no text). Where
the proposals files may not be written, the text leaves out the proposals the text left
behind and says them in the one note ``forest proposals`` says there (proposals/settle.py
``left_read_only``); ``--json`` is the record as it stands.
Test: tests/doors/test_watch_daemon.py, tests/proposals/test_list_settled_read_only.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import JsonOpt, RepoOpt, app
from forest_files.kernel.shellword import for_bash, forest_text, shell_word
from forest_files.kernel.standing import stand_at

watch_app = typer.Typer(
    help="Watch bound files in the background: drift is caught when it is saved."
    "\n\nExample: forest watch --detach && forest watch status",
    invoke_without_command=True,
    rich_markup_mode=None,
)
app.add_typer(watch_app, name="watch")

QuietOpt = Annotated[float, typer.Option("--quiet", help="Seconds without events before a check.")]
CeilingOpt = Annotated[
    float, typer.Option("--ceiling", help="Check at the latest this long after a first event.")
]
GraceOpt = Annotated[
    float, typer.Option("--grace", help="Seconds a deleted or emptied file waits for its rename.")
]
ReconcileOpt = Annotated[
    float, typer.Option("--reconcile", help="A full check at least every this many seconds.")
]
PollOpt = Annotated[bool, typer.Option("--poll", help="Poll (network and container mounts).")]
PollIntervalOpt = Annotated[float, typer.Option("--poll-interval", help="Seconds between polls.")]
NotifyOpt = Annotated[
    bool, typer.Option("--notify", help="Desktop notifications (notify-send) for new drift.")
]
DetachOpt = Annotated[bool, typer.Option("--detach", help="Run in the background.")]


@watch_app.callback()
@boundary
def watch(
    ctx: typer.Context,
    repo: RepoOpt = Path("."),
    quiet: QuietOpt = 0.2,
    ceiling: CeilingOpt = 2.0,
    grace: GraceOpt = 1.0,
    reconcile: ReconcileOpt = 300.0,
    poll: PollOpt = False,
    poll_interval: PollIntervalOpt = 1.0,
    notify: NotifyOpt = False,
    detach: DetachOpt = False,
) -> None:
    """Watch the files that hold bound sections; report drift as it appears and clears,
    and keep each drifted section's text as its binding's proposal. Never promotes.

    Example: forest watch --detach && forest watch status
    """
    if ctx.invoked_subcommand is not None:
        return
    from forest_files.custody.config import load_config

    load_config(_stand(repo))  # before `forest init`: refused, nothing written
    from forest_files.doors.watch.daemon import run_foreground
    from forest_files.doors.watch.detach import detach as start_detached
    from forest_files.doors.watch.settings import WatchSettings

    settings = WatchSettings(
        quiet=quiet,
        ceiling=ceiling,
        grace=grace,
        reconcile=reconcile,
        poll=poll,
        poll_interval=poll_interval,
    )
    if detach:
        args = [
            f"--quiet={quiet}",
            f"--ceiling={ceiling}",
            f"--grace={grace}",
            f"--reconcile={reconcile}",
            f"--poll-interval={poll_interval}",
            *(["--poll"] if poll else []),
            *(["--notify"] if notify else []),
        ]
        pid = start_detached(repo, args)
        seen, stop_it = forest_text("watch", "status"), forest_text("watch", "stop")
        typer.echo(for_bash(f"watching in the background (pid {pid}); `{seen}`, `{stop_it}`"))
        return

    def show(lines: list[str]) -> None:
        typer.echo("\n".join(lines))

    def started() -> None:
        typer.echo("watching; Ctrl-C stops", err=True)

    raise typer.Exit(run_foreground(repo, settings, sink=show, notify=notify, started=started))


@watch_app.command("stop")
@boundary
def stop(repo: RepoOpt = Path(".")) -> None:
    """Stop this repository's watcher (nothing to do if none runs).

    Example: forest watch stop
    """
    from forest_files.doors.watch.daemon import stop as stop_watcher

    typer.echo(stop_watcher(_stand(repo)))


@watch_app.command("status")
@boundary
def status(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Whether a watcher runs, its mode, the drift it sees, open proposals, recent errors.

    Example: forest watch status --json
    """
    from forest_files.doors.cli.proposal_listing import left_note
    from forest_files.doors.watch.status import status as watch_status
    from forest_files.kernel.shellword import printable
    from forest_files.proposals.settle import left_read_only

    root = _stand(repo)
    found = watch_status(root)
    if as_json:  # the proposals as recorded: nothing judged
        typer.echo(json.dumps(found, sort_keys=True))
        return
    gone = left_read_only(root)  # where it may not write: said as the listing says them
    if gone:
        typer.echo(left_note(root, gone), err=True)
    if not found["running"]:
        start = forest_text("watch", options=("--detach",))
        typer.echo(for_bash(f"no watcher running; start one with `{start}`"))
    else:
        fallback = f" — {found['fallback']}" if found["fallback"] else ""
        log = shell_word(str(found["log"]))  # pasted after `less`, it names the file
        typer.echo(for_bash(f"watching (pid {found['pid']}, {found['mode']}{fallback}); log {log}"))
        # Names spelled as `forest check` spells them (printable): a byte that is not
        # UTF-8 as \xNN, never a replacement character; a newline never ends a line.
        for item in _listed(found["open"]):
            typer.echo(f"  {item['kind']} {printable(str(item['selector'] or item['path']))}")
        for error in _listed(found["errors"]):
            typer.echo(f"  error: {printable(str(error))}")
        if found["problem"]:
            typer.echo(f"  failing now: {printable(str(found['problem']))}")
        if found["held"]:  # what it lists is from before git started: say so
            typer.echo(
                f"  waiting for git ({found['held']}): edits are judged once git is done; "
                "`forest check` judges the files as they stand now"
            )
    for p in _listed(found["proposals"]):
        if p["id"] not in gone:
            typer.echo(_proposal_line(p))


def _proposal_line(p: dict[str, Any]) -> str:
    """One open proposal of ``forest watch status`` and the show that prints it."""
    from forest_files.kernel.shellword import printable
    from forest_files.proposals.whose import label

    shown = printable(str(p["selector"]))
    if not p["here"]:  # another worktree's: named, since only that one closes it
        shown += f" ({label(str(p['worktree']), p['worktree_path'])})"
    return for_bash(f"proposal {p['id']} {shown}: `{forest_text('proposal', 'show', p['id'])}`")


def _stand(repo: Path) -> Path:
    """The top of the work tree at ``repo``, noted as where the hints' commands reach
    (``forest -C ../repo watch status`` after ``forest -C ../repo watch …``; by its
    absolute path when ``--repo`` was typed as one, as command.py notes it for the
    commands that read forest.toml first)."""
    from forest_files.custody.repository import find_root

    root = find_root(repo)
    stand_at(root, absolute=repo.is_absolute())
    return root


def _listed(value: object) -> list[Any]:
    """A list ``forest watch status`` holds (its JSON shape); anything else as none."""
    return value if isinstance(value, list) else []
