"""The hook's word on a finding the working tree may settle but the git index does not
hold yet: a moved, unresolved or missing section whose file the working tree holds
otherwise than the index, and any finding while the working tree's ledger holds acts
not staged.

The hook judges the index. After ``forest rebind`` with only the ledger staged, the
index still holds the section at its old place, so the finding's route rebinds it
back; the change the rebind recorded waits in the working tree. One hint per such
finding names the file and the ``git add`` that stages it. After ``forest rebind``
(``supersede``, ``retire``) with the ledger NOT staged, the finding's route records
the act again, which the working tree's ledger refuses (the binding has moved: "no
binding"), so pasted it fails; while a drifted, moved, unresolved or missing finding
stands, one hint on the report (said once, before the findings: check/text.py)
names the ``git add -- .forest/ledger`` that stages what was recorded. A finding
whose file the index is told to take as unchanged (``git update-index
--assume-unchanged`` or ``--skip-worktree``, with the file in the working tree) gets
a hint to clear that first: ``git add`` of it stages nothing, so every route that
ends in one (restore, supersede) came back to the same refusal. Ledger files an
ignore rule hides (a ``*.jsonl`` in ``.gitignore``) get the hint that names the
rule (check/uncommitted.py's words): ``git add -- .forest/ledger`` passes over them
without a word, so the recorded act never reached the index either.

Stores: nothing.
Refuses: nothing.
Returns: the report with those hints (one ``git ls-files`` call for the files, one
for the flags unless the check's own listing of the index holds them, and one
listing the custody files git does not track, ignored or not: check/uncommitted.py
``untracked_custody``; only when such a finding failed).
Test: tests/custody/test_rebind_commit_step.py, tests/check/test_unstaged_hint.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.shellword import command_text, git_step, printable

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from forest_files.check.findings import CheckReport, Reported

    Flags = Callable[[Iterable[str]], dict[str, str] | None]

_KINDS = ("moved", "unresolved", "missing")
_LEDGER_KINDS = ("drifted", *_KINDS)  # an act recorded in the working tree may settle
_LEDGER = LEDGER_PREFIX.rstrip("/")


def _paths(r: Reported) -> tuple[str, ...]:
    """The finding's file, and the file its unchanged text stands in now."""
    f = r.finding
    moved = f.moved_to.split("::", 1)[0].split("#", 1)[0] if f.moved_to else ""
    return tuple(dict.fromkeys(p for p in (f.path, moved) if p))


def hinted(report: CheckReport, root: Path, flags: Flags | None = None) -> CheckReport:
    """``report`` (of the git index) with a hint on each moved, unresolved or
    missing finding whose file the working tree holds otherwise than the index, and
    one on the report while the working tree's ledger is not staged. ``flags``: the
    index flags of paths the check's own listing holds (None for a path it did not
    list: then asked of git)."""
    asking = [r for r in report.failed if r.finding.kind in _LEDGER_KINDS]
    if not asking:
        return report
    from forest_files import gitio
    from forest_files.check.uncommitted import untracked_custody

    named = sorted({p for r in asking if r.finding.kind in _KINDS for p in _paths(r)})
    waiting = set(gitio.to_stage(root, named, keep_index_file=True)) if named else set()
    added, ignored = untracked_custody(root, keep_index_file=True)  # one listing for both
    ledger = any(p == _LEDGER or p.startswith(LEDGER_PREFIX) for p in added)  # new acts
    held = _held(root, sorted({r.finding.path for r in asking}), flags)
    hidden = None if ledger or not ignored else _ignored(ignored)
    if not waiting and not ledger and not held and not hidden:
        return report

    def shown(r: Reported) -> Reported:
        r = _unheld(r, held)
        mine = [p for p in _paths(r) if p in waiting] if r.finding.kind in _KINDS else []
        if not mine:
            return r
        add = command_text(git_step("add", "--", *mine))
        names = ", ".join(printable(p) for p in mine)
        hint = (
            f"{names}: the working tree's changes are not staged (this judged the "
            f"index); if they are what the staged ledger records, stage them: `{add}`"
        )
        return r._replace(hints=(*r.hints, hint))

    report = report._replace(
        items=tuple(map(shown, report.items)), extra=tuple(map(shown, report.extra))
    )
    if hidden:
        return report._replace(hints=(*report.hints, hidden))
    if not ledger:
        return report
    add = command_text(git_step("add", "--", _LEDGER))
    said = (
        f"{_LEDGER}: acts recorded in the working tree are not staged (this judged the "
        f"staged ledger); if one settles a finding below, stage them instead of its "
        f"route: `{add}`"
    )
    return report._replace(hints=(*report.hints, said))


def _ignored(hidden: list[str]) -> str:
    """The words on the custody files an ignore rule hides (``hidden``: an act's
    segment that ``git add -- .forest/ledger`` passed over without a word)."""
    from forest_files.check.uncommitted import ignored_line

    return ignored_line(hidden, in_commit=True).removeprefix("forest: ")


def _held(root: Path, paths: list[str], flags: Flags | None) -> dict[str, str]:
    """The ``paths`` git is told to take as unchanged, each with its flag (from the
    check's listing when it holds them all, else one ``git ls-files -v``); a
    skip-worktree file only when the working tree holds it (else a sparse checkout
    left it out, and the missing route says so)."""
    import os

    found = flags(paths) if flags is not None else None
    if found is None:
        from forest_files import gitio

        found = gitio.taken_as_unchanged(root, paths, keep_index_file=True)
    return {
        p: flag
        for p, flag in found.items()
        if flag == "assume-unchanged" or os.path.lexists(root / p)
    }


def _unheld(r: Reported, held: dict[str, str]) -> Reported:
    """``r`` with a hint to clear the flag that keeps its file's edits from the index."""
    flag = held.get(r.finding.path)
    if flag is None:
        return r
    path = r.finding.path
    clear = command_text(git_step("update-index", f"--no-{flag}", "--", path))
    add = command_text(git_step("add", "--", path))
    hint = (
        f"{printable(path)}: git is told to take it as unchanged (`git update-index "
        f"--{flag}`), so `git add` stages none of its edits and this judged the index "
        f"without them; clear that first, then stage it: `{clear} && {add}`"
    )
    return r._replace(hints=(*r.hints, hint))
