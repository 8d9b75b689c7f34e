"""The ``forest`` command line (typer). Only this package imports typer.

Stores: nothing itself. Refuses: nothing itself (see ``errors``).
Returns: ``main``, the console-script entry point.
Test: tests/test_cli.py
"""

from forest_files.cli import ci_cmd, custody_cmds, files_cmds, hooks_cmd  # noqa: F401  (registers commands)
from forest_files.cli.app import app, main

__all__ = ["app", "main"]
