"""The staged change judged against the staged ledger: the pre-commit hook's check,
and ``forest check --staged``.

Stores: only local caches (views, binding maps, the alias of HEAD's ledger
tree); the working tree and the git index are never modified or stashed.
Refuses: a staged change that removes forest.toml, or the whole ledger, that HEAD
holds (custody_removal.py); a damaged staged ledger raises what replay raises.
Returns: a ``CheckReport`` of the bindings the staged change can have moved
(HEAD was judged when it was committed): those of staged paths, and, when
ledger files are staged, those whose binding or ground differs from HEAD's; and,
on every commit whatever it touches, every contest of the staged ledger no finding
names (one HEAD holds: a merge made with ``--no-verify``, or pulled fast-forward);
staged files a ``[require]`` rule names but nothing binds are warnings (``ok`` stays
true: a draft may be committed). A finding whose staged blob only git's conversion
made (a clean filter set after adoption) says so (converted.py).
Test: tests/doors/test_hooks.py, tests/doors/test_doors.py, tests/doors/test_hooks_custody.py,
tests/check/test_staged_converted.py, tests/doors/test_doors_cost.py,
tests/doors/test_hook_contest_later.py

Honours ``GIT_INDEX_FILE`` (``git commit -a``, ``git commit PATH``). Its cost grows
with the staged change: when no ledger file is staged, the staged ledger is HEAD's
(its view found through the alias of HEAD's ledger tree id, viewkey.py), and only
the staged paths' bindings are judged, from the view's binding map (bindmap.py):
SQLite is opened only to explain a finding. Before any view exists (the first commit
after a clone), the paths the staged ledger's acts bind are read from its decoded
segments; a commit touching none of them replays nothing. The staged ledger's
contests (a merge that brought one past the hook) are one query more on its view;
before it exists, the decoded segments say whether one is possible, and only then is
the view built to ask it (staged_contests.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.custody_removal import refuse_custody_removal
from forest_files.check.findings import CheckReport
from forest_files.kernel.paths import CONFIG_NAME

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.check.findings import Reported
    from forest_files.custody.bindconf import BindRule
    from forest_files.custody.bindmap import BindMap
    from forest_files.custody.config import RequireRule
    from forest_files.custody.content import ContentSource, GitTreeSource
    from forest_files.gitio import Change
    from forest_files.text.extract import Document

SOURCE = "index"
WHERE = "git index"


def judge_staged(root: Path, *, diffs: bool = False) -> CheckReport:
    """The pre-commit verdict for what is staged, against the staged ledger."""
    from forest_files.custody.viewkey import head_custody

    return judge_staged_at(root, head_custody(root), diffs=diffs)


def judge_staged_at(
    root: Path, head: tuple[str, str] | None, *, diffs: bool = False, commit: str | None = None
) -> CheckReport:
    """``judge_staged`` with ``head_custody(root)`` already asked of git (``commit``:
    HEAD's commit when the caller asked it too, ``""`` on an unborn branch; None: asked
    here when needed). Tracked local state (localstate.py) is judged from HEAD's
    ``.forest`` and the staged change."""
    from forest_files import gitio

    if commit is None:  # once: the staged change and the tracked local state's base
        commit = head[0] if head is not None else gitio.head_commit(root) or ""
    changes = gitio.staged_changes(root, keep_index_file=True, head=commit)
    touched = {c.path for c in changes} | {c.old_path for c in changes if c.old_path}
    refuse_custody_removal(root, changes)
    custody_uncertain = head is None or CONFIG_NAME in touched
    if custody_uncertain and not gitio.ls_files_stage(root, CONFIG_NAME, keep_index_file=True):
        return CheckReport(SOURCE, WHERE)  # the tree being committed holds no custody
    report = _judge_change(root, head, changes, touched, diffs, commit)
    from forest_files.check import localstate

    tracked = localstate.in_index(root, commit or None, changes, keep_index_file=True)
    found = localstate.findings(tracked, root=root, source=SOURCE, keep_index_file=True)
    from forest_files.check.staged_checkout import rewritten_on_checkout

    found += rewritten_on_checkout(root, SOURCE, touched, report)
    return report.with_extra(_explained(root, found))


def _judge_change(
    root: Path,
    head: tuple[str, str] | None,
    changes: list[Change],
    touched: set[str],
    diffs: bool,
    commit: str,
) -> CheckReport:
    """The staged change's findings (``judge_staged_at`` once custody is known)."""
    from forest_files.check.opening import index_fingerprint
    from forest_files.kernel.paths import LEDGER_PREFIX

    ledger_staged = any(p.startswith(LEDGER_PREFIX) or p == CONFIG_NAME for p in touched)
    fingerprint = index_fingerprint(root, head, ledger_staged, keep_index_file=True)
    staged = {c.path for c in changes if c.status != "D"}
    if not ledger_staged:
        report = _judge_touched(root, fingerprint, touched, diffs)
        return _with_coverage(root, report, staged, touched, fingerprint)
    report = _judge_ledger_change(root, fingerprint, head, changes, diffs, commit)
    report = _with_coverage(root, report, staged, touched, fingerprint)
    from forest_files.custody.signing_advice import hook_warning

    warning = hook_warning(root, touched)  # advice only: the gate decides
    return report._replace(notes=(*report.notes, warning)) if warning is not None else report


def _staged_rules(
    root: Path, touched: set[str]
) -> tuple[tuple[RequireRule, ...], tuple[BindRule, ...]]:
    """The staged forest.toml's ``[require]`` rules and ``[bind]`` defaults. While
    forest.toml is not staged the staged one is HEAD's, and a working-tree file that
    never says ``require`` spares the hook the git call (an unstaged edit that removed
    the table could hide a warning here, never a failure in ``forest ci``)."""
    if CONFIG_NAME not in touched:
        try:
            if b"require" not in (root / CONFIG_NAME).read_bytes():
                return (), ()
        except OSError:
            pass
    from forest_files.custody.sources import config_from

    cfg = config_from(root, "index", keep_index_file=True)
    return cfg.require, cfg.bind


def _with_coverage(
    root: Path, report: CheckReport, staged: set[str], touched: set[str], fingerprint: str
) -> CheckReport:
    """``report`` with a warning (a note, and ``warnings``) for each staged file a
    ``[require]`` rule names that the staged ledger leaves unbound. Only staged
    paths are judged; nothing is listed, and only those files are read."""
    rules, bind = _staged_rules(root, touched) if staged else ((), ())
    candidates = {p for p in staged if any(r.matches(p) for r in rules)}
    if not candidates:
        return report
    from forest_files.check.coverage import unbound
    from forest_files.check.opening import open_custody
    from forest_files.check.text import warning_note

    with open_custody(
        root, "index", touched=candidates, keep_index_file=True, fingerprint=fingerprint
    ) as custody:
        found = unbound(rules, candidates, custody.content.read, custody.bindings, bind)
    if not found:
        return report
    warned = _explained(root, found)
    notes = (*report.notes, *(warning_note(r) for r in warned))
    return report._replace(warnings=(*report.warnings, *warned), notes=notes)


def _judge_touched(root: Path, fingerprint: str, touched: set[str], diffs: bool) -> CheckReport:
    """The bindings of the staged paths (none at all when the staged ledger binds none
    of them), judged without opening the store while they are clean; and the staged
    ledger's contests (staged_contests.py)."""
    from forest_files.check.opening import open_custody
    from forest_files.check.staged_contests import contested, with_contests

    with open_custody(
        root, "index", touched=touched, keep_index_file=True, fingerprint=fingerprint
    ) as custody:
        bindings = custody.bindings
        if not bindings:  # no staged path is bound: nothing to judge or list, no engine loaded
            return with_contests(root, custody, [], _report(root, [], None))
        content = custody.content  # lists the staged paths (git ls-files) on first use
        from forest_files.check.engine import check_all

        parsed: dict[str, tuple[str, Document]] = {}
        grounds = custody.grounds  # history: move_rebound.py, asked only when needed
        findings = check_all(
            None, bindings, content, grounds=grounds, documents=parsed, history=custody
        )
        if not any(f.failed for f in findings):  # judged without opening the store
            return with_contests(root, custody, findings, _report(root, findings, None))
        from forest_files.check.commit_plan import with_plan

        conn = custody.reader()  # words, no store
        try:
            more = contested(custody, findings, conn)  # the view opened once
            found = _report(root, findings, conn, more, content)
            flags = getattr(content, "flags_at", None)  # the index listing's (content_git.py)
            report = with_plan(found, bindings, content.read, parsed, root=root, flags=flags)
        finally:
            if conn is not None:
                conn.close()
        if not diffs:  # off a terminal: the diff module is never imported
            return report
        from forest_files.check.explain_diffs import with_diffs

        return with_diffs(report, custody.store(), bindings, content)


def _judge_ledger_change(
    root: Path,
    fingerprint: str,
    head: tuple[str, str] | None,
    changes: list[Change],
    diffs: bool,
    commit: str,
) -> CheckReport:
    """A change staging ledger files: what it can have moved, against HEAD's custody
    when this machine holds it (else every binding of the staged ledger); and no
    ledger file HEAD holds modified, retyped or deleted, no erased body brought back
    (erasure_guard.py)."""
    from forest_files.check import contests, erasure_guard
    from forest_files.check.commit_plan import with_plan
    from forest_files.check.engine import check_all
    from forest_files.check.opening import ABSENT, open_custody
    from forest_files.check.staged_affected import affected
    from forest_files.custody.bindmap import BindMap
    from forest_files.custody.erased_ground import erased_hashes

    touched = {c.path for c in changes} | {c.old_path for c in changes if c.old_path}
    rewritten = erasure_guard.rewritten_ledger(root, head[0] if head else None, changes)
    if rewritten:  # HEAD's ledger is not what the staged one grows from: judge nothing else
        return CheckReport(SOURCE, WHERE, (), tuple(rewritten))
    previous: BindMap | None = None
    if head is not None:
        with open_custody(root, head[0], replay=False) as before:
            if before.via != ABSENT:
                previous = BindMap(before.bindings, before.grounds)
    with open_custody(root, "index", keep_index_file=True, fingerprint=fingerprint) as custody:
        store, content = custody.store(), custody.content
        bindings = custody.bindings
        if previous is not None:  # judge only what the staged change can have moved
            staged = BindMap(custody.bindings, custody.grounds)
            bindings = affected(staged, previous, touched)
        parsed: dict[str, tuple[str, Document]] = {}
        findings = check_all(
            store, bindings, content, grounds=custody.grounds, documents=parsed, head=commit
        )
        extra = contests.of_store(store.conn, findings)  # contests bound to no file
        from forest_files.check.tombhits import staged_findings, withhold

        erased = staged_findings(root, head[0] if head is not None else None, store)
        gone = erased_hashes(store)
        guarded = erasure_guard.deleted_bodies(root, head[0] if head else None, gone, changes)
        guarded += erasure_guard.returned_bodies(gone, changes)
        report = _report(root, findings, store.conn, [*extra, *erased], content)
        if erased:  # the staged acts' words or text may hold what a forget removed
            return withhold(report.with_extra(tuple(guarded)))
        flags = getattr(content, "flags_at", None)  # the index listing's (content_git.py)
        report = with_plan(report, bindings, content.read, parsed, root=root, flags=flags)
        if diffs and not report.ok:
            from forest_files.check.explain_diffs import with_diffs

            report = with_diffs(report, store, bindings, content)
        return report.with_extra(tuple(guarded))


def _report(
    root: Path,
    findings: list[Finding],
    conn: sqlite3.Connection | None,
    extra: list[Finding] | None = None,
    content: ContentSource | None = None,
) -> CheckReport:
    """``findings`` explained; ``content``: the staged files as the check listed them,
    whose index entries the readers of a failed finding's file take (one listing)."""
    found, index = findings, None
    if findings:
        from forest_files.check.converted import with_conversion
        from forest_files.custody.content import GitTreeSource

        index = content if isinstance(content, GitTreeSource) else None
        listed = index.entries_at if index is not None else None
        found = with_conversion(root, findings, listed=listed)  # only a failed one's file
    items = _explained(root, found, conn, index)
    more = _explained(root, extra or [], conn, index)
    return CheckReport(SOURCE, WHERE, items, more)


def _explained(
    root: Path,
    findings: list[Finding],
    conn: sqlite3.Connection | None = None,
    index: GitTreeSource | None = None,
) -> tuple[Reported, ...]:
    """``findings`` with their routes (explain.py); none found, nothing of the routes'
    modules imported (the common clean commit: a warm ``check --staged``, the hook)."""
    if not findings:
        return ()
    from forest_files.check.explain import explain

    return explain(findings, root=root, source=SOURCE, conn=conn, index=index)
