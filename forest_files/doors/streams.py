"""Standard output and error as every door writes them: a write that fails says which
stream it was, and a closed one never lends its descriptor to a file.

The one error boundary (boundary.py ``run_guarded``) calls ``named_streams`` before a
command runs. The process's own standard output and error (never a caller's capture)
are then written through ``_Stream``, the same file descriptor with the same
encoding and buffering, whose failed write is told apart from every other ``OSError``:
``forest status > /dev/full``, a full disk under ``forest ci --format json > FILE``,
a file-size limit (``ulimit -f``) were an internal error with a crash log. Standard
output raises ``OutputLost``, which the boundary says in one line (exit 1, never 0:
a verdict or report nobody received is no pass). Standard error loses what it
could not write and nothing else: it carries the words, the exit code carries the
verdict, so ``forest-hook pre-commit 2>/dev/full`` still refuses a drifted commit and
still lets a clean one through. A reader that went away (``forest status | head``)
stays BrokenPipeError, the boundary's silent exit 141.

A stream closed when the process started (``>&-``, ``2>&-``) has its descriptor
held by /dev/null, as git does, so the first file a command opens cannot become its
standard output (and a child's); a write to a closed standard output is
``OutputLost`` (EBADF), to a closed standard error, nothing. A standard input closed
at start is held so too, and its every read raises ``InputLost`` (``forest mcp <&-``
was an internal error with a crash log), which the boundary says in one line, exit 1.

Stores: nothing. Refuses: nothing.
Returns: ``tolerant_streams`` (a character its encoding lacks written escaped, never
an error); ``named_streams``; ``lost_output`` (standard output's failed write not yet
said, or None); ``drop_output`` (what standard output still holds, and all it is
given after, goes nowhere: the interpreter's last flush stays silent); ``routes_where``
(where the routes a command printed went, for the line on standard error after them:
``forest check``, ``forest ci``, ``forest verify``).
Test: tests/doors/test_output_unwritable.py, tests/doors/test_input_unreadable.py,
tests/doors/test_check_routes_pointer.py

Light on purpose (the warm ``forest check`` loads it): ``io``, ``os`` and ``sys`` are
loaded with the interpreter.
"""

from __future__ import annotations

import io
import os
import sys

TYPE_CHECKING = False  # typing is not imported on the warm path
if TYPE_CHECKING:
    from typing_extensions import Buffer

EBADF = 9  # errno.EBADF on every POSIX system; errno itself is not loaded for it


class OutputLost(OSError):
    """A write to standard output failed (``errno``, ``strerror`` as the system said)."""


class InputLost(OSError):
    """A read of standard input failed (``errno``, ``strerror`` as the system said)."""


class _Shut(io.RawIOBase):
    """Standard input closed at start (its descriptor now /dev/null's): no read succeeds."""

    def readable(self) -> bool:
        return True

    def readinto(self, _buffer: Buffer, /) -> int:
        raise InputLost(EBADF, "closed")


class _Stream(io.FileIO):
    """Descriptor ``fd`` written as FileIO does, never closed here; a failure as above.
    ``shut``: the stream was closed at start (its descriptor now /dev/null's);
    ``quiet``: standard error's (a failure loses the text, then every later write)."""

    def __init__(self, fd: int, *, shut: bool, quiet: bool) -> None:
        super().__init__(fd, "wb", closefd=False)
        self.shut, self.quiet = shut, quiet
        self.dropped = False
        self.lost: OutputLost | None = None

    def write(self, data: Buffer, /) -> int:
        if self.dropped:
            return memoryview(data).nbytes
        try:
            if self.shut and not self.quiet:
                raise OSError(EBADF, os.strerror(EBADF))
            return super().write(data)
        except BrokenPipeError:
            if not self.quiet:
                raise
            self.dropped = True
        except OSError as exc:
            if not self.quiet:
                self.lost = self.lost or OutputLost(exc.errno, exc.strerror)
                raise OutputLost(exc.errno, exc.strerror) from None
            self.dropped = True
        return memoryview(data).nbytes


def named_streams() -> None:
    """The process's standard output and error written through ``_Stream`` (once; a
    stream a caller put in their place, such as a test's capture, is left alone);
    a standard input closed at start, held and read through ``_Shut``."""
    if sys.stdin is None and sys.__stdin__ is None and _hold_closed(0):
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_Shut()))
    for fd, name in ((1, "stdout"), (2, "stderr")):
        current = getattr(sys, name)
        if current is not getattr(sys, f"__{name}__"):
            continue  # ours already, or a caller's own
        made = _named(current, fd, quiet=fd == 2)
        if made is not None:
            setattr(sys, name, made)


def _named(current: io.TextIOWrapper | None, fd: int, *, quiet: bool) -> io.TextIOWrapper | None:
    if current is None:  # closed at start: /dev/null holds the descriptor from now on
        if not _hold_closed(fd):
            return None
        text = io.TextIOWrapper(io.BufferedWriter(_Stream(fd, shut=True, quiet=quiet)))
        text.reconfigure(errors="backslashreplace", line_buffering=quiet)
        return text
    binary = getattr(current, "buffer", None)
    raw = getattr(binary, "raw", binary)
    if type(raw) is not io.FileIO or raw.fileno() != fd:
        return None  # a console stream of Windows, or a stream moved elsewhere: as it is
    try:
        current.flush()
    except (OSError, ValueError):
        return None  # failing already: Python's own stream says it as before
    stream = _Stream(fd, shut=False, quiet=quiet)
    under = stream if binary is raw else io.BufferedWriter(stream)  # PYTHONUNBUFFERED keeps raw
    return io.TextIOWrapper(
        under,
        encoding=current.encoding,
        errors=current.errors,
        newline="\n" if os.name != "nt" else None,
        line_buffering=current.line_buffering,
        write_through=current.write_through,
    )


def _hold_closed(fd: int) -> bool:
    """/dev/null on ``fd`` when it is closed; whether it was (an open ``fd`` with no
    stream, as under ``pythonw``, is left alone)."""
    try:
        os.fstat(fd)
        return False
    except OSError:
        pass
    held = os.open(os.devnull, os.O_RDWR)
    if held != fd:  # a lower descriptor was closed too and took it: move it up
        os.dup2(held, fd)
        os.close(held)
    return True


def _stdout_stream() -> _Stream | None:
    binary = getattr(sys.stdout, "buffer", None)
    raw = getattr(binary, "raw", binary)
    return raw if isinstance(raw, _Stream) else None


def lost_output() -> OutputLost | None:
    """Standard output's first failed write not yet said (a command that caught it
    still failed to write), or None."""
    stream = _stdout_stream()
    return None if stream is None else stream.lost


def drop_output() -> None:
    """From now on standard output takes what it is given and writes nothing: its
    failure is said, and what it still holds would only fail again at exit."""
    stream = _stdout_stream()
    if stream is not None:
        stream.dropped, stream.lost = True, None


def routes_where(as_json: bool) -> str:
    """``; `` and where the routes printed went, said after the verdict on standard
    error: above it only when standard output goes where standard error goes (one
    terminal, ``2>&1``); else the JSON's fields, or the file standard output was sent to
    (``> out.txt``). Empty when standard output could not be written (the boundary says
    so): it points at nothing that never arrived."""
    try:
        sys.stdout.flush()
    except OutputLost:
        return ""
    if as_json:
        return "; its routes are in the JSON's routes fields"
    try:
        out, err = os.fstat(sys.stdout.fileno()), os.fstat(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):  # not a file (in process): as before
        return "; see the routes above"
    if (out.st_dev, out.st_ino) == (err.st_dev, err.st_ino):
        return "; see the routes above"
    import stat

    name = ""
    try:  # the file's name (Linux), when it still names that file; else it goes unnamed
        if stat.S_ISREG(out.st_mode):
            name = os.readlink(f"/proc/self/fd/{sys.stdout.fileno()}")
            held = os.stat(name)
            name = name if (held.st_dev, held.st_ino) == (out.st_dev, out.st_ino) else ""
    except OSError:
        name = ""
    if name:
        from forest_files.kernel.shellword import for_bash, shell_word

        return for_bash(f"; its routes are in {shell_word(name)}")
    return "; its routes went to standard output"


def tolerant_streams() -> None:
    """Standard output and error never fail on a character their encoding lacks: a
    strict stream (a UTF-8 terminal's stdout, ``PYTHONIOENCODING=utf-8:strict``)
    writes it backslash-escaped, as Python's own stderr does, instead of ending the
    command in an internal error. A name that is not UTF-8 then shows as ``\\udce9``
    in prose; every command printed spells it ``$'\351'`` (kernel/shellword.py),
    so it still works pasted."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            try:  # noqa: SIM105  (contextlib is not imported on the warm path)
                stream.reconfigure(errors="backslashreplace")
            except (OSError, ValueError):  # closed or detached: nothing will be written
                pass
