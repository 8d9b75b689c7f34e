"""The text renderers: the terminal (``forest check``, the fast entry) and the hook.

Stores: nothing.
Refuses: nothing.
Returns: lines. One block per finding, the same in every door: the finding,
the commit that brought it (the CI gate), who adopted its ground with which
words (never in CI), each route as the exact command, hints, and (on a
terminal) the diff; ``one_line``, the same block as one line (the CI gate's
SARIF, JUnit and GitHub messages); ``no_diff``, what ``forest diff`` says of a binding
with no section to set against its ground. Clean bindings are counted in the
summary and listed only when asked (``-v``). An edit inside nested bindings is
one block, at the innermost drifted binding, naming the enclosing ones; at the
git index, several drifts end with one route for the whole commit
(commit_route.py). The bindings of a file in a merge conflict print their
routes once, after the last of them (``--json`` keeps one finding per binding,
each with its routes). Every line is plain text: a control character or a byte that
is not UTF-8 in a name or a word is shown escaped (kernel/shellword.py
``printable``), so a name can never end a line and forge the next one; a fact or hint
whose command spells a word ``$'\\ooo'`` says it needs bash, as a route does (``for_bash``).
``in_hook_order`` is every hook's refusal order (pre-commit's, the server's).
Test: tests/doors/test_doors.py, tests/check/test_forged_lines.py, tests/doors/test_cli_files.py
"""

from __future__ import annotations

from forest_files.check.findings import CheckReport, Reported, Route, detail_of
from forest_files.kernel.shellword import for_bash, forest_text, printable

TYPE_CHECKING = False  # an annotation's name only: nothing imported when the hook runs
if TYPE_CHECKING:
    from collections.abc import Iterable

    from forest_files.check.engine import Finding

_RED, _GREEN, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[0m"


def _kind(kind: str, colour: bool) -> str:
    if not colour:
        return kind
    return f"{_GREEN if kind == 'clean' else _RED}{kind}{_RESET}"


def headline(r: Reported, *, colour: bool = False) -> str:
    f = r.finding
    where = f" lines {f.start_line}-{f.end_line}" if f.start_line else ""
    detail = f" {detail_of(f)}" if f.detail else ""
    if where and f.kind == "moved" and f.moved_to and f.moved_to in detail:
        # its lines are the new place's: said after that place, not after the old one
        detail, where = detail.replace(f.moved_to, f.moved_to + where, 1), ""
    said = f"{f.selector or f.path}{where}{detail}".lstrip(" ")  # no place: the detail alone
    return f"{_kind(f.kind, colour)} {printable(said)}"


def no_diff(finding: Finding) -> str:
    """The lines ``forest diff`` prints for a binding whose section cannot be set against
    its ground (unresolved, moved, missing, contested): the finding with its detail, as
    ``forest check`` heads it, and the check of its file that prints the routes out."""
    check = forest_text("check", finding.path)
    return f"{headline(Reported(finding))}\n  " + for_bash(
        f"(no diff: `{check}` prints the routes out of it)"
    )


def facts(r: Reported, *, words: bool = True) -> list[str]:
    """What a door says of a finding beside its headline and routes: the commit it was
    found at or brought by (the CI gate), who adopted its ground (with their words
    when ``words``: never in CI, whose logs are often public), the candidates, hints."""
    f = r.finding
    out = []
    if r.introduced:
        out.append(f"brought by commit {r.introduced[:12]}")
    elif r.commit:
        out.append(f"found at commit {r.commit[:12]} of the range")
    if r.adopted_by:
        said = f": “{r.adopted_words}”" if words else ""
        out.append(f"ground {(f.ground or '-')[:12]} adopted by {r.adopted_by}{said}")
    if f.kind == "contested" and r.heads_adopted:  # each head with who adopted it
        for head, by, said in r.heads_adopted:
            quoted = f": “{said}”" if words and said else ""
            out.append(f"head {head} adopted by {by}{quoted}" if by else f"head {head}")
    elif f.kind == "contested" and f.candidates:  # two bindings of one section: their ids
        what = "bindings" if f.binding in f.candidates else "candidates"
        out.append(f"{what}: {', '.join(f.candidates)}")
    out.extend(r.hints)
    return out


def block(
    r: Reported, *, colour: bool = False, words: bool = True, routes: bool = True
) -> list[str]:
    """Every line a door prints for one finding (its routes left out when not
    ``routes``: a file in conflict prints them once, after its last finding)."""
    lines = [headline(r, colour=colour)]
    # a fact naming a command (the fsck of an unreadable index, a hint's git add) says
    # the shell it needs, as a route does
    lines.extend(f"  {for_bash(printable(fact))}" for fact in facts(r, words=words))
    if routes:
        lines.extend(f"  {printable(route.line())}" for route in r.routes)
    if r.diff:
        from forest_files.check.diff import for_terminal

        lines.append(for_terminal(r.diff, colour=colour))
    return lines


def one_line(r: Reported) -> str:
    """The block as one line, for the CI gate's SARIF, JUnit and GitHub formats: no
    adopting words, no diff (body-free, as every machine format)."""
    return printable(
        "; ".join([headline(r), *facts(r, words=False), *(x.line() for x in r.routes)])
    )


def enclosing(outer: tuple[Reported, ...]) -> list[str]:
    """The drifted bindings enclosing an edit, named beneath its innermost binding: a
    restore of the innermost mends them when that was their only edit; a supersede
    adopts it for the innermost alone. Under a moved heading: the moved subsections
    its rebind carries (check/move_carried.py)."""
    if outer and outer[0].finding.kind == "moved":
        from forest_files.check.move_carried import carried_line

        return [printable(carried_line(o)) for o in outer]
    return [
        f"  enclosed by {printable(o.finding.selector)} lines {o.finding.start_line}-"
        f"{o.finding.end_line}: drifted too: after a restore here, check it again; "
        "a supersede needs its own act"
        for o in outer
    ]


def failed_blocks(
    report: CheckReport, *, colour: bool = False, shown: int | None = None, lister: str = ""
) -> list[str]:
    """The report's hints, then every failed finding's block, an edit inside nested
    bindings once (at the innermost); at the git index, the one route for the whole
    commit after them.
    ``shown``: at most that many blocks, the rarest kinds first, the rest counted by
    kind in one line that names ``lister``, the command that lists every one."""
    from forest_files.check.commit_route import nested

    out = [for_bash(printable(hint)) for hint in dict.fromkeys(report.hints)]  # once each
    pairs = nested(report.failed)
    if shown is not None and len(pairs) > shown:  # a rare kind is not hidden behind many
        many: dict[str, int] = {}
        for r, _ in pairs:
            many[r.finding.kind] = many.get(r.finding.kind, 0) + 1
        pairs.sort(key=lambda pair: many[pair[0].finding.kind])  # stable: in order within
    conflicted = _conflicted(pairs[:shown])
    for r, outer in pairs[:shown]:
        group = conflicted.pop(r.finding.path, None) if _in_conflict(r) else [r]
        if not group:  # a file in conflict whose findings are printed already
            continue
        out.append("")
        for n, one in enumerate(group, 1):  # one file's conflict: its routes once, last
            out.extend(block(one, colour=colour, routes=n == len(group)))
        out.extend(enclosing(outer))
    if shown is not None and len(pairs) > shown:
        out.extend(["", _more([r for r, _ in pairs[shown:]], lister)])
    route = report.commit_route  # set at the git index only (commit_plan.with_plan)
    if route is not None:
        out.extend(["", printable(route.line())])
    return out


def _in_conflict(r: Reported) -> bool:
    f = r.finding  # a contest in conflict keeps its own routes (contest_conflict.py)
    return f.reason is not None and f.reason.kind == "conflict" and f.kind != "contested"


def _conflicted(pairs: list[tuple[Reported, tuple[Reported, ...]]]) -> dict[str, list[Reported]]:
    """Each file in a merge conflict -> its findings in order: the routes out of a
    conflict are the file's (conflicts.py), the same for every binding in it."""
    out: dict[str, list[Reported]] = {}
    for r, _ in pairs:
        if _in_conflict(r):
            out.setdefault(r.finding.path, []).append(r)
    return out


def terminal(
    report: CheckReport,
    *,
    verbose: bool = False,
    colour: bool = False,
    more: tuple[Route, ...] = (),
) -> list[str]:
    """``forest check``: each finding that needs a route (every binding with ``-v``),
    ``more`` routes that settle several of them (folder_move.py), then the summary
    line."""
    out: list[str] = [line for line in failed_blocks(report, colour=colour) if line]
    out.extend(printable(route.line()) for route in more)
    if verbose:
        out.extend(
            headline(r, colour=colour) for r in (*report.items, *report.extra) if not r.failed
        )
    for r in report.warnings:
        out.extend(warning_block(r, colour=colour))
    out.append(report.summary())
    return out


def warning_block(r: Reported, *, colour: bool = False, words: bool = True) -> list[str]:
    """A finding that fails nothing (the hook's ``unbound``), marked as a warning."""
    lines = block(r, colour=colour, words=words)
    return [f"warning: {lines[0]}", *lines[1:]]


def warning_note(r: Reported) -> str:
    """One ``CheckReport.notes`` entry: the hook prints it (after the verdict when it
    refuses the commit for another finding: ``hook_refusal``)."""
    lines = warning_block(r)
    first = f"forest-files: {lines[0]} (this refuses no commit; `forest ci` fails until adopted)"
    return "\n".join([first, *lines[1:]])


_SAID = {  # the hook's headline for a refusal of one kind only
    "drifted": "bound section(s) diverge from ground",
    "moved": "bound section(s) moved (their text is unchanged: rebind to keep custody)",
    "missing": "bound file(s) gone",
}


def _refused_what(failed: tuple[Reported, ...]) -> str:
    kinds = sorted({r.finding.kind for r in failed})
    if len(kinds) == 1 and kinds[0] in _SAID:
        return _SAID[kinds[0]]
    if all(r.finding.binding for r in failed):
        counts = ", ".join(f"{sum(r.finding.kind == k for r in failed)} {k}" for k in kinds)
        return f"bound section(s) not clean ({counts})"
    return "finding(s) not clean"


# Finding blocks the hook prints: a reorganisation can move thousands of bound
# sections, and the refusal's headline and its one route for the whole commit must
# stay on the screen; the rest are counted and ``lister`` lists every one.
HOOK_SHOWN = 20


def _more(rest: list[Reported], lister: str) -> str:
    kinds: dict[str, int] = {}
    for r in rest:
        kinds[r.finding.kind] = kinds.get(r.finding.kind, 0) + 1
    counts = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    return f"… and {len(rest)} more ({counts}): {lister} lists every one"


def in_hook_order(verdict: str, notes: Iterable[str], body: Iterable[str]) -> list[str]:
    """Every hook's refusal in one order (the pre-commit hook's, the server hook's): the
    one refusal line, each note once (advice that refuses nothing), then ``body``: the
    findings, the way out of the whole commit or push last."""
    return [verdict, *dict.fromkeys(notes), *body]


def hook_refusal(report: CheckReport, *, lister: str = "forest check --staged") -> list[str]:
    """The pre-commit hook's refusal (stderr), in every hook's order (``in_hook_order``):
    the verdict, each note (advice that refuses nothing: an unbound file, signing) and
    the run's hint once, then the first ``HOOK_SHOWN`` blocks and the route for the
    whole commit last. ``lister``: the command that lists every finding of this commit."""
    failed = report.failed
    return in_hook_order(
        f"forest-files: commit refused — {len(failed)} {_refused_what(failed)}",
        (n for n in report.notes if n not in report.hints),
        failed_blocks(report, shown=HOOK_SHOWN, lister=lister),
    )
