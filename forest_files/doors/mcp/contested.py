"""The MCP tools on a contest, judged as ``forest check`` judges it (check/contests.py)
and refused with the routes it prints (check/route_contest.py): a person runs them, an
agent only reads them.

A binding two merged branches each rebound stands at one place in every index; the
other branch's place names no binding. ``read_ground`` and ``propose`` given that
other place said "names no single live binding (those of B.md: none)", as if nothing
had been bound there; ``propose`` at the place where it stands kept a proposal as if
its place were settled; ``ground`` listed it ``clean`` while ``check`` said it
``contested``. A ground with two live heads was refused without the ``forest
resolve`` that ends it.

Stores: nothing.
Refuses (``ToolRefused``, one line): ``refuse_rebound`` a binding rebound twice, or a
selector naming one of its places, with where it stands, its other places and one
``forest rebind`` per place (with ``--words '…'`` where the working tree's text there
is not its ground's); ``contested_ground`` a ground's heads, with one ``forest
resolve`` per head; ``two_bindings`` a section two live bindings claim, with one
``forest retire --binding`` per binding. Each command, selector and id said is a
Markdown code span (text/codespan.py): a backquote in a ledger's selector never ends one.
Returns: ``rebound`` the bindings rebound twice (one query when none was rebound more
than once); ``statuses`` each binding's status as the doors' JSON rows say it.
Test: tests/doors/test_mcp_contests.py, tests/doors/test_mcp_code_spans.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from forest_files.doors.mcp.propose_checks import LINE_CHARS, ToolRefused
from forest_files.kernel.shellword import printable
from forest_files.text.codespan import code_span

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.findings import CheckReport
    from forest_files.custody.bindings import Binding
    from forest_files.custody.rebind_tips import Rebound
    from forest_files.doors.mcp.session import Session


def rebound(session: Session) -> list[Rebound]:
    """The live bindings merged branches each rebound: (binding, path, places, where it
    stands first)."""
    from forest_files.check.contests import found

    return found(session.store().conn)[1]


def _same_place(wanted: str, place: str) -> bool:
    if wanted == place:
        return True
    from forest_files.kernel.errors import ForestError
    from forest_files.text.selector import parse_selector

    try:
        return parse_selector(wanted) == parse_selector(place)
    except ForestError:
        return False


def refuse_rebound(
    session: Session, twice: Sequence[Rebound], wanted: str, *, reading: bool
) -> None:
    """Refused: ``wanted`` (a binding id or selector) names a binding rebound twice, or
    one of its places; the message names where it stands and the rebinds a person
    settles it with (``forest check``'s routes). ``reading``: its ground is read where
    it stands (said so), and is refused only at another place; a proposal is refused
    at every place until the place is settled."""
    from forest_files.check.contests import on_branches, rebound_finding
    from forest_files.check.route_contest import rebound_routes

    for bind_act, path, places in twice:
        if wanted != bind_act and not any(_same_place(wanted, p) for p in places):
            continue
        if reading and _same_place(wanted, places[0]):
            return
        f = rebound_finding(bind_act, path, places)
        unlike = _unlike(session, f)
        routes = " or ".join(code_span(r.command) for r in rebound_routes(f, "worktree", unlike))
        doing = (
            f"its ground is read where it stands (pass {_name(places[0])}); a person "
            "settles its place"
            if reading
            else "a proposal waits until a person settles its place"
        )
        where = (
            f"{_name(wanted)}: its binding {bind_act[:12]} was rebound "
            f"{on_branches([len(places)])} (it stands at {_name(places[0])}, also "
            f"rebound to {', '.join(map(_name, places[1:]))}); {doing}"
        )
        raise _fitted(f"{where}: {routes}", f"{where} with the rebind `forest check` prints")


def _name(text: str) -> str:
    """A selector or binding id (the agent's, or the ledger's: any text) as the line's
    reader renders it: its control characters escaped, in a code span whose fence no
    backquote in it closes (text/codespan.py)."""
    return code_span(printable(text))


def _unlike(session: Session, f: Finding) -> frozenset[str]:
    """The places of ``f`` whose text in the working tree is not its ground's (their
    rebind takes words, as ``forest check`` prints it: check/rebound_texts.py)."""
    from forest_files.check.rebound_texts import unlike_ground

    return unlike_ground(session.store().conn, [f], session.root).get(f, frozenset())


def contested_ground(bind_act: str, heads: tuple[str, ...]) -> ToolRefused:
    """A binding whose ground has two or more live heads: the ``forest resolve`` per
    head a person keeps one with."""
    from forest_files.check.route_contest import resolve_routes

    routes = " or ".join(code_span(r.command) for r in resolve_routes(tuple(sorted(heads))))
    said = f"{bind_act[:12]}: its ground is contested ({len(heads)} heads); a person keeps one"
    return _fitted(
        f"{said} head's text first: {routes} (replace … with why)",
        f"{said} head's text first with the resolve `forest check` prints for each",
    )


def two_bindings(b: Binding, live: Sequence[Binding]) -> ToolRefused:
    """``b``'s section is claimed by two or more live bindings: the ``forest retire
    --binding`` per binding a person ends one with (``forest check``'s route for each,
    check/route_contest.py)."""
    from forest_files.check.route_contest import retire_route

    claims = sorted({c.bind_act for c in live if c.selector == b.selector} | {b.bind_act})
    routes = " or ".join(code_span(retire_route(b.selector, c).command) for c in claims)
    said = f"{b.bind_act[:12]}: {len(claims)} bindings claim {_name(b.selector)}"
    return _fitted(
        f"{said}; a person ends one first: {routes} (replace … with why; "
        "`forest check` says which ground the file holds)",
        f"{said}; a person ends one first with the retire `forest check` prints for each "
        "(it says which ground the file holds)",
    )


def _fitted(said: str, short: str) -> ToolRefused:
    """``said`` when the client gets it whole (propose_checks.py ``LINE_CHARS``), else
    ``short``, which names ``forest check`` for the commands: never one cut short."""
    return ToolRefused(said if len(said) <= LINE_CHARS else short)


def statuses(report: CheckReport) -> dict[str, tuple[str, str]]:
    """(selector, status) of each binding, as the doors' JSON rows list it
    (check/finding_rows.py): a binding rebound twice ``contested`` where it stands,
    not ``clean``."""
    from forest_files.check.finding_rows import rows

    out: dict[str, tuple[str, str]] = {}
    for r in rows(report.items, report.extra):
        f = r.finding
        if not f.binding:
            continue
        if f.reason is not None and f.reason.kind == "rebound-twice":
            out[f.binding] = (f.selector, f.kind)
        else:
            out.setdefault(f.binding, (f.selector, f.kind))
    return out
