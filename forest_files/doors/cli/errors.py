"""The CLI's one error boundary: exception type → one stderr line and an exit code.

Stores: nothing.
Refuses: nothing; it translates. 0 ok, 1 a finding or refusal (ForestError),
2 usage (typer/click's own), 3 corruption or an internal error
(StoreCorruption, LedgerError, anything unexpected), 75 busy — retry
(StoreBusy), 130 interrupted (Ctrl-C).
Returns: the ``boundary`` decorator (codes and wording: forest_files/kernel/exits.py).
Test: tests/test_cli.py, tests/test_audit_doors.py

A ForestError (or a usage error a command raises itself) is also recorded in
the repository's audit log (governance/doorlog.py: its type's code, never its
message), best effort and only then imported: a clean command pays nothing.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import typer

from forest_files.kernel.errors import ForestError
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


def _record(kwargs: dict[str, object], exc: BaseException, *, usage: bool = False) -> None:
    """The refusal, in the audit log of the repository the command named (``--repo``)."""
    from forest_files.governance.doorlog import record_refusal

    where = kwargs.get("repo")
    record_refusal(where if isinstance(where, (str, Path)) else Path("."), exc, usage=usage)


def boundary(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a command; map any exception to one stderr line and its exit code."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except BrokenPipeError:  # forest log | head: the reader went away
            from forest_files.kernel.exits import quiet_pipe

            raise typer.Exit(quiet_pipe()) from None
        except typer.BadParameter as exc:
            _record(kwargs, exc, usage=True)
            raise  # typer renders usage errors itself, exit 2
        except (Exception, KeyboardInterrupt) as exc:
            print(f"forest: {one_line(exc)}", file=sys.stderr)
            if isinstance(exc, ForestError):
                _record(kwargs, exc)
            raise typer.Exit(exit_code(exc)) from None

    return wrapper
