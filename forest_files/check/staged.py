"""The staged change judged against the staged ledger: the pre-commit hook's check,
and ``forest check --staged``.

Stores: only local caches (views, binding maps, the alias of HEAD's ledger
tree); the working tree and the git index are never modified or stashed.
Refuses: nothing itself; a damaged staged ledger raises what replay raises.
Returns: a ``CheckReport`` of the bindings the staged change can have moved
(HEAD was judged when it was committed): those of staged paths, and, when
ledger files are staged, those whose binding or ground differs from HEAD's;
staged files a ``[require]`` rule names but nothing binds are warnings (notes
the hook prints; ``ok`` stays true: a draft may be committed).
Test: tests/doors/test_hooks.py, tests/doors/test_doors.py

Honours ``GIT_INDEX_FILE`` (``git commit -a`` and ``git commit PATH`` use a
temporary index). Its cost grows with the staged change: when no ledger file
is staged, the staged ledger is HEAD's (its view found through the alias of
HEAD's ledger tree id, viewkey.py), and only the staged paths' bindings are
judged, from the view's binding map (bindmap.py): SQLite is opened only to
explain a finding. Before any view exists (the first commit after a clone), the
paths the staged ledger's acts bind are read from its decoded segments; a
commit touching none of them replays nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.explain import explain, with_diffs
from forest_files.check.findings import CheckReport
from forest_files.kernel.paths import CONFIG_NAME

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.custody.bindings import Binding
    from forest_files.custody.bindmap import BindMap
    from forest_files.custody.config import RequireRule
    from forest_files.custody.content import ContentSource
    from forest_files.custody.ground import Ground
    from forest_files.gitio import Change

SOURCE = "index"
WHERE = "git index"


def judge_staged(root: Path, *, diffs: bool = False) -> CheckReport:
    """The pre-commit verdict for what is staged, against the staged ledger."""
    from forest_files.custody.viewkey import head_custody

    return judge_staged_at(root, head_custody(root), diffs=diffs)


def judge_staged_at(
    root: Path, head: tuple[str, str] | None, *, diffs: bool = False
) -> CheckReport:
    """``judge_staged`` with ``head_custody(root)`` already asked of git. Tracked
    local state (localstate.py) is judged from HEAD's ``.forest`` and the staged change."""
    from forest_files import gitio

    changes = gitio.staged_changes(
        root, keep_index_file=True, head=head[0] if head is not None else None
    )
    touched = {c.path for c in changes} | {c.old_path for c in changes if c.old_path}
    custody_uncertain = head is None or CONFIG_NAME in touched
    if custody_uncertain and not gitio.ls_files_stage(root, CONFIG_NAME, keep_index_file=True):
        return CheckReport(SOURCE, WHERE)  # the tree being committed holds no custody
    report = _judge_change(root, head, changes, touched, diffs)
    from forest_files.check import localstate

    commit = head[0] if head is not None else gitio.head_commit(root)
    tracked = localstate.in_index(root, commit, changes, keep_index_file=True)
    found = localstate.findings(tracked, root=root, source=SOURCE, keep_index_file=True)
    return report.with_extra(explain(found, root=root, source=SOURCE))


def _judge_change(
    root: Path,
    head: tuple[str, str] | None,
    changes: list[Change],
    touched: set[str],
    diffs: bool,
) -> CheckReport:
    """The staged change's findings (``judge_staged_at`` once custody is known)."""
    from forest_files.custody.viewkey import (
        bound_paths,
        commit_fingerprint,
        ledger_fingerprint,
        read_alias,
        view_path,
        view_ready,
        write_alias,
    )
    from forest_files.kernel.paths import LEDGER_PREFIX

    empty = CheckReport(SOURCE, WHERE)
    ledger_staged = any(p.startswith(LEDGER_PREFIX) or p == CONFIG_NAME for p in touched)
    # No ledger file staged: the staged ledger is HEAD's, known by its tree id, and
    # the view of it by the alias an earlier hook wrote (no listing of the ledger).
    same_as_head = head is not None and not ledger_staged
    fingerprint = read_alias(root, head[1]) if same_as_head and head is not None else None
    if fingerprint is None:
        fingerprint = ledger_fingerprint(root, "index", keep_index_file=True)
        if same_as_head and head is not None:
            write_alias(root, head[1], fingerprint)
    view = view_path(root, fingerprint)
    staged = {c.path for c in changes if c.status != "D"}
    if not ledger_staged:
        # Fast path: the staged ledger's view is cached with its bound paths; a commit
        # touching none of them needs no store, no parse, no replay.
        known = bound_paths(view)
        if known is None:
            known = _bound_from_map(view)
        if known is None and not view_ready(view):
            known = _bound_from_acts(root, view)
        if known is not None and not (known & touched):
            return _with_coverage(root, empty, staged, touched, view, known)
        report = _judge_from_map(root, view, touched, diffs)
        return _with_coverage(root, report, staged, touched, view, known)
    previous = map_of(root, commit_fingerprint(root, head[0])) if head is not None else None
    report = _judge_ledger_change(root, fingerprint, previous, touched, diffs)
    report = _with_coverage(root, report, staged, touched, view, None)
    from forest_files.custody.signing_advice import hook_warning

    warning = hook_warning(root, touched)  # advice only: the gate decides
    return report._replace(notes=(*report.notes, warning)) if warning is not None else report


def _staged_rules(root: Path, touched: set[str]) -> tuple[RequireRule, ...]:
    """The staged forest.toml's ``[require]`` rules. While forest.toml is not staged
    the staged one is HEAD's, and a working-tree file that never says ``require``
    spares the hook the git call (an unstaged edit that removed the table could hide
    a warning here, never a failure in ``forest ci``)."""
    if CONFIG_NAME not in touched:
        try:
            if b"require" not in (root / CONFIG_NAME).read_bytes():
                return ()
        except OSError:
            pass
    from forest_files.custody.sources import config_from

    return config_from(root, "index", keep_index_file=True).require


def _with_coverage(
    root: Path,
    report: CheckReport,
    staged: set[str],
    touched: set[str],
    view: Path,
    known: set[str] | None,
) -> CheckReport:
    """``report`` with a warning (a note, and ``warnings``) for each staged file a
    ``[require]`` rule names that the staged ledger leaves unbound. Only staged
    paths are judged; nothing is listed, and only those files are read."""
    rules = _staged_rules(root, touched) if staged else ()
    candidates = {p for p in staged if any(r.matches(p) for r in rules)}
    if not candidates:
        return report
    from forest_files.check.coverage import unbound
    from forest_files.check.text import warning_note
    from forest_files.custody.content import GitTreeSource

    bindings: list[Binding] = []
    content: ContentSource
    if known is not None and not (known & candidates):
        content = GitTreeSource(root, None, keep_index_file=True, only=tuple(sorted(candidates)))
    else:
        bindings, _grounds, content = _touched_from_map(root, view, candidates)
    found = unbound(rules, candidates, content.read, bindings)
    if not found:
        return report
    warned = explain(found, root=root, source=SOURCE)
    notes = (*report.notes, *(warning_note(r) for r in warned))
    return report._replace(warnings=(*report.warnings, *warned), notes=notes)


def _judge_from_map(root: Path, view: Path, touched: set[str], diffs: bool) -> CheckReport:
    from forest_files.check.engine import check_all

    bindings, of_map, content = _touched_from_map(root, view, touched)
    findings = check_all(None, bindings, content, grounds=of_map) if bindings else []
    if not any(f.failed for f in findings):
        return _report(root, findings, None)  # judged without opening the store
    import sqlite3

    conn = sqlite3.connect(f"{view.as_uri()}?mode=ro", uri=True)  # words, no store
    try:
        report = _report(root, findings, conn)
    finally:
        conn.close()
    if diffs:
        from forest_files.store.forest import ForestStore

        store = ForestStore(view)
        try:
            report = with_diffs(report, store, bindings, content)
        finally:
            store.close()
    return report


def _judge_ledger_change(
    root: Path, fingerprint: str, previous: BindMap | None, touched: set[str], diffs: bool
) -> CheckReport:
    from forest_files.check import contests
    from forest_files.check.engine import check_all
    from forest_files.custody.session import custody_at

    with custody_at(root, "index", keep_index_file=True, fingerprint=fingerprint) as (
        store,
        bindings,
        content,
    ):
        grounds: dict[int, Ground] | None = None
        if previous is not None:  # judge only what the staged change can have moved
            from forest_files.custody.bindmap import derive

            staged = derive(store)
            bindings, grounds = _affected(staged, previous, touched), staged.grounds
        findings = check_all(store, bindings, content, grounds=grounds)
        extra = contests.of_store(store.conn, findings)  # contests bound to no file
        report = _report(root, findings, store.conn, extra=extra)
        if diffs and not report.ok:
            report = with_diffs(report, store, bindings, content)
        return report


def _report(
    root: Path,
    findings: list[Finding],
    conn: sqlite3.Connection | None,
    extra: list[Finding] | None = None,
) -> CheckReport:
    items = explain(findings, root=root, source=SOURCE, conn=conn)
    more = explain(extra or [], root=root, source=SOURCE, conn=conn)
    return CheckReport(SOURCE, WHERE, items, more)


def _bound_from_map(view: Path) -> set[str] | None:
    """The view's bound paths from its saved binding map, then remembered beside the
    view. Only a store-backed read wrote them before, so a view whose map a hook had
    derived never had them, and every later hook took the slow path."""
    from forest_files.custody import bindmap
    from forest_files.custody.viewkey import write_bound_paths

    known = bindmap.paths_of(bindmap.view_record(str(view)), view.stem)
    if known is not None:
        write_bound_paths(view, known)
    return known


def _bound_from_acts(root: Path, view: Path) -> set[str] | None:
    """The paths the staged ledger's acts bind, from its segments alone (each line
    decoded and checked by the one codec; no replay, no body read), remembered beside
    the view to come: after a fresh clone the first commit that touches no bound path
    builds no view. Every path any act binds is a superset of the bound paths, so a
    commit touching none of them cannot move a binding. A large ledger is decoded in
    parts by child processes (``path_scan``). A line that does not decode gives
    None: the slow path replays and reports it."""
    from forest_files.custody import path_scan
    from forest_files.custody.sources import segment_bytes_at
    from forest_files.custody.viewkey import write_bound_paths
    from forest_files.ledger.acts import LedgerError

    try:
        known = path_scan.bound_paths(segment_bytes_at(root, "index", keep_index_file=True))
    except LedgerError:
        return None
    try:
        view.parent.mkdir(parents=True, exist_ok=True)
        write_bound_paths(view, known)
    except OSError:
        pass  # only a slower next hook
    return known


def map_of(root: Path, fingerprint: str | None) -> BindMap | None:
    """The binding map of a cached view, derived and saved if only the view is there
    (None when the view is not cached)."""
    if fingerprint is None:
        return None
    from forest_files.custody import bindmap
    from forest_files.custody.viewkey import view_path, view_ready

    view = view_path(root, fingerprint)
    record = bindmap.view_record(str(view))
    found = bindmap.load(record, fingerprint)
    if found is None and view_ready(view):
        from forest_files.store.forest import ForestStore

        store = ForestStore(view)
        try:
            found = bindmap.derive(store)
        finally:
            store.close()
        bindmap.save(record, fingerprint, found)
    return found


def _affected(staged: BindMap, previous: BindMap, touched: set[str]) -> list[Binding]:
    """Bindings a commit staging ledger files can have moved off ground: those of
    staged paths, and those whose binding or ground differs from HEAD's (compared by
    content, not by local ids); with every other binding of the same section, so a
    contest names all its candidates."""

    def key(b: Binding, ground: Ground | None) -> tuple[object, ...]:
        fields = (b.path, b.selector, b.excludes, b.section_hash)
        return (*fields, b.normalisation, b.hash_algo, b.retired, b.contested, ground)

    before = {b.bind_act: key(b, previous.grounds.get(b.entry_id)) for b in previous.bindings}
    moved = {
        (b.path, b.selector)
        for b in staged.bindings
        if b.path in touched or before.get(b.bind_act) != key(b, staged.grounds.get(b.entry_id))
    }
    return [b for b in staged.bindings if (b.path, b.selector) in moved]


def _touched_from_map(
    root: Path, view: Path, touched: set[str]
) -> tuple[list[Binding], dict[int, Ground], ContentSource]:
    """Bindings of the staged paths, every ground, and the staged content: from the
    view's binding map (bindmap.py), derived and saved once per view."""
    from forest_files.custody import bindmap
    from forest_files.custody.content import GitTreeSource

    fingerprint = view.stem
    record = bindmap.view_record(str(view))
    wanted = sorted(touched)  # path order: the same report on every run
    found = bindmap.load(record, fingerprint, wanted) if view.exists() else None
    if found is None:
        from forest_files.custody.session import custody_at

        with custody_at(
            root, "index", keep_index_file=True, paths=touched, fingerprint=fingerprint
        ) as (store, _bindings, _content):
            found = bindmap.derive(store)
        bindmap.save(record, fingerprint, found)
    bindings = [b for b in found.bindings if b.path in touched]
    content = GitTreeSource(root, None, keep_index_file=True, only=tuple(sorted(touched)))
    return bindings, found.grounds, content
