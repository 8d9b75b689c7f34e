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
   HEAD made the change, and say when earlier commits carry it too. A folder HEAD
   moved whole gets one directory rebind amending HEAD, said once (folder_head.py).

Steps 3 and 4 are skipped when step 1 finds faults: a damaged ledger cannot be
replayed into a trustworthy ground. Steps 2 to 4 and the routes of their findings
are judged_range.py's (``JudgedRange``); this module runs them and holds the report.

Stores: nothing (throwaway stores in temporary directories).
Refuses: a branch with no commit yet (``NoCommitYet``, naming the steps that make
the first one); a base that does not resolve (``UnknownRef``); a shallow clone
without the merge-base, or cutting a commit of the range off from its parents
(``ShallowClone``, naming ``fetch-depth: 0``).
Returns: ``GateReport`` — paths, selectors, line ranges, hashes and commit
ids, never section or body text.
Test: tests/gate/test_ci_gate.py, tests/gate/test_ci_folder_move.py
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.check.findings import CheckReport, Reported, Route
from forest_files.check.kinds import CORRUPTION
from forest_files.custody.config_model import ConfigError
from forest_files.gate.causes import lead_with_causes
from forest_files.gate.head_faults import (
    LEDGER_DIR,
    forked_before_custody,
    from_fault,
    verify_head,
)
from forest_files.gate.judged_range import JudgedRange, replay_fault
from forest_files.kernel.errors import ForestError, UnusableConfig
from forest_files.kernel.paths import CONFIG_NAME, FOREST_DIR
from forest_files.kernel.shellword import command_text, forest_text, git_step
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.segments import SEGMENTS_DIR
from forest_files.ledger.verify import UNNAMED, Fault

_SEGMENTS = f"{LEDGER_DIR}/{SEGMENTS_DIR}"


class NoCommitYet(ForestError):
    """``forest ci`` on a branch with no commit: nothing to judge."""


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
    # a refusal held as one finding (gate/refusal.py): its exit code; None: the gate ran
    refused_with: int | None = None
    # one route for several of HEAD's findings: a folder HEAD moved whole (folder_head.py)
    folder_routes: tuple[Route, ...] = ()

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
        if self.refused_with is not None:
            return self.refused_with
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
            "folder_routes": [route.as_dict() for route in self.folder_routes],
        }
        return out


def run_gate(
    root: Path | str, base: str | None, *, head: str | None = None, top: Path | None = None
) -> GateReport:
    """Everything the CI gate finds for HEAD (and merge-base(``base``, HEAD)..HEAD).
    A ledger that cannot be replayed is a ``ledger-fault`` finding, so every format
    still writes a complete report.

    ``head``: judge this commit instead of HEAD, from its commits alone; ``root`` is
    then the git directory itself and may be bare, with ``GIT_DIR`` naming it for the
    state directories (the server hook, doors/hooks/server.py, judging a pushed commit).
    ``top``: the work tree's top holding ``root`` when the caller asked git for it
    already (``forest ci``: where the user stands), so it is not asked again."""
    if head is not None:
        top = Path(root)
    elif top is None:
        top = gitio.toplevel(root)
    head = _head(top) if head is None else gitio.resolve_commit(top, head)
    merge_base = None if base is None else gitio.merge_base(top, base, head)
    faults, tracked = verify_head(top, head)
    judged: list[str] = []
    ctx = JudgedRange(top, head, base, merge_base, verified=not faults)
    items: list[Reported] = []
    warnings: list[Reported] = []
    findings = tracked  # local state is reported, never read: no reason to stop
    if faults:
        more: list[Reported] = []
        if base is not None:
            more, warnings = ctx.range_faults(None)
        found = ctx.ledger_faults(head, faults, more)
        kept = _keep_deleted_bodies(faults, found, more)
        ranged = list(zip(ctx.faults, more, strict=True))
        findings = [*lead_with_causes(top, list(zip(faults, kept, strict=True)), ranged), *tracked]
    else:
        try:
            items, more, warnings = ctx.judge()
            findings += more
            judged = ctx.judged
        except LedgerError as exc:
            findings.append(from_fault(replay_fault(top, head, exc), "ledger-fault"))
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
    range_ = (head, base, merge_base, tuple(ctx.commits), tuple(judged))
    return GateReport(*range_, report, folder_routes=ctx.folder_routes)


def _head(top: Path) -> str:
    """HEAD's commit; on a branch with no commit yet, the refusal says so and how to
    make the first one (git's "does not name a commit" asked to fetch it)."""
    try:
        return gitio.resolve_commit(top, "HEAD")
    except gitio.UnknownRef:
        if gitio.head_commit(top) is not None:
            raise
    add = git_step("add", "--", CONFIG_NAME, ".gitattributes", FOREST_DIR)
    steps = [command_text(add), command_text(git_step("commit"))]
    if not (top / CONFIG_NAME).is_file():
        steps.insert(0, forest_text("init"))
    raise NoCommitYet(
        f"{top}: no commit yet on this branch, so there is nothing for forest ci to judge; "
        f"put custody in a first commit: `{' && '.join(steps)}`, then run forest ci again"
    )


def _keep_deleted_bodies(
    faults: list[Fault], found: list[Reported], ranged: list[Reported]
) -> list[Reported]:
    """HEAD's bodies no act names (``found``, one per fault of ``faults``), when the
    range deleted a segment: they may be that segment's, which its put-back route
    restores (rewrite.py ``put_back``), so their ``git rm`` (which would delete more of
    the ledger) is withheld."""
    deleted = any(
        r.kind == "ledger-deleted" and r.finding.path.startswith(f"{_SEGMENTS}/") for r in ranged
    )
    if not deleted:
        return found
    note = Route("put the deleted segment back first", note="see the ledger-deleted finding")
    return [
        r._replace(routes=(note,)) if fault.cause == UNNAMED else r
        for fault, r in zip(faults, found, strict=True)
    ]
