"""``forest verify``'s faults as the user reads them: each fix runnable where they
stand, one line per fault, one route removing every stray file, and the refusal that
ends a run whose ledger is damaged.

Stores: nothing.
Refuses: ``refuse_damage``: a ledger fault that is not an authority or policy refusal
(``LedgerFaults``, exit 3), naming what brings the ledger back (the restore route, the
take-outs, the fix commands shown, or the conversion a rule makes on checkout).
Returns: ``fault_here``: a fault with its fix reached from where the user stands;
``fault_line``: one fault's text; ``fix_all``: the route removing every stray at once.
Test: tests/doors/test_cli.py, tests/doors/test_verify_routes.py,
      tests/doors/test_printed_where_typed.py
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from forest_files.doors.streams import routes_where
from forest_files.kernel.errors import StoreCorruption

if TYPE_CHECKING:
    from forest_files.check.findings import Route
    from forest_files.custody.damaged import Restore
    from forest_files.ledger.verify import Fault


# verify's last line when git converted the ledger as it checked it out: the fault
# above names what converts it (a rule's file, or core.autocrlf) and the fix; nothing
# is damaged in git.
_CONVERTED_BACK = "keep the ledger out of the conversion named above, as said there"


class LedgerFaults(StoreCorruption):
    """``forest verify`` found faults (exit 3)."""


def fault_here(f: Fault) -> Fault:
    """``f`` with its fix as the user runs it where they stand: a ``git`` step from the
    top, the paths of an ``rm`` reached from here (kernel/standing.py ``from_here``)."""
    from dataclasses import replace

    from forest_files.kernel.shellword import command_text
    from forest_files.kernel.standing import from_here

    if not f.fix_argv:
        return f
    fix = " && ".join(map(command_text, f.fix_steps()))
    then = from_here(f.fix_then) if f.fix_then else ()
    return replace(f, fix=fix, fix_argv=from_here(f.fix_argv), fix_then=then)


def fault_line(f: Fault) -> str:
    """One fault on its own lines; a name's control characters shown escaped, so a
    stray's name never forges a line (kernel/shellword.py ``printable``). Its fix
    works where the user stands; where that is not known, at the repository root."""
    from forest_files.kernel.shellword import for_bash, printable
    from forest_files.kernel.standing import reach
    from forest_files.ledger.fault import place

    where = "" if f.path is not None else place(f.segment, f.line)  # a stray: its path
    text = f"{f.code}: {printable(where) + ': ' if where else ''}{printable(f.detail)}"
    return text + (f"\n  {for_bash(f'fix{_where(reach())}: {printable(f.fix)}')}" if f.fix else "")


def _where(reached: str) -> str:
    """Where a printed fix runs: where the user stands (reached from there), or (at
    the top, or not known) the top."""
    return "" if reached else ", at the repository root"


def fix_all(faults: list[Fault]) -> Route | None:
    """One route removing every stray file at once, beside each one's own fix (a
    killed bulk adoption can leave hundreds): exactly the files named above."""
    from forest_files.check.findings import Route
    from forest_files.kernel.standing import reach
    from forest_files.ledger.verify import removal_of_all

    steps = removal_of_all(faults)
    if not steps:
        return None
    count = sum(len(step) - 2 for step in steps)
    return Route(f"remove all {count} stray files at once{_where(reach())}", steps)


def refuse_damage(
    faults: Sequence[Fault],
    plan: Restore,
    taken: Mapping[str, Route],
    *,
    converted: bool,
    refusals: frozenset[str],
    as_json: bool,
) -> None:
    """Raise ``LedgerFaults`` when a fault is damage, not an authority or policy
    refusal (``refusals``), naming what brings the ledger back."""
    if all(f.code in refusals for f in faults):
        return
    from forest_files.doors.cli.verify_routes import RESTORE

    fixes = sum(1 for f in faults if f.fix)
    back = [f"{RESTORE}: `{plan.route}`"] if plan.route else []
    if taken:
        back.append("take out the segments no commit holds whole, as shown")
    if not back and not plan.lost:
        back = [_CONVERTED_BACK if converted else "restore the damaged files"]
    how = [
        *(back if fixes < len(faults) else []),
        *plan.lost,
        *(["run the fix commands shown"] if fixes else []),
    ]
    then = " and ".join(how)
    where = routes_where(as_json)
    raise LedgerFaults(
        f"ledger has {len(faults)} fault(s){where}{', then' if where else ';'} {then}"
    )
