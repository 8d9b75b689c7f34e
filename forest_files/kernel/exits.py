"""Exit codes and the one-line error text of the one error boundary (doors/boundary.py).

Stores: nothing.
Refuses: nothing; it translates. 0 ok, 1 a finding or refusal (ForestError),
2 usage (and an unusable forest.toml: UnusableConfig), 3 corruption or an
internal error (StoreCorruption, LedgerError, anything unexpected), 75 busy —
retry (StoreBusy), 130 interrupted (Ctrl-C), 141 standard output closed by its
reader (silent, as git).
Returns: ``exit_code`` and ``one_line`` for an exception; ``quiet_pipe``;
``output_to_devnull`` (what both a one-shot command and ``forest mcp`` do when
their reader left); ``unwritten_line``, the line for output that could not be
written (standard output, a report file), its fix chosen by the system's error;
``unread_line``, the line for a standard input that could not be read;
``SEE_ABOVE``, the pointer a refusal makes at what standard output printed before it,
and ``unpointed``, a line without it (standard output was lost).
Test: tests/kernel/test_errors.py, tests/doors/test_output_unwritable.py

Free of typer on purpose: the hook and the fast ``forest check`` import it.
An internal error's line at a door is the boundary's (it names a crash log,
doors/crashlog.py); ``one_line``'s own wording for one is for other callers.
"""

from __future__ import annotations

import re

from forest_files.kernel.errors import (
    ForestError,
    StoreBusy,
    StoreCorruption,
    Terminated,
    UnusableConfig,
)

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_CORRUPT = 3
EXIT_BUSY = 75
EXIT_INTERRUPTED = 130
EXIT_PIPE = 141  # 128 + SIGPIPE: what git and coreutils exit with when the reader left
SEE_ABOVE = "see above"  # a refusal's pointer at what standard output printed before it

# A run of whitespace holding a line break (CR, LF, or another character
# str.splitlines ends a line at). Only such runs are joined: a run of spaces
# inside a quoted file name in a printed command is part of the name.
_LINE_BREAK = re.compile(r"\s*[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]\s*")


def quiet_pipe() -> int:
    """Standard output's reader went away (``forest status | head``): not an error
    worth a line. Output is sent to /dev/null so the interpreter's last flush stays
    silent too; returns the exit code."""
    import sys

    output_to_devnull(sys.stdout.fileno())
    return EXIT_PIPE


def output_to_devnull(fd: int) -> None:
    """Point ``fd`` (standard output, whose reader went away) at /dev/null: what a
    buffer still holds for it, and the interpreter's last flush, then go nowhere
    instead of raising BrokenPipeError a second time (Python's documented advice for
    SIGPIPE)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


# What frees a write refused for room (errno names: ENOSPC, EDQUOT, EFBIG; EBADF: a
# stream closed by the shell; EISDIR, ENOTDIR: a name that is, or lies under, no file).
_UNWRITTEN_FIX = {
    "ENOSPC": "free space (a full disk or a quota) or write it elsewhere",
    "EDQUOT": "free space (a full disk or a quota) or write it elsewhere",
    "EFBIG": "raise the file-size limit (`ulimit -f`) or write it elsewhere",
    "EBADF": "give it a file, or /dev/null to discard it",
    "EISDIR": "name a file, not a folder",
    "ENOTDIR": "name a file whose folders are folders",
    "EEXIST": "name a file whose folders are folders",
}


def unwritten_line(what: str, exc: OSError, then: str = "run the command again") -> str:
    """The line (without ``forest:``) for ``what`` (``standard output``, a report file
    already quoted) that could not be written: why, as the system said, and what
    frees it (room, the file-size limit, a file in place of a folder), then ``then``;
    another error (EIO, a read-only mount) is told to check the device or write
    elsewhere. The environment, not a bug: no crash log."""
    import errno
    import os

    name = errno.errorcode.get(exc.errno or 0, "")
    fix = _UNWRITTEN_FIX.get(name, "check the device it goes to, or write it elsewhere")
    why = exc.strerror or type(exc).__name__
    if name == "EBADF":  # "Bad file descriptor" would not tell a user what happened
        why = "it is closed, as `>&-` leaves it"
    elif name == "EEXIST":  # only a folder's making meets it: a file stands there
        why = os.strerror(errno.ENOTDIR)
    return f"cannot write {what} ({why}): {fix}, then {then}"


def unread_line(exc: OSError) -> str:
    """The line (without ``forest:``) for a standard input that could not be read
    (closed with ``<&-``, opened for writing only with ``0>FILE``): why, as the system
    said, and what to give it. The environment, not a bug: no crash log."""
    import errno
    import os

    why = exc.strerror or type(exc).__name__
    if why == os.strerror(errno.EBADF):  # open, but for writing only: say so
        why = "not open for reading"
    if exc.errno == errno.EBADF:  # closed at start (doors/streams.py), or as above
        fix = "give it a pipe, a file or the terminal, open for reading"
    else:
        fix = "check the device it comes from, or give it another"
    return f"cannot read standard input ({why}): {fix}, then run the command again"


def unpointed(line: str) -> str:
    """``line`` without its ``; see above`` (``see above, then`` keeps what follows):
    said when standard output could not be written, it points at what never arrived."""
    return line.replace(f"; {SEE_ABOVE}, then ", "; ").replace(f"; {SEE_ABOVE}", "")


def exit_code(exc: BaseException) -> int:
    """The exit code for ``exc``; order matters (the busy/corrupt types are ForestErrors)."""
    if isinstance(exc, Terminated):
        return 128 + exc.signum
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(exc, StoreBusy):
        return EXIT_BUSY
    if isinstance(exc, StoreCorruption):
        return EXIT_CORRUPT
    if isinstance(exc, UnusableConfig):  # a broken forest.toml: the user's edit fixes it
        return EXIT_USAGE
    if isinstance(exc, ForestError):
        return EXIT_REFUSED
    return EXIT_CORRUPT


def one_line(exc: BaseException) -> str:
    """The stderr line for ``exc``, without the ``forest:`` prefix; never a traceback.
    Line breaks (with the whitespace around them) become one space; other whitespace
    stays (a run of spaces or a tab in a quoted name); every other character a
    terminal would obey or hide is shown escaped (kernel/shellword.py
    ``printable``: a heading's C1 CSI named in a refusal never reaches the terminal
    raw); a command in the text spells such characters as bytes already, and the
    line then names the shells that read that spelling (``for_bash``)."""
    if isinstance(exc, Terminated):
        return "terminated"
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted"
    from forest_files.kernel.shellword import for_bash, printable

    text = printable(_LINE_BREAK.sub(" ", str(exc)).strip(), keep="\t") or type(exc).__name__
    text = for_bash(text)  # a command in it with a $'\ooo' word: the shell it needs
    if not isinstance(exc, ForestError):
        text = f"internal error ({type(exc).__name__}): {text}; please report it"
    return text
