"""The one check path: every door asks here and renders what comes back.

Stores: only the local caches a check keeps (stat and parse caches, binding
maps, views, the remembered clean verdict of a whole working-tree check).
Refuses: nothing itself; an unknown revision or a damaged ledger at the
source raises what gitio and replay raise.
Returns: a ``CheckReport``: ``worktree`` (the working tree against the
synced index), ``index`` (every binding of the staged ledger against the
staged files; the pre-commit hook asks staged.py, which judges only what the
staged change can have moved), or a commit (its tree against its own ledger).
Coverage (files/coverage.py, forest.toml's ``[require]`` at the same source)
adds ``unbound`` findings: failures for the working tree and a commit,
warnings for the index (a draft may be committed).
Test: tests/test_doors.py, tests/test_coverage.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.doors.explain import with_diffs
from forest_files.doors.model import CheckReport

if TYPE_CHECKING:
    from forest_files.files.check import Finding


def run_check(
    root: Path, source: str, paths: tuple[str, ...] = (), *, diffs: bool = False
) -> CheckReport:
    """Judge ``source`` (``worktree``, ``index`` or a revision), limited to ``paths``."""
    if source == "index":
        from forest_files.config import CONFIG_NAME
        from forest_files.errors import ForestError

        if not (root / CONFIG_NAME).exists():
            raise ForestError(f"{root}: no {CONFIG_NAME} here; run `forest init` first")
        return _commit(root, "index", paths, diffs)
    if source == "worktree":
        return _worktree(root, paths, diffs)
    return _commit(root, source, paths, diffs)


def _worktree(root: Path, paths: tuple[str, ...], diffs: bool) -> CheckReport:
    from forest_files.config import load_config
    from forest_files.doors.explain import explain
    from forest_files.files.check import check_all
    from forest_files.files.coverage import in_source
    from forest_files.files.session import remember_verdict, worktree_custody

    bmap, content, before = worktree_custody(root)
    findings = check_all(None, bmap.bindings, content, paths=paths, grounds=bmap.grounds)
    rules = load_config(root).require
    unbound = in_source(rules, content, bmap.bindings, within=paths)
    failed = any(f.failed for f in findings) or bool(unbound)
    if not paths:
        # A remembered verdict keys on bound files only, so a new required file would
        # not invalidate it: with [require] rules no verdict is remembered.
        remember_verdict(root, before, content, bmap.bindings, failed or bool(rules))
    if not failed:
        return CheckReport(
            "worktree", content.name, explain(findings, root=root, source="worktree")
        )
    from forest_files.repository import Repository

    with Repository(root) as opened:  # who adopted, and the ground text of a diff
        store = opened._synced()
        items = explain(findings, root=root, source="worktree", conn=store.conn)
        extra = explain(unbound, root=root, source="worktree")
        report = CheckReport("worktree", content.name, items, extra)
        return with_diffs(report, store, bmap.bindings, content) if diffs else report


def _commit(root: Path, rev: str, paths: tuple[str, ...], diffs: bool) -> CheckReport:
    from forest_files import gitio
    from forest_files.doors.explain import explain
    from forest_files.files.check import check_all
    from forest_files.files.coverage import in_source
    from forest_files.files.session import custody_at
    from forest_files.ledger.sources import config_from

    commit = rev if rev == "index" else gitio.resolve_commit(root, rev)
    rules = config_from(root, commit, keep_index_file=rev == "index").require
    with custody_at(root, commit, keep_index_file=rev == "index") as (store, bindings, content):
        findings = check_all(store, bindings, content, paths=paths)
        items = explain(findings, root=root, source=commit, conn=store.conn)
        gaps = in_source(rules, content, bindings, within=paths)
        unbound = explain(gaps, root=root, source=commit)
        if rev == "index":  # what the hook would say of them: a warning
            report = CheckReport(rev, content.name, items, warnings=unbound)
        else:
            report = CheckReport(rev, content.name, items, unbound)
        return with_diffs(report, store, bindings, content) if diffs else report


__all__ = ["CheckReport", "Finding", "run_check"]
