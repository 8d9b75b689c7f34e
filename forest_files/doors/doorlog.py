"""What the doors put in the audit log: a refused commit, drift found, a CI run, a
command's refusal.

Stores: one record per call in ``.git/forest/audit.db`` (auditlog.py): ``hook``/
``refused`` when the pre-commit hook refuses a commit (reason ``drift``, or the
refusing error's code); ``drift``/``found`` when ``forest check`` or the watcher
finds a binding not clean (reason ``check`` / ``watch``); ``ci``/``found`` or
``ci``/``ok`` for each ``forest ci`` run (reason ``gate`` or
``ledger-corrupt``); ``refusal``/``refused`` for any other ForestError a
command ends with (reason: the error type's code, ``auditlog.reason_of``).
Targets are binding ids, selectors (path#section), hashes and commit ids;
counts are integers per finding kind. Never a body, words, a diff, a finding's
detail or an error message.
Refuses: nothing. Best effort: every function returns False instead of raising,
so recording can never change a command's outcome or exit code; nothing is
written outside a repository with a ``.forest/`` directory. A refusal's record
that cannot be written is lost quietly: the refused command prints one line.
Returns: whether a record was written.
Test: tests/governance/test_audit_doors.py, tests/doors/test_audit_unwritable.py

Callers import this module only when there is something to record, so a clean
check or hook never loads it (nor SQLite).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.check.findings import Reported
    from forest_files.custody.auditlog import Event
    from forest_files.gate.ci import GateReport


def _targets(reported: Iterable[Reported]) -> tuple[tuple[str, ...], dict[str, int]]:
    targets: dict[str, None] = {}  # first-seen order, each once (a list's `in` is O(n²))
    kinds: Counter[str] = Counter()
    for r in reported:
        f = r.finding
        if not f.failed:
            continue
        kinds[f.kind] += 1
        for value in (f.binding, f.selector, f.actual_hash):
            if value:
                targets[value] = None
    counts = dict(kinds)
    counts["findings"] = sum(kinds.values())
    return tuple(targets), counts


def _append(root: Path, event: Event, head: str | None = None, *, quiet: bool = False) -> bool:
    try:
        from forest_files.custody.auditlog import append_events

        return append_events(root, [event], head=head, quiet=quiet)
    except Exception:  # best effort: never the command's outcome (see the module)
        return False


def record_findings(
    root: Path, door: str, reported: Iterable[Reported], *, head: str | None = None
) -> bool:
    """Drift a door found (``door``: ``check``, ``watch``, or ``hook`` — a refused
    commit); nothing when every finding is clean. ``head``: HEAD when known (``""``:
    known to be none, an unborn branch; auditlog.NO_HEAD), else asked of git."""
    targets, counts = _targets(reported)
    if not counts["findings"]:
        return False
    from forest_files.custody.auditlog import Event

    if door == "hook":
        event = Event("hook", "refused", "drift", targets=targets, counts=counts)
    else:
        event = Event("drift", "found", door, targets=targets, counts=counts)
    return _append(root, event, head)


def record_proposal(
    root: Path, targets: Iterable[str], outcome: str, *, head: str | None = None
) -> bool:
    """A proposal kept (``new``, ``replaced``) or closed (``discarded``): its id, the
    binding, the selector and hashes as targets — never its text."""
    from forest_files.custody.auditlog import Event

    return _append(root, Event("proposal", "ok", outcome, targets=tuple(targets)), head)


def record_gate(root: Path | str, report: GateReport, *, top: Path | None = None) -> bool:
    """One ``forest ci`` run: its finding rules counted, their targets named, with the
    HEAD the gate judged (git is not asked for it again). ``top``: the work tree's top
    holding ``root`` when the caller asked git for it already."""
    from forest_files.custody.auditlog import Event

    targets: list[str] = [report.head]
    rules: Counter[str] = Counter()
    for f in report.findings:
        rules[f.kind] += 1
        for value in (f.binding, f.selector or f.path, f.commit):
            if value and value not in targets:
                targets.append(value)
    counts = {**rules, "findings": len(report.findings), "commits": len(report.commits)}
    outcome = "found" if report.findings else "ok"
    reason = "ledger-corrupt" if report.exit_code == 3 else "gate"
    event = Event("ci", outcome, reason, targets=tuple(targets), counts=counts)
    return _append(top or _root_of(root) or Path(root), event, report.head)


def record_refusal(
    where: Path | str, exc: BaseException, *, door: str = "cli", usage: bool = False
) -> bool:
    """A ForestError a command (``door``: ``cli`` or ``hook``) ended with, by its
    type's code (``usage``: a usage error the command raised, reason ``usage``);
    nothing for one recorded where it was raised, or outside a repository."""
    from forest_files.custody.auditlog import Event, mark_recorded, reason_of, was_recorded
    from forest_files.kernel.errors import ForestError, UnusableConfig

    if not (usage or isinstance(exc, ForestError)) or was_recorded(exc):
        return False
    if isinstance(exc, UnusableConfig):  # a broken forest.toml: nothing written, this either
        return False
    root = _root_of(where)
    if root is None:
        return False
    action = "hook" if door == "hook" else "refusal"
    # quiet: the refused command has its one ``forest:`` line (often of the same cause,
    # a git directory that cannot be written); a second one would only repeat it
    event = Event(action, "refused", "usage" if usage else reason_of(exc))
    done = _append(root, event, quiet=True)
    mark_recorded(exc)
    return done


def _root_of(where: Path | str) -> Path | None:
    """The working tree's top holding ``where``, or None (not in git)."""
    try:
        from forest_files.gitio import toplevel

        return toplevel(where)
    except Exception:
        return None
