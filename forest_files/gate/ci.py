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
3. every entry of HEAD's ledger holding content a forget tombstoned, made by an
   act that never saw the erase (``erased-content``, naming the forget); check
   every binding of HEAD against the ground rebuilt from HEAD's own
   ledger (``custody_at(root, HEAD)``), and HEAD's coverage: every file or
   heading HEAD's forest.toml ``[require]`` names must be bound there
   (``unbound``; judged at HEAD only — a file added in one commit and adopted
   in the next is the normal way to work);
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
from dataclasses import dataclass, replace
from pathlib import Path

from forest_files import gitio
from forest_files.check.coverage import in_source
from forest_files.check.engine import Finding, check_all
from forest_files.custody.content import GitTreeSource
from forest_files.custody.session import custody_at
from forest_files.custody.sources import LEDGER_PREFIX, config_from
from forest_files.kernel.paths import segment_file
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.segments import BODIES_DIR, SEGMENTS_DIR
from forest_files.ledger.strays import strays_in_tree
from forest_files.ledger.verify import Fault, verify_contents
from forest_files.store.forest import ForestStore

RULES: dict[str, str] = {
    "drifted": "A bound section differs from its ground",
    "missing": "A bound file is gone",
    "unresolved": "A bound selector no longer matches, or its ground is sealed",
    "moved": "A bound section, unchanged, now lives at another path",
    "contested": "A binding has two successors of one ground",
    "unbound": "A file or heading forest.toml's [require] names is bound by nothing at HEAD",
    "ledger-rewritten": "A ledger file was modified since the merge-base",
    "ledger-deleted": "A ledger file was deleted since the merge-base",
    "authority": "An act by a signature without authority at the merge-base",
    "policy": "An act carries a body over the merge-base's [policy] max_body_bytes",
    "config-governance": (
        "forest.toml's authority, policy or requirements changed by someone not holding '**'"
    ),
    "unsigned": "An act arrives in a commit without a good signature (signing required)",
    "signer": "An act signed by a key the merge-base keyring does not bind to its signer",
    "signers-mixed": "One commit brings acts by more than one signer (signing required)",
    "signing-setup": "Signing is asked for but cannot be judged here (keyring, tools, history)",
    "ledger-fault": "The committed ledger is damaged",
    "erased-content": "Content a forget erased is back: an act made before it saw the erase",
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
    level: str = "error"  # "warning": reported, never a failure (signing under "warn")
    routes: tuple[str, ...] = ()  # the commands of the finding's routes (doors/routes.py)
    introduced: str | None = None  # a HEAD finding: the commit of the range that brought it

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
    def failures(self) -> tuple[GateFinding, ...]:
        return tuple(f for f in self.findings if f.level == "error")

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def exit_code(self) -> int:
        if any(f.rule in CORRUPTION_RULES for f in self.failures):
            return 3
        return 1 if self.failures else 0


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


def _describe(f: Finding, root: Path) -> tuple[str, tuple[str, ...]]:
    """One body-free sentence for a check finding, with its routes (doors/routes.py)."""
    from forest_files.check.findings import detail_of
    from forest_files.check.routes import routes_for

    sel = f.selector
    if f.kind == "drifted":
        got = (f.actual_hash or "?")[:12]
        want = (f.expected_hash or "?")[:12]
        said = f"{sel} drifted: section hash {got} is not ground {want}"
    elif f.kind == "missing":
        said = f"{sel} is missing: {f.path} is gone"
    elif f.kind == "moved":
        said = f"{sel} moved to {f.moved_to}"
    elif f.kind == "contested":
        said = f"{sel} is contested ({f.detail})"
    elif f.kind == "unbound":
        said = f"{sel} is unbound at HEAD ({f.detail})"
    else:
        said = f"{sel} is unresolved: {detail_of(f)}"
    routes = routes_for(f, root=root, source="worktree")
    return "; ".join([said, *(r.line() for r in routes)]), tuple(
        r.command for r in routes if r.steps
    )


def _from_finding(
    f: Finding, root: Path, commit: str | None, judged_by: str | None = None
) -> GateFinding:
    message, routes = _describe(f, root)
    if commit is not None:
        message = (
            f"commit {commit[:12]} changed {f.selector} without recording its supersession "
            f"in the same commit: {message}"
        )
    if commit is not None and judged_by is not None:
        message += (
            f" (commit {commit[:12]} holds no ledger; judged by the ledger of {judged_by[:12]})"
        )
    found = _make(
        f.kind, f.path, f.selector, f.binding, commit, message, (f.start_line, f.end_line)
    )
    return replace(found, routes=routes)


def _from_fault(fault: Fault, rule: str, level: str = "error") -> GateFinding:
    """A ledger or range fault, located at the file it concerns (a segment's
    ``.forest/ledger/segments/<id>.jsonl``, a stray's own path, or forest.toml)."""
    where = fault.segment or ""
    path = fault.path or (segment_file(where) if where else _LEDGER_DIR)
    rule_name = rule if rule != "ledger-fault" else f"ledger-fault ({fault.code})"
    named = fault.act_id and fault.act_id[:12] in fault.detail
    act = f" act {fault.act_id[:12]}" if fault.act_id and not named else ""
    message = f"{rule_name}:{act} {fault.detail}"
    if fault.fix:
        message += f"; remove it and commit: {fault.fix}"
    found = _make(rule, path, where, fault.act_id or "", None, message, (fault.line, fault.line))
    return found if level == "error" else replace(found, level=level)


def _erased_content(store: ForestStore) -> list[GateFinding]:
    """HEAD's entries holding content a forget tombstoned (exit 1, naming the forget)."""
    from forest_files.governance.resurrected import erased_content

    out = []
    for r in erased_content(store):
        by = f"act {r.act_id[:12]}" if r.act_id else "no act"
        message = (
            f"entry {r.content_id[:12]} (made by {by}) holds content that erase act "
            f"{r.erase_act[:12]} (forest forget) removed; it was made without seeing that "
            f"erase: supersede or seal it if it is ground, then `forest forget "
            f"{r.content_id[:12]} --words …`"
        )
        path = r.paths[0] if r.paths else _LEDGER_DIR
        out.append(_make("erased-content", path, "", r.content_id, None, message))
    return out


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


def _changed(
    root: Path, commits: Iterable[str], parents: Mapping[str, tuple[str, ...]]
) -> dict[str, set[str] | None]:
    """The paths each commit changed against any of its parents (None for a root
    commit: all), in one ``git diff-tree --stdin`` for the whole range. Renames are
    split, so a moved file names both its paths."""
    listed = list(commits)
    pairs = [(c, p) for c in listed for p in parents.get(c, ())]
    diffs = iter(gitio.diff_each_parent(root, pairs, None, filters=None))
    out: dict[str, set[str] | None] = {}
    for commit in listed:
        ups = parents.get(commit, ())
        out[commit] = {c.path for _ in ups for c in next(diffs)} if ups else None
    return out


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


HistoryKey = tuple[str, str, str | None]
PathsOf = Callable[[list[str]], Mapping[str, frozenset[str]]]


def _history(
    root: Path, commits: Iterable[str], head: str, parents: Mapping[str, tuple[str, ...]]
) -> tuple[dict[HistoryKey, GateFinding], list[str]]:
    """The first finding of each (binding, kind, hash) in the range but HEAD, by key."""
    out: dict[HistoryKey, GateFinding] = {}
    judged: list[str] = []
    homes = _LedgerHomes(root, parents)
    before = [c for c in commits if c != head]  # HEAD is judged by the HEAD check
    changes = _changed(root, before, parents)
    for commit in before:
        changed = changes[commit]
        if changed is not None and not changed:
            continue
        home = homes.of(commit) or commit
        found = _check_at(root, commit, changed, home)
        if found is None:
            continue
        judged.append(commit)
        for f in found:
            key = (f.binding, f.kind, f.actual_hash)
            if key not in out:
                out[key] = _from_finding(f, root, commit, None if home == commit else home)
    return out, judged


def _once(
    head: list[tuple[HistoryKey, GateFinding]], history: dict[HistoryKey, GateFinding]
) -> list[GateFinding]:
    """Each finding once: a HEAD finding that a commit of the range brought names that
    commit (and is not repeated at it); history findings HEAD no longer shows stay."""
    out: list[GateFinding] = []
    for key, f in head:
        brought = history.pop(key, None)
        if brought is not None and brought.commit is not None:
            f = replace(
                f,
                introduced=brought.commit,
                message=f"brought by commit {brought.commit[:12]}: {f.message}",
            )
        out.append(f)
    return [*history.values(), *out]


def run_gate(root: Path | str, base: str | None) -> GateReport:
    """Everything the CI gate finds for HEAD (and merge-base(``base``, HEAD)..HEAD).
    A ledger that cannot be replayed is a ``ledger-fault`` finding, so every format
    still writes a complete report."""
    top = gitio.toplevel(root)
    head = gitio.resolve_commit(top, "HEAD")
    merge_base = None if base is None else gitio.merge_base(top, base, head)
    findings = _verify_head(top, head)
    judged: list[str] = []
    ctx = _Range(top, head, base, merge_base)
    if any(f.rule == "ledger-fault" for f in findings):
        if base is not None:
            findings += ctx.range_faults(None)
    else:
        try:
            findings += ctx.judge()
            judged = ctx.judged
        except LedgerError as exc:
            findings.append(_from_fault(_replay_fault(top, head, exc), "ledger-fault"))
    return GateReport(
        head=head,
        base=base,
        merge_base=merge_base,
        commits=tuple(ctx.commits),
        judged=tuple(judged),
        bindings=tuple(ctx.bindings),
        findings=tuple(findings),
    )


def _replay_fault(top: Path, head: str, exc: LedgerError) -> Fault:
    """A replay refusal as a fault located at the segment of the act it names."""
    from forest_files.gate.range import acts_at

    segment = exc.segment
    if segment is None and exc.act_id is not None:
        segment = acts_at(top, head).origin(exc.act_id)
    return Fault(exc.code, segment, exc.line, exc.act_id, exc.reason)


class _Range:
    """One gate run's range: its commits, HEAD's bindings, what was judged."""

    def __init__(self, top: Path, head: str, base: str | None, merge_base: str | None) -> None:
        self.top, self.head, self.base, self.merge_base = top, head, base, merge_base
        self.commits: list[str] = []
        self.bindings: list[BoundRef] = []
        self.judged: list[str] = []

    def range_faults(self, paths_of: PathsOf | None) -> list[GateFinding]:
        from forest_files.gate.range import check_range

        assert self.base is not None
        ranged = check_range(self.top, self.base, paths_of=paths_of)
        return [
            *(_from_fault(f, f.code) for f in ranged.faults),
            *(_from_fault(w, w.code, level="warning") for w in ranged.warnings),
        ]

    def judge(self) -> list[GateFinding]:
        from forest_files.custody.applied import act_paths

        top, head = self.top, self.head
        findings: list[GateFinding] = []
        graph: dict[str, tuple[str, ...]] = {}
        with custody_at(top, head) as (store, live, content):
            if self.base is not None and self.merge_base is not None:
                findings += self.range_faults(functools.partial(act_paths, store))
                self.commits = gitio.rev_list(top, f"{self.merge_base}..{head}")
                graph = dict(gitio.range_parents(top, f"{self.merge_base}..{head}"))
            self.bindings = [BoundRef(b.path, b.selector, b.bind_act) for b in live]
            findings += _erased_content(store)
            failed = [f for f in check_all(store, live, content) if f.failed]
            failed += in_source(config_from(top, head).require, content, live)
            at_head = [
                ((f.binding or f.selector, f.kind, f.actual_hash), _from_finding(f, top, None))
                for f in failed
            ]
        history, judged_before = _history(top, self.commits, head, graph)
        self.judged = [*judged_before, head]
        return [*findings, *_once(at_head, history)]
