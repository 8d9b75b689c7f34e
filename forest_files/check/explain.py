"""Findings into ``Reported`` values: routes, who adopted the ground and with which words.

Stores: nothing.
Refuses: nothing.
Returns: ``unrouted``: each finding as reported, without routes or adopters (a merge
conflict's ``unresolved`` kind alone); ``explain``:
``Reported`` per finding (clean ones carry nothing else, at no cost: with
none failed, as in a clean check, status or hook, no module of the routes is even
imported; a failed one's routes are built in explain_routes.py; a working tree's
restore staged again where the index holds the file's change, one git
call for them all; a contest's heads each with who adopted it and their words, to
choose by, and, when
the file holds neither head's text, the route that keeps what git merged; when it
holds one head's text, which head, and the side of a merge it came from: held.py;
when its file is in a merge conflict, the side to take whole for each head:
contest_conflict.py); a failed binding whose file is in a merge conflict is reported
as that, with no move (conflicts.py), the index's stages of such files read once per
call (from the index, one listing of those files alone: conflicts.py) and handed to
every route (or taken from the check's own listing of them: ``index``); a drift's
restore route that
would remove another bound section says so and carries ``--drop-nested``
(route_nested.py); a section renamed onto a heading another binding holds, that
binding named (bound_there.py). What it asks of the repository and the store once per
call for every route: explain_state.py; a terminal's diffs (``with_diffs``):
explain_diffs.py; a binding rebound twice, the places whose text is not its ground's
(rebound_texts.py: their rebind routes take words).
Test: tests/doors/test_doors.py, tests/check/test_conflicts.py,
tests/check/test_contested_merged.py, tests/check/test_contested_bindings.py,
tests/check/test_merge_routes.py, tests/check/test_routes_nested_restore.py,
tests/check/test_bound_there.py, tests/check/test_explain_reads_listing.py,
tests/doors/test_hook_partial_rank.py, tests/doors/test_fastcheck.py,
tests/doors/test_status_table.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Reported

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.custody.content import GitTreeSource
    from forest_files.text.extract import Document

DiffOf = Callable[["Finding"], str]


def adoptions_of(
    conn: sqlite3.Connection | None, grounds: Iterable[str | None]
) -> dict[str, tuple[str, str]]:
    """(signature, words) of the latest adoption of each ground, in one query;
    a ground with no adoption on record is left out. Where ``conn`` is a working tree's
    index, each row is believed only where it is the record that tree's ledger declares,
    else the ledger's signer and words are named (custody/adoptions.py: one line on
    stderr); a view or a throwaway replay is the replay of a ledger, its rows as read."""
    wanted = sorted({g for g in grounds if g is not None})
    if conn is None or not wanted:
        return {}
    from forest_files.custody.adoptions import index_records, ledger_of, proven_adoptions

    found = index_records(conn, wanted)  # only with a finding: a clean hook never loads it
    ledger = ledger_of(conn)
    if ledger is not None:
        return proven_adoptions(ledger, found, wanted)
    return {ground: (row.signature, row.body) for ground, row in found.items()}


def unrouted(findings: Sequence[Finding], *, root: Path, source: str) -> tuple[Reported, ...]:
    """``findings`` as ``explain`` reports what each is, with no route built and no
    adopter read (``forest status``'s table prints each one's kind and ground): a failed
    binding whose file is in a merge conflict made ``unresolved`` (conflicts.py), the
    one change of kind ``explain`` makes."""
    if any(f.failed for f in findings):
        from forest_files.check.conflicts import in_conflict

        findings = in_conflict(findings, root=root, source=source)[0]
    return tuple(Reported(f) for f in findings)


def explain(
    findings: Sequence[Finding],
    *,
    root: Path,
    source: str,
    conn: sqlite3.Connection | None = None,
    hints: Callable[[Finding], tuple[str, ...]] | None = None,
    documents: Mapping[str, tuple[str, Document]] | None = None,
    local: bool = True,
    index: GitTreeSource | None = None,
) -> tuple[Reported, ...]:
    """Every finding with its routes (built from the repository's real state) and, when
    ``conn`` is given, who adopted its ground. ``documents``: files the check parsed
    (``check_all``), read again by the rename ranking only where their text changed.
    ``local``: the routes are for whoever runs this command here, so one that records
    an act over a path they hold no authority over is a holder's (route_authority.py);
    the CI gate's are for whoever reads its report. ``index``: the git index as the
    check listed it (its content source): a file in conflict is looked for in its
    entries (content_git.py ``entries_at``), and the rename ranking and bound_there.py
    read the files it lists from it, without listing the index again."""
    if not any(f.failed for f in findings):  # clean: no route, so no route module loaded
        return tuple(Reported(f) for f in findings)
    from forest_files.check.explain_routes import routed

    heads = (c for f in findings if f.kind == "contested" for c in f.candidates)
    adopted = adoptions_of(conn, [*(f.ground for f in findings if f.failed), *heads])
    return routed(
        findings,
        adopted,
        root=root,
        source=source,
        conn=conn,
        hints=hints,
        documents=documents,
        local=local,
        index=index,
    )
