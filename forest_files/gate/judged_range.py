"""One CI gate run's range judged: its commits, their faults with routes, HEAD's findings.

``JudgedRange`` is what ``run_gate`` (ci.py) holds for one run: the range's
commits (merge-base..HEAD, oldest first, one ``git log`` for their parents and authors),
its ledger faults from ``check_range`` each given its route (a ledger file a commit
deleted or changed put back, a governed change taken out, an act refused for its
signer or body dropped: fault_routes.py), HEAD's ledger faults with a dangling
dependency's routes (dangling.py) and a segment the range added taken out
(added_segment.py), and ``judge``: HEAD's bindings checked against
the ground rebuilt from HEAD's own ledger, then every commit of the range against
its own (history.py), each finding routed to rewrite the branch where it was made;
``folder_routes``: one directory rebind for a folder HEAD moved whole (folder_head.py).

Stores: nothing (throwaway stores in temporary directories).
Refuses: nothing itself (the range's refusals, as ``check_range`` raises them).
Returns: findings as ``Reported`` values; ``replay_fault``: a replay refusal as a
fault located at a segment.
Test: tests/gate/test_ci_gate.py, tests/gate/test_ci_rewrite_routes.py,
tests/gate/test_ci_ledger_put_back.py, tests/gate/test_ci_folder_move.py,
tests/gate/test_ci_rewrite_asked.py
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path

from forest_files import gitio
from forest_files.check import checkout_rewrite, contests
from forest_files.check.coverage import in_source
from forest_files.check.engine import check_all
from forest_files.check.explain import explain
from forest_files.check.findings import Reported, Route
from forest_files.check.opening import open_custody
from forest_files.custody.content import GitTreeSource
from forest_files.custody.sources import LinkedEntry, config_from
from forest_files.gate.config_governance import Listed
from forest_files.gate.deleted_added import TakenOut
from forest_files.gate.fault_routes import FaultRoutes
from forest_files.gate.folder_head import folder_routes_at
from forest_files.gate.head_faults import erased_content_found, from_fault
from forest_files.gate.rebase import Rebase
from forest_files.gate.rewrite import Rewrite
from forest_files.gitio import Change
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.verify import UNNAMED, Fault

_ROUTES_ON = "worktree"  # routes act on the checked-out tree (a CI checkout of HEAD)


def replay_fault(top: Path, head: str, exc: LedgerError) -> Fault:
    """A replay refusal as a fault located at the segment of the act it names."""
    from forest_files.gate.range import acts_at

    segment = exc.segment
    if segment is None and exc.act_id is not None:
        segment = acts_at(top, head).origin(exc.act_id)
    if isinstance(exc, LinkedEntry):  # a link: routed by its path (linked.py)
        return Fault(exc.code, None, None, None, exc.said, path=exc.path)
    return Fault(exc.code, segment, exc.line, exc.act_id, exc.reason)


PathsOf = Callable[[list[str]], Mapping[str, frozenset[str]]]
Diffs = Mapping[tuple[str, str], list[Change]]  # every path changed, by (commit, parent)


class JudgedRange:
    """One gate run's range: its commits, what was judged."""

    def __init__(
        self, top: Path, head: str, base: str | None, merge_base: str | None, *, verified: bool
    ) -> None:
        """``verified``: HEAD's ledger was verified sound (gate/head_faults.py ``verify_head``,
        from the whole ledger's listing, which the range's read of HEAD's acts takes)."""
        self.top, self.head, self.base, self.merge_base = top, head, base, merge_base
        self.verified = verified
        self.commits: list[str] = []
        self.judged: list[str] = []
        self.folder_routes: tuple[Route, ...] = ()  # a folder HEAD moved whole: folder_head.py
        self.faults: list[Fault] = []  # the range's, as its findings (range_faults) list them
        self._listing: Listed | None = None  # the range's commits, asked once if needed
        self._parents: dict[str, tuple[str, ...]] | None = None  # the same, as a graph
        self._out: TakenOut | None = None  # a deleted file's take-out: deleted_added.py

    def range_faults(
        self, paths_of: PathsOf | None, diffs: Diffs | None = None
    ) -> tuple[list[Reported], list[Reported]]:
        """(the range's faults, its warnings); the range's commits are listed too, so a
        report whose ledger is too damaged to judge still says which commits it held.
        ``diffs``: the range's one diff (history.py ``range_diffs``), when judged."""
        from forest_files.gate.range import check_range

        assert self.base is not None
        listed = None if self.merge_base is None else self._listed()
        ranged = check_range(
            self.top,
            self.base,
            paths_of=paths_of,
            head=self.head,
            merge_base=self.merge_base,
            listed=listed,
            diffs=diffs,
            head_verified=self.verified,
        )
        self.faults = list(ranged.faults)
        rebase = None if self.merge_base is None else self._rebase()
        routes = FaultRoutes(self.head, rebase, self.commits, ranged.faults, self._taken_out)
        faults = [routes.reported(f) for f in ranged.faults]
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

    def _taken_out(self, deleted: Fault) -> Route | None:
        """A deleted ledger file the range added at fault: its take-out from the commit
        that added it (deleted_added.py)."""
        if self._out is None:
            assert self.merge_base is not None
            gone = frozenset(f.path for f in self.faults if f.code == "ledger-deleted" and f.path)
            self._out = TakenOut(self.top, self.head, self.merge_base, self._rebase(), gone)
        return self._out.route(deleted)

    def _listed(self) -> Listed:
        """Each commit of the range with its parents and author, in git's commit order
        (one ``git log`` per run): the report's commits in that order, the graph and
        the governance's authors from the same listing."""
        assert self.merge_base is not None
        if self._listing is None:
            span = f"{self.merge_base}..{self.head}"
            self._listing = gitio.commits_with_authors(self.top, span)
            self.commits = [commit for commit, _, _ in self._listing]
            self._parents = {commit: parents for commit, parents, _ in self._listing}
        return self._listing

    def _graph(self) -> dict[str, tuple[str, ...]]:
        """Each commit of the range with its parents (from the range's one listing)."""
        self._listed()
        assert self._parents is not None
        return self._parents

    def _rebase(self) -> Rebase:
        """``git rebase -i MERGE-BASE`` over the range, knowing its merges."""
        assert self.merge_base is not None
        merges = frozenset(c for c, up in self._graph().items() if len(up) > 1)
        return Rebase(self.merge_base, merges)

    def ledger_faults(self, at: str, faults: list[Fault], ranged: list[Reported]) -> list[Reported]:
        """``at``'s ledger faults, a dangling dependency with its routes (dangling.py),
        placed in the range whose faults are ``ranged``; a segment the range added
        that does not verify, a body no act names or a link it added, taken out of the
        commit that added it (added_segment.py, linked.py)."""
        found = self._dangling(at, faults, ranged)
        if self.merge_base is None:
            return found
        from forest_files.gate.added_segment import routed
        from forest_files.gate.linked import first_commits, linked_routes

        deleted = frozenset(r.path for r in ranged if r.kind == "ledger-deleted")
        unnamed = frozenset(f.path for f in faults if f.cause == UNNAMED and f.path)
        found = routed(self.top, found, self.head, self._rebase(), deleted, unnamed)
        firsts = first_commits(self._graph())
        rebase, later = self._rebase(), at != self.head
        return linked_routes(self.top, found, self.head, rebase, later=later, firsts=firsts)

    def _dangling(self, at: str, faults: list[Fault], ranged: list[Reported]) -> list[Reported]:
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
        from forest_files.gate.history import changed_by, judge_history, once, range_diffs

        top, head = self.top, self.head
        findings: list[Reported] = []
        warnings: list[Reported] = []
        graph: dict[str, tuple[str, ...]] = {}
        diffs: Diffs = {}
        bound: dict[Path, set[str]] = {}  # HEAD's view's bound paths, for the range's opens
        with open_custody(top, head, bound=bound) as custody:
            store, live, content = custody.store(), custody.bindings, custody.content
            if self.base is not None and self.merge_base is not None:
                graph = self._graph()
                # What each commit of the range changed, HEAD too (its rewrite routes'),
                # the ledger's growth included: one diff.
                diffs = range_diffs(top, self.commits, graph)
                paths_of = functools.partial(act_paths, store)
                findings, warnings = self.range_faults(paths_of, diffs)
            findings += erased_content_found(store)
            checked = check_all(store, live, content, grounds=custody.grounds)
            cfg = config_from(top, head)
            gaps = in_source(cfg.require, content, live, bind=cfg.bind)
            gaps += contests.of_store(store.conn, checked)  # contests bound to no file
            there = checkout_rewrite.judged_paths(checked)
            if isinstance(content, GitTreeSource):  # none above a bound file can set one:
                there = set(checkout_rewrite.asked_paths(there, content))  # git not asked
            gaps += checkout_rewrite.findings(top, head, there)  # git rewrites on checkout
            conn = store.conn
            items = list(explain(checked, root=top, source=_ROUTES_ON, conn=conn, local=False))
            more = list(explain(gaps, root=top, source=_ROUTES_ON, conn=conn, local=False))
        changes = changed_by(top, self.commits, graph, diffs)
        history, judged_before, broken = judge_history(
            top, self.commits, head, graph, bound, changes
        )
        self.judged = [*judged_before, head]
        for commit, exc in broken:  # a commit of the range whose ledger does not replay
            (fault,) = self.ledger_faults(commit, [replay_fault(top, commit, exc)], findings)
            findings.append(self._erased_later(commit, exc, fault)._replace(commit=commit))
        failed = [r for r in (*items, *more) if r.failed]
        keyed = [((r.binding or r.selector, r.kind, r.finding.actual_hash), r) for r in failed]
        marked, earlier = once(keyed, history)
        rewrite = self._rewrite(changes.get(head))
        before: list[tuple[str, str]] = []
        if rewrite is not None:
            earlier = [rewrite.at_commit(r) for r in earlier]
            before = [(r.binding, r.commit) for r in earlier if r.binding and r.commit]
            marked = [rewrite.at_head(r, (c for b, c in before if b == r.binding)) for r in marked]
        brought = {id(r.finding): r for r in marked}
        items = [brought.get(id(r.finding), r) for r in items]
        carried = frozenset(b for b, _ in before)
        self.folder_routes = folder_routes_at(items, rewrite, carried)
        more = [brought.get(id(r.finding), r) for r in more]
        return items, [*findings, *earlier, *more], warnings

    def _erased_later(self, commit: str, exc: LedgerError, found: Reported) -> Reported:
        """A body ``commit``'s ledger lacks that an erase act of HEAD's erased with its
        signer's authority (gate/erased_later.py): still a fault, saying so, with the
        route that judges the range from the forget's commit on."""
        from forest_files.gate.erased_later import erased_later, missing_body
        from forest_files.gate.range import REFUSAL_CODES

        body = missing_body(exc.code, exc.reason)
        if body is None:
            return found
        refused = {f.act_id for f in self.faults if f.code in REFUSAL_CODES and f.act_id}
        later = erased_later(self.top, commit, self.head, body, refused)
        if later is None:
            return found
        route = Route(
            "judge from the forget's commit on", (("forest", "ci", "--base", later.commit),)
        )
        return found._replace(routes=(route, *found.routes), hints=(*found.hints, later.said()))

    def _rewrite(self, changed: set[str] | None) -> Rewrite | None:
        """The range as its rewrite routes need it (None without a base); ``changed``:
        the paths HEAD changed against its parents (history.py ``changed_by``)."""
        if self.merge_base is None or self.head == self.merge_base:
            return None
        return Rewrite(self.top, self.head, self._rebase(), frozenset(changed or ()))
