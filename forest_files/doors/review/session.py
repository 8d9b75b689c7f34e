"""The ``forest review`` loop: each drifted binding and open proposal, one key each.

Stores: nothing itself; a key runs the very command it prints (``run``), and
proposals the text has left behind are closed first (closing.py).
Refuses: a key that is not offered for the item (said, then asked again): on a
contested binding only its contest's routes are (contested.py), never restore,
supersede or adopt; empty words (said, then asked again: Enter never records anything, there is
no default). Ctrl-D at a words prompt goes back to the keys; at a key prompt
(or the end of piped input) it ends the review.
Returns: ``Tally`` — what each item came to; its ``summary()`` line.
Test: tests/doors/test_review_session.py, tests/doors/test_review_pty.py,
tests/doors/test_review_contested.py
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from forest_files.check.findings import WORDS_PLACEHOLDER, Reported
from forest_files.custody.proposals import Proposal
from forest_files.doors.review import contested
from forest_files.doors.review.keys import Console
from forest_files.proposals.rebinds import Rebind

Run = Callable[[list[str]], int]
HELP = (
    ("r", "restore", "write ground back into the section (its restore route)"),
    ("s", "supersede", "make the text the section holds now its ground (asks for words)"),
    ("a", "adopt", "make the proposal's text ground (asks for words)"),
    ("d", "discard", "close the proposal, keeping nothing of its text"),
    ("n", "next", "leave this item as it is (k does the same)"),
    ("q", "quit", "stop here; the summary follows"),
    ("?", "help", "this list"),
)
_DONE = {"r": "restored", "s": "superseded", "a": "adopted", "d": "discarded"}
_RECORDS = ("superseded", "adopted", *contested.RECORDS)


@dataclass(frozen=True)
class Item:
    reported: Reported | None
    proposal: Proposal | None
    rebind: Rebind | None = None  # a heading the watcher saw renamed
    contest: Reported | None = None  # its binding's contest: only its routes are offered


@dataclass
class Tally:
    total: int
    reached: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        parts = [f"{n} {what}" for what, n in sorted(self.outcomes.items())]
        left = self.total - self.reached
        tail = f"; {left} not reached" if left else ""
        said = ", ".join(parts) if parts else "nothing done"
        return f"review: {self.reached} of {self.total} seen: {said}{tail}"

    def recorded(self) -> bool:
        return any(self.outcomes[k] for k in _RECORDS)


def gather(
    reports: list[Reported], proposals: list[Proposal], renames: Sequence[Rebind] = ()
) -> list[Item]:
    """One item per failed finding (with its proposals or its rebind proposal, and its
    binding's contest: contested.fold), then proposals alone."""
    by_binding: dict[str, list[Proposal]] = {}
    for p in proposals:  # the watcher's and an agent's may both be open
        by_binding.setdefault(p.binding, []).append(p)
    items: list[Item] = []
    for r, contest in contested.fold(reports):
        mine: list[Proposal | None] = [*by_binding.pop(r.finding.binding, [])] or [None]
        items += [Item(r if n == 0 else None, p, None, contest) for n, p in enumerate(mine)]
    items += [Item(None, p) for ps in by_binding.values() for p in ps]
    for rb in renames:
        at = [
            n
            for n, i in enumerate(items)
            if i.reported is not None
            and i.reported.finding.binding == rb.binding
            and i.proposal is None
            and i.rebind is None
        ]
        if at:
            items[at[0]] = replace(items[at[0]], rebind=rb)
        else:
            items.append(Item(None, None, rb))
    return items


def route_step(reported: Reported | None, verb: str) -> tuple[str, ...] | None:
    """The finding's own printed ``forest VERB …`` command, if it has one."""
    if reported is None:
        return None
    for route in reported.routes:
        for step in route.steps:
            if len(step) > 1 and step[0] == "forest" and step[1] == verb:
                return tuple(step)
    return None


def offered(item: Item) -> list[str]:
    """The action keys this item takes: of a contested binding, its contest's routes."""
    if item.contest is not None:
        return contested.keys(item.contest)
    keys = [
        k for k, verb in (("r", "restore"), ("s", "supersede")) if route_step(item.reported, verb)
    ]
    if item.proposal is not None or item.rebind is not None:
        keys += ["a", "d"]
    return keys


class Session:
    def __init__(
        self,
        console: Console,
        run: Run,
        show: Callable[[Item], list[str]],
        as_: str | None = None,
    ) -> None:
        self.console, self.run, self.show, self.as_ = console, run, show, as_

    def walk(self, items: list[Item]) -> Tally:
        tally = Tally(len(items))
        for n, item in enumerate(items, 1):
            tally.reached = n
            self.console.say(f"\n[{n} of {len(items)}]")
            for line in self.show(item):
                self.console.say(line)
            outcome = self._one(item, n, len(items))
            if outcome is None:
                tally.reached = n - 1
                break
            tally.outcomes[outcome] += 1
        return tally

    def _prompt(self, item: Item, keys: list[str], n: int, total: int) -> str:
        named = {k: verb for k, verb, _ in HELP}
        if item.contest is not None:
            named.update({k: contested.route(item.contest, k).label for k in keys})
        shown = ", ".join(f"{k} {named[k]}" for k in [*keys, "n", "q", "?"])
        return f"{n} of {total} — {shown}: "

    def _one(self, item: Item, n: int, total: int) -> str | None:
        """What the item came to (``kept``, ``restored``, …, ``failed``); None on quit."""
        keys = offered(item)
        while True:
            key = self.console.key(self._prompt(item, keys, n, total))
            if key in ("", "q"):
                return None
            if key == "?":
                self._help(item, keys)
            elif key in ("n", "k"):
                return "kept"
            elif key not in keys:
                said = repr(key) if key.isprintable() else "that key"
                self.console.say(f"forest: {said} is not an answer here; ? lists the keys")
            else:
                argv = self._command(key, item)
                if argv is not None:
                    self.console.say("$ " + shlex.join(argv))
                    code = self.run(argv)
                    if code:
                        self.console.say(f"(exit {code}; the item is left as it was)")
                    return "failed" if code else self._done(item, key)

    def _done(self, item: Item, key: str) -> str:
        return _DONE[key] if item.contest is None else contested.outcome(item.contest, key)

    def _help(self, item: Item, keys: list[str]) -> None:
        if item.contest is not None:
            self.console.say("  its binding is contested: settle that first (nothing else offered)")
            for k in keys:
                route = contested.route(item.contest, k)
                self.console.say(f"  {k}  {route.label}: {route.command}")
        for k, verb, what in HELP:
            if k in (*keys, "n", "q", "?"):
                self.console.say(f"  {k}  {verb}: {what}")
        self.console.say("  Enter is not an answer; words are never filled in for you")

    def words(self) -> str | None:
        """Words typed by the reviewer; None (go back) on Ctrl-D. Empty words refuse."""
        while True:
            got = self.console.line("words (why this becomes ground; Ctrl-D goes back): ")
            if got is None:
                return None
            if got:
                return got
            self.console.say("forest: words are required and have no default; say why")

    def _command(self, key: str, item: Item) -> list[str] | None:
        """The command ``key`` stands for, words typed in; None if the words were not."""
        if item.contest is not None:
            return self._filled(contested.step(item.contest, key))
        p = item.proposal or item.rebind
        if key == "d" and p is not None:
            return ["forest", "proposal", "discard", p.id]
        if key == "a" and p is not None:
            said = self.words()
            return (
                None
                if said is None
                else self._as(["forest", "proposal", "adopt", p.id, "--words", said])
            )
        step = route_step(item.reported, "restore" if key == "r" else "supersede")
        return None if step is None else self._filled(step)

    def _filled(self, step: tuple[str, ...]) -> list[str] | None:
        """``step`` with the words typed in for its placeholder; None if they were not."""
        if WORDS_PLACEHOLDER not in step:
            return list(step)
        said = self.words()
        if said is None:
            return None
        return self._as([said if w == WORDS_PLACEHOLDER else w for w in step])

    def _as(self, argv: list[str]) -> list[str]:
        return with_options(argv, "--as", self.as_) if self.as_ else argv


def with_options(argv: Sequence[str], *options: str) -> list[str]:
    """``argv`` with ``options`` before its ``--`` (kernel/shellword.py ``forest_step``
    puts one before a target starting with ``-``; after it they would be read as
    targets), else at its end. The last ``--``: typed words may be one, a target never."""
    at = len(argv) - argv[::-1].index("--") - 1 if "--" in argv else len(argv)
    return [*argv[:at], *options, *argv[at:]]
