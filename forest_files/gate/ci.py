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
   ledger (``open_custody(root, HEAD)``), and HEAD's coverage: every file or
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
   Its one route rewrites the branch at that commit (rewrite.py): no act on top
   changes a commit's own ledger. HEAD's restore and supersede amend HEAD when
   HEAD made the change, and say when earlier commits carry it too.

Steps 3 and 4 are skipped when step 1 finds faults: a damaged ledger cannot be
replayed into a trustworthy ground.

Stores: nothing (throwaway stores in temporary directories).
Refuses: a base that does not resolve (``UnknownRef``); a shallow clone
without the merge-base (``ShallowClone``, naming ``fetch-depth: 0``).
Returns: ``GateReport`` — paths, selectors, line ranges, hashes and commit
ids, never section or body text.
Test: tests/gate/test_ci_gate.py
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.check import contests
from forest_files.check.coverage import in_source
from forest_files.check.engine import check_all
from forest_files.check.explain import explain
from forest_files.check.findings import CheckReport, Reported, Route
from forest_files.check.kinds import CORRUPTION
from forest_files.check.opening import open_custody
from forest_files.custody.config_model import ConfigError
from forest_files.custody.sources import config_from
from forest_files.gate.causes import lead_with_causes
from forest_files.gate.head_faults import (
    LEDGER_DIR,
    erased_content_found,
    forked_before_custody,
    from_fault,
    verify_head,
)
from forest_files.gate.rewrite import Rebase, Rewrite, drop_act, put_back, take_out
from forest_files.kernel.errors import UnusableConfig
from forest_files.kernel.paths import CONFIG_NAME
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.segments import SEGMENTS_DIR
from forest_files.ledger.verify import UNNAMED_BODY, Fault

_SEGMENTS = f"{LEDGER_DIR}/{SEGMENTS_DIR}"
# An act refused for what it is: the commit that brought it is dropped, then this.
_DROPPED = {
    "authority": "a holder of its path at the merge-base makes the act",
    "policy": "adopt a smaller section (under the merge-base's max_body_bytes)",
}
_ROUTES_ON = "worktree"  # routes act on the checked-out tree (a CI checkout of HEAD)


@dataclass(frozen=True)
class GateReport:
    """HEAD's check (every binding at HEAD in ``check.items``, clean ones included) with
    every other finding of the run in ``check.extra``: the ledger's faults, the range's,
    HEAD's findings of no binding, and history findings naming their commit."""

    head: str
    base: str | None
    merge_base: str | None
    commits: tuple[str, ...]  # the range, oldest first (empty without a base)
    judged: tuple[str, ...]  # the commits whose bindings were checked
    check: CheckReport

    @property
    def findings(self) -> tuple[Reported, ...]:
        """Every finding that fails the gate."""
        return self.check.failed

    @property
    def warnings(self) -> tuple[Reported, ...]:
        """Reported, never a failure (signing under "warn")."""
        return self.check.warnings

    @property
    def ok(self) -> bool:
        return self.check.ok

    @property
    def exit_code(self) -> int:
        if any(f.kind in CORRUPTION for f in self.findings):
            return 3
        return 1 if self.findings else 0

    def as_dict(self) -> dict[str, object]:
        """The report in the JSON schema every door prints, with the range judged."""
        out = self.check.as_dict("ci", self.exit_code)
        out["range"] = {
            "head": self.head,
            "base": self.base,
            "merge_base": self.merge_base,
            "commits": list(self.commits),
            "judged": list(self.judged),
        }
        return out


def run_gate(root: Path | str, base: str | None, *, head: str | None = None) -> GateReport:
    """Everything the CI gate finds for HEAD (and merge-base(``base``, HEAD)..HEAD).
    A ledger that cannot be replayed is a ``ledger-fault`` finding, so every format
    still writes a complete report.

    ``head``: judge this commit instead of HEAD, from its commits alone; ``root`` is
    then the git directory itself and may be bare, with ``GIT_DIR`` naming it for the
    state directories (the server hook, doors/hooks/server.py, judging a pushed commit)."""
    top = gitio.toplevel(root) if head is None else Path(root)
    head = gitio.resolve_commit(top, head or "HEAD")
    merge_base = None if base is None else gitio.merge_base(top, base, head)
    faults, tracked = verify_head(top, head)
    judged: list[str] = []
    ctx = _Range(top, head, base, merge_base)
    items: list[Reported] = []
    warnings: list[Reported] = []
    findings = tracked  # local state is reported, never read: no reason to stop
    if faults:
        more: list[Reported] = []
        if base is not None:
            more, warnings = ctx.range_faults(None)
        found = ctx.ledger_faults(head, faults, more)
        kept = _keep_deleted_bodies(found, more)
        ranged = list(zip(ctx.faults, more, strict=True))
        findings = [*lead_with_causes(top, list(zip(faults, kept, strict=True)), ranged), *tracked]
    else:
        try:
            items, more, warnings = ctx.judge()
            findings += more
            judged = ctx.judged
        except LedgerError as exc:
            findings.append(from_fault(_replay_fault(top, head, exc), "ledger-fault"))
        except UnusableConfig as exc:  # a broken forest.toml: a finding, so every format
            fault = Fault("config", None, None, None, str(exc), path=CONFIG_NAME)  # reports it
            findings.append(from_fault(fault, "config-governance"))
        except ConfigError:  # none at HEAD: a branch forked before custody is a finding too
            forked = forked_before_custody(top, base, merge_base)
            dropped = [] if forked is not None else ctx.custody_dropped()
            if forked is None and not dropped:
                raise
            findings += [forked] if forked is not None else dropped
    where = f"commit {head[:12]}"
    report = CheckReport(head, where, tuple(items), tuple(findings), warnings=tuple(warnings))
    return GateReport(head, base, merge_base, tuple(ctx.commits), tuple(judged), report)


def _keep_deleted_bodies(found: list[Reported], ranged: list[Reported]) -> list[Reported]:
    """HEAD's bodies no act names, when the range deleted a segment: they may be that
    segment's, which its put-back route restores (rewrite.py ``put_back``), so their
    ``git rm`` (which would delete more of the ledger) is withheld."""
    deleted = any(
        r.kind == "ledger-deleted" and r.finding.path.startswith(f"{_SEGMENTS}/") for r in ranged
    )
    if not deleted:
        return found
    note = Route("put the deleted segment back first", note="see the ledger-deleted finding")
    return [
        r._replace(routes=(note,))
        if r.kind == "ledger-fault" and UNNAMED_BODY in r.finding.detail
        else r
        for r in found
    ]


def _replay_fault(top: Path, head: str, exc: LedgerError) -> Fault:
    """A replay refusal as a fault located at the segment of the act it names."""
    from forest_files.gate.range import acts_at

    segment = exc.segment
    if segment is None and exc.act_id is not None:
        segment = acts_at(top, head).origin(exc.act_id)
    return Fault(exc.code, segment, exc.line, exc.act_id, exc.reason)


PathsOf = Callable[[list[str]], Mapping[str, frozenset[str]]]


class _Range:
    """One gate run's range: its commits, what was judged."""

    def __init__(self, top: Path, head: str, base: str | None, merge_base: str | None) -> None:
        self.top, self.head, self.base, self.merge_base = top, head, base, merge_base
        self.commits: list[str] = []
        self.judged: list[str] = []
        self.faults: list[Fault] = []  # the range's, as its findings (range_faults) list them
        self._parents: dict[str, tuple[str, ...]] | None = None  # asked once, if needed

    def range_faults(self, paths_of: PathsOf | None) -> tuple[list[Reported], list[Reported]]:
        """(the range's faults, its warnings); the range's commits are listed too, so a
        report whose ledger is too damaged to judge still says which commits it held."""
        from forest_files.gate.range import check_range

        assert self.base is not None
        if self.merge_base is not None:
            self.commits = gitio.rev_list(self.top, f"{self.merge_base}..{self.head}")
        ranged = check_range(
            self.top,
            self.base,
            paths_of=paths_of,
            head=self.head,
            merge_base=self.merge_base,
            parents=None if self.merge_base is None else list(self._graph().items()),
        )
        self.faults = list(ranged.faults)
        faults = [self._put_back(f, ranged.faults) for f in ranged.faults]
        return faults, [from_fault(w, w.code) for w in ranged.warnings]

    def custody_dropped(self) -> list[Reported]:
        """HEAD without forest.toml where the merge-base has one: the range's faults
        (the commit that deleted it, the ledger files gone with it, with the routes
        that put them back); none without a base or custody at the merge-base, and
        the missing forest.toml stays a refusal (``forest init`` there is right)."""
        from forest_files.custody.sources import config_text_from

        if self.base is None or self.merge_base is None:
            return []
        if config_text_from(self.top, self.merge_base) is None:
            return []
        return self.range_faults(None)[0]

    def _put_back(self, fault: Fault, every: tuple[Fault, ...]) -> Reported:
        """A range fault at the commit that brought it, with its route: a ledger file a
        commit deleted or changed, or a governed file it changed, puts back every such
        file of that commit (rewrite.py ``put_back``, ``take_out``); an act refused for
        its signer or its body drops the commit that brought it (``drop_act``)."""
        reported = from_fault(fault, fault.code)
        if fault.commit is None or self.merge_base is None:
            return reported
        if fault.code in _DROPPED:
            routes = drop_act(fault.commit, _DROPPED[fault.code], rebase=self._rebase())
            return reported._replace(routes=routes)
        if fault.parent is None:
            return reported  # its detail says what to do (a keyring the commit added)
        mine = [f for f in every if f.path and (f.commit, f.parent) == (fault.commit, fault.parent)]
        paths = [f.path for f in mine if f.path]
        how = take_out if all(f.code == "config-governance" for f in mine) else put_back
        routes = how(fault.commit, fault.parent, paths, head=self.head, rebase=self._rebase())
        return reported._replace(routes=routes)

    def _graph(self) -> dict[str, tuple[str, ...]]:
        """Each commit of the range with its parents (one ``git rev-list`` per run)."""
        assert self.merge_base is not None
        if self._parents is None:
            span = f"{self.merge_base}..{self.head}"
            self._parents = dict(gitio.range_parents(self.top, span))
        return self._parents

    def _rebase(self) -> Rebase:
        """``git rebase -i MERGE-BASE`` over the range, knowing its merges."""
        assert self.merge_base is not None
        merges = frozenset(c for c, up in self._graph().items() if len(up) > 1)
        return Rebase(self.merge_base, merges)

    def ledger_faults(self, at: str, faults: list[Fault], ranged: list[Reported]) -> list[Reported]:
        """``at``'s ledger faults, a dangling dependency with its routes (dangling.py),
        placed in the range whose faults are ``ranged``."""
        from forest_files.gate.dangling import Placing, dangling_routes

        found = [from_fault(f, "ledger-fault") for f in faults]
        if not any(f.code == "dangling-dep" for f in faults):
            return found
        deleted = frozenset(r.path for r in ranged if r.kind == "ledger-deleted")
        rebase = None if self.merge_base is None else self._rebase()
        ways = dangling_routes(self.top, at, Placing(self.head, self.merge_base, rebase, deleted))
        for i, f in enumerate(faults):
            # a replay's refusal names the act, not what it lacks: its first missing one's
            key = next((k for k in ways if k[0] == f.act_id and f.dep in (None, k[1])), None)
            if key is not None:
                way = ways[key]
                found[i] = found[i]._replace(routes=way.routes, hints=way.hints)
        return found

    def judge(self) -> tuple[list[Reported], list[Reported], list[Reported]]:
        """(HEAD's bindings, every other finding, warnings)."""
        from forest_files.custody.applied import act_paths
        from forest_files.gate.history import judge_history, once

        top, head = self.top, self.head
        findings: list[Reported] = []
        warnings: list[Reported] = []
        graph: dict[str, tuple[str, ...]] = {}
        with open_custody(top, head) as custody:
            store, live, content = custody.store(), custody.bindings, custody.content
            if self.base is not None and self.merge_base is not None:
                findings, warnings = self.range_faults(functools.partial(act_paths, store))
                graph = self._graph()
            findings += erased_content_found(store)
            checked = check_all(store, live, content, grounds=custody.grounds)
            cfg = config_from(top, head)
            gaps = in_source(cfg.require, content, live, bind=cfg.bind)
            gaps += contests.of_store(store.conn, checked)  # contests bound to no file
            items = list(explain(checked, root=top, source=_ROUTES_ON, conn=store.conn))
            more = list(explain(gaps, root=top, source=_ROUTES_ON, conn=store.conn))
        history, judged_before, broken = judge_history(top, self.commits, head, graph)
        self.judged = [*judged_before, head]
        for commit, exc in broken:  # a commit of the range whose ledger does not replay
            (fault,) = self.ledger_faults(commit, [_replay_fault(top, commit, exc)], findings)
            findings.append(fault._replace(commit=commit))
        failed = [r for r in (*items, *more) if r.failed]
        keyed = [((r.binding or r.selector, r.kind, r.finding.actual_hash), r) for r in failed]
        marked, earlier = once(keyed, history)
        rewrite = self._rewrite(graph)
        if rewrite is not None:
            earlier = [rewrite.at_commit(r) for r in earlier]
            before = [(r.binding, r.commit) for r in earlier if r.binding and r.commit]
            marked = [rewrite.at_head(r, (c for b, c in before if b == r.binding)) for r in marked]
        brought = {id(r.finding): r for r in marked}
        items = [brought.get(id(r.finding), r) for r in items]
        more = [brought.get(id(r.finding), r) for r in more]
        return items, [*findings, *earlier, *more], warnings

    def _rewrite(self, graph: Mapping[str, tuple[str, ...]]) -> Rewrite | None:
        """The range as its rewrite routes need it (None without a base)."""
        if self.merge_base is None or self.head == self.merge_base:
            return None
        parents = graph.get(self.head, ())
        diffs = gitio.diff_each_parent(
            self.top, [(self.head, p) for p in parents], None, filters=None
        )
        changed = frozenset(c.path for diff in diffs for c in diff)
        return Rewrite(self.top, self.head, self._rebase(), changed)
