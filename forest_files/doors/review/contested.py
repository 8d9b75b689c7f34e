"""``forest review`` on a contested binding: only what settles the contest is offered.

A binding two merged branches each rebound (check/contests.py) whose section also
drifted was one item offering ``s`` (supersede), which recorded an act on the place
where it stands as if that place were settled, while the MCP tools refuse any proposal
there. Its drift and its contest are now one item, offering a key per route
``forest check`` prints out of the contest (check/route_contest.py) that is one
``forest`` command, then skip and quit; never restore, supersede or adopt.

Stores: nothing.
Refuses: nothing itself (session.py refuses a key not offered).
Returns: ``fold`` each failed finding with its binding's contest (the contest's own
item folded into its binding's drift); ``keys`` the route keys of a contest;
``step`` the ``forest`` command a key runs; ``outcome`` what an item came to.
Test: tests/doors/test_review_contested.py
"""

from __future__ import annotations

from collections.abc import Sequence

from forest_files.check.findings import Reported, Route

_MAX_KEYS = 9
_DONE = {"rebind": "rebound", "retire": "retired", "resolve": "resolved"}
RECORDS = tuple(_DONE.values())


def _contest_of(r: Reported) -> bool:
    return r.finding.kind == "contested" and bool(r.finding.binding)


def fold(reports: Sequence[Reported]) -> list[tuple[Reported, Reported | None]]:
    """Each failed finding with the contest of its binding (None if it has none); a
    binding's contest is its own item only when nothing else of it failed."""
    contest: dict[str, Reported] = {}
    for r in reports:
        if _contest_of(r):
            contest.setdefault(r.finding.binding, r)
    others = {r.finding.binding for r in reports if not _contest_of(r)}
    out: list[tuple[Reported, Reported | None]] = []
    for r in reports:
        mine = contest.get(r.finding.binding) if r.finding.binding else None
        if r is mine and r.finding.binding in others:
            continue  # said with its binding's drift
        out.append((r, mine))
    return out


def _forest_steps(route: Route) -> list[tuple[str, ...]]:
    return [s for s in route.steps if len(s) > 1 and s[0] == "forest"]


def keys(contest: Reported) -> list[str]:
    """``1``, ``2``, …: one per route that is one ``forest`` command (a route of two
    acts, such as resolve-then-supersede, is printed to paste, not run by a key)."""
    return [
        str(n)
        for n, route in enumerate(contest.routes[:_MAX_KEYS], 1)
        if len(_forest_steps(route)) == 1
    ]


def route(contest: Reported, key: str) -> Route:
    return contest.routes[int(key) - 1]


def step(contest: Reported, key: str) -> tuple[str, ...]:
    """The ``forest`` command of route ``key`` (one of ``keys``)."""
    (only,) = _forest_steps(route(contest, key))
    return only


def outcome(contest: Reported, key: str) -> str:
    """``rebound``, ``retired``, ``resolved``: what running route ``key`` did."""
    verb = step(contest, key)[1]
    return _DONE.get(verb, verb)
