"""A report's failed findings routed: what ``explain`` (explain.py) hands on once any failed.

Each failed finding is given its routes (built from the repository's real state), who
adopted its ground (``adopted``: explain.py ``adoptions_of``) and its hints; a clean
one is passed on bare. What each route reads, and when, is said in explain.py's header.
Stores: nothing.
Refuses: nothing.
Returns: ``Reported`` per finding, in order.
Test: tests/doors/test_doors.py, tests/check/test_conflicts.py,
tests/check/test_conflicts_listing.py, tests/check/test_routes_nested_restore.py,
tests/doors/test_fastcheck.py
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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


def routed(
    findings: Sequence[Finding],
    adopted: Mapping[str, tuple[str, str]],
    *,
    root: Path,
    source: str,
    conn: sqlite3.Connection | None = None,
    hints: Callable[[Finding], tuple[str, ...]] | None = None,
    documents: Mapping[str, tuple[str, Document]] | None = None,
    local: bool = True,
    index: GitTreeSource | None = None,
) -> tuple[Reported, ...]:
    """``findings`` reported, each failed one with its routes, ``adopted``'s signer and
    words for its ground, and its hints (explain.py ``explain`` says what each argument
    is for)."""
    out: list[Reported] = []
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
