"""``forest check PATH…``: the bindings the arguments name, paths or section selectors.

Stores: nothing.
Refuses: nothing itself; ``unmatched`` names each argument that matches no
binding and no required target, which the door refuses as a usage error (exit 2)
rather than report "0 checked".
Returns: ``split``: the paths to judge (a selector's file) and the selector
arguments; ``narrowed``: the report with only the bindings a selector names
(a full selector or a heading-path tail, as ``forest diff`` takes it) beside
those under the plain paths (a binding rebound twice: any of its places,
check/contests.py); ``unmatched``: the arguments that named nothing;
``twin_of``: the binding one names but for Unicode normalisation, as a clause.
Test: tests/check/test_renames.py

Light: the hook and the warm ``forest check`` import nothing of it unless
arguments are given.
"""

from __future__ import annotations

from pathlib import Path

from forest_files.check.finding import places_of
from forest_files.check.findings import CheckReport, Reported
from forest_files.kernel.errors import ForestError
from forest_files.kernel.repopath import under
from forest_files.text.selector import Selector, parse_selector

_MARKS = ("#", "@", ":")


def split(root: Path, args: tuple[str, ...]) -> tuple[tuple[str, ...], dict[str, Selector]]:
    """(the paths to judge, each selector argument parsed). An argument naming an
    existing file, or no section, is a path; a whole-file selector (``x\\#y.md``,
    the escaped spelling status and routes print) judges the file it names."""
    paths: list[str] = []
    selectors: dict[str, Selector] = {}
    for arg in args:
        sel = None if (root / arg).exists() or not any(m in arg for m in _MARKS) else _parse(arg)
        if sel is None:
            paths.append(arg)
        else:
            paths.append(sel.path)
            selectors[arg] = sel
    return tuple(dict.fromkeys(paths)), selectors


def _parse(arg: str) -> Selector | None:
    try:
        return parse_selector(arg)
    except ForestError:
        return None


def _names(sel: Selector, path: str, selector: str) -> bool:
    """The binding at ``path`` and ``selector`` is the section ``sel`` names (its full
    selector, or a tail)."""
    if path != sel.path:
        return False
    try:
        got = parse_selector(selector)
    except ForestError:
        return False
    if got.kind != sel.kind or (sel.index is not None and got.index != sel.index):
        return False
    return got.parts[len(got.parts) - len(sel.parts) :] == sel.parts


def _matches(arg: str, selectors: dict[str, Selector], r: Reported) -> bool:
    """``arg`` names ``r``: its place, or any place of a binding rebound twice."""
    sel = selectors.get(arg)
    for path, selector in places_of(r.finding):
        if sel is None:
            hit = under(path, arg)
        else:
            hit = under(path, sel.path) if sel.kind == "file" else _names(sel, path, selector)
        if hit:
            return True
    return False


def narrowed(
    report: CheckReport, args: tuple[str, ...], selectors: dict[str, Selector]
) -> CheckReport:
    """Only the findings some argument names (a selector keeps its section only)."""
    if all(sel.kind == "file" for sel in selectors.values()):  # judged whole already
        return report

    def keep(rs: tuple[Reported, ...]) -> tuple[Reported, ...]:
        return tuple(r for r in rs if any(_matches(a, selectors, r) for a in args))

    return report._replace(
        items=keep(report.items), extra=keep(report.extra), warnings=keep(report.warnings)
    )


def unmatched(
    report: CheckReport, args: tuple[str, ...], selectors: dict[str, Selector]
) -> list[str]:
    """The arguments that name no binding and no required target."""
    seen = (*report.items, *report.extra, *report.warnings)
    return [a for a in args if not any(_matches(a, selectors, r) for r in seen)]


def twin_of(report: CheckReport, arg: str) -> str | None:
    """The clause naming the binding ``arg`` names but for Unicode normalisation, from
    the report before narrowing (its file was judged), or None."""
    from forest_files.text.unicode_twin import twin_clause, twin_selector

    seen = (*report.items, *report.extra, *report.warnings)
    spelled = twin_selector(arg, (r.selector for r in seen))
    return None if spelled is None else twin_clause(arg, spelled, spelled, holder="its binding")
