"""One route per commit, and one finding per edit: how the hook shows many drifts.

When a staged change needs two acts or more, the hook prints, after the
findings, one route that records exactly the steps it planned
(commit_plan.py: each drifted binding superseded, each binding whose section
stands at exactly one other place rebound there with its bound descendants)::

    forest supersede --staged --expect DIGEST --words '…' && git add -- .forest/ledger

``DIGEST`` (``plan_digest``) covers each step: its binding (bind act), the
section hash the index gives at its place, and for a rebind its old and new
selector; so the route refuses when anything it covers changed since it was
printed (a section edited, a candidate renamed again, a second candidate
come: governance/staged_supersede.py); authority is judged per binding when
it records. A finding with no single place (two candidates, none) is not
taken in: the route says how many are left to their own routes.

An edit inside nested bindings makes every enclosing binding drift too;
``nested`` shows it once, at the innermost drifted binding, with the enclosing
drifted ones named beneath it (same file, line range inside theirs). Display
only: every binding is still judged, fails, and needs its own act (the commit
route records them all).

Stores: nothing.
Refuses: nothing.
Returns: ``staged_digest`` (drifted bindings only), ``plan_digest``,
``commit_route`` (None when the steps need fewer than two commands of their
own: one drift, or one rebind with what it carries), ``nested`` (each finding
to show, with the enclosing findings named under it; a moved heading with the
moved subsections its rebind carries: move_carried.py), ``named_files_route``
and ``for_named_files`` (for ``git commit FILE…``, which commits the named files
alone: the commit to run after a route that stages the ledger, and the one route
staging those files first); ``routes_stage_taken`` (for ``git commit -a``: a
finding's route staging the ledger stages that finding's files again).
Test: tests/check/test_commit_route.py, tests/check/test_commit_rebind.py,
tests/check/test_chapter_split.py
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from forest_files.check.findings import WORDS_PLACEHOLDER, CheckReport, Reported, Route, Step
from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.shellword import command_text, git_step, shell_word

if TYPE_CHECKING:
    from forest_files.check.engine import Finding

DIGEST_CHARS = 20
_TAG = "forest-staged-supersede/v1"


def staged_digest(pairs: Iterable[tuple[str, str]]) -> str:
    """The digest of (bind act, staged section hash) pairs, in any order."""
    return _digest(f"{binding}\t{section}" for binding, section in pairs)


def plan_digest(steps: Iterable[Step]) -> str:
    """The digest of a route's steps, in any order: a supersede as ``staged_digest``
    has it; a rebind also names its old and new selector."""
    return _digest(
        f"{s.binding}\t{s.section}" if s.kind == "supersede" else "\t".join(s[1:5]) for s in steps
    )


def _digest(lines: Iterable[str]) -> str:
    import hashlib  # a refused commit's alone: a clean check never loads OpenSSL

    raw = "\n".join([_TAG, *sorted(lines)]).encode("utf-8", "surrogateescape")
    return hashlib.sha256(raw).hexdigest()[:DIGEST_CHARS]


def drifted(findings: Iterable[Finding]) -> list[Finding]:
    """The drifted findings of a commit (each binding once)."""
    seen: dict[str, Finding] = {}
    for f in findings:
        if f.kind == "drifted" and f.binding and f.actual_hash:
            seen.setdefault(f.binding, f)
    return list(seen.values())


def commit_route(
    steps: Sequence[Step], failed: Iterable[Finding] = (), *, partly_staged: bool = False
) -> Route | None:
    """The one route recording every step (None when they need fewer than two
    commands: the finding's own route is then one command already — unless a
    drifted file is ``partly_staged``: its own route would adopt the working tree's
    text, so this one, adopting the staged text, is the route)."""
    heads = [s for s in steps if not s.carried]
    if len(heads) < 2 and not (partly_staged and heads):
        return None
    step = ("forest", "supersede", "--staged", "--expect", plan_digest(steps))
    rebound = sum(s.kind == "rebind" for s in steps)
    if len(heads) < 2:
        label = "adopt the staged text"
    elif rebound:
        label = (
            f"or record the whole commit at once ({rebound} rebound where they stand now, "
            f"{len(steps) - rebound} drifted adopted)"
        )
    else:
        label = f"or adopt all {len(steps)} drifted sections at once"
    covered = {s.binding for s in steps}
    left = {f.binding for f in failed if f.binding and f.binding not in covered}
    more = ""
    if left:  # a choice the route cannot make: two candidates, none, a retire …
        more = "; the other finding needs its own route above"
        if len(left) > 1:
            more = f"; the {len(left)} other findings need their own routes above"
    return Route(
        label,
        (
            (*step, "--words", WORDS_PLACEHOLDER),
            ("git", "add", "--", LEDGER_PREFIX.rstrip("/")),
        ),
        f"replace … with why the reviewed text is right; refused if the staged text changed{more}",
    )


def for_named_files(report: CheckReport, named: Sequence[str]) -> CheckReport:
    """The report of ``git commit FILE…``, whose one route stages the ``named`` files
    first. That commit judges a temporary index of HEAD and the named files as the
    working tree holds them, but ``forest supersede --staged`` reads the repository's
    index, where they may not be staged: the route found nothing there, or refused
    its digest. Staging them is what that commit does to them anyway."""
    return for_commit_staged(report, [p for p in named if not p.startswith(LEDGER_PREFIX)], ())


def for_commit_staged(
    report: CheckReport, whole: Sequence[str], parts: Sequence[str]
) -> CheckReport:
    """The report of ``git commit -a``/``-i``/``-p``, which stage into the index's lock
    for this commit alone: once the hook refuses, what they staged beyond the index
    (``whole``: files taken as the working tree holds them; ``parts``: files of which
    ``-p`` took only some hunks) is gone, and ``forest supersede --staged`` found
    nothing staged there. Its one route stages ``whole`` first; ``parts`` must be
    staged again by hand, the same hunks (``git add -p``), before it is pasted."""
    route = report.commit_route
    if route is None or not (whole or parts):
        return report
    steps = route.steps if not whole else (git_step("add", "--", *whole), *route.steps)
    note = route.note
    if parts:
        files = ", ".join(shell_word(p) for p in parts)
        again = command_text(git_step("add", "-p", "--", *parts))
        note = f"first stage again the parts of {files} this commit took ({again}); {note}"
    return report._replace(commit_route=route._replace(steps=steps, note=note))


def routes_stage_taken(report: CheckReport, whole: Sequence[str]) -> CheckReport:
    """The report of ``git commit -a``/``-i``, whose staging is gone once the hook
    refuses: a finding's route that stages the ledger (a rebind, a retire, a resolve)
    stages too the files of that finding the commit took ``whole``. The plain ``git
    commit`` run after it (as ``forest rebind`` says) then carries the moved section;
    it carried the ledger alone, and was refused: the section had "moved" back."""
    if not whole:
        return report

    def staging(r: Reported) -> Reported:
        mine = [p for p in whole if p in _paths_of(r.finding)]
        if not mine or not r.routes:
            return r
        routes = tuple(
            route._replace(steps=tuple(_with_paths(s, mine) for s in route.steps))
            for route in r.routes
        )
        return r._replace(routes=routes)

    return report._replace(
        items=tuple(map(staging, report.items)), extra=tuple(map(staging, report.extra))
    )


def _paths_of(f: Finding) -> set[str]:
    """The files a finding names: its own, and where its section may stand now."""
    from forest_files.text.selector import parse_selector

    places = () if f.kind == "contested" else f.candidates  # a contest's are content ids
    if f.moved_to:
        places = (f.moved_to, *places)
    return {f.path, *(parse_selector(p).path for p in places)}


def stages_ledger(step: tuple[str, ...]) -> bool:
    """``step`` is a ``git add`` that stages the ledger."""
    return step[:1] == ("git",) and "add" in step[1:3] and LEDGER_PREFIX.rstrip("/") in step


def _with_paths(step: tuple[str, ...], paths: Sequence[str]) -> tuple[str, ...]:
    if not stages_ledger(step):
        return step
    words = step[2:] if step[1] == "--literal-pathspecs" else step[1:]
    have = set(words[words.index("--") + 1 :])
    return git_step(*words, *(p for p in paths if p not in have))


def named_files_route(routes: Iterable[Route], named: Sequence[str]) -> Route | None:
    """``git commit FILE…`` commits the named files alone (from a temporary index of
    HEAD and them), so the ledger a route stages with ``git add`` stays out of it and
    the same commit is refused again. When one of ``routes`` stages the ledger: the
    commit to run after it, the ``named`` files with the ledger (None otherwise)."""
    ledger = LEDGER_PREFIX.rstrip("/")
    if not any(stages_ledger(s) for r in routes for s in r.steps):
        return None
    files = [p for p in named if p != ledger and not p.startswith(LEDGER_PREFIX)]
    return Route(
        "then commit the ledger with the files this commit names",
        (git_step("commit", "--", ledger, *files),),
        "`git commit FILE…` leaves out what a route stages, so name the ledger too, "
        "with the options you gave, such as -m or --amend",
    )


def nested(items: Sequence[Reported]) -> list[tuple[Reported, tuple[Reported, ...]]]:
    """Each item to show, in order, with the drifted items enclosing it; an enclosing
    drifted item is shown only under the innermost drifted items inside it. A moved
    heading comes with the moved subsections its rebind carries, which are not shown
    on their own (move_carried.py: a chapter split)."""
    above: dict[int, tuple[Reported, ...]] = {}
    hidden: set[int] = set()
    if any(r.finding.kind == "moved" for r in items) and len(items) > 1:
        from forest_files.check.move_carried import carried

        above = carried(items)
        hidden = {id(r) for under in above.values() for r in under}
    by_path: dict[str, list[Reported]] = {}
    for r in items:
        if r.finding.kind == "drifted" and r.finding.start_line is not None:
            by_path.setdefault(r.finding.path, []).append(r)
    for group in by_path.values():
        if len(group) > 1:
            _nest(group, above, hidden)
    return [(r, above.get(id(r), ())) for r in items if id(r) not in hidden]


def _nest(group: list[Reported], above: dict[int, tuple[Reported, ...]], hidden: set[int]) -> None:
    """Fill ``above`` (innermost -> enclosing) and ``hidden`` for one file's drifts."""

    def span(r: Reported) -> tuple[int, int]:
        return r.finding.start_line or 0, r.finding.end_line or 0

    def key(r: Reported) -> tuple[int, int, bool, int]:
        lo, hi = span(r)  # outer first: earlier start, later end, the file, shorter
        return lo, -hi, r.finding.selector != r.finding.path, len(r.finding.selector)

    stack: list[Reported] = []
    parents: set[int] = set()
    for r in sorted(group, key=key):
        lo, hi = span(r)
        while stack and span(stack[-1])[1] < lo:
            stack.pop()
        enclosing = tuple(s for s in reversed(stack) if span(s)[1] >= hi)
        if enclosing:
            above[id(r)] = enclosing
            parents.update(id(s) for s in enclosing)
        stack.append(r)
    for r in group:
        if id(r) in parents:
            hidden.add(id(r))
            above.pop(id(r), None)
