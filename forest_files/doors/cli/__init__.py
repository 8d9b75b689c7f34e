"""The ``forest`` command line (typer). Only this package imports typer.

Stores: nothing itself. Refuses: nothing itself (see ``errors`` and ``command``).
Returns: ``main``, the console-script entry point.
Test: tests/doors/test_cli.py
"""

from forest_files.doors.cli import (  # noqa: F401  (registers commands)
    adr_cmd,
    check_cmds,
    ci_cmd,
    completion_cmd,
    custody_cmds,
    custody_rebind_cmds,
    entry_cmd,
    files_cmds,
    governance_cmd,
    hooks_cmd,
    mcp_cmd,
    normalise_cmds,
    review_cmd,
    seal_cmds,
    watch_cmd,
)
from forest_files.doors.cli.app import main
from forest_files.doors.cli.command import finish
from forest_files.doors.cli.options import app

finish(app)  # after every registration: the shared summary, -q/-v and config refusal

__all__ = ["app", "main"]
