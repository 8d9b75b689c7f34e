"""The finding model every door renders: findings with their routes, as data.

Stores: nothing.
Refuses: nothing.
Returns: ``Route`` (a way out: shell words, quoted when shown), ``Reported``
(a check finding with its routes and who adopted its ground), ``CheckReport``
(one check of one source). Nothing here carries section text.
Test: tests/doors/test_doors.py, tests/check/test_hook_move_cost.py
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple

from forest_files.check.finding_rows import bound_to_no_file, judged_elsewhere
from forest_files.check.summary import summary_line
from forest_files.kernel.shellword import shell_needed, shell_word
from forest_files.kernel.standing import from_here

if TYPE_CHECKING:
    from forest_files.check.engine import Finding

# The text a user must replace before a printed route records anything; the
# ceremonies refuse it (praise.refuse_placeholder) so a pasted route cannot sign it.
WORDS_PLACEHOLDER = "…"

# shell_word (shlex.quote, and a name that is not UTF-8 as $'\ooo'), remembered: a
# report repeats the same few words (forest, git, add, --, --words …) in every route,
# and a hook may print thousands of routes.
_quote = functools.lru_cache(maxsize=4096)(shell_word)


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
        """The steps as one line a shell runs as printed (every word quoted; a word
        written as ``$'\\ooo'`` needs bash, zsh or ksh: ``line`` says so)."""
        steps = (from_here(step) for step in self.steps)  # git steps from the top
        return " && ".join(" ".join(map(_quote, step)) for step in steps)  # shlex.join

    def line(self) -> str:
        if not self.steps:
            return f"{self.label}: {self.note}"
        command = self.command
        said = "; ".join(filter(None, (self.note, shell_needed(command))))
        tail = f"  ({said})" if said else ""
        return f"{self.label}: {command}{tail}"

    def as_dict(self) -> dict[str, object]:
        return {
            "label": self.label,
            "command": self.command or None,
            "argv": [list(from_here(s)) for s in self.steps],
            "note": self.note,
        }


class Reported(NamedTuple):
    """A finding as every door shows it. ``commit`` and ``introduced`` are the CI
    gate's: the commit of the range a history finding was found at, and the commit
    that brought a finding HEAD still shows."""

    finding: Finding
    routes: tuple[Route, ...] = ()
    adopted_by: str = ""
    adopted_words: str = ""
    hints: tuple[str, ...] = ()  # facts that help choose a route (candidate headings …)
    diff: str = ""  # ground -> now, for a terminal only
    commit: str | None = None
    introduced: str | None = None
    # A contest's heads, each with who adopted it and their words ("" when none is on
    # record), in the order of ``finding.candidates``: text shows them to choose by.
    heads_adopted: tuple[tuple[str, str, str], ...] = ()

    def with_diff(self, diff: str) -> Reported:
        return self._replace(diff=diff)

    @property
    def failed(self) -> bool:
        return self.finding.failed

    @property
    def kind(self) -> str:
        return self.finding.kind

    @property
    def path(self) -> str:
        return self.finding.path

    @property
    def selector(self) -> str:
        return self.finding.selector

    @property
    def binding(self) -> str:
        return self.finding.binding

    @property
    def fingerprint(self) -> str:
        """Stable across runs: the same finding (kind, binding or act or path, selector,
        commit) has the same fingerprint in every door and every format."""
        f = self.finding
        return fingerprint(f.kind, f.binding or f.act or f.path, f.selector, self.commit)

    def as_dict(self) -> dict[str, object]:
        """The finding in the documented JSON schema (docs/findings.schema.json). Never
        the diff or the adopting words: machine output carries no text. A clean
        finding carries no lines or section hash (its section hashes to its ground),
        so a remembered clean verdict and a judged one print the same."""
        f = self.finding
        out = clean_dict(f.path, f.selector, f.binding, f.ground, f.expected_hash)
        if f.failed:  # a clean section is its ground: where it stands is not asked
            out.update(start_line=f.start_line, end_line=f.end_line, section_hash=f.actual_hash)
        out.update(
            kind=f.kind,
            act=f.act,
            detail=f.detail,
            moved_to=f.moved_to,
            candidates=list(f.candidates),
            candidate_lines=list(f.candidate_lines),
            commit=self.commit,
            introduced=self.introduced,
            adopted_by=self.adopted_by or None,
            hints=list(self.hints),
            routes=[r.as_dict() for r in self.routes],
            fingerprint=self.fingerprint if f.failed else None,
        )
        return out


def clean_dict(
    path: str, selector: str, binding: str, ground: str | None, ground_hash: str | None
) -> dict[str, object]:
    """A clean finding of a binding with no routes, hints or commit in the JSON schema:
    the one builder of a finding's document, whose keys and order every finding's
    ``Reported.as_dict`` starts from; alone, without a ``Finding`` (a remembered clean
    verdict: ``forest status --json``, check/remembered.py)."""
    return {
        "kind": "clean",
        "path": path,
        "selector": selector,
        "start_line": None,
        "end_line": None,
        "binding": binding or None,
        "act": None,
        "ground": ground,
        "section_hash": None,
        "ground_section_hash": ground_hash,
        "detail": "",
        "moved_to": None,
        "candidates": [],
        "candidate_lines": [],
        "commit": None,
        "introduced": None,
        "adopted_by": None,
        "hints": [],
        "routes": [],
        "fingerprint": None,
    }


def fingerprint(kind: str, key: str, selector: str, commit: str | None) -> str:
    """The finding's id across runs (SARIF's ``partialFingerprints``)."""
    import hashlib

    raw = "\0".join(("forest-ci/v1", kind, key, selector, commit or ""))
    return hashlib.sha256(raw.encode("utf-8", "surrogateescape")).hexdigest()


class Step(NamedTuple):
    """One act of the one route for a commit (check/commit_plan.py): ``supersede``
    (``new == old``) or ``rebind``."""

    kind: str
    binding: str  # bind act
    old: str  # the selector the binding has
    new: str  # the selector it has after the act
    section: str  # the section hash the index gives at ``new``
    carried: bool = False  # a descendant carried by an enclosing rebind
    path: str = ""  # the file ``new`` lies in (commit_plan.py gives every step its own)


class _ReportFields(NamedTuple):
    """A ``CheckReport``'s fields."""

    source: str  # "worktree", "index", a --rev as typed ("HEAD~1"), or ci's HEAD commit id
    where: str  # "working tree", "git index", "commit 1a2b3c4d5e6f"
    items: tuple[Reported, ...] = ()
    # findings of no binding: contests bound to no file, unbound [require] targets,
    # tracked local state, and the CI gate's own rules and history
    extra: tuple[Reported, ...] = ()
    notes: tuple[str, ...] = ()  # advice that fails nothing (an unsigned commit's warning)
    # findings that fail nothing: the hook's ``unbound`` (a draft may be committed)
    warnings: tuple[Reported, ...] = ()
    # at the git index: the steps of the one route for the whole commit (commit_plan.py)
    commit: tuple[Step, ...] = ()
    # ... and that route, when the steps need two commands or more (commit_route.py)
    commit_route: Route | None = None
    # a word on the whole run, said once before the findings (the working tree's
    # ledger not staged: unstaged.py); in JSON among the notes
    hints: tuple[str, ...] = ()
    # the summary of a run that checked nothing (a refused forest ci: gate/refusal.py),
    # said instead of "N binding(s) checked against WHERE"
    judged_nothing: str = ""
    # HEAD's commit as the run asked it of git (the audit record names it, asking git
    # nothing more: doors/doorlog.py); None when the run did not ask
    head: str | None = None


class CheckReport(_ReportFields):
    """One check of one content source: every binding's finding, clean ones included.
    A report never changes (``_replace`` makes another), so what is worked out of its
    findings is worked out once per report: a hook asks for the failed ones nine times."""

    @functools.cached_property
    def failed(self) -> tuple[Reported, ...]:
        return (
            *[r for r in self.items if r.finding.failed],
            *[r for r in self.extra if r.finding.failed],
        )

    def _replace(self, **changes: Any) -> CheckReport:
        """Another report with ``changes``; its failed findings this one's where
        neither ``items`` nor ``extra`` changes (a route, a note or a hint added)."""
        made = super()._replace(**changes)
        if "failed" in self.__dict__ and "items" not in changes and "extra" not in changes:
            made.__dict__["failed"] = self.failed
        return made

    @property
    def ok(self) -> bool:
        return not self.failed

    def summary(self) -> str:
        if self.judged_nothing:
            return self.judged_nothing
        gaps = sum(1 for r in (*self.extra, *self.warnings) if r.finding.kind == "unbound")
        loose = bound_to_no_file(self.failed)
        failed = sum(1 for r in self.failed if r.finding.kind != "unbound") - loose
        checked = len(self.items) + judged_elsewhere(self.items, self.extra)
        line = summary_line(checked, failed, self.where)
        if loose:  # not among the bindings checked: counted on their own, so it adds up
            line += f"; {loose} contest{'s' if loose > 1 else ''} of ground bound to no file"
        return f"{line}; {gaps} required target(s) unbound" if gaps else line

    def with_extra(self, more: tuple[Reported, ...]) -> CheckReport:
        return self._replace(extra=(*self.extra, *more)) if more else self

    def as_dict(
        self,
        door: str,
        exit_code: int | None = None,
        *,
        clean: list[dict[str, object]] | None = None,
    ) -> dict[str, object]:
        """The report in the documented JSON schema (docs/findings.schema.json), which
        ``forest check``, ``status``, ``check --staged`` and ``ci`` all print.
        ``clean``: every binding's finding, all clean (``clean_dict``), a report with
        no items of its own (a remembered clean verdict: ``forest status --json``).
        One finding per binding (finding_rows.py: a binding rebound twice, contested)."""
        from forest_files.check.finding_rows import rows

        found = clean if clean is not None else [r.as_dict() for r in rows(self.items, self.extra)]
        summary = self.summary() if clean is None else summary_line(len(clean), 0, self.where)
        return {
            "schema_version": SCHEMA_VERSION,
            "door": door,
            "source": self.source,
            "where": self.where,
            "ok": self.ok,
            "exit_code": (0 if self.ok else 1) if exit_code is None else exit_code,
            "summary": summary,
            "findings": found,
            "warnings": [r.as_dict() for r in self.warnings],
            "notes": [*self.notes, *self.hints],
            "commit_route": None if self.commit_route is None else self.commit_route.as_dict(),
            "range": None,
        }


# The version of the JSON every door prints (docs/findings.schema.json): raised when a
# field is removed or its meaning changes, never for a new optional field or kind.
SCHEMA_VERSION = 1
