"""The CLI's one error boundary: exception type → one stderr line and an exit code.

Stores: nothing.
Refuses: nothing; it translates. 0 ok, 1 a finding or refusal (ForestError),
2 usage (typer/click's own), 3 corruption or an internal error
(StoreCorruption, LedgerError, anything unexpected), 75 busy — retry
(StoreBusy), 130 interrupted (Ctrl-C).
Returns: the ``boundary`` decorator and ``exit_code``.
Test: tests/test_cli.py
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from forest_files.errors import ForestError, StoreBusy, StoreCorruption

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_CORRUPT = 3
EXIT_BUSY = 75
EXIT_INTERRUPTED = 130

P = ParamSpec("P")
R = TypeVar("R")


def exit_code(exc: BaseException) -> int:
    """The exit code for ``exc``; order matters (the busy/corrupt types are ForestErrors)."""
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(exc, StoreBusy):
        return EXIT_BUSY
    if isinstance(exc, StoreCorruption):
        return EXIT_CORRUPT
    if isinstance(exc, ForestError):
        return EXIT_REFUSED
    return EXIT_CORRUPT


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted"
    text = " ".join(str(exc).split()) or type(exc).__name__
    if not isinstance(exc, ForestError):
        text = f"internal error ({type(exc).__name__}): {text}; please report it"
    return text


def boundary(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a command; map any exception to one stderr line and its exit code."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort, typer.BadParameter):
            raise  # typer renders usage errors itself, exit 2
        except (Exception, KeyboardInterrupt) as exc:
            print(f"forest: {_one_line(exc)}", file=sys.stderr)
            raise typer.Exit(exit_code(exc)) from None

    return wrapper
