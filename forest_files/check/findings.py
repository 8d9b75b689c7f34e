"""The finding model every door renders: findings with their routes, as data.

Stores: nothing.
Refuses: nothing.
Returns: ``Route`` (a way out: shell words, quoted when shown), ``Reported``
(a check finding with its routes and who adopted its ground), ``CheckReport``
(one check of one source). Nothing here carries section text.
Test: tests/test_doors.py
"""

from __future__ import annotations

import functools
import shlex
from typing import TYPE_CHECKING, NamedTuple

from forest_files.doors.summary import summary_line

if TYPE_CHECKING:
    from forest_files.check.engine import Finding

# The text a user must replace before a printed route records anything; the
# ceremonies refuse it (praise.refuse_placeholder) so a pasted route cannot sign it.
WORDS_PLACEHOLDER = "…"

# shlex.quote, remembered: a report repeats the same few words (forest, git, add, --,
# --words …) in every route, and a hook may print thousands of routes.
_quote = functools.lru_cache(maxsize=4096)(shlex.quote)


def detail_of(f: Finding) -> str:
    """The finding's detail without a leading repeat of its selector."""
    lead = f"{f.selector}: "
    return f.detail[len(lead) :] if f.detail.startswith(lead) else f.detail


# NamedTuples, not dataclasses: the hook and ``check --staged`` import this module,
# and ``dataclasses`` (with ``inspect``) is the largest import their start-up would pay.


class Route(NamedTuple):
    """One way out of a finding. ``steps`` are commands (argument lists) run in order
    (shown joined by ``&&``); ``note`` is advice that is not a command."""

    label: str
    steps: tuple[tuple[str, ...], ...] = ()
    note: str = ""

    @property
    def command(self) -> str:
        """The steps as one line a POSIX shell runs as printed (every word quoted)."""
        return " && ".join(" ".join(map(_quote, step)) for step in self.steps)  # shlex.join

    def line(self) -> str:
        if not self.steps:
            return f"{self.label}: {self.note}"
        tail = f"  ({self.note})" if self.note else ""
        return f"{self.label}: {self.command}{tail}"

    def as_dict(self) -> dict[str, object]:
        return {
            "label": self.label,
            "command": self.command or None,
            "argv": [list(s) for s in self.steps],
            "note": self.note,
        }


class Reported(NamedTuple):
    """A finding as every door shows it."""

    finding: Finding
    routes: tuple[Route, ...] = ()
    adopted_by: str = ""
    adopted_words: str = ""
    hints: tuple[str, ...] = ()  # facts that help choose a route (candidate headings …)
    diff: str = ""  # ground -> now, for a terminal only

    def with_diff(self, diff: str) -> Reported:
        return self._replace(diff=diff)

    @property
    def failed(self) -> bool:
        return self.finding.failed

    def as_dict(self) -> dict[str, object]:
        from dataclasses import asdict

        out = asdict(self.finding)  # never the diff: machine output carries no text
        out["routes"] = [r.as_dict() for r in self.routes]
        out["adopted_by"] = self.adopted_by or None
        out["hints"] = list(self.hints)
        return out


class CheckReport(NamedTuple):
    """One check of one content source: every binding's finding, clean ones included."""

    source: str  # "worktree", "index", or a commit id
    where: str  # "working tree", "git index", "commit 1a2b3c4d5e6f"
    items: tuple[Reported, ...] = ()
    extra: tuple[Reported, ...] = ()  # findings bound to no file (contests)
    notes: tuple[str, ...] = ()  # advice that fails nothing (an unsigned commit's warning)
    # findings that fail nothing: the hook's ``unbound`` (a draft may be committed)
    warnings: tuple[Reported, ...] = ()

    @property
    def failed(self) -> tuple[Reported, ...]:
        return tuple(r for r in (*self.items, *self.extra) if r.failed)

    @property
    def ok(self) -> bool:
        return not self.failed

    def summary(self) -> str:
        gaps = sum(1 for r in (*self.extra, *self.warnings) if r.finding.kind == "unbound")
        failed = sum(1 for r in self.failed if r.finding.kind != "unbound")
        line = summary_line(len(self.items), failed, self.where)
        return f"{line}; {gaps} required target(s) unbound" if gaps else line

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "ok": self.ok,
            "findings": [r.as_dict() for r in (*self.items, *self.extra)],
            "warnings": [r.as_dict() for r in self.warnings],
        }
