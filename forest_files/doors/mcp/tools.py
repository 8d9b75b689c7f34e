"""What each MCP tool answers, computed from one repository: pure functions of the
validated arguments (schemas.py), no protocol here.

Stores: only ``propose``, and only a proposal in the local proposals store
(source ``mcp``, the claimed signature and reason beside it; custody/proposals.py),
never the file, the ledger or the index's ground. Nothing here can root,
supersede, restore, rebind, retire, seal, resolve or forget.
Refuses (``ToolRefused``, one line, never a body): a binding that is not bound (or
is retired), a malformed selector or one outside the repository (``../``, absolute;
said whole, without the command line's selector forms), a selector naming several or
none (the file's selectors listed, and this door's argument to pass, never the command
line's), contested ground or a binding rebound on merged branches (doors/mcp/contested.py:
the routes ``forest check`` prints), ground that is sealed or erased, proposed text that is the
ground already, holds a line a forget removed or is over the repository's body bound;
what ``propose`` judges of its arguments alone (propose_checks.py). Each name a
refusal says (the argument, a file's selectors) is escaped as ``forest check`` says it
(kernel ``printable``): a bidirectional override or a zero-width space in a name never
reorders or hides the line.
Returns: JSON-ready dicts: pages carry ``next_cursor`` (None at the end);
``read_ground`` carries ``next_offset``; recall answers are Forest packets,
jurisdiction first, with bounded excerpts and content ids (never row ids).
Test: tests/doors/test_mcp_tools.py, tests/doors/test_mcp_contests.py,
tests/doors/test_mcp_hostile_names.py
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forest_files.doors.mcp import contested
from forest_files.doors.mcp import propose_checks as checks
from forest_files.doors.mcp import schemas as s
from forest_files.doors.mcp.propose_checks import ToolRefused
from forest_files.doors.mcp.session import Session
from forest_files.kernel.shellword import printable

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.store.forest import ForestStore

SOURCE = "mcp"  # the door a proposal from this server is marked with
UNKNOWN_SHOWN = 5  # selectors a refusal lists of the file it names


@dataclass
class Answer:
    """A tool's answer and what the audit log keeps of it (ids and hashes only)."""

    data: dict[str, Any]
    targets: tuple[str, ...] = ()
    counts: dict[str, int] | None = None
    outcome: str = "ok"


def _page(rows: list[dict[str, Any]], page: s.Page) -> tuple[list[dict[str, Any]], int | None]:
    end = page.cursor + page.limit
    return rows[page.cursor : end], (end if end < len(rows) else None)


def ground(session: Session, args: s.GroundIn) -> Answer:
    """Every live binding: selector, status (a finding kind or ``clean``), ground id."""
    from forest_files.check.path import run_check

    report = run_check(session.root, "worktree")
    said = contested.statuses(report)  # a binding rebound twice: ``contested``, as check says
    rows = [
        {
            "binding": r.finding.binding,
            "selector": r.finding.selector,
            "path": r.finding.path,
            "status": said.get(r.finding.binding, ("", r.finding.kind))[1],
            "ground": r.finding.ground,
        }
        for r in report.items
        if r.finding.binding
    ]
    rows.sort(key=lambda row: (row["selector"], row["binding"]))
    shown, nxt = _page(rows, args)
    counts = {"bindings": len(rows), "shown": len(shown)}
    return Answer({"bindings": shown, "total": len(rows), "next_cursor": nxt}, (), counts)


def check(session: Session, args: s.CheckIn) -> Answer:
    """The working tree's findings in the documented JSON (body-free), paged."""
    from forest_files.check.path import run_check

    report = run_check(session.root, "worktree")
    whole = report.as_dict("check")
    findings: list[dict[str, Any]] = list(whole["findings"])  # type: ignore[call-overload]  # as_dict's values are objects
    shown, nxt = _page(findings, args)
    whole["findings"], whole["next_cursor"] = shown, nxt
    whole["total"] = len(findings)
    failed = [r.finding.binding or r.finding.path for r in report.failed]
    counts = {"findings": len(report.failed), "bindings": len(report.items)}
    return Answer(whole, tuple(failed), counts, "ok" if report.ok else "found")


def _binding(session: Session, wanted: str, argument: str = "binding") -> Binding:
    """The live binding ``wanted`` names: its id, its selector, or a unique heading tail
    (custody/lookup.py); never a file read (the working tree is not asked)."""
    from forest_files.custody.lookup import NoSuchBinding, binding_twin

    live = session.bindings()
    for b in live:
        if wanted in (b.bind_act, b.selector):
            return b
    contested.refuse_rebound(
        session, contested.rebound(session), wanted, reading=argument == "binding"
    )
    if "#" in wanted or "::" in wanted or "@" in wanted:
        try:
            return _found(live, wanted)
        except NoSuchBinding:
            # Its hints are the command line's (`forest status`, --binding ID), which
            # an agent here has no way to follow.
            twin = binding_twin(live, wanted)
            raise ToolRefused(
                f"{printable(wanted)}: no binding as given; {twin}"
                if twin
                else _unknown(live, wanted, argument)
            ) from None
    raise ToolRefused(
        "no live binding has that id or selector; the `ground` tool lists them "
        "(a retired binding has no ground)"
    )


def _found(live: list[Binding], wanted: str) -> Binding:
    """find_binding, its refusal of a malformed selector said whole: without the
    command line's list of every selector form, which cut at a line's bound ended
    mid-quote."""
    from forest_files.custody.lookup import find_binding
    from forest_files.text.selector_errors import SelectorError

    try:
        return find_binding(live, wanted)
    except SelectorError as exc:
        what = exc.problem[:300]
        raise ToolRefused(f"{what}; pass a selector the `ground` tool lists") from None


def _unknown(live: list[Binding], wanted: str, argument: str) -> str:
    """Which bindings of the file ``wanted`` names there are, and what to pass."""
    from forest_files.text.selector import parse_selector

    path = parse_selector(wanted).path
    same = sorted({b.selector for b in live if b.path == path})
    shown = ", ".join(map(printable, same[:UNKNOWN_SHOWN])) or "none"
    more = f" and {len(same) - UNKNOWN_SHOWN} more" if len(same) > UNKNOWN_SHOWN else ""
    return (
        f"{printable(wanted)}: names no single live binding (those of {printable(path)}: "
        f"{shown}{more}); pass one "
        f"whole as `{argument}`, or a binding id the `ground` tool lists"
    )


def _ground_row(session: Session, b: Binding) -> tuple[str, Any]:
    """(content id, entry row) of the binding's one live ground, or ToolRefused. Which
    entry is ground comes from the proven map (Session.ground); the row's body must
    hash to the body hash the map holds, so no index row alone decides the text."""
    from forest_files.kernel.hashing import hash_body
    from forest_files.store.entryrow import ERASED_MARK

    if b.contested:
        raise contested.two_bindings(b, session.bindings())
    from forest_files.custody.erased_ground import is_mark

    cid, body_hash, heads = session.ground(b) or (None, None, ())
    if heads and not is_mark(heads):  # a mark names an erased ground: refused below
        raise contested.contested_ground(b.bind_act, heads)
    if cid is None:
        raise ToolRefused(f"{b.bind_act}: no live ground (sealed, erased or retired)")
    store = session.store()
    local = store.id_for_content(cid)
    row = None if local is None else store.get(local)
    if row is None or local is None or store.is_sealed(local):
        raise ToolRefused(f"{b.bind_act}: its ground is sealed; its text is withheld")
    if row["body"] == ERASED_MARK:
        raise ToolRefused(f"{b.bind_act}: its ground was erased (forest forget)")
    if hash_body(str(row["body"])) != body_hash:
        raise ToolRefused(f"{b.bind_act}: the index does not hold its ground; run `forest check`")
    return cid, row


def read_ground(session: Session, args: s.ReadGroundIn) -> Answer:
    """The ground text of one binding, ``max_chars`` from ``offset`` on."""
    b = _binding(session, args.binding)
    cid, row = _ground_row(session, b)
    body = str(row["body"])
    end = min(len(body), args.offset + args.max_chars)
    data = {
        "binding": b.bind_act,
        "selector": b.selector,
        "ground": cid,
        "body_hash": row["body_hash"],
        "offset": args.offset,
        "text": body[args.offset : end],
        "total_chars": len(body),
        "next_offset": end if end < len(body) else None,
    }
    return Answer(data, (b.bind_act, b.selector, cid), {"chars": max(0, end - args.offset)})


def recall(session: Session, args: s.RecallIn) -> Answer:
    """Full-text leads over custody only (the index replays the ledger and holds no
    proposal or capture), as packets: jurisdiction first, a bounded excerpt."""
    store = session.store()
    # the project's anchor is an index entry, not custody text: one more row asked
    found = store.recall_similar(
        args.query, scope="both", excerpt_len=args.excerpt_len, limit=args.limit + 1
    )
    packets = [_packet(store, p) for p in found if p["bucket"] != "anchor"][: args.limit]
    ids = tuple(str(p["id"]) for p in packets)
    return Answer({"packets": packets, "limit": args.limit}, ids, {"packets": len(packets)})


def _packet(store: ForestStore, scrap: dict[str, Any]) -> dict[str, Any]:
    """A store scrap with its content id (identical on every clone) for its row id."""
    out = {"jurisdiction": scrap["jurisdiction"], "id": store.content_id(int(scrap["id"]))}
    out.update({k: v for k, v in scrap.items() if k not in out and k != "body"})
    return out


def proposals(session: Session, args: s.ProposalsIn) -> Answer:
    """The open proposals with their status: ids, selectors, hashes, never text."""
    from forest_files.custody.proposals import ProposalStore

    with ProposalStore(session.root) as store:
        rows = [p.as_dict() for p in store.open_proposals()]
    shown, nxt = _page(rows, args)
    data = {"proposals": shown, "total": len(rows), "next_cursor": nxt}
    return Answer(data, tuple(str(p["id"]) for p in shown), {"proposals": len(rows)})


def propose(session: Session, args: s.ProposeIn) -> Answer:
    """Keep ``text`` as this door's open proposal for the bound section: the file,
    the ledger and ground are untouched; a person adopts it or not."""
    from forest_files.custody.proposals import ProposalStore
    from forest_files.custody.tombstone import refuse_erased
    from forest_files.kernel.hashing import hash_body

    signature, reason = checks.claim(args)
    b = _binding(session, args.selector, "selector")
    checks.carriable(b)  # a heading no text may carry: said before the text is judged
    text = checks.normalised(args.text)
    store, config = session.store(), session.repo.config
    checks.not_a_holder(config, signature)
    cid, row = _ground_row(session, b)
    # Where it stands is not settled: a proposal there could be adopted at a place
    # one more rebind moves it from.
    contested.refuse_rebound(session, contested.rebound(session), b.bind_act, reading=False)
    if len(text.encode("utf-8")) > config.max_body_bytes:
        raise ToolRefused(f"text is over this repository's max_body_bytes ({b.bind_act})")
    if hash_body(text) == row["body_hash"]:
        raise ToolRefused(f"{b.bind_act}: the text is its ground already; nothing to propose")
    checks.stands(session, b, text)
    refuse_erased(store, config.project_id, text, "the proposed text")
    with ProposalStore(session.root) as kept:
        done = kept.propose(
            binding=b.bind_act,
            path=b.path,
            selector=b.selector,
            derived_from=cid,
            ground_hash=str(row["body_hash"]),
            text=text,
            source=SOURCE,
            claimed_by=signature,
            reason=reason,
        )
    p = done.proposal
    data = {**p.as_dict(), "outcome": done.outcome}
    return Answer(data, (p.id, b.bind_act, b.selector, cid, p.text_hash), {done.outcome: 1})
