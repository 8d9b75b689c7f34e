"""The CI gate: verify the ledger, check HEAD, judge every commit of the range.

``run_gate(root, base)``:

1. verify HEAD's committed ledger from its git tree (``verify_contents``; every
   path there that is no segment or body is a ``stray``) — faults are
   ``ledger-fault`` findings, a stray's message ending in the ``git rm``
   command that removes it;
2. with a base: ``check_range`` (ledger files rewritten or deleted by any
   commit of the range against any of its parents, every new act judged by
   forest.toml *as it stood at the merge-base*, over the bound paths each act
   touched as replay derived them in HEAD's own view) — ``ledger-rewritten``,
   ``ledger-deleted``, ``authority``, ``policy``, ``config-governance``;
3. check every binding of HEAD against the ground rebuilt from HEAD's own
   ledger (``custody_at(root, HEAD)``);
4. with a base: every commit C of ``merge-base..HEAD`` but HEAD itself,
   oldest first, merges included, that changed a bound path or the ledger
   (against each parent) is checked against the ground rebuilt from C's own
   ledger — only the bindings whose file changed, all of them when the
   ledger changed. A C whose ledger is missing (removed, moved away, no
   segment left) is judged against the ledger of its nearest first-parent
   ancestor that has one (the merge-base included), never against its own
   empty one. A finding there is a *history* finding naming C, even when a
   later commit reverted the edit (no silent edit anywhere in history). One
   (binding, kind, hash) is reported once, at the first commit that shows it.

Steps 3 and 4 are skipped when step 1 finds faults: a damaged ledger cannot be
replayed into a trustworthy ground.

Stores: nothing (throwaway stores in temporary directories).
Refuses: a base that does not resolve (``UnknownRef``); a shallow clone
without the merge-base (``ShallowClone``, naming ``fetch-depth: 0``).
Returns: ``GateReport`` — paths, selectors, line ranges, hashes and commit
ids, never section or body text.
Test: tests/test_ci_gate.py
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.files.check import Finding, check_all
from forest_files.files.content import GitTreeSource
from forest_files.files.session import custody_at
from forest_files.ledger.segments import BODIES_DIR, SEGMENTS_DIR
from forest_files.ledger.sources import LEDGER_PREFIX
from forest_files.ledger.strays import strays_in_tree
from forest_files.ledger.verify import Fault, verify_contents

RULES: dict[str, str] = {
    "drifted": "A bound section differs from its ground",
    "missing": "A bound file is gone",
    "unresolved": "A bound selector no longer matches, or its ground is sealed",
    "moved": "A bound section, unchanged, now lives at another path",
    "contested": "A binding has two successors of one ground",
    "ledger-rewritten": "A ledger file was modified since the merge-base",
    "ledger-deleted": "A ledger file was deleted since the merge-base",
    "authority": "An act by a signature without authority at the merge-base",
    "policy": "An act carries a body over the merge-base's [policy] max_body_bytes",
    "config-governance": "forest.toml's authority or policy changed by someone not holding '**'",
    "unsigned": "An act arrives in a commit without a good signature (signing required)",
    "signer": "An act signed by a key the merge-base keyring does not bind to its signer",
    "signers-mixed": "One commit brings acts by more than one signer (signing required)",
    "ledger-fault": "The committed ledger is damaged",
}
CORRUPTION_RULES = frozenset({"ledger-fault", "ledger-rewritten", "ledger-deleted"})
_LEDGER_DIR = LEDGER_PREFIX.rstrip("/")
_SEGMENTS = f"{_LEDGER_DIR}/{SEGMENTS_DIR}"
_REGULAR = ("100644", "100755")


@dataclass(frozen=True)
class GateFinding:
    rule: str
    path: str
    selector: str
    binding: str
    commit: str | None
    start_line: int | None
    end_line: int | None
    message: str
    fingerprint: str

    @property
    def history(self) -> bool:
        return self.commit is not None


@dataclass(frozen=True)
class BoundRef:
    """A binding live at HEAD (one JUnit testcase each)."""

    path: str
    selector: str
    binding: str


@dataclass(frozen=True)
class GateReport:
    head: str
    base: str | None
    merge_base: str | None
    commits: tuple[str, ...]  # the range, oldest first (empty without a base)
    judged: tuple[str, ...]  # the commits whose bindings were checked
    bindings: tuple[BoundRef, ...]
    findings: tuple[GateFinding, ...]

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def exit_code(self) -> int:
        if any(f.rule in CORRUPTION_RULES for f in self.findings):
            return 3
        return 1 if self.findings else 0


def fingerprint(rule: str, key: str, selector: str, commit: str | None) -> str:
    raw = "\0".join(("forest-ci/v1", rule, key, selector, commit or ""))
    return hashlib.sha256(raw.encode("utf-8", "surrogateescape")).hexdigest()


def _make(
    rule: str,
    path: str,
    selector: str,
    binding: str,
    commit: str | None,
    message: str,
    lines: tuple[int | None, int | None] = (None, None),
) -> GateFinding:
    return GateFinding(
        rule=rule,
        path=path,
        selector=selector,
        binding=binding,
        commit=commit,
        start_line=lines[0],
        end_line=lines[1],
        message=message,
        fingerprint=fingerprint(rule, binding or path, selector, commit),
    )


def _describe(f: Finding) -> str:
    """One body-free sentence for a check finding."""
    sel = f.selector
    if f.kind == "drifted":
        got = (f.actual_hash or "?")[:12]
        want = (f.expected_hash or "?")[:12]
        return (
            f"{sel} drifted: section hash {got} is not ground {want}; restore it "
            f"(forest restore '{sel}') or adopt the change (forest supersede '{sel}' --words …)"
        )
    if f.kind == "missing":
        return f"{sel} is missing: {f.path} is gone; bring it back or forest retire '{sel}'"
    if f.kind == "moved":
        return f"{sel} moved to {f.moved_to}; {f.detail}"
    if f.kind == "contested":
        return f"{sel} is contested ({f.detail}); forest resolve it"
    return f"{sel} is unresolved: {f.detail}"


def _from_finding(f: Finding, commit: str | None, judged_by: str | None = None) -> GateFinding:
    message = _describe(f)
    if commit is not None:
        message = (
            f"commit {commit[:12]} changed {f.selector} without recording its supersession "
            f"in the same commit: {message}"
        )
    if commit is not None and judged_by is not None:
        message += (
            f" (commit {commit[:12]} holds no ledger; judged by the ledger of {judged_by[:12]})"
        )
    return _make(f.kind, f.path, f.selector, f.binding, commit, message, (f.start_line, f.end_line))


def _from_fault(fault: Fault, rule: str) -> GateFinding:
    where = fault.segment or ""
    path = fault.path or (f"{LEDGER_PREFIX}{where}" if where else _LEDGER_DIR)
    rule_name = rule if rule != "ledger-fault" else f"ledger-fault ({fault.code})"
    line = f" line {fault.line}" if fault.line else ""
    place = "" if fault.path else f"{where or _LEDGER_DIR}{line}: "  # a path leads the detail
    message = f"{rule_name}: {place}{fault.detail}"
    if fault.fix:
        message += f"; remove it and commit: {fault.fix}"
    return _make(rule, path, where, fault.act_id or "", None, message, (fault.line, fault.line))


def _under(rel: str, strays: set[str]) -> bool:
    """``rel`` is a stray or lies in a stray directory."""
    parts = rel.split("/")
    return any("/".join(parts[:n]) in strays for n in range(1, len(parts) + 1))


def _verify_head(root: Path, head: str) -> list[GateFinding]:
    """Verify ``head``'s ledger from its git tree, in memory (no files written).
    Every entry that is no well-formed segment or body (a symlink, a temp file,
    a forged name) is a ``stray`` fault."""
    entries = gitio.ls_tree(root, head, LEDGER_PREFIX)
    strays = strays_in_tree(
        (e.path.removeprefix(LEDGER_PREFIX), e.type == "blob" and e.mode in _REGULAR)
        for e in entries
    )
    unwanted = {s.rel for s in strays}
    blobs = [e for e in entries if not _under(e.path.removeprefix(LEDGER_PREFIX), unwanted)]
    data = gitio.cat_blobs(root, [e.blob for e in blobs])
    segments: list[tuple[str, bytes]] = []
    bodies: dict[str, Callable[[], bytes]] = {}
    segment_dir = f"{_LEDGER_DIR}/{SEGMENTS_DIR}/"
    body_dir = f"{_LEDGER_DIR}/{BODIES_DIR}/"
    for e in sorted(blobs, key=lambda entry: entry.path):
        if e.path.startswith(segment_dir):
            segments.append((e.path.removeprefix(segment_dir), data[e.blob]))
        elif e.path.startswith(body_dir):
            bodies[e.path.removeprefix(body_dir)] = functools.partial(data.__getitem__, e.blob)
    report = verify_contents(segments, bodies, strays, tool="git rm")
    return [_from_fault(f, "ledger-fault") for f in report.faults]


def _changed(root: Path, commit: str, parents: tuple[str, ...]) -> set[str] | None:
    """Paths ``commit`` changed against any parent; None for a root commit (all)."""
    if not parents:
        return None
    paths: set[str] = set()
    for parent in parents:
        for change in gitio.diff_names(root, parent, commit, filters=None):
            paths.add(change.path)
            if change.old_path:
                paths.add(change.old_path)
    return paths


def _touches_ledger(paths: Iterable[str]) -> bool:
    return any(p.startswith(LEDGER_PREFIX) for p in paths)


class _LedgerHomes:
    """Whose ledger judges a commit's files: its own while it holds segments; for a
    commit whose ledger is missing (removed, moved away, emptied) that of its nearest
    first-parent ancestor that has one — judging such a commit against its own empty
    ledger would let it edit bound text unseen (growth.py reports the removal)."""

    def __init__(self, root: Path, parents: Mapping[str, tuple[str, ...]]) -> None:
        self.root = root
        self.parents = parents
        self.has = gitio.trees_exist(root, list(parents), _SEGMENTS)  # one call, whole range
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
    root: Path, commit: str, changed: set[str] | None, ledger_at: str
) -> list[Finding] | None:
    """Failed findings of the affected bindings at ``commit``, against the ledger of
    ``ledger_at`` (``commit`` itself unless its ledger is missing); None if none affected."""
    # Ledger untouched: only the changed paths' bindings can have moved off ground, so
    # only those are loaded and only those blobs listed (cost follows the commit).
    narrow = changed is not None and not _touches_ledger(changed)
    with custody_at(root, ledger_at, paths=changed if narrow else None) as (
        store,
        bindings,
        content,
    ):
        if narrow and changed is not None:
            bindings = [b for b in bindings if b.path in changed]
            if not bindings:
                return None
        if ledger_at != commit:  # the ground of an ancestor, the files of this commit
            only = tuple(sorted(changed)) if narrow and changed is not None else ()
            content = GitTreeSource(root, rev=commit, only=only)
        return [f for f in check_all(store, bindings, content) if f.failed]


def _history(
    root: Path, commits: Iterable[str], head: str, parents: Mapping[str, tuple[str, ...]]
) -> tuple[list[GateFinding], list[str]]:
    seen: set[tuple[str, str, str | None]] = set()
    out: list[GateFinding] = []
    judged: list[str] = []
    homes = _LedgerHomes(root, parents)
    for commit in commits:
        if commit == head:
            continue  # HEAD is judged by the HEAD check
        changed = _changed(root, commit, parents.get(commit, ()))
        if changed is not None and not changed:
            continue
        home = homes.of(commit) or commit
        found = _check_at(root, commit, changed, home)
        if found is None:
            continue
        judged.append(commit)
        for f in found:
            key = (f.binding, f.kind, f.actual_hash)
            if key not in seen:
                seen.add(key)
                out.append(_from_finding(f, commit, None if home == commit else home))
    return out, judged


def run_gate(root: Path | str, base: str | None) -> GateReport:
    """Everything the CI gate finds for HEAD (and merge-base(``base``, HEAD)..HEAD)."""
    from forest_files.ledger.applied import act_paths
    from forest_files.ledger.range import check_range

    top = gitio.toplevel(root)
    head = gitio.resolve_commit(top, "HEAD")
    merge_base = None if base is None else gitio.merge_base(top, base, head)
    findings = _verify_head(top, head)
    commits: list[str] = []
    graph: dict[str, tuple[str, ...]] = {}
    bindings: list[BoundRef] = []
    judged: list[str] = []
    if any(f.rule == "ledger-fault" for f in findings):
        if base is not None:
            findings += [_from_fault(f, f.code) for f in check_range(top, base).faults]
    else:
        with custody_at(top, head) as (store, live, content):
            if base is not None and merge_base is not None:
                ranged = check_range(top, base, paths_of=functools.partial(act_paths, store))
                findings += [_from_fault(f, f.code) for f in ranged.faults]
                commits = gitio.rev_list(top, f"{merge_base}..{head}")
                graph = dict(gitio.range_parents(top, f"{merge_base}..{head}"))
            bindings = [BoundRef(b.path, b.selector, b.bind_act) for b in live]
            findings += [
                _from_finding(f, None) for f in check_all(store, live, content) if f.failed
            ]
        judged.append(head)
        history, judged_before = _history(top, commits, head, graph)
        findings += history
        judged = [*judged_before, *judged]
    return GateReport(
        head=head,
        base=base,
        merge_base=merge_base,
        commits=tuple(commits),
        judged=tuple(judged),
        bindings=tuple(bindings),
        findings=tuple(findings),
    )
