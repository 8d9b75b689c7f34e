"""The hook's word on a moved, unresolved or missing section whose file the working
tree holds otherwise than the git index.

The hook judges the index. After ``forest rebind`` with only the ledger staged, the
index still holds the section at its old place, so the finding's route rebinds it
back; the change the rebind recorded waits in the working tree. One hint per such
finding names the file and the ``git add`` that stages it.

Stores: nothing.
Refuses: nothing.
Returns: the report with that hint on each such finding (one ``git ls-files``
call, only when one of them failed).
Test: tests/custody/test_rebind_commit_step.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.kernel.shellword import command_text, git_step, printable

if TYPE_CHECKING:
    from forest_files.check.findings import CheckReport, Reported

_KINDS = ("moved", "unresolved", "missing")


def _paths(r: Reported) -> tuple[str, ...]:
    """The finding's file, and the file its unchanged text stands in now."""
    f = r.finding
    moved = f.moved_to.split("::", 1)[0].split("#", 1)[0] if f.moved_to else ""
    return tuple(dict.fromkeys(p for p in (f.path, moved) if p))


def hinted(report: CheckReport, root: Path) -> CheckReport:
    """``report`` (of the git index) with a hint on each moved, unresolved or
    missing finding whose file the working tree holds otherwise than the index."""
    asking = [r for r in report.failed if r.finding.kind in _KINDS]
    if not asking:
        return report
    from forest_files import gitio

    named = sorted({p for r in asking for p in _paths(r)})
    waiting = set(gitio.to_stage(root, named, keep_index_file=True))  # the hook's index
    if not waiting:
        return report

    def shown(r: Reported) -> Reported:
        mine = [p for p in _paths(r) if p in waiting] if r.finding.kind in _KINDS else []
        if not mine:
            return r
        add = command_text(git_step("add", "--", *mine))
        names = ", ".join(printable(p) for p in mine)
        hint = (
            f"{names}: the working tree's changes are not staged (this judged the index); "
            f"if they are what the staged ledger records, stage them: `{add}`"
        )
        return r._replace(hints=(*r.hints, hint))

    return report._replace(
        items=tuple(map(shown, report.items)), extra=tuple(map(shown, report.extra))
    )
