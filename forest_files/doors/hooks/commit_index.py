"""The pre-commit hook's refusal as the commit's own index needs it.

``git commit -a``/``-p`` stage into a lock of their own and ``git commit FILE…``
commits the named files alone, so a refused commit's routes must stage what that
commit took (check/commit_route.py), and the command that lists every finding is
``forest check`` when the commit judged more than the index. Asked only for a refused
commit: an accepted one never imports this.
Stores: nothing.
Refuses: nothing.
Returns: ``commit_index``: (the report, lines said after it, whether the commit judged
another index than the repository's).
Test: tests/doors/test_hooks.py, tests/check/test_commit_route.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.check.findings import CheckReport


def commit_index(
    root: Path, report: CheckReport, many: bool, *, head: str | None = None
) -> tuple[CheckReport, list[str], bool]:
    """The report as the commit's own index needs it (check/commit_route.py): for
    ``git commit -a``/``-p``, its one route staging again what the commit staged
    beyond the index, and each route that stages the ledger staging its finding's
    files the commit took whole; for ``git commit FILE…``, which commits the named files alone,
    its one route staging them first, and the commit to run after a route that
    stages the ledger, which that commit would leave out. And whether the commit
    judged another index than the repository's (then ``check --staged`` would not
    list what it found), asked only when the findings are ``many`` (more than the
    hook shows) or a route needs it. ``head``: HEAD's commit as the hook asked it
    (``""`` on an unborn branch; None: asked of git for the named files' change)."""
    from forest_files import gitio
    from forest_files.check.commit_route import routes_stage_taken, stages_ledger

    ledger = any(stages_ledger(s) for r in report.failed for route in r.routes for s in route.steps)
    if (report.commit_route is not None or many or ledger) and gitio.commit_stages_into_lock(root):
        beyond = _beyond_index(root)
        if report.commit_route is not None:
            report = _stagedbeyond_index(report, beyond)
        report = routes_stage_taken(report, beyond[0])
        return report, [], bool(beyond[0] or beyond[1])
    if not gitio.commit_names_its_files(root):
        return report, [], False
    from forest_files.check.commit_route import for_named_files, named_files_route
    from forest_files.kernel.shellword import printable

    named = [c.path for c in gitio.staged_changes(root, keep_index_file=True, head=head)]
    report = for_named_files(report, named)
    routes = [route for r in report.failed for route in r.routes]
    if report.commit_route is not None:
        routes.append(report.commit_route)
    route = named_files_route(routes, named)
    return report, [] if route is None else ["", printable(route.line())], True


def _beyond_index(root: Path) -> tuple[list[str], list[str]]:
    """What this commit's index (the lock ``git commit -a``/``-p`` staged into) holds
    otherwise than the index: (paths staged whole, paths staged in part); both empty
    for a plain ``git commit``."""
    from forest_files import gitio

    def entries(keep: bool) -> dict[str, tuple[str, str, int]]:
        listed = gitio.ls_files_stage(root, keep_index_file=keep)
        return {e.path: (e.mode, e.blob, e.stage) for e in listed}

    mine, index = entries(True), entries(False)
    beyond = sorted(p for p in mine.keys() | index.keys() if mine.get(p) != index.get(p))
    parts = gitio.unstaged_paths(root, [p for p in beyond if p in mine], keep_index_file=True)
    return [p for p in beyond if p not in parts], sorted(parts)


def _stagedbeyond_index(report: CheckReport, beyond: tuple[list[str], list[str]]) -> CheckReport:
    """``report`` with its one route staging first what the commit staged beyond the
    index (``_beyond_index``); a plain ``git commit`` staged nothing more, and its
    route is left as it is."""
    from forest_files.check.commit_route import for_commit_staged

    return for_commit_staged(report, *beyond)


__all__ = ["commit_index"]
