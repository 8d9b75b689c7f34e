"""The CI gate's history: every commit of the range but HEAD, judged by its own ledger.

Stores: nothing (throwaway custody views, as every commit check).
Refuses: nothing itself; a commit whose ledger cannot be replayed is returned with
its ``LedgerError`` (ci.py reports it at that commit) and the rest are still judged.
Returns: the first finding of each (binding, kind, section hash) in the range as a
``Reported`` naming its commit (ci.py merges them with HEAD's), the commits judged,
and the commits whose ledger does not replay (ci.py gives a finding of a commit
before HEAD its one route, rewriting the branch there: rewrite.py).
Test: tests/gate/test_ci_gate.py, tests/gate/test_ledger_growth.py,
tests/gate/test_ci_rewrite_asked.py
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from forest_files import gitio
from forest_files.check import checkout_rewrite
from forest_files.check.engine import Finding, check_all
from forest_files.check.explain import explain
from forest_files.check.findings import Reported
from forest_files.check.opening import open_custody
from forest_files.custody.content import GitTreeSource
from forest_files.custody.sources import LEDGER_PREFIX
from forest_files.custody.viewkey import RangeKeys, range_keys
from forest_files.gitio import Change
from forest_files.kernel.progress import tracked
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.segments import SEGMENTS_DIR

_SEGMENTS = f"{LEDGER_PREFIX}{SEGMENTS_DIR}"
ROUTES_ON = "worktree"  # routes act on the checked-out tree (a CI checkout of HEAD)
HistoryKey = tuple[str, str, "str | None"]
CommitKey = tuple[str, str] | None  # a commit's id and ledger tree key (viewkey.py)


def range_diffs(
    root: Path, commits: Iterable[str], parents: Mapping[str, tuple[str, ...]]
) -> dict[tuple[str, str], list[Change]]:
    """Every path each commit changed against each of its parents, by (commit, parent),
    in one ``git diff-tree --stdin`` for the whole range, HEAD too: ``changed_by`` reads
    it, and the ledger's growth (growth.py) its changes under ``.forest/ledger``.
    Renames are split, so a moved file is its deletion and an addition."""
    pairs = [(c, p) for c in commits for p in parents.get(c, ())]
    diffs = gitio.diff_each_parent(root, pairs, None, filters=None)
    return dict(zip(pairs, diffs, strict=True))


def changed_by(
    root: Path,
    commits: Iterable[str],
    parents: Mapping[str, tuple[str, ...]],
    diffs: Mapping[tuple[str, str], list[Change]] | None = None,
) -> dict[str, set[str] | None]:
    """The paths each commit changed against any of its parents (None for a root
    commit: all), from ``range_diffs`` (``diffs``: when the caller asked it already),
    HEAD too (its rewrite routes read HEAD's: judged_range.py). Renames are split, so
    a moved file names both its paths."""
    listed = list(commits)
    if diffs is None:
        diffs = range_diffs(root, listed, parents)
    out: dict[str, set[str] | None] = {}
    for commit in listed:
        ups = parents.get(commit, ())
        out[commit] = {c.path for p in ups for c in diffs[(commit, p)]} if ups else None
    return out


def _touches_ledger(paths: Iterable[str]) -> bool:
    return any(p.startswith(LEDGER_PREFIX) for p in paths)


class _LedgerHomes:
    """Whose ledger judges a commit's files: its own while it holds segments; for a
    commit whose ledger is missing (removed, moved away, emptied) that of its nearest
    first-parent ancestor that has one — judging such a commit against its own empty
    ledger would let it edit bound text unseen (growth.py reports the removal)."""

    def __init__(
        self, root: Path, parents: Mapping[str, tuple[str, ...]], has: dict[str, bool]
    ) -> None:
        """``has``: whether each commit of the range holds segments (asked with its
        key: ``judge_history``); a commit it lacks is asked of git when reached."""
        self.root = root
        self.parents = parents
        self.has = has
        self.homes: dict[str, str | None] = {}

    def of(self, commit: str) -> str | None:
        """The commit whose ledger judges ``commit`` (None: no ledger in reach)."""
        chain: list[str] = []
        at = commit
        while at not in self.homes:
            if at not in self.has:  # a parent outside the range (the merge-base)
                self.has.update(gitio.trees_exist(self.root, [at], _SEGMENTS))
            if self.has[at]:
                self.homes[at] = at
                break
            chain.append(at)
            up = self.parents.get(at, ())  # outside the range: not followed further
            if not up:
                self.homes[at] = None
                break
            at = up[0]
        for lacking in chain:
            self.homes[lacking] = self.homes[at]
        return self.homes[commit]


def _check_at(
    root: Path,
    commit: str,
    changed: set[str] | None,
    ledger_at: str,
    key: CommitKey,
    bound: dict[Path, set[str]],
) -> list[Reported] | None:
    """Failed findings of the affected bindings at ``commit``, against the ledger of
    ``ledger_at`` (``commit`` itself unless its ledger is missing), explained while the
    store is open; None if none affected. ``bound``: the paths each view's ledger binds,
    as this range's earlier commits found them (filled in as views are opened)."""
    # Ledger untouched: only the changed paths' bindings can have moved off ground, so
    # only those are loaded and only those blobs listed (cost follows the commit).
    rules = changed is None or any(checkout_rewrite.is_rules(p) for p in changed)
    narrow = changed is not None and not _touches_ledger(changed) and not rules
    touched = changed if narrow else None
    with open_custody(root, ledger_at, touched=touched, key=key, bound=bound) as custody:
        bindings = custody.bindings
        if narrow and not bindings:
            return None  # before the content is made: no tree listed for nothing to judge
        content = custody.content
        if ledger_at != commit:  # the ground of an ancestor, the files of this commit
            only = tuple(sorted(touched)) if touched is not None else ()
            content = GitTreeSource(root, rev=commit, only=only)
        checked = check_all(None, bindings, content, grounds=custody.grounds, history=custody)
        failed = [f for f in checked if f.failed]
        if rules:  # a .gitattributes changed: the bound files it reaches (checkout_rewrite.py)
            there = checkout_rewrite.judged_paths(checked)
            reached = there if changed is None else checkout_rewrite.changed_rules(there, changed)
            if isinstance(content, GitTreeSource):  # and one above it there can set one
                reached = checkout_rewrite.asked_paths(reached, content)
            failed += checkout_rewrite.findings(root, commit, reached)
        if not failed:
            return []
        conn = custody.store().conn
        return list(explain(failed, root=root, source=ROUTES_ON, conn=conn, local=False))


def judge_history(
    root: Path,
    commits: Iterable[str],
    head: str,
    parents: Mapping[str, tuple[str, ...]],
    bound: dict[Path, set[str]] | None = None,
    changes: Mapping[str, set[str] | None] | None = None,
) -> tuple[dict[HistoryKey, Reported], list[str], list[tuple[str, LedgerError]]]:
    """The first finding of each (binding, kind, hash) in the range but HEAD, by key,
    each naming the commit it was found at; then the commits judged, and those whose
    ledger does not replay (with why). ``bound``: the bound paths of the views the
    caller opened (HEAD's), by view: filled in as the range opens more. ``changes``:
    ``changed_by`` of the range when the caller asked it already."""
    out: dict[HistoryKey, Reported] = {}
    judged: list[str] = []
    broken: list[tuple[str, LedgerError]] = []
    before = [c for c in commits if c != head]  # HEAD is judged by the HEAD check
    if changes is None:
        changes = changed_by(root, before, parents)
    # Each commit's key, and whether it holds segments: one cat-file for the range.
    ranged = range_keys(root, [*parents, *before], _SEGMENTS) if before else RangeKeys({}, {})
    keys, homes = ranged.keys, _LedgerHomes(root, parents, dict(ranged.holds))
    if bound is None:
        bound = {}  # commits of one ledger share its view's paths
    for commit in tracked(before, "judging commits", len(before)):
        changed = changes[commit]
        if changed is not None and not changed:
            continue
        home = homes.of(commit) or commit
        try:
            found = _check_at(root, commit, changed, home, keys.get(home), bound)
        except LedgerError as exc:  # that commit's ledger: reported there, the rest judged
            broken.append((home, exc))
            continue
        if found is None:
            continue
        judged.append(commit)
        for r in found:
            f = r.finding
            key = (f.binding or f.selector, f.kind, f.actual_hash)  # as HEAD's are keyed
            if key not in out:
                hints = _history_hints(f, commit, None if home == commit else home)
                out[key] = r._replace(commit=commit, hints=(*hints, *r.hints))
    return out, judged, broken


def _history_hints(f: Finding, commit: str, judged_by: str | None) -> tuple[str, ...]:
    said = f"changed there without its supersession recorded in the same commit ({commit[:12]})"
    if f.kind == checkout_rewrite.KIND:
        said = f"the .gitattributes of commit {commit[:12]} make git rewrite it on checkout"
    elif f.kind == "contested":  # each successor was recorded: two branches' acts met
        said = (
            f"the ledger of commit {commit[:12]} holds both successors of its ground, "
            "with no resolve recorded in the same commit"
        )
    if judged_by is None:
        return (said,)
    return (said, f"commit {commit[:12]} holds no ledger; judged by the ledger of {judged_by[:12]}")


def once(
    head: list[tuple[HistoryKey, Reported]], history: dict[HistoryKey, Reported]
) -> tuple[list[Reported], list[Reported]]:
    """Each finding once: a HEAD finding that a commit of the range brought names that
    commit as ``introduced`` (and is not repeated at it); the history findings HEAD
    no longer shows stay. Returns (HEAD's findings, history's)."""
    out: list[Reported] = []
    for key, r in head:
        brought = history.pop(key, None)
        if brought is not None and brought.commit is not None:
            r = r._replace(introduced=brought.commit)
        out.append(r)
    return out, list(history.values())
