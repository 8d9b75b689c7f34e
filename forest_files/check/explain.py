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
call (one ``git ls-files -u``) and handed to every route; a drift's restore route that
would remove another bound section says so and carries ``--drop-nested``
(route_nested.py); a section renamed onto a heading another binding holds, that
binding named (bound_there.py).
Test: tests/doors/test_doors.py, tests/check/test_conflicts.py,
tests/check/test_contested_merged.py, tests/check/test_contested_bindings.py,
tests/check/test_merge_routes.py, tests/check/test_routes_nested_restore.py,
tests/check/test_bound_there.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.conflicts import NO_STAGES, in_conflict
from forest_files.check.findings import CheckReport, Reported, Route
from forest_files.check.route_authority import Signer, governed
from forest_files.check.route_contest import merged_text_route
from forest_files.check.routes import hints_for, routes_for

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.check.held import Side
    from forest_files.custody.bindings import Binding
    from forest_files.custody.content import ContentSource
    from forest_files.store.forest import ForestStore
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
) -> tuple[Reported, ...]:
    """Every finding with its routes (built from the repository's real state) and, when
    ``conn`` is given, who adopted its ground. ``documents``: files the check parsed
    (``check_all``), read again by the rename ranking only where their text changed.
    ``local``: the routes are for whoever runs this command here, so one that records
    an act over a path they hold no authority over is a holder's (route_authority.py);
    the CI gate's are for whoever reads its report."""
    out: list[Reported] = []
    heads = (c for f in findings if f.kind == "contested" for c in f.candidates)
    adopted = adoptions_of(conn, [*(f.ground for f in findings if f.failed), *heads])
    if any(f.kind == "unresolved" and f.candidates for f in findings):
        from forest_files.check.renames import ranked

        findings = ranked(findings, conn, _reader(root, source), documents or {})
    kinds = {f.kind for f in findings if f.kind != "unresolved" or not f.candidates}
    if conn is not None and {"unresolved", "drifted"} <= kinds:  # renamed onto a bound one?
        from forest_files.check.bound_there import bound_there

        findings = bound_there(findings, conn, _reader(root, source), documents or {})
    if conn is not None and any(f.kind == "missing" for f in findings):
        from forest_files.check.filerenames import renamed_files

        findings = renamed_files(findings, conn, root=root, source=source)
    stages = NO_STAGES  # the index's stages of files in conflict: read once, for every route
    if any(f.failed for f in findings):  # a file in a merge conflict: resolve it first
        findings, stages = in_conflict(findings, root=root, source=source)
    merged, held = _merged(conn, findings)
    if held:
        from forest_files.check.held import holding

        findings = [holding(f, held[f], root, source) if f in held else f for f in findings]
        held = {holding(f, h, root, source): h for f, h in held.items()}
    rewritten = _rewritten(findings, root=root, source=source)
    staged = _staged(findings, root=root, source=source)
    sided = _sided(conn, findings, root, source)
    signer = _signer(findings, root) if local else None
    for f in findings:
        if not f.failed:
            out.append(Reported(f))
            continue
        by, words = adopted.get(f.ground or "", ("", ""))
        routes = routes_for(f, root=root, source=source, staged=staged, stages=stages)
        if f.kind == "drifted" and source in ("worktree", "index") and routes:
            routes = _nested(f, routes, findings, root, conn)
        if f in merged:
            routes = (*routes, merged_text_route(f, source))
        elif f in held:
            from forest_files.check.held import noted

            routes = noted(routes, held[f][0], f, root, source, staged)
        elif f in sided:  # its file in a merge conflict: take a side whole, or resolve it
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


def _nested(
    f: Finding,
    routes: tuple[Route, ...],
    findings: Sequence[Finding],
    root: Path,
    conn: sqlite3.Connection | None,
) -> tuple[Route, ...]:
    """A drift's restore route that would remove another bound section: said, with
    ``--drop-nested`` (route_nested.py)."""
    from forest_files.check.route_nested import removing, restore_route
    from forest_files.check.route_steps import forest

    if routes[0].steps[:1] != (forest("restore", f.selector),):
        return routes
    removed = removing(f, findings, root, conn)
    if not removed:
        return routes
    return (restore_route(f, routes[0], removed), *routes[1:])


def _signer(findings: Sequence[Finding], root: Path) -> Signer | None:
    """Who this working tree's routes sign as (route_authority.py): asked only when a
    finding failed."""
    return Signer.of(root) if any(f.failed for f in findings) else None


def _rewritten(findings: Sequence[Finding], *, root: Path, source: str) -> dict[str, tuple[str]]:
    """The hint for each working-tree file of a drifted or unresolved finding that git
    rewrites as it checks it out (an ``ident`` or ``working-tree-encoding`` attribute
    set after the adoption, which adopting refuses): its bytes here are git's rewrite
    of the text git holds, so it reads as drift after every checkout, and a restore
    alone holds only until the next one. Asked of git only when such a finding failed."""
    from forest_files.custody.source_entries import WORKTREE

    paths = sorted({f.path for f in findings if f.kind in ("drifted", "unresolved")})
    if source != WORKTREE or not paths:
        return {}
    from forest_files.custody.target_refusals import rewritten_on_checkout
    from forest_files.kernel.shellword import command_text, git_step, printable

    out: dict[str, tuple[str]] = {}
    for path, attr in rewritten_on_checkout(root, paths).items():
        shown = command_text(git_step("check-attr", "-a", "--", path))
        out[path] = (
            f"{printable(path)}: git rewrites it as it checks it out (`{attr}`; `{shown}` "
            "shows the attributes), so the bytes here are not the text git holds and read "
            "as drift after every checkout; custody text must not be rewritten: take that "
            "attribute off this file, then the route below puts the text back",
        )
    return out


def _staged(findings: Sequence[Finding], *, root: Path, source: str) -> frozenset[str]:
    """The files of the working tree's findings whose route may write them back (a
    drift, a missing file, a contest, a file the reader refuses) that the index holds
    otherwise than HEAD: a restore then stages them again (route_steps.py). One git
    call, only with such a finding and no merge (cherry-pick, revert) waiting: that
    stages them anyway."""
    from forest_files.check.finding import has_reason
    from forest_files.check.route_not_text import not_text
    from forest_files.check.route_steps import awaiting_commit, staged_of

    paths = [
        f.path
        for f in findings
        if (
            f.kind in ("drifted", "missing", "contested")
            and not (has_reason(f, "conflict") and f.kind != "contested")
        )
        or not_text(f) is not None  # a whole-file binding's restore writes it back
    ]
    if source != "worktree" or not paths or awaiting_commit(root):
        return frozenset()
    return staged_of(root, paths)


def _sided(
    conn: sqlite3.Connection | None, findings: Sequence[Finding], root: Path, source: str
) -> dict[Finding, dict[str, Side]]:
    """Each contest whose file is in a merge conflict -> its heads one side of the
    merge alone brought (contest_conflict.py); nothing asked without such a contest."""
    from forest_files.check.finding import has_reason

    if not any(f.kind == "contested" and has_reason(f, "conflict") for f in findings):
        return {}
    from forest_files.check.contest_conflict import sides

    return sides(conn, findings, root, source)


def _merged(
    conn: sqlite3.Connection | None, findings: Sequence[Finding]
) -> tuple[list[Finding], dict[Finding, tuple[str, str]]]:
    """The contests of heads whose section stands in the file with a text no head has
    (binding_check.py measured it): git merged both branches' edits; and those whose
    section holds exactly one head's text, each with (that head, its body hash). One
    query for the heads' body hashes, only when such a contest is found."""
    asked = [
        f
        for f in findings
        if f.kind == "contested" and f.actual_hash and f.binding not in f.candidates
    ]
    if conn is None or not asked:
        return [], {}
    from forest_files.store.queries import BODY_HASHES_OF_CONTENTS

    heads = sorted({h for f in asked for h in f.candidates})
    sql = BODY_HASHES_OF_CONTENTS.format(marks=",".join("?" * len(heads)))
    body = {str(r[0]): str(r[1]) for r in conn.execute(sql, heads)}
    merged, held = [], {}
    for f in asked:
        holds = [h for h in f.candidates if body.get(h) == f.actual_hash]
        if not holds:
            merged.append(f)
        elif len(holds) == 1:
            held[f] = (holds[0], body[holds[0]])
    return merged, held


def _heads(f: Finding, adopted: Mapping[str, tuple[str, str]]) -> tuple[tuple[str, str, str], ...]:
    """A contest's heads, each with (signature, words) of its adoption on record; none
    for two bindings of one section (their candidates are bind acts, not heads)."""
    if f.kind != "contested" or f.binding in f.candidates:
        return ()
    return tuple((h, *adopted.get(h, ("", ""))) for h in f.candidates)


def _reader(root: Path, source: str) -> Callable[[str], bytes | None]:
    """Reads a file where the check looked, one path at a time."""
    from forest_files.custody.content import GitTreeSource, WorktreeSource

    if source == "worktree":
        return WorktreeSource(root, use_stat_cache=False).read
    rev = None if source == "index" else source
    return lambda path: GitTreeSource(root, rev=rev, only=(path,)).read(path)


def with_diffs(
    report: CheckReport, store: ForestStore, bindings: list[Binding], content: ContentSource
) -> CheckReport:
    """``report`` with the ground -> now diff of each drifted finding (a terminal's), at
    most ``MAX_DIFF_LINES`` lines each, worked out no further, then the ``forest diff``
    that prints every one."""
    from forest_files.check.diff import MAX_DIFF_LINES, is_prose, section_diff

    excludes = {b.bind_act: b.excludes for b in bindings}

    def diff(f: Finding) -> str:
        words = is_prose(f.path)  # writers change words; code changes lines
        ex = excludes.get(f.binding, ())
        return section_diff(
            store, f, content, ex, words=words, limit=MAX_DIFF_LINES, source=report.source
        )

    items = tuple(
        r.with_diff(diff(r.finding)) if r.finding.kind == "drifted" else r for r in report.items
    )
    return report._replace(items=items)
