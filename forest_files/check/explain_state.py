"""What ``explain`` reads of the repository and the store once per call, for every route.

Stores: nothing.
Refuses: nothing.
Returns: ``nested`` (a drift's restore route that would remove another bound section,
said, with ``--drop-nested``: route_nested.py); ``signer`` (who a working tree's
routes sign as); ``rewritten`` (the hint for each working-tree file git rewrites as it
checks it out); ``staged`` (the files whose restore stages them again: one git call);
``sided`` (each contest whose file is in a merge conflict, with its heads' sides:
contest_conflict.py); ``merged`` (the contests git merged both heads' edits into, and
those holding one head's text: one query). Each asked only when a finding needs it.
Test: tests/check/test_routes_nested_restore.py, tests/check/test_contested_merged.py,
tests/check/test_contested_bindings.py, tests/check/test_merge_routes.py,
tests/doors/test_doors.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Route
from forest_files.check.route_authority import Signer

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.check.held import Side


def nested(
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


def signer(findings: Sequence[Finding], root: Path) -> Signer | None:
    """Who this working tree's routes sign as (route_authority.py): asked only when a
    finding failed."""
    return Signer.of(root) if any(f.failed for f in findings) else None


def rewritten(findings: Sequence[Finding], *, root: Path, source: str) -> dict[str, tuple[str]]:
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


def staged(findings: Sequence[Finding], *, root: Path, source: str) -> frozenset[str]:
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


def sided(
    conn: sqlite3.Connection | None, findings: Sequence[Finding], root: Path, source: str
) -> dict[Finding, dict[str, Side]]:
    """Each contest whose file is in a merge conflict -> its heads one side of the
    merge alone brought (contest_conflict.py); nothing asked without such a contest."""
    from forest_files.check.finding import has_reason

    if not any(f.kind == "contested" and has_reason(f, "conflict") for f in findings):
        return {}
    from forest_files.check.contest_conflict import sides

    return sides(conn, findings, root, source)


def merged(
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
