"""``forest forget`` (erase a body with a tombstone, say what it cannot do) and
``forest audit`` (page through the local audit log), ``forest fsck`` (check the
stores), ``forest expire`` (explicit retention).

Stores: nothing itself (``governance.forget``); ``forest audit`` never creates
the log it reads.
Refuses: nothing itself (``errors.boundary``; the refusals are forget's); fsck's last
line is raised: exit 3 for faults, exit 1 (``NoSpace``) when every fault is a store not
read for want of room, exit 1 on a read-only mount (a store not opened there: the line
every door says there, after the faults found before it).
Returns: text, or one JSON document with ``--json`` (ids and counts, never text); the
text shows each control character a record or fault holds escaped (``printable``).
Test: tests/doors/test_cli_governance.py, tests/doors/test_printed_where_typed.py,
tests/doors/test_control_chars_doors.py, tests/governance/test_fsck_no_space.py,
tests/governance/test_fsck_read_only_mount.py, tests/governance/test_fsck_no_index_read_only.py
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import AsOpt, JsonOpt, RepoOpt, WordsOpt, app, emit, identity
from forest_files.kernel.errors import FREE_SPACE, NoSpace, StoreCorruption
from forest_files.kernel.shellword import command_text, for_bash, forest_text, git_step, printable

if TYPE_CHECKING:
    from forest_files.governance.fsck import FsckFault

_PAGE = 50  # audit records per page unless --limit says otherwise

LineOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--line",
        help="Tombstone only this line of the body (repeatable; at least 16 characters). "
        "Default: every line of 16 characters or more that live ground does not hold.",
    ),
]


@app.command()
@boundary
def forget(
    content_id: Annotated[str, typer.Argument(help="Content id (or prefix) of the entry.")],
    words: WordsOpt,
    as_: AsOpt = None,
    line: LineOpt = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Erase a superseded or sealed body: index, full-text index, ledger body file and
    every local copy; later adopts of its lines are refused. Not cryptographic erasure.

    Example: forest forget <content-id> --words "an API key was pasted here"
    """
    from forest_files.custody.repository import Repository
    from forest_files.governance.forget import forget

    with Repository(repo) as r:
        report = forget(r, content_id, words=words, by=identity(repo, as_), lines=line or ())
    p = report.purged
    text = [
        f"erased: body {report.body_hash[:12]} of {report.content_id[:12]} "
        f"(erase act {report.act_id[:12]}; tombstone: {report.lines} line(s), "
        f"{report.kept_out} left out because live ground holds them)",
        f"purged: {p.bodies} ledger body file(s), {p.views} cached view file(s), "
        f"{p.cache_files} capture/cache file(s), {len(p.proposals)} proposal(s)",
        for_bash(
            "next: commit the new segment WITH the body file's deletion: "
            f"{command_text(git_step('add', '-A', '--', '.forest/ledger'))} && "
            f"{command_text(git_step('commit'))}"
        ),
        "forest forget cannot:",
        *(f"  - {c}" for c in report.cannot),
    ]
    obj = asdict(report)
    obj["purged"]["proposals"] = list(p.proposals)
    emit(as_json, obj, "\n".join(text))


@app.command()
@boundary
def audit(
    limit: Annotated[int, typer.Option("--limit", help="Records per page (1..1000).")] = _PAGE,
    before: Annotated[
        int | None, typer.Option("--before", help="Only records with a smaller seq (paging).")
    ] = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """The local audit log, newest first: ceremonies recorded here, refusals, syncs,
    rebuilds and purges — ids, hashes and counts, never text.

    Example: forest audit --limit 20 --before 120 --json
    """
    from forest_files.custody.auditlog import AuditLog, check_page
    from forest_files.custody.auditrecord import AuditRecord
    from forest_files.custody.repository import find_root
    from forest_files.kernel.paths import AUDIT_DB_NAME
    from forest_files.kernel.state import shared_dir

    root = find_root(repo)
    check_page(limit, before)
    records: list[AuditRecord] = []
    if (shared_dir(root, create=False) / AUDIT_DB_NAME).exists():  # reading never creates the log
        with AuditLog(root) as log:
            records = log.page(limit=limit, before=before)
    # The log refuses a control character on append, but its file is the clone's own
    # to edit: what it holds is shown escaped, never handed to the terminal, and a row
    # it cannot read is shown as damaged, saying what is wrong (custody/auditrecord.py).
    lines = [
        printable(
            f"{r.seq:>6} {r.at} {r.action:<9} {r.outcome:<7} {r.reason:<16} {r.actor} "
            + " ".join(t[:12] if len(t) == 64 else t for t in r.targets)
            + (f" {r.damaged}" if r.damaged else "")
        )
        for r in records
    ]
    more = for_bash(f"older: {_older(records[-1].seq, limit)}") if len(records) == limit else ""
    obj = {
        "records": [r.as_dict() for r in records],
        "next_before": records[-1].seq if more else None,
    }
    emit(as_json, obj, "\n".join([*lines, more]).rstrip("\n") or "the audit log is empty")


def _older(seq: int, limit: int) -> str:
    """The next page's command as the user runs it where they stand, the same size."""
    size = ("--limit", str(limit)) if limit != _PAGE else ()
    return forest_text("audit", options=(*size, "--before", str(seq)))


class FsckFaults(StoreCorruption):
    """``forest fsck`` found faults (exit 3)."""


@app.command()
@boundary
def fsck(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Check the index and the local stores read-only: SQLite integrity, the schema
    against schema.sql (a dropped trigger too), every body's hash, edges, scope,
    ledger <-> index agreement, every entry's content id recomputed, and the index
    proof every door runs. Exit 3 on any
    fault; `forest rebuild` repairs the index (a store this user may not read or
    write: the chmod or chown its line names first). Exit 1 when the only faults are
    stores it could not read for want of room: free space, then fsck again. Exit 1 on
    a read-only mount: the faults found before the store it could not open there, then
    the one line every command says there (remount it read-write, or work in a clone
    on a writable disk).

    Example: forest fsck --json
    """
    from forest_files.custody.config import CONFIG_NAME, load_config
    from forest_files.custody.repository import find_root
    from forest_files.governance.fsck import fsck as run

    root = find_root(repo)
    report = run(root, load_config(root / CONFIG_NAME).project_id)
    if report.refused is not None and not report.faults:
        raise report.refused  # a read-only mount, nothing found before it: its line alone
    obj = {"ok": report.ok, "checked": report.checked, "faults": [asdict(f) for f in report.faults]}
    # A fault names what the stores hold (a segment's file name, a table, an act id).
    lines = [for_bash(printable(f"{f.code}: {f.where}: {f.detail}")) for f in report.faults]
    emit(as_json, obj, "\n".join(lines) or f"fsck: ok ({report.checked.get('entries', 0)} entries)")
    if report.refused is not None:
        raise report.refused  # the faults found before it, then the mount's line
    if not report.ok:
        _summary(report.faults)


def _summary(faults: tuple[FsckFault, ...]) -> None:
    """Raise fsck's last line: only stores it could not read for want of room is the
    disk, not corruption (exit 1, free space); otherwise exit 3 with the route."""
    from forest_files.ledger.verify import FAULT_CODES

    room = [f.where for f in faults if f.code == "no-space"]
    again = f"{FREE_SPACE}, then run `{forest_text('fsck')}` again"
    if len(room) == len(faults):
        raise NoSpace(f"fsck could not check {len(room)} store(s) ({', '.join(room)}): {again}")
    # A ledger that cannot be read is not the index's fault: rebuild reads it too; a
    # link or folder where a store belongs rebuild refuses, as every command does.
    route = f"`{forest_text('rebuild')}` repairs the index"
    # A store this user may not open (its chmod or chown) or a link or folder where
    # one belongs: rebuild is refused as every command is, so its fix comes first.
    first = [f for f in faults if f.code in ("access", "linked") and f.fix]
    # A store not read for want of room: fsck again alone changes nothing.
    fixes = [f.fix for f in (*first, *faults) if f.fix and f.code != "no-space"]
    if first or len(fixes) + len(room) == len(faults):
        # The local stores rebuild never reads: each fault names its own fix.
        route = f"each line says what fixes it; first: `{fixes[0]}`"
    elif any(f.code == "ledger" and f.detail in FAULT_CODES for f in faults):
        route = (
            f"the ledger is damaged: `{forest_text('verify')}` names each fault and how "
            "to restore it"
        )
    if room:
        route += f"; {len(room)} store(s) not checked: {again}"
    raise FsckFaults(f"fsck found {len(faults)} fault(s); {route}")


@app.command()
@boundary
def expire(
    as_of: Annotated[
        str, typer.Option("--as-of", help="ISO-8601 time with a zone: expire what is older.")
    ],
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Remove local, never-adopted bodies older than [retention] in forest.toml allows
    (proposal texts, restore captures); hashes and lineage stay. Ground never expires.

    Example: forest expire --as-of 2026-01-31T00:00:00Z
    """
    from forest_files.custody.config import CONFIG_NAME, load_config
    from forest_files.custody.repository import find_root
    from forest_files.governance.expire import expire as run

    root = find_root(repo)
    done = run(root, load_config(root / CONFIG_NAME), as_of)
    text = f"expired as of {done.as_of}: {len(done.proposals)} proposal text(s), "
    emit(as_json, asdict(done), text + f"{len(done.captures)} capture(s)")
