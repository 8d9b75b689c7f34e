"""The light ``forest status``: every binding of the working tree with its finding and
ground, answered from the remembered clean verdict while its inputs are unchanged,
else from the one check path (check/path.py); without typer, pydantic, GitPython.

Stores: only what the check it runs stores (fastcheck.py).
Refuses: nothing of its own; a refusal of the check it runs, through the one error
boundary (boundary.py).
Returns: exit 0 whatever it finds (it reports, the hook decides); the table on stdout,
advice (where the routes are, custody git does not track) on stderr; ``--json`` the
report in the one JSON schema, every binding a finding, ``"door": "status"``; one
row per binding (a binding rebound twice: its ``contested`` finding, check/finding_rows.py
``rows``, as every door's JSON lists it).
Test: tests/doors/test_fastcheck.py, tests/doors/test_doors_agree.py
"""

from __future__ import annotations

import os
import sys

from forest_files.doors.fastcheck import guarded, work_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from forest_files.check.findings import CheckReport


def status_command(repo: str, as_json: bool) -> int:
    """``forest status``: every binding of the working tree with its finding and ground."""
    return guarded("status", lambda: _status(repo, as_json), repo)


def _status(repo: str, as_json: bool) -> int:
    from forest_files.check.remembered import remembered_clean
    from forest_files.custody import verdict

    near = verdict.quick_root(repo)  # no pathlib, no git while the verdict holds
    if as_json:
        return _status_json(repo, near)

    known = remembered_clean(near) if near is not None else None
    selectors: Sequence[str]
    grounds: Sequence[str | None]
    kinds: list[str]  # each judged row's (the routes line counts the failed); none if remembered
    if known is not None:
        selectors, grounds = known
        kinds, shown = [], [f"{'clean':<10} "] * len(selectors)
    else:
        from forest_files.check.finding_rows import rows as one_per_binding

        report = _judged(repo, routes=False)  # the table prints no route
        found = [r.finding for r in one_per_binding(report.items, report.extra)]
        selectors, grounds = [f.selector for f in found], [f.ground for f in found]
        kinds = [f.kind for f in found]
        shown = [f"{kind:<10} " for kind in kinds]
    if not selectors:
        print("no bindings yet: forest adopt PATH[#Heading] --words …")
    else:
        table = zip(shown, _printable(selectors), grounds, strict=True)
        print("\n".join([f"{head}{sel}  {ground or '-'}" for head, sel, ground in table]))
    said = _custody_line(repo, near)
    for line in (_routes_line(kinds), said):
        if line is not None:  # advice, as the hook gives it: the table on stdout stays rows
            sys.stdout.flush()
            print(line, file=sys.stderr)
    return 0


def _printable(selectors: Sequence[str]) -> Sequence[str]:
    """``selectors`` as the table prints them (kernel/shellword.py ``printable``): as
    they are when all of them together are printable ASCII (printable's own test, one
    call for the whole column, shellword left unloaded), else each one escaped."""
    together = "".join(selectors)
    if together.isascii() and together.isprintable():
        return selectors
    from forest_files.kernel.shellword import printable

    return [printable(sel) for sel in selectors]


def _judged(repo: str, *, routes: bool = True) -> CheckReport:
    """The working tree judged by the one check path (``routes``: built for each failed
    finding, as ``--json`` carries them; the table's kinds need none)."""
    from forest_files.check.path import run_check

    return run_check(work_root(repo), "worktree", routes=routes)


def _routes_line(kinds: list[str]) -> str | None:
    """Where the routes of the table's failed rows are (a contest bound to no file has
    no selector to look up: ``forest check`` prints its ``forest resolve`` per head);
    None when every row is clean or an unbound draft (check/finding.py ``failed``)."""
    failed = sorted(k for k in kinds if k not in ("clean", "unbound"))
    if not failed:
        return None
    from collections import Counter

    from forest_files.kernel.shellword import for_bash, forest_text

    counts = ", ".join(f"{n} {kind}" for kind, n in Counter(failed).items())
    their = "its" if len(failed) == 1 else "their"
    return for_bash(f"forest: {counts}: `{forest_text('check')}` prints {their} routes")


def _custody_line(repo: str, near: str | None) -> str | None:
    """The one line naming custody git does not track (check/uncommitted.py: an act's
    ledger files never committed), its step reached from where the user stands; None
    when git tracks it all. Status still exits 0: it reports, the hook decides."""
    from forest_files.check.uncommitted import status_custody

    if near is None:
        return status_custody(str(work_root(repo)))
    from forest_files.kernel.standing import stand_at

    stand_at(near, absolute=os.path.isabs(repo))  # the warm answer noted no standing
    return status_custody(near)


def _status_json(repo: str, near: str | None) -> int:
    """``forest status --json``: the report in the one JSON schema (every binding); a
    remembered clean verdict's findings straight from the binding map's rows."""
    import json

    from forest_files.check.findings import CheckReport
    from forest_files.check.remembered import remembered_findings

    clean = remembered_findings(near) if near is not None else None
    report = _judged(repo) if clean is None else CheckReport("worktree", "working tree")
    said = _custody_line(repo, near)
    if said is not None:  # among the notes, as the check's other advice
        report = report._replace(notes=(*report.notes, said))
    print(json.dumps(report.as_dict("status", exit_code=0, clean=clean)))
    return 0
