"""The one check path: every door asks here and renders what comes back.

Stores: only the local caches a check keeps (stat and parse caches, binding
maps, views, the remembered clean verdict of a whole working-tree check).
Refuses: nothing itself; an unknown revision or a damaged ledger at the
source raises what gitio and replay raise.
Returns: a ``CheckReport``: ``worktree`` (the working tree against the
synced index), ``index`` (every binding of the staged ledger against the
staged files; the pre-commit hook asks staged.py, which judges only what the
staged change can have moved), or a commit (its tree against its own ledger).
An index there that cannot be read leaves the findings judged, each saying
why its adopter is unknown (adopter_unknown.py). Coverage (files/coverage.py,
forest.toml's ``[require]`` at the same source) adds ``unbound`` findings:
failures for the working tree and a commit, warnings for the index (a draft
may be committed).
Test: tests/doors/test_doors.py, tests/check/test_coverage.py,
tests/check/test_staged_check_listed_once.py,
tests/check/test_rebound_texts_no_index.py, tests/doors/test_watch_unreadable_contests.py,
tests/check/test_adopter_unreadable_index.py, tests/doors/test_staged_audit_head.py
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import CheckReport

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.findings import Reported
    from forest_files.check.opening import Custody
    from forest_files.custody.content import GitTreeSource
    from forest_files.text.extract import Document


def run_check(
    root: Path,
    source: str,
    paths: tuple[str, ...] = (),
    *,
    diffs: bool = False,
    quick: bool = False,
    without: tuple[str, ...] = (),
    routes: bool = True,
) -> CheckReport:
    """Judge ``source`` (``worktree``, ``index`` or a revision), limited to ``paths``.
    ``quick`` (the index, no paths): when HEAD was judged clean in full on this
    machine (judged.py), judge only what the staged change can have moved, as the
    pre-commit hook does; the report then lists those bindings only. ``without`` (the
    working tree, no paths): the whole tree but these paths (apart.py). ``routes`` off
    (the working tree, no diffs): each finding's kind as reported, no route built and no
    adopter read (explain.py ``unrouted``: ``forest status``'s table). A report of the
    index names HEAD's commit (``head``) when the run asked it of git (``quick``)."""
    if source == "index":  # the staged forest.toml decides, never the working tree's
        head = None
        if quick and not paths:
            from forest_files.check.judged import judged_clean
            from forest_files.custody.viewkey import head_custody

            head = head_custody(root)
            if head is not None and judged_clean(root, head[0]):
                from forest_files.check.staged import judge_staged_at

                report = judge_staged_at(root, head, diffs=diffs)  # HEAD asked of git once
                where = "git index (the staged change; HEAD judged clean)"
                return report._replace(where=where, head=head[0])
        report = _index(root, paths, diffs, head)
        return report if head is None else report._replace(head=head[0])
    if source == "worktree":
        return _worktree(root, paths, diffs, without, routes)
    return _commit(root, source, paths, diffs)


def _worktree(
    root: Path, paths: tuple[str, ...], diffs: bool, without: tuple[str, ...], routes: bool
) -> CheckReport:
    from forest_files.check.adopter_unknown import store_or_none
    from forest_files.check.apart import no_binding, rest
    from forest_files.check.coverage import in_source
    from forest_files.check.engine import check_all
    from forest_files.check.explain import explain
    from forest_files.check.explain_diffs import with_diffs
    from forest_files.check.opening import open_custody
    from forest_files.custody.config import load_config
    from forest_files.custody.session import remember_verdict, verdict_inputs

    with open_custody(root, "worktree", within=paths) as custody:
        content = custody.content
        judged = rest(root, without, custody.bindings) if without else paths
        parsed: dict[str, tuple[str, Document]] = {}
        findings = check_all(
            None,
            custody.bindings,
            content,
            paths=judged,
            grounds=custody.grounds,
            documents=parsed,
            history=custody,
        )
        before = custody.inputs if custody.inputs is not None else verdict_inputs(str(root))
        cfg = load_config(root)
        rules = cfg.require
        unbound = in_source(rules, content, custody.bindings, within=judged, bind=cfg.bind)
        left = (without, custody) if without else None
        unbound += no_binding(root, judged, before, findings, left)
        failed = any(f.failed for f in findings) or bool(unbound)
        if not judged:
            # A remembered verdict keys on bound files only, so a new required file
            # would not invalidate it: with [require] rules no verdict is remembered.
            remember_verdict(root, before, content, custody.bindings, failed or bool(rules))
        if not failed:
            items = explain(findings, root=root, source="worktree")
            return CheckReport("worktree", content.name, items)
        if not routes:
            from forest_files.check.explain import unrouted

            kinds = unrouted(findings, root=root, source="worktree")
            return CheckReport(
                "worktree", content.name, kinds, unrouted(unbound, root=root, source="worktree")
            )
        if not diffs:
            # Who adopted each ground (and each head of a contest): the rows they came
            # from, read-only, without opening the repository (a git call and a sync:
            # the watcher's cost).
            named = _named(custody, findings, parsed)
            extra = _named(custody, unbound) if unbound else ()
            return CheckReport("worktree", content.name, named, extra)
        store = store_or_none(custody)  # who adopted, and the ground text of a diff
        if store is None:  # an index this user may not read: the findings, no diffs
            extra = _named(custody, unbound) if unbound else ()
            return CheckReport("worktree", content.name, _named(custody, findings, parsed), extra)
        items = explain(findings, root=root, source="worktree", conn=store.conn, documents=parsed)
        extra = explain(unbound, root=root, source="worktree", conn=store.conn)
        report = CheckReport("worktree", content.name, items, extra)
        return with_diffs(report, store, custody.bindings, content)


def _named(
    custody: Custody,
    findings: list[Finding],
    documents: Mapping[str, tuple[str, Document]] | None = None,
) -> tuple[Reported, ...]:
    """``findings`` explained with who adopted each ground, from the rows the grounds
    came from; without names when those rows went away meanwhile. Where there are no
    rows to read (no index file) and a binding rebound twice needs words for its
    rebind routes (rebound_texts.py), the one store the custody opens (the synced
    index a diff opens too) is asked instead; no other finding opens it."""
    import sqlite3

    from forest_files.check.adopter_unknown import noted, rows_of, unread_reason
    from forest_files.check.explain import explain
    from forest_files.check.finding import has_reason

    root, source = Path(custody.root), "worktree"
    conn, unread = rows_of(custody)  # unread: why a file there cannot be read, said on each
    if conn is None:
        if any(f.kind == "contested" and has_reason(f, "rebound-twice") for f in findings):
            from forest_files.kernel.errors import ForestError

            try:
                store = custody.store()
            except (ForestError, sqlite3.Error, OSError):  # a store that cannot be opened
                found = explain(findings, root=root, source=source, documents=documents)
                return noted(found, unread)
            return explain(findings, root=root, source=source, conn=store.conn, documents=documents)
        return noted(explain(findings, root=root, source=source, documents=documents), unread)
    try:
        return explain(findings, root=root, source=source, conn=conn, documents=documents)
    except sqlite3.Error as exc:  # rows that went away meanwhile, or a damaged file
        found = explain(findings, root=root, source=source, documents=documents)
        return noted(found, unread_reason(custody.rows_file(), exc))
    finally:
        conn.close()


def _index(
    root: Path, paths: tuple[str, ...], diffs: bool, head: tuple[str, str] | None
) -> CheckReport:
    """Every binding of the staged ledger against the staged files (the store is
    opened only to explain a finding); blobs this machine hashed before are not
    read again (statcache.BlobHashCache). The whole index is listed once: forest.toml,
    the view key (``head``: HEAD's, from ``head_custody``) and a failed file's index
    entries and flags, for the conversion, conflict and unstaged readers, come from
    that listing (staged_listing.py; content_git.py ``entries_at``, ``flags_at``)."""
    from forest_files.check import contests
    from forest_files.check.commit_plan import with_plan
    from forest_files.check.coverage import in_source
    from forest_files.check.engine import check_all
    from forest_files.check.explain import explain
    from forest_files.check.explain_diffs import with_diffs
    from forest_files.check.opening import open_custody
    from forest_files.check.staged_listing import listed_index, remember_head
    from forest_files.custody.content import GitTreeSource

    listed = listed_index(root, head, keyed=not paths)
    read, key = listed.config, listed.fingerprint  # a view built takes the config read
    with open_custody(
        root,
        "index",
        within=paths,
        keep_index_file=True,
        config=read,
        fingerprint=key,
        listing=listed.content,
    ) as custody:
        content = custody.content
        assert isinstance(content, GitTreeSource)
        bindings, view = custody.bindings, custody.view
        assert view is not None
        parsed: dict[str, tuple[str, Document]] = {}
        findings = check_all(
            None,
            bindings,
            content,
            paths=paths,
            grounds=custody.grounds,
            documents=parsed,
            history=custody,
        )
        cfg = read.config
        gaps = in_source(cfg.require, content, bindings, within=paths, bind=cfg.bind)
        unbound = explain(gaps, root=root, source="index")  # the hook says: a warning
        if any(f.failed for f in findings):  # the readers take the check's own listing
            from forest_files.check.converted import with_conversion

            findings = with_conversion(root, findings, listed=content.entries_at)
        more = _no_binding(content, findings, paths, lambda: contests.of_view(view, findings))
        failed = any(f.failed for f in findings)
        if not failed and not paths and not gaps and not more:
            remember_head(root, {b.path for b in bindings}, head, listed.changes)
        # Who adopted a ground or a contest's heads: the view's rows read-only, as the
        # hook reads them; the store (Forest 0.4's ops) is opened for a terminal's diffs.
        reader = custody.reader() if (failed or more) and not diffs else None
        try:
            conn = reader if reader is not None or not (failed or more) else custody.store().conn
            if failed:
                items = explain(findings, root=root, source="index", conn=conn, index=content)
            else:
                items = explain(findings, root=root, source="index")
            report = CheckReport("index", content.name, items, warnings=unbound)
            extra = explain(more, root=root, source="index", conn=conn, index=content)
            report = report.with_extra(extra)
        finally:
            if reader is not None:
                reader.close()
        if not failed:
            return report
        flags = content.flags_at  # the listing's: the index is not asked again
        report = with_plan(report, bindings, content.read, parsed, root=root, flags=flags)
        return with_diffs(report, custody.store(), bindings, content) if diffs else report


def _no_binding(
    content: GitTreeSource,
    findings: list[Finding],
    paths: tuple[str, ...],
    contested: Callable[[], list[Finding]],
) -> list[Finding]:
    """Findings of no binding at a git source: tracked local state, from the listing
    the content source holds, bound files the source's ``.gitattributes`` make git
    rewrite on checkout (checkout_rewrite.py: one git call for the index, three for a
    commit; none while no ``.gitattributes`` above a bound file can set such a rule),
    and the contests no binding reports (with ``paths``, only the bindings rebound twice
    with a place under one: contests.py ``within``)."""
    from forest_files.check import checkout_rewrite, contests, localstate
    from forest_files.kernel.paths import FOREST_DIR

    source = "index" if content.rev is None else content.rev
    listing = content.listed(FOREST_DIR) or ()
    more = localstate.of_listing(listing, paths, root=content.root, source=source)
    # none above a bound file that can set a rewriting attribute: git not asked
    there = checkout_rewrite.asked_paths(checkout_rewrite.judged_paths(findings), content)
    keep = content.rev is None  # the hook's temporary index, when it runs there
    more += checkout_rewrite.findings(content.root, source, there, keep_index_file=keep)
    return [*contests.within(contested(), paths), *more]


def _commit(root: Path, rev: str, paths: tuple[str, ...], diffs: bool) -> CheckReport:
    from forest_files import gitio
    from forest_files.check import contests
    from forest_files.check.coverage import in_source
    from forest_files.check.engine import check_all
    from forest_files.check.explain import explain
    from forest_files.check.explain_diffs import with_diffs
    from forest_files.check.opening import open_custody
    from forest_files.custody.content import GitTreeSource
    from forest_files.custody.sources import config_from

    commit = gitio.resolve_commit(root, rev)
    cfg = config_from(root, commit)
    with open_custody(root, commit, within=paths) as custody:
        store, bindings, content = custody.store(), custody.bindings, custody.content
        findings = check_all(store, bindings, content, paths=paths, grounds=custody.grounds)
        items = explain(findings, root=root, source=commit, conn=store.conn)
        gaps = in_source(cfg.require, content, bindings, within=paths, bind=cfg.bind)
        assert isinstance(content, GitTreeSource)
        gaps += _no_binding(
            content, findings, paths, lambda: contests.of_store(store.conn, findings)
        )
        extra = explain(gaps, root=root, source=commit, conn=store.conn)
        report = CheckReport(rev, content.name, items, extra)
        return with_diffs(report, store, bindings, content) if diffs else report


__all__ = ["CheckReport", "run_check"]
