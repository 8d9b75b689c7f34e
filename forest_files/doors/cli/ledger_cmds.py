"""``forest verify`` and ``forest log``: the ledger checked (every file, the replay
that judges what bytes cannot, with ``--base`` a range's authority) and listed, each
with its contests and what git tracks under .forest that only a machine keeps, as
``forest check`` prints findings.

Stores: nothing.
Refuses (verify): ledger faults (``LedgerFaults``, exit 3: verify_faults.py; each fault
with its fix, reached from where the user stands, and one route removing every stray
file; a segment a rule converted on checkout names the rule's file and the fix:
custody/ledger_conversion.py ``checkout_faults``); acts without authority over the range
(exit 1); contested ground or a binding rebound on merged branches (``ContestedGround``,
exit 1); local state git tracks (``TrackedLocalState``, exit 1).
Returns: the faults, contests and findings (``--json``: the findings schema's routes);
the custody acts, or one binding's chain (``log``), read from the index once the index
proof every door runs agrees with it (a forged index rebuilt, one line on stderr), with
the findings the text shows (``log --json``: ``findings``, shaped as verify's).
Test: tests/doors/test_cli.py, tests/doors/test_verify_routes.py,
      tests/doors/test_printed_where_typed.py, tests/doors/test_log_json_findings.py
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import JsonOpt, RepoOpt, app, emit
from forest_files.doors.streams import routes_where
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.check.findings import Reported
    from forest_files.custody.repository import Repository
    from forest_files.custody.views import GroundEntry
    from forest_files.ledger.verify import Fault


class ContestedGround(ForestError):
    """``forest verify`` found contested ground (exit 1)."""


class TrackedLocalState(ForestError):
    """``forest verify`` found local state committed under .forest (exit 1)."""


def _indexed(root: Path) -> dict[str, bool]:
    """The ledger's files git's index holds, by their path under the ledger: whether
    each is a regular file."""
    from forest_files import gitio
    from forest_files.kernel.paths import LEDGER_PREFIX

    entries = gitio.ls_files_stage(root, LEDGER_PREFIX)
    held = (e for e in entries if e.path.startswith(LEDGER_PREFIX))
    return {e.path.removeprefix(LEDGER_PREFIX): e.mode in ("100644", "100755") for e in held}


@app.command()
@boundary
def verify(
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
    base: Annotated[
        str | None,
        typer.Option(
            "--base",
            metavar="REF",
            help="Also judge merge-base(REF, HEAD)..HEAD: no ledger file modified or "
            "deleted, every new act's path authorised by forest.toml at the merge-base.",
        ),
    ] = None,
) -> None:
    """Check every ledger file (canonical lines, ids, deps, bodies); exit 3 on any fault.

    Any other file or directory under .forest/ledger is a `stray`, printed with the
    command that removes it. Reports ids, hashes and paths only, never body text.
    Example: forest verify --base origin/main
    """
    from forest_files.custody.repository import Repository
    from forest_files.gate.range import REFUSAL_CODES, check_range
    from forest_files.kernel.errors import AuthorityRefused

    with Repository(repo) as r:
        from forest_files.ledger.verify import verify_ledger

        report = verify_ledger(r.ledger_dir, indexed=_indexed(r.root))
        ranged = None if base is None else check_range(r.root, base)
        # Replay judges what bytes cannot: a forged act is a fault here too (exit 3).
        contested, replayed = _replayed(r) if report.ok else ([], [])
        found = _found(r, report.ok and not replayed, local=True)
    all_faults = [*report.faults, *replayed, *(ranged.faults if ranged is not None else ())]
    from forest_files.custody.ledger_conversion import checkout_faults

    all_faults, converted = checkout_faults(r.root, all_faults)  # a rule named, with its fix
    ok = not all_faults
    from forest_files.doors.cli.verify_faults import (
        fault_here,
        fault_line,
        fix_all,
        refuse_damage,
    )
    from forest_files.doors.cli.verify_routes import plan_of, routes_of, written_so

    plan = plan_of(r.root, all_faults, REFUSAL_CODES)
    taken = written_so(r.root, all_faults, plan, REFUSAL_CODES)  # committed as written
    shown = [fault_here(f) for f in all_faults]  # fixes pasted where the user stands
    routed = [routes_of(f, plan, REFUSAL_CODES, taken) for f in all_faults]
    faults = [
        {**asdict(f), "routes": [x.as_dict() for x in routes]}
        for f, routes in zip(shown, routed, strict=True)
    ]  # each route's steps reached from here, as the check's (the findings schema's)
    lines = [fault_line(f) for f in shown]
    from forest_files.kernel.shellword import printable

    lines += [printable(t.line()) for t in dict.fromkeys(taken.values())]
    every = fix_all(all_faults)  # a Route: its steps reached from here when shown
    if every is not None:
        lines.append(printable(every.line()))
    lines += [f"warning: {fault_line(w)}" for w in (ranged.warnings if ranged else ())]
    summary = f"{report.acts} act(s) in {report.segments} segment(s)"
    obj: dict[str, object] = {
        "ok": ok and not contested and not found,  # as the exit status: 0 only then
        "ledger_ok": ok,  # the ledger sound (no fault), whatever its contests say
        "acts": report.acts,
        "segments": report.segments,
        "faults": faults,
        "fix_all": every.as_dict() if every is not None else None,
    }
    if ranged is not None:
        obj["merge_base"] = ranged.merge_base
        obj["warnings"] = [asdict(w) for w in ranged.warnings]
        summary += f", range since merge-base {ranged.merge_base[:12]} checked"
    obj["contested"] = [c.content_id for c in contested]
    obj["findings"] = [f.as_dict() for f in found]  # the one finding model (check/findings.py)
    lines += _blocks(found, words=False)
    emit(as_json, obj, "\n".join([*lines, f"ledger {'ok' if ok else 'FAULTY'}: {summary}"]))
    refuse_damage(
        all_faults, plan, taken, converted=converted, refusals=REFUSAL_CODES, as_json=as_json
    )
    if not ok:
        raise AuthorityRefused(
            f"the range has {len(faults)} act(s) or change(s) without authority or over "
            f"policy at the merge-base{routes_where(as_json)}"
        )
    from forest_files.check.finding import has_reason

    rebound = [len(x.finding.places) for x in found if has_reason(x.finding, "rebound-twice")]
    if contested or rebound:
        raise ContestedGround(_contested_line(len(contested), rebound))
    if found:
        where = routes_where(as_json)
        raise TrackedLocalState(f"git tracks {len(found)} local path(s) under .forest{where}")


def _replayed(r: Repository) -> tuple[list[GroundEntry], list[Fault]]:
    """The contested ground entries; or, when the replay refuses the ledger, that
    refusal as a fault (custody/damaged.py ``replay_fault``): verify lists it, where
    every other command stops at it and names verify."""
    from forest_files.custody.damaged import replay_fault
    from forest_files.ledger.fault import LedgerError

    try:
        return r.contested(), []
    except LedgerError as exc:
        return [], [replay_fault(r.root, exc)]


def _contested_line(ground: int, rebound: list[int]) -> str:
    """verify's refusal of contested ground and of bindings rebound twice (``rebound``:
    each one's places, one a merged branch)."""
    from forest_files.check.contests import on_branches

    said = [f"{ground} contested ground entries; resolve them"] if ground else []
    if rebound:
        said.append(
            f"{len(rebound)} binding(s) rebound {on_branches(rebound)}; "
            "rebind each as a route above says"
        )
    return "; and ".join(said)


def _found(r: Repository, asked: bool, *, local: bool) -> list[Reported]:
    """(``asked``: the ledger replays) every contest and binding rebound twice with
    its routes, from the one route builder (check/routes.py), and (``local``) what
    HEAD tracks under .forest that only a machine keeps."""
    from forest_files import gitio
    from forest_files.check import contests, localstate

    found = contests.reported(r.synced().conn, r.root) if asked else []
    if local and gitio.head_commit(r.root) is not None:
        found += localstate.reported_at(r.root, "HEAD")
    return found


def _blocks(found: list[Reported], *, words: bool) -> list[str]:
    """Each finding's lines, as ``forest check`` prints them; adopting words only where
    the command shows words already (``forest log``; never ``verify``, run in CI)."""
    from forest_files.check.text import block

    return [line for x in found for line in block(x, words=words)]


@app.command()
@boundary
def log(
    target: Annotated[
        str | None, typer.Argument(help="A bound PATH[#SEL]: show its custody chain.")
    ] = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """The custody acts of the checked-out ledger, or one binding's chain, by content id.

    Example: forest log --json;  forest log 'canon/characters.md#Elias'
    """
    if target is not None:
        from forest_files.doors.cli.logview import print_chain

        print_chain(target, repo, as_json)
        return
    from forest_files.custody.repository import Repository
    from forest_files.doors.cli.logview import log_line, proven_store

    with Repository(repo) as r:
        proven_store(r)  # the index proof: a forged binding row never names an act's section
        entries = r.log()
        contested = r.contested()
        found = _found(r, True, local=False)

    lines = [log_line(e) for e in entries]
    lines += _blocks(found, words=True)
    obj = {"acts": [asdict(e) for e in entries], "contested": [c.content_id for c in contested]}
    obj["findings"] = [f.as_dict() for f in found]  # those the text shows, as verify's
    emit(as_json, obj, "\n".join(lines) or "no custody acts yet")
