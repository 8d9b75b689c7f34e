"""What the watcher does with a batch's verdicts: alert, audit, propose, restore, rebind.

Stores: proposals (judge.capture); a renamed heading's likeliest new selector
as a rebind proposal (renames.py); closes the proposals its verdicts leave
behind (doors/review/closing.py); under a ``restore`` policy (forest.toml's
``[watch]``, policy.py) the section's ground written back by compare-and-swap
after its text became the proposal (route.py); new drift and kept proposals
in the audit log (doors/doorlog.py). It never roots, supersedes or rebinds.
Refuses: nothing; an error (a failed alert, a locked local.db, a full disk) is
handed to the watcher's ``error`` and the rest of the batch goes on. A proposal
that could not be kept is tried again, its verdict kept (said and alerted once),
when its path is judged again: at its next event, or held for a wait doubling
from 1 s up to ``retry_cap`` (the reconcile interval); so is a rename's rebind
proposal that could not be kept (a locked ``rebinds.db``, a full disk).
Returns: ``Responder`` — ``take(items, full, paths, head, unread)``; the custody it
routes by (``policies``, ``excludes``, ``taken``, ``max_bytes``) is set by the
watcher at every load. A folder moved whole gets ``forest check``'s one directory
rebind after its findings (check/folder_move.py). ``alert`` (if given) is called
once with each finding that newly failed; ``sink`` (if given) gets every line it says.
Test: tests/doors/test_watch.py, tests/doors/test_watch_policy.py,
tests/doors/test_watch_writers.py, tests/doors/test_watch_folder_route.py,
tests/doors/test_watch_no_room.py, tests/doors/test_watch_rename_retry.py,
tests/doors/test_act_hints_for_bash.py
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from forest_files.check.findings import Reported
from forest_files.custody.watchpolicy import RESTORE_LIMIT, RESTORE_WINDOW, WatchRule
from forest_files.doors.watch import judge
from forest_files.doors.watch.collector import Collector
from forest_files.doors.watch.journal import Journal
from forest_files.doors.watch.route import Restorer
from forest_files.kernel.shellword import for_bash, forest_text
from forest_files.kernel.verbosity import SAID

log = logging.getLogger("forest_files.doors.watch")
Sink = Callable[[list[str]], None]
Alert = Callable[[Reported], None]
OnError = Callable[[BaseException], None]


class Responder:
    def __init__(
        self,
        root: Path,
        journal: Journal,
        verdicts: judge.Verdicts,
        collector: Collector,
        *,
        sink: Sink | None,
        alert: Alert | None,
        error: OnError,
    ) -> None:
        self.root = root
        self.journal = journal
        self.verdicts = verdicts
        self.collector = collector
        self.sink = sink
        self.alert = alert
        self.error = error
        self.excludes: dict[str, tuple[str, ...]] = {}
        self.taken: frozenset[str] = frozenset()  # every live binding's selector
        self.max_bytes = 8 * 1024 * 1024
        self.policies: tuple[WatchRule, ...] = ()
        self.restorer = Restorer(root)
        self.retry_cap = 300.0  # the longest wait between tries (the reconcile interval)
        self._retry: dict[str, float] = {}  # binding -> its last wait, its proposal unkept
        self._folders_said: set[str] = set()  # folder routes said, while they stand

    def take(
        self,
        items: list[Reported],
        full: bool,
        paths: tuple[str, ...],
        head: str | None,
        unread: tuple[str, ...] = (),
    ) -> None:
        judged = self.verdicts.apply(items, full=full, paths=paths, unread=unread)
        self._settle(items)
        self._emit([*judged.lines, *self._folder_lines(judged.changed)])
        from forest_files.doors.doorlog import record_findings  # new drift: audited

        record_findings(self.root, "watch", judged.changed, head=head)
        for r in judged.changed:
            if r.finding.failed and self.alert is not None:
                try:
                    self.alert(r)
                except Exception as exc:  # a notification never stops the routing below
                    self.error(exc)
        for r in [*judged.changed, *self._retrying(items, judged.changed)]:
            if r.finding.kind == "drifted":
                self._route(r, head)
            elif r.finding.kind == "unresolved" and r.finding.candidates:
                self._rename(r)

    def _retrying(self, items: list[Reported], changed: tuple[Reported, ...]) -> list[Reported]:
        """The drifted (or renamed) findings, judged again unchanged, whose proposal (or
        rebind proposal) could not be kept (no room, a locked local.db or rebinds.db):
        tried again, their verdict not said again."""
        routed = {r.finding.binding for r in changed}
        again: list[Reported] = []
        for r in items:
            f = r.finding
            if f.binding not in self._retry or f.binding in routed:
                continue
            if f.kind == "drifted" or (f.kind == "unresolved" and f.candidates):
                again.append(r)
            else:
                del self._retry[f.binding]  # back at ground, or gone: nothing to keep
        return again

    def _folder_lines(self, changed: tuple[Reported, ...]) -> list[str]:
        """A folder moved whole, seen in this batch: ``forest check``'s one directory
        rebind (check/folder_move.py), judged on every binding's latest verdict; each
        said once while it stands."""
        if not any(r.finding.kind == "moved" for r in changed):
            return []
        from forest_files.check.folder_move import folder_routes_of
        from forest_files.kernel.shellword import printable

        lines = [
            printable(route.line())
            for route in folder_routes_of(r.finding for r in self.verdicts.latest())
        ]
        new = [line for line in lines if line not in self._folders_said]
        self._folders_said = set(lines)
        return new

    def _settle(self, items: list[Reported]) -> None:
        """Close the proposals these verdicts leave behind (back at ground under a
        non-restore policy, or superseded): ``status`` lists only live ones."""
        from forest_files.doors.review.closing import close_left_behind, said

        try:
            self._emit(said(close_left_behind(self.root, (r.finding for r in items))))
        except Exception as exc:  # a locked local.db: logged, settled at the next batch
            self.error(exc)

    def _route(self, r: Reported, head: str | None) -> None:
        """The binding's ``[watch]`` policy: notify (the lines are out already),
        propose, or propose then restore (policy.py, route.py)."""
        from forest_files.custody.watchpolicy import policy_for

        policy = policy_for(self.policies, r.finding.path)
        if policy == "notify":
            return
        kept = self._propose(r, head)
        if policy != "restore" or not kept:
            return
        f = r.finding
        outcome = self.restorer.restore(r, self.excludes.get(f.binding, ()))
        self.journal.add("restore", f.path, f.selector, outcome)
        if outcome == "held":
            self._emit(
                [
                    f"  {f.selector} was restored {RESTORE_LIMIT} times within "
                    f"{RESTORE_WINDOW:.0f} s: left as its proposal (something keeps writing it)"
                ]
            )
        elif outcome == "restored":
            self._emit([f"  restored ground into {f.selector} (the text is kept as a proposal)"])
        elif outcome == "left":
            self._emit(
                [
                    f"  {f.selector}: not restored — another forest command recorded a new "
                    "ground for it, or moved it, since the check; the file is left as it is"
                ]
            )
        elif outcome.startswith("failed"):
            self._emit([f"  {f.selector}: not restored ({outcome}); its text is a proposal"])

    def _rename(self, r: Reported) -> None:
        """A heading renamed: its likeliest new selector as a rebind proposal (unless
        the path's policy is ``notify``); renames.py."""
        from forest_files.custody.watchpolicy import policy_for
        from forest_files.doors.watch.renames import propose_rebind

        f = r.finding
        if policy_for(self.policies, f.path) == "notify":
            return
        try:
            done = propose_rebind(self.root, r, self.excludes.get(f.binding, ()), self.taken)
        except Exception as exc:  # a locked rebinds.db, a full disk: logged, tried again
            self.error(exc)
            self._later(f.binding, f.path)
            return
        self._retry.pop(f.binding, None)
        if done is not None and done[1] != "same":
            self.journal.add("rebind", f.path, f.selector, " ".join(done))
            show = forest_text("proposal", "show", done[0])
            self._emit([f"  proposal {done[0]} rebinds it ({done[1]}): {show}"])

    def _propose(self, r: Reported, head: str | None) -> bool:
        f = r.finding
        try:
            done = judge.capture(self.root, r, self.excludes.get(f.binding, ()), self.max_bytes)
        except Exception as exc:  # a full disk, a locked local.db: logged, tried again
            self.error(exc)
            done = None
        if done is None:
            self._later(f.binding, f.path)
            return False
        self._retry.pop(f.binding, None)
        pid, outcome = done.split(" ")
        self.journal.add("proposal", f.path, f.selector, done)
        if outcome != "same":
            from forest_files.doors.doorlog import record_proposal

            record_proposal(self.root, (pid, f.binding, f.selector), outcome, head=head)
            show = forest_text("proposal", "show", pid)
            self._emit([f"  proposal {pid} holds this text ({outcome}): {show}"])
        return True

    def _later(self, binding: str, path: str) -> None:
        """Judge ``path`` again after a wait doubling from 1 s up to ``retry_cap``
        (sooner at its next event), its verdict kept: one drift said, one alert."""
        wait = min(self.retry_cap, 2 * self._retry.get(binding, 0.5))
        self._retry[binding] = wait
        now = time.monotonic()
        self.collector.hold({path: now}, frozenset(), now + wait)

    def _emit(self, lines: list[str]) -> None:
        said = {SAID: self.sink is not None}  # the sink prints it: `-v` echoes it no more
        # a step spelling a word $'\ooo' (a folder reached by -C whose name is not UTF-8)
        # says the shell it needs, as a route does
        lines = [for_bash(line) for line in lines]
        for line in lines:
            log.info("%s", line, extra=said)
        if lines and self.sink is not None:
            self.sink(lines)
