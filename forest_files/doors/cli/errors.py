"""Each ``forest`` command run through the one error boundary (doors/boundary.py).

Stores: nothing itself (the boundary writes the crash log and the audit record).
Refuses: nothing; it translates. 0 ok, 1 a finding or refusal (ForestError),
2 usage (typer/click's own), 3 corruption or an internal error
(StoreCorruption, LedgerError, anything unexpected: a crash log is written),
75 busy — retry (StoreBusy), 130 interrupted (Ctrl-C).
Returns: the ``boundary`` decorator (codes and wording: forest_files/kernel/exits.py),
``usage`` (a bad option value a command finds itself: exit 2).
Test: tests/doors/test_cli.py, tests/governance/test_audit_doors.py, tests/doors/test_boundary.py

The decorator gives the boundary what only the command knows: its name and the
repository it was pointed at (``--repo``), where a refusal is recorded in the
audit log (doors/doorlog.py: its type's code, never its message) and a
crash log is written. typer's own exit and abort signals pass through; a
usage error a command raises (``typer.BadParameter``) is recorded, then typer
renders it (exit 2).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import typer

from forest_files.doors.boundary import run_guarded
from forest_files.kernel.exits import (  # noqa: F401  (re-exported for the commands)
    EXIT_BUSY,
    EXIT_CORRUPT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_USAGE,
    exit_code,
    one_line,
)

P = ParamSpec("P")
R = TypeVar("R")


def boundary(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a command inside the boundary; a failure exits with its code."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        result: list[R] = []

        def run() -> int:
            result.append(fn(*args, **kwargs))
            return EXIT_OK

        where = kwargs.get("repo")
        code = run_guarded(
            fn.__name__,
            run,
            sys.argv,
            repo=where if isinstance(where, (str, Path)) else ".",
            passthrough=(typer.Exit, typer.Abort),
            usage=(typer.BadParameter,),
        )
        if code != EXIT_OK or not result:
            raise typer.Exit(code)
        return result[0]

    return wrapper


class _Usage(typer.BadParameter):
    """A usage error (exit 2): one ``forest:`` line through the console entry."""

    def format_message(self) -> str:
        return self.message


def usage(message: str) -> typer.BadParameter:
    """A bad option or argument a command found itself (exit 2, as click's own)."""
    return _Usage(message)
