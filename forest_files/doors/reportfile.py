"""``forest ci``'s report files (``--report FORMAT=FILE``, ``$GITHUB_STEP_SUMMARY``),
each whole or not at all: a CI that reads one later never takes a report cut short for
the verdict.

Stores: each FILE named: a regular file, or none yet, through kernel/cache.py
``replace_atomically`` (a temporary file beside it, renamed over it; a write that
fails, a full disk or ``ulimit -f``, leaves the old file as it was, or no file); a
symbolic link's target the same way; anything else (/dev/stdout, a FIFO, /dev/full)
written in place: it cannot be renamed over, and holds no earlier report. Before
writing, the ``FILE.<pid>.tmp`` an earlier run killed between its write and its rename
left beside it (its writer gone) is removed (kernel/cache.py ``sweep_leftovers``); a
missing folder is made. With ``--format github``, the step summary appended to whole
or not at all (gate/render_github.py).
Refuses: a report file (or the step summary) that cannot be written: a full disk or
/dev/full, a file-size limit, a folder where the file belongs, a file where a folder
does: ``ReportUnwritten``, one line naming it and the fix (exit 1 whatever the
verdict; it was an internal error); a path this user may not write is left to the
boundary, which says its ``chmod`` or ``chown``.
Returns: None.
Test: tests/doors/test_ci_report_whole.py, tests/doors/test_ci_report_unwritable.py
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from forest_files.kernel.errors import ForestError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from forest_files.gate.ci import GateReport

NEW_FILE_MODE = 0o666  # less the umask, as ``open(FILE, "w")`` makes it


class ReportUnwritten(ForestError):
    """A ``--report`` file or the step summary could not be written (exit 1)."""


def write_reports(
    report: GateReport, fmt: str, targets: list[tuple[str, Path]], said: dict[str, str]
) -> None:
    """Each ``--report`` file (its format's text in ``said``), and with ``--format
    github`` the step summary (of ``report``)."""
    from forest_files.gate.render_github import write_step_summary

    for kind, target in targets:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_whole(target, said[kind] + "\n")  # a failure leaves no report cut short
        except OSError as exc:
            raise _unwritten(f"the report {target}", exc) from exc
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if fmt == "github" and summary:
        try:
            write_step_summary(report, Path(summary))
        except OSError as exc:
            raise _unwritten(f"the step summary {summary} ($GITHUB_STEP_SUMMARY)", exc) from exc


def _unwritten(what: str, exc: OSError) -> Exception:
    """A report file that could not be written, as one refusal naming it (exit 1: a
    gate whose report is missing must not pass), its fix chosen by its error (a full
    disk, a file-size limit, a folder where the file belongs); a path this user may
    not write is left to the boundary, which says its ``chmod`` or ``chown``."""
    from forest_files.kernel.access import denied_line

    if denied_line(exc) is not None:
        return exc
    from forest_files.kernel.exits import unwritten_line

    return ReportUnwritten(unwritten_line(what, exc))  # the boundary shows it printable


def write_whole(target: Path, text: str) -> None:
    """``text`` (UTF-8) as the whole content of ``target``, or ``target`` untouched."""
    from forest_files.kernel.cache import replace_atomically, sweep_leftovers

    real = os.path.realpath(target)  # a link is written through, as before, not replaced
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG | NEW_FILE_MODE
    if not stat.S_ISREG(mode):  # a device or a pipe: nothing to keep; a folder: its error
        with open(real, "w", encoding="utf-8") as fh:
            fh.write(text)
        return
    sweep_leftovers(real)  # a killed run's temp file: a CI uploading `out/*` would take it
    replace_atomically(real, text.encode("utf-8"), mode=stat.S_IMODE(mode))
