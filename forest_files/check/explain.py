"""Findings into ``Reported`` values: routes, who adopted the ground and with which words.

Stores: nothing.
Refuses: nothing.
Returns: ``Reported`` per finding (clean ones carry nothing else, at no cost; a
working tree's restore staged again where the index holds the file's change, one git
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
tests/doors/test_hook_partial_rank.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check import explain_state as state
from forest_files.check.conflicts import NO_STAGES, in_conflict
from forest_files.check.findings import Reported
from forest_files.check.rebound_texts import unlike_ground
from forest_files.check.route_authority import governed
from forest_files.check.route_contest import merged_text_route, rebound_routes
from forest_files.check.routes import hints_for, routes_for

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.check.route_steps import Built
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
    out: list[Reported] = []
    heads = (c for f in findings if f.kind == "contested" for c in f.candidates)
    adopted = adoptions_of(conn, [*(f.ground for f in findings if f.failed), *heads])
    if any(f.kind == "unresolved" and f.candidates for f in findings):
        from forest_files.check.renames import ranked

        findings = ranked(findings, conn, _reader(root, source, index), documents or {})
    kinds = {f.kind for f in findings if f.kind != "unresolved" or not f.candidates}
    if conn is not None and {"unresolved", "drifted"} <= kinds:  # renamed onto a bound one?
        from forest_files.check.bound_there import bound_there

        findings = bound_there(findings, conn, _reader(root, source, index), documents or {})
    if conn is not None and any(f.kind == "missing" for f in findings):
        from forest_files.check.filerenames import renamed_files

        findings = renamed_files(findings, conn, root=root, source=source)
    stages = NO_STAGES  # the index's stages of files in conflict: read once, for every route
    if any(f.failed for f in findings):  # a file in a merge conflict: resolve it first
        listed = index.entries_at if index is not None else None
        findings, stages = in_conflict(findings, root=root, source=source, listed=listed)
    merged, held = state.merged(conn, findings)
    if held:
        from forest_files.check.held import holding

        findings = [holding(f, held[f], root, source) if f in held else f for f in findings]
        held = {holding(f, h, root, source): h for f, h in held.items()}
    rewritten = state.rewritten(findings, root=root, source=source)
    staged = state.staged(findings, root=root, source=source)
    sided = state.sided(conn, findings, root, source)
    signer = state.signer(findings, root) if local else None
    unlike = unlike_ground(conn, findings, root)
    built: Built = {}  # the steps the findings' routes share, built once for this report
    # A finding's hash is all its fields': ``unlike``, ``held`` and ``sided`` (empty but
    # in a contest or a conflict) are asked only when they hold any (2,000 moved: 6,000)
    for f in findings:
        if not f.failed:
            out.append(Reported(f))
            continue
        by, words = adopted.get(f.ground or "", ("", ""))
        routes = (
            rebound_routes(f, source, unlike[f])
            if unlike and f in unlike
            else routes_for(f, root=root, source=source, staged=staged, stages=stages, built=built)
        )
        if f.kind == "drifted" and source in ("worktree", "index") and routes:
            routes = state.nested(f, routes, findings, root, conn)
        if f in merged:
            routes = (*routes, merged_text_route(f, source))
        elif held and f in held:
            from forest_files.check.held import noted

            routes = noted(routes, held[f][0], f, root, source, staged)
        elif sided and f in sided:  # in a merge conflict: take a side whole, or resolve it
            from forest_files.check import contest_conflict

            routes = contest_conflict.routes(
                f, routes, sided[f], root=root, source=source, stages=stages
            )
        routes = governed(f, routes, signer)
        out.append(
            Reported(
                f,
                routes,
                adopted_by=by,
                adopted_words=words,
                hints=(
                    *(hints(f) if hints is not None else hints_for(f)),
                    *rewritten.get(f.path, ()),
                ),
                heads_adopted=_heads(f, adopted) if conn is not None else (),
            )
        )
    return tuple(out)


def _heads(f: Finding, adopted: Mapping[str, tuple[str, str]]) -> tuple[tuple[str, str, str], ...]:
    """A contest's heads, each with (signature, words) of its adoption on record; none
    for two bindings of one section (their candidates are bind acts, not heads)."""
    if f.kind != "contested" or f.binding in f.candidates:
        return ()
    return tuple((h, *adopted.get(h, ("", ""))) for h in f.candidates)


def _reader(
    root: Path, source: str, index: GitTreeSource | None = None
) -> Callable[[str], bytes | None]:
    """Reads a file where the check looked, one path at a time: from the index's own
    listing (``index``) where it lists the path, else from a listing of that path in
    the same index (a hook's ``GIT_INDEX_FILE``: ``git commit PATH`` or ``-a`` judges
    a temporary index, not ``.git/index``)."""
    from forest_files.custody.content import GitTreeSource, WorktreeSource

    if source == "worktree":
        return WorktreeSource(root, use_stat_cache=False).read
    rev = None if source == "index" else source
    held = index if source == "index" else None
    keep = held.keep_index_file if held is not None else source == "index"

    def read(path: str) -> bytes | None:
        if held is not None and held.lists(path):
            return held.read(path)
        return GitTreeSource(root, rev=rev, keep_index_file=keep, only=(path,)).read(path)

    return read
