"""A contest whose file a merge left in conflict: the routes a user mid-merge needs
(or mid-cherry-pick, -rebase, ``git am -3``, ``git stash pop``: held.py names the sides).

Two branches each superseded one section; the merge left its file unmerged (``UU``)
and the ground two heads. Each head's ``forest resolve`` alone left the file in
conflict, and the ``git checkout --ours``/``--theirs`` routes of a conflicted file
(conflicts.py) were not offered at all. Where one side of the merge alone brought a
head (its ledger alone holds that head's text: held.py ``side_of``), that side's file
taken whole is that head's text: one route takes it, stages it, keeps that head and
stages the ledger, and the merge is committable.

Stores: nothing.
Refuses: nothing.
Returns: ``sides`` (each such contest -> its heads that one side of the merge alone
brought, each with that side: held.py ``Side``; one query for the heads' bodies, two
git calls per head, only with such a contest); ``routes`` (a head's
side taken whole, then its resolve; resolving the conflicts by hand, the next check
then showing what is left; a side no head is known to hold, taken whole; each other
head's resolve, noting the file's conflicts stay).
Test: tests/check/test_contested_merged.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.conflicts import conflict_routes
from forest_files.check.finding import has_reason

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.conflicts import Stages
    from forest_files.check.finding import Finding
    from forest_files.check.findings import Route
    from forest_files.check.held import Side


def in_conflict(f: Finding) -> bool:
    """A contest of heads (not two bindings of one section) whose file is in conflict."""
    return f.kind == "contested" and has_reason(f, "conflict") and f.binding not in f.candidates


def sides(
    conn: sqlite3.Connection | None, findings: Sequence[Finding], root: Path, source: str
) -> dict[Finding, dict[str, Side]]:
    """Each contest in conflict -> {head: the side of the operation git is stopped in
    whose ledger alone holds its text}; a head both sides hold (the contest predates
    the merge), or none, is left out."""
    asked = [f for f in findings if in_conflict(f)]
    if not asked:
        return {}
    if conn is None or source not in ("worktree", "index"):
        return {f: {} for f in asked}
    from forest_files.check.held import side_of
    from forest_files.store.queries import BODY_HASHES_OF_CONTENTS

    heads = sorted({h for f in asked for h in f.candidates})
    sql = BODY_HASHES_OF_CONTENTS.format(marks=",".join("?" * len(heads)))
    body = {str(r[0]): str(r[1]) for r in conn.execute(sql, heads)}
    side = {h: side_of(root, body[h], source, unmerged=True) if h in body else None for h in heads}
    return {f: {h: s for h in f.candidates if (s := side[h]) is not None} for f in asked}


def routes(
    f: Finding,
    resolves: tuple[Route, ...],
    held: dict[str, Side],
    *,
    root: Path,
    source: str,
    stages: Stages | None = None,
) -> tuple[Route, ...]:
    """The contest's routes (``resolves``: one ``forest resolve --pick`` per head) made
    whole for its file in conflict (``held``: ``sides``' heads of ``f``; ``stages``: the
    index's, as conflicts.py ``in_conflict`` read them for the command)."""
    by_hand, *whole = conflict_routes(f, root=root, source=source, stages=stages)
    take = {_flag(r): r for r in whole}  # git checkout --ours|--theirs -- FILE && add
    first: list[Route] = []
    rest: list[Route] = []
    for r in resolves:
        head = _picked(r)
        side = held.get(head) if head else None
        taken = take.pop(side.flag, None) if side else None
        if head is None or side is None or taken is None:
            left = 'the file keeps its conflicts: resolve them too (see "resolve the conflicts")'
            rest.append(r._replace(note=f"{r.note}; {left}" if r.note else left))
            continue
        first.append(
            r._replace(
                label=f"keep {head[:12]}'s text ({side.words}, the whole file)",
                steps=(*taken.steps, *r.steps),
                note=f"{side.words} holds this head's text in this file; taken whole, "
                "any other conflict in the file is settled that way too",
            )
        )
    return (*first, by_hand, *take.values(), *rest)


def _flag(r: Route) -> str:
    """``--ours`` or ``--theirs``: the side of the file a route of conflicts.py takes."""
    return next(w for step in r.steps for w in step if w in ("--ours", "--theirs"))


def _picked(r: Route) -> str | None:
    step = r.steps[0] if r.steps else ()
    return step[step.index("--pick") + 1] if "--pick" in step else None
