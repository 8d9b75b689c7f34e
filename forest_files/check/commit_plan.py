"""What the one route for a commit records: each step, read from the git index.

The hook's route (commit_route.py) takes in every failed binding that one act
settles without a choice: a drifted binding is superseded with its staged
section; a binding whose finding names exactly ONE place it may stand now (a
``moved`` finding's unchanged section, an ``unresolved`` heading's single
rename candidate, a ``missing`` file's single renamed file) is rebound there,
carrying its bound descendants as ``forest rebind`` does (custody/lookup.py
``descendants``: a descendant not found under the new heading is left). A
finding with no candidate or two and more is never taken in: its own routes
stay the way out. Two steps that would land on one place, or a place another
binding holds (by its selector, or by the one it names at the index: ``#A/Dup[1]``
is ``#A/Dup`` once the other is deleted), are left out as well (``forest rebind``
would refuse them), and so is a place in a file whose name is not UTF-8 (its
routes rename the file first).

Stores: nothing.
Refuses: nothing (a place that cannot be read or extracted at the index is no
step).
Returns: ``Step`` values, each with the section hash the index gives at its
new place (the digest covers them: commit_route.py ``plan_digest``) and that
place's file (``path``, split off the rendered place once, never judged again);
``staged_text``, one section as the index holds it (governance/
staged_supersede.py records exactly that).
Test: tests/check/test_commit_route.py, tests/check/test_commit_rebind.py,
tests/check/test_hook_move_cost.py, tests/check/test_moved_not_utf8.py,
tests/check/test_commit_plan_held.py, tests/check/test_commit_plan_under.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from forest_files.check.finding import target
from forest_files.check.findings import Step
from forest_files.check.staged_texts import ReadFile, StagedTexts
from forest_files.kernel.hashing import hash_body
from forest_files.text.selector_paths import place_path

if TYPE_CHECKING:
    from pathlib import Path

    from forest_files.check.engine import Finding
    from forest_files.check.findings import CheckReport, Reported
    from forest_files.custody.bindings import Binding
    from forest_files.text.extract import Document

__all__ = [
    "StagedTexts",
    "Step",
    "by_path",
    "plan",
    "rebind_group",
    "staged_text_only",
    "target",
    "under",
    "with_plan",
]


def with_plan(
    report: CheckReport,
    bindings: Sequence[Binding],
    read: ReadFile,
    parsed: Mapping[str, tuple[str, Document]] | None = None,
    *,
    root: Path | None = None,
    flags: Callable[[Iterable[str]], dict[str, str] | None] | None = None,
) -> CheckReport:
    """``report`` (of the git index) with the steps of its one route for the commit;
    the index is read again only for a section that stands at one new place, and
    a file the check parsed (``parsed``, check_all's ``documents``) is not parsed
    again. With ``root``: a drifted file the working tree holds otherwise than the
    index (partly staged) gets the route that adopts the staged text, never one
    that adopts the working tree's (``staged_text_only``); a moved, unresolved or
    missing section whose file is not staged gets the ``git add`` (unstaged.py), and
    one whose file the index takes as unchanged the way to clear that (``flags``: the
    index flags of the check's own listing, content_git.py ``flags_at``)."""
    if report.ok:
        return report
    from forest_files.check.commit_route import commit_route  # only when something failed

    if root is not None:  # a move the ledger records, its file not staged: say so
        from forest_files.check.unstaged import hinted

        report = hinted(report, root, flags)

    failed = [r.finding for r in report.failed]
    steps = plan(failed, bindings, read, parsed)
    if not steps:
        return report
    partly = set()
    if root is not None:
        from forest_files import gitio

        drifted = sorted({f.path for f in failed if f.kind == "drifted"})
        partly = gitio.unstaged_paths(root, drifted, keep_index_file=True)
    route = commit_route(steps, failed, partly_staged=bool(partly))
    if route is not None and root is not None:  # a non-holder: each finding says whom to ask
        from forest_files.check.route_authority import Signer, governed_route, paths_of

        signer = Signer.of(root)
        if signer is not None and governed_route(route, paths_of(failed), signer) is not route:
            route = None
    report = report._replace(commit=steps, commit_route=route)
    return staged_text_only(report, partly) if partly else report


def staged_text_only(report: CheckReport, partly: set[str]) -> CheckReport:
    """A drifted file partly staged: its own supersede route would adopt the working
    tree's text (not the staged text the hook judged) and stage the file's other
    edits, so it is dropped for the one route for the commit, which adopts what the
    index holds; the restore route says it stages the whole file."""

    def shown(r: Reported) -> Reported:
        if r.finding.path not in partly or r.finding.kind != "drifted":
            return r
        routes = []
        for route in r.routes:
            if route.steps and route.steps[0][:2] == ("forest", "supersede"):
                continue
            if route.steps and route.steps[0][:2] == ("forest", "restore"):
                note = "it stages the whole file, its unstaged edits too"
                route = route._replace(note=f"{route.note}; {note}" if route.note else note)
            routes.append(route)
        hint = (
            "the working tree's copy has edits not staged: the route below adopts the staged text"
        )
        return r._replace(routes=tuple(routes), hints=(*r.hints, hint))

    return report._replace(
        items=tuple(map(shown, report.items)), extra=tuple(map(shown, report.extra))
    )


def plan(
    failed: Iterable[Finding],
    bindings: Sequence[Binding],
    read: ReadFile,
    parsed: Mapping[str, tuple[str, Document]] | None = None,
) -> tuple[Step, ...]:
    """Every step of the route for the failed findings of one staged change."""
    found = {f.binding: f for f in failed if f.binding}
    by_id = {b.bind_act: b for b in bindings if not b.retired}
    texts = StagedTexts(read, parsed)
    below = under(bindings)
    heads = [(f, t) for f in found.values() if (t := target(f)) and f.binding in by_id]
    heads.sort(key=lambda h: (_depth(h[0].selector), h[0].selector))
    groups: list[list[Step]] = []
    taken: set[str] = set()
    for f, new in heads:
        if f.binding in taken:
            continue  # carried already by an enclosing heading's rebind
        binding = by_id[f.binding]
        # a moved section was found at ``new`` by its staged hash (the check's own
        # parse of the index, not a claim): that hash is not computed again
        known = f.expected_hash if f.kind == "moved" else None
        group = rebind_group(binding, new, below.get(binding.selector, ()), texts, known)
        if group:
            groups.append(group)
            taken.update(s.binding for s in group)
    steps = [s for g in _free(groups, bindings, texts) for s in g]
    moving = {s.binding for s in steps}
    for f in found.values():
        if f.kind == "drifted" and f.actual_hash and f.binding not in moving:
            step = Step("supersede", f.binding, f.selector, f.selector, f.actual_hash, path=f.path)
            steps.append(step)
    return tuple(steps)


def by_path(bindings: Iterable[Binding]) -> dict[str, list[Binding]]:
    """The bindings of each file (what ``rebind_group`` takes), grouped once."""
    files: dict[str, list[Binding]] = {}
    for b in bindings:
        files.setdefault(b.path, []).append(b)
    return files


def under(bindings: Iterable[Binding]) -> dict[str, list[Binding]]:
    """The bindings whose selector starts with each heading selector and a ``/`` (what
    ``rebind_group`` reads of ``in_file``), grouped once in binding order: every
    binding is filed under each prefix of its selector that a ``/`` ends and that
    holds a ``#``, so no rebind scans its file's bindings again. A prefix with no
    ``#`` is no heading selector (only a heading's rebind carries descendants), so a
    binding is never filed under the folders of its path: a move of 2,000 bindings
    in ``vault/old/`` filed each under ``vault`` and ``vault/old``."""
    out: dict[str, list[Binding]] = {}
    for b in bindings:
        sel = b.selector
        mark = sel.find("#")
        cut = sel.find("/", mark) if mark >= 0 else -1
        while cut >= 0:
            out.setdefault(sel[:cut], []).append(b)
            cut = sel.find("/", cut + 1)
    return out


def rebind_group(
    binding: Binding,
    new: str,
    in_file: Sequence[Binding],
    texts: StagedTexts,
    known: str | None = None,
) -> list[Step]:
    """The rebind of ``binding`` to ``new`` and of each bound descendant found under
    it (``forest rebind``'s carry); empty when ``new`` is not there. ``in_file``: the
    bindings of ``binding``'s file (``by_path``), or only those under its selector
    (``under``), so a commit that moves thousands of bindings stays linear.
    ``known``: the section hash the check found at ``new`` (a canonical selector),
    for a ``moved`` finding."""
    if known is None:
        head = texts.text(new, binding.excludes)
        if head is None:
            return []
        new, known = head[0], hash_body(head[1])
    path = place_path(new)  # a rendered place: its path was judged when it was named
    out = [Step("rebind", binding.bind_act, binding.selector, new, known, path=path)]
    # a descendant's selector is its heading's, "/" and more (a "/" in a name is
    # escaped): only those are parsed, none for a binding with no bound children
    below = binding.selector + "/"
    near = [b for b in in_file if b.selector.startswith(below)]
    if not near:
        return out
    from forest_files.custody.lookup import descendants  # the store's module: only now

    for child, place in descendants(near, binding, new):
        got = texts.text(place, child.excludes)
        if got is not None:
            section = hash_body(got[1])  # under its heading: in the heading's file
            out.append(Step("rebind", child.bind_act, child.selector, got[0], section, True, path))
    return out


def _free(
    groups: list[list[Step]], bindings: Sequence[Binding], texts: StagedTexts
) -> list[list[Step]]:
    """The groups none of whose targets another group or a staying binding holds (by
    its selector or the one it has at the index, as ``forest rebind`` judges it)."""
    from forest_files.text.selector import parse_selector

    moving = {s.binding for g in groups for s in g}
    staying = [b for b in bindings if not b.retired and b.bind_act not in moving]
    held = {b.selector for b in staying}
    into = {s.path for g in groups for s in g}  # each step's file, carried: nothing split
    for b in staying:  # only a heading in a file a step lands in can be named twice
        if b.path in into and parse_selector(b.selector).kind in ("heading", "anchor"):
            named = texts.text(b.selector, b.excludes)
            if named is not None:
                held.add(named[0])
    count: dict[str, int] = {}
    for g in groups:
        for s in g:
            count[s.new] = count.get(s.new, 0) + 1
    return [g for g in groups if all(count[s.new] == 1 and s.new not in held for s in g)]


def _depth(selector: str) -> int:
    """How deep a heading selector sits (``#A/B`` is 2; no heading: 0)."""
    _, mark, rest = selector.partition("#")
    return rest.count("/") + 1 if mark else 0
