"""The one error boundary of every door: an exception becomes one line and an exit code.

Every process entry calls ``run_guarded``: the typer group (cli/app.py ``main``)
and each of its commands (cli/errors.py ``boundary``, which knows the command's
``--repo``), the light entry (entry.py) and its ``check``/``status``
(fastcheck.py), the git hook (hooks/run.py ``main``) and the detached watcher
(watch/__main__.py). An inner call answers first; an outer one catches what
happens before a command runs (option parsing, imports, dispatch).

Stores: for an internal error (an exception that is not a ForestError, nor a
path this user may not use), a crash log in the git directory (crashlog.py); a
refusal in the audit log of ``repo`` (doors/doorlog.py: its type's code, never
its message) when ``audit`` names the door.
Refuses: nothing; it translates (kernel/exits.py): 0 ok; 1 a refusal
(ForestError), or a path this user may not read or write (PermissionError: one
line naming it and the ``chmod`` or ``chown`` that gives it back, no crash log);
2 usage (the framework's own, re-raised); 3 corruption
(StoreCorruption, LedgerError) or an internal error; 75 busy, retry (StoreBusy);
130 interrupted (Ctrl-C); 141 standard output closed by its reader (silent); 1 standard
output that could not be written (a full disk or /dev/full, a file-size limit, closed
with ``>&-``: doors/streams.py ``OutputLost``; one line naming it and the fix, no
crash log, never 0; a refusal said with it drops its ``see above``, which would point at
what never arrived); 1 standard input that could not be read (closed with ``<&-``:
``InputLost``, one line, no crash log); standard error that could not be written, no code.
Returns: ``run_guarded``'s exit code.
Test: tests/doors/test_boundary.py, tests/doors/test_unwritable_state.py,
tests/doors/test_output_unwritable.py

Light on purpose: the warm ``forest check`` imports this module, so it loads
only ``os``, ``sys`` and streams.py (``io``); the error branches import what they need.
"""

from __future__ import annotations

import gc
import os
import sys

from forest_files.doors.streams import (
    OutputLost,
    drop_output,
    lost_output,
    named_streams,
    tolerant_streams,
)

TYPE_CHECKING = False  # typing is not imported on the warm path
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from forest_files.gate.erased_later import ErasedLater
    from forest_files.ledger.fault import LedgerError


def run_guarded(
    command: str,
    fn: Callable[[], int | None],
    argv: Sequence[str],
    *,
    repo: str | Path = ".",
    prefix: str = "forest",
    audit: str | None = "cli",
    lenient: bool = False,
    passthrough: tuple[type[BaseException], ...] = (),
    usage: tuple[type[BaseException], ...] = (),
) -> int:
    """Run ``fn`` (its result is the exit code; None is 0) and flush standard output;
    any exception becomes one ``{prefix}: ...`` line on stderr and its exit code.

    ``command`` and ``argv`` name the run in a crash log; ``repo`` is where the
    crash log and the audit record go (the git directory at or above it);
    ``audit``: the door a refusal is recorded as (``cli``, ``hook``), None for none;
    ``lenient``: a ForestError exits 0 (a sync hook never blocks git);
    ``passthrough``: re-raised untouched (a framework's own exit signals);
    ``usage``: recorded as a usage error in the audit log, then re-raised.
    """
    tolerant_streams()
    named_streams()
    undo = _terminate_as_interrupt()
    try:
        code = fn()
        _flush()
        lost = lost_output()
        if lost is not None:  # the command caught it, but its output never arrived
            raise lost
        return 0 if code is None else code
    except passthrough:
        raise
    except usage as exc:
        _record(repo, exc, audit or "cli", usage=True)
        raise
    except BrokenPipeError:  # forest status | head: the reader went away
        from forest_files.kernel.exits import quiet_pipe

        return quiet_pipe()
    except OutputLost as exc:  # /dev/full, a full disk, `ulimit -f`, `>&-`: said, exit 1
        return _unwritten(exc, prefix)
    except (Exception, KeyboardInterrupt) as exc:
        lost = _settle()
        code = _failed(exc, command, argv, repo, prefix, audit, lenient, lost=lost is not None)
        if lost is not None:  # said after the failure's line; the code stays the failure's
            _unwritten(lost, prefix)
        return code
    finally:
        undo()


def _unwritten(exc: OutputLost, prefix: str) -> int:
    """Standard output could not be written: one line naming it and the fix, and
    what it still holds dropped (the interpreter's last flush would fail again)."""
    from forest_files.kernel.exits import EXIT_REFUSED, unwritten_line

    drop_output()
    say(f"{prefix}: {unwritten_line('standard output', exc)}")
    return EXIT_REFUSED


def _settle() -> OutputLost | None:
    """Before a failure's own line: standard output flushed, and its loss, if it could
    not be written (said after that line, then dropped), or None."""
    try:  # noqa: SIM105 (contextlib is not loaded on the warm path)
        _flush()
    except (OSError, ValueError):
        pass  # a failed write is recorded by the stream; a closed one has nothing
    return lost_output()


def _terminate_as_interrupt() -> Callable[[], None]:
    """SIGTERM and SIGHUP (a closed terminal, a CI job cancelled, ``kill``) raise
    ``Terminated`` where the command stands, so it cleans up as for Ctrl-C instead of
    dying at once: a bulk adoption took back the bodies it had written ahead of its
    segment on Ctrl-C alone. Only where the signal still does its default (a command
    that handles it, the watcher, keeps its own) and on the main thread; returns how
    to put the handlers back. (``signal`` is built in: nothing for the warm check.)"""
    import signal

    def stop(signum: int, _frame: object) -> None:
        from forest_files.kernel.errors import Terminated  # sqlite3: not on the warm path

        raise Terminated(signum)

    kept: dict[int, object] = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is None or signal.getsignal(sig) is not signal.SIG_DFL:
            continue
        try:
            kept[sig] = signal.signal(sig, stop)
        except ValueError:  # not the main thread: signals are the main thread's
            break

    def undo() -> None:
        for sig, handler in kept.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]  # as getsignal gave it

    return undo


def _flush() -> None:
    """Standard output flushed inside the boundary, so a reader that left is met here
    (not at interpreter exit, where Python would print a traceback of its own)."""
    stream = sys.stdout
    if stream is not None and not getattr(stream, "closed", False):
        stream.flush()


def _failed(
    exc: BaseException,
    command: str,
    argv: Sequence[str],
    repo: str | Path,
    prefix: str,
    audit: str | None,
    lenient: bool,
    *,
    lost: bool = False,
) -> int:
    """``exc``'s line said and its code; ``lost``: standard output could not be
    written, so a refusal's pointer at what it printed (``see above``) is dropped."""
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.exits import EXIT_CORRUPT, EXIT_OK, EXIT_REFUSED, exit_code, one_line

    if isinstance(exc, (ForestError, KeyboardInterrupt)):
        line = one_line(exc)
        if lost:
            from forest_files.kernel.exits import unpointed

            line = unpointed(line)
        say(f"{prefix}: {line}{_more(exc, repo)}")
        if isinstance(exc, ForestError):
            if audit is not None:
                _record(repo, exc, audit)
            if lenient:
                return EXIT_OK
        return exit_code(exc)
    denied = _denied_line(exc)
    if denied is not None:  # the environment, not a bug: no crash log (often unwritable too)
        say(f"{prefix}: {denied}")
        return EXIT_REFUSED
    from forest_files.doors.crashlog import internal_line

    say(f"{prefix}: {internal_line(exc, repo, command, argv)}")
    return EXIT_CORRUPT


def _denied_line(exc: BaseException) -> str | None:
    """The line for a file or folder this user may not read or write (a read-only
    mount, a ``.git/forest`` left by ``sudo forest …``, a mode changed by hand): the
    path and the command that gives it back (kernel/access.py: ``chmod``, or ``chown``
    when another user owns it); a standard input that could not be read, its line;
    None for any other exception."""
    from forest_files.doors.streams import InputLost
    from forest_files.kernel.access import denied_line
    from forest_files.kernel.exits import unread_line

    return unread_line(exc) if isinstance(exc, InputLost) else denied_line(exc)


def _more(exc: BaseException, repo: str | Path) -> str:
    """What to run next after a damaged ledger's one line, which names only the
    first fault: the command that lists them all; for a body a commit's ledger lacks
    because a later forget erased it and history was rewritten, that forget and the
    commit to check instead (gate/erased_later.py)."""
    from forest_files.ledger.fault import LedgerError

    if not isinstance(exc, LedgerError):
        return ""
    from forest_files.kernel.shellword import command_text, forest_text, git_step
    from forest_files.kernel.standing import from_here

    verify = forest_text("verify")  # `forest -C ../repo verify` where the user stands
    if exc.source is not None:  # read from git: verify would judge another ledger
        staged = exc.source == "index"
        later = None if staged else _erased_later(exc, exc.source, repo)
        if later is not None:
            check = forest_text("check", options=("--rev", later.commit))
            return f" ({later.said()}; check from there: `{check}`)"
        which = "git's index holds" if staged else f"commit {exc.source} holds"
        # `git diff` compares the working tree with the index, or with the commit named
        diff = git_step("diff", *(() if staged else (exc.source,)), "--", ".forest/ledger")
        return (
            f" (in the ledger {which}; `{verify}` reads the working tree's: "
            f"`{command_text(from_here(diff))}` shows how they differ)"
        )
    return "" if verify in str(exc) else f" (`{verify}` lists every fault of the ledger)"


def _erased_later(exc: LedgerError, commit: str, repo: str | Path) -> ErasedLater | None:
    """The forget that erased the body ``commit``'s ledger lacks, judged as the CI gate
    would, or None (any other fault, or nothing that can be judged)."""
    from forest_files.gate.erased_later import erased_later, missing_body
    from forest_files.gitio import toplevel
    from forest_files.kernel.errors import ForestError

    body = missing_body(exc.code, exc.reason)
    if body is None:
        return None
    try:
        return erased_later(toplevel(repo), commit, "HEAD", body)
    except ForestError:  # no work tree to read: the plain words stand
        return None


def _record(repo: str | Path, exc: BaseException, door: str, *, usage: bool = False) -> None:
    """The refusal in ``repo``'s audit log; best effort (doorlog never raises)."""
    from forest_files.doors.doorlog import record_refusal

    record_refusal(repo, exc, door=door, usage=usage)


def say(line: str) -> None:
    """One line on stderr; a closed stderr loses it and changes nothing else."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def leave(code: int) -> None:  # never returns (typing's NoReturn costs ~3 ms)
    """End a one-shot door with ``code``: stdout and stderr flushed, then no
    interpreter teardown. Freeing what the command decoded object by object is
    work nobody waits for but the user: ~0.1 s of the first hook after a clone of
    10,000 bindings. Only for doors that return with no thread running, no child
    unreaped and every file and store closed (``check``, ``status``, the hooks)."""
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105 (contextlib is not loaded on the warm path)
            stream.flush()
        except (OSError, ValueError):
            pass  # a closed pipe: the caller chose the code already
    os._exit(code)


def stranded(
    exc: BaseException,
    command: str,
    argv: Sequence[str],
    *,
    repo: str | Path,
    prefix: str = "forest",
) -> None:  # never returns
    """End the process at once after ``exc``'s line, with its code, flushing only
    stderr: for a door that ended (a stop signal, an internal error) while a thread it
    left behind still blocks reading or writing a standard stream (``forest mcp``
    whose client reads nothing). That thread holds the stream's lock: the flush this
    boundary ends with waits for it for ever, the interpreter's teardown aborts (134).
    The line, the crash log and the code are the boundary's own. Only once every
    file and store the door opened is closed."""
    if isinstance(exc, OutputLost):
        code = _unwritten(exc, prefix)
    else:
        code = _failed(exc, command, argv, repo, prefix, "cli", lenient=False)
    os._exit(code)


def one_shot_gc() -> None:
    """No cyclic garbage collection in a process that runs one command and exits
    (see the module header); a long-running command calls ``gc.enable()``."""
    gc.disable()
