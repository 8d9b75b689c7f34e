"""``forest ARGS`` killed with SIGKILL at its Nth state change: the crash matrix's child.

Run as a script, ``python crash_runner.py KILL_AT LOG ARGS…``: installs an audit hook
(PEP 578) counting the events that change state on disk, then runs the console entry
(``doors.entry.main``) with ``forest ARGS``. At event number ``KILL_AT`` (0-based;
``-1``: never; or ``EVENT@PART``: the first event named ``EVENT`` whose path holds
``PART``) the process kills itself with SIGKILL before the event's operation runs,
so event ``N`` marks the state "the first N changes done, nothing of the rest". An
``open`` that may write is two events: before it, and just after it, before a byte is
written (``open:opened``: the runner makes the open's own change, the file created or
truncated, then kills), the state a kill between ``open`` and ``write`` leaves. Each event
passed is appended to ``LOG`` as one JSON line ``[n, event, what]`` (written by
``os.write`` on a descriptor opened before the hook, so logging is not an event).

What counts as a state change: an ``open`` that may write (``O_WRONLY``, ``O_RDWR``,
``O_CREAT``, ``O_TRUNC``, ``O_APPEND``; never a device under ``/dev``, though a file in
``/dev/shm``, the tmpfs a test puts a git directory on, counts), a rename or replace, a
remove, a directory made or removed, a link, a truncate, a chmod, ``shutil``'s tree
removal and copies, a SQLite database opened for writing, a SQLite ``COMMIT`` (an event
of this runner's own, ``sqlite3.commit``: a connection made through ``sqlite3.connect``
is of a subclass that raises it before committing), and a ``git`` child process that
may write (``git_writes``). No product code changes: the hook and the subclass live here.

A path an event names relative to a folder's descriptor (``dir_fd``: kernel/cache.py
writes a record in a folder it opened with no link followed) is named in full, the
folder's path read back from its descriptor (``/proc/self/fd``), so a kill point
(``EVENT@PART``) and the log name each file by its path whichever call made it. The
``open`` event carries no ``dir_fd``: the runner's ``os.open`` notes the one given. A
name through a folder's descriptor (``/proc/self/fd/N/NAME``, how root hands SQLite a
database: kernel/paths.py ``through_folder``) is named by the folder's path too.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import sys
from collections.abc import Callable
from typing import Any

_TMPFS = "/dev/shm/"  # files, not devices: tests/custody/conftest.py git_dir_elsewhere
_MAY_WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_CHANGES = frozenset(
    {
        "os.rename",  # os.replace raises it too
        "os.remove",  # os.unlink too
        "os.rmdir",
        "os.mkdir",
        "os.link",
        "os.symlink",
        "os.truncate",
        "os.chmod",
        "shutil.rmtree",
        "shutil.copyfile",
        "shutil.copytree",
        "shutil.move",
        "sqlite3.commit",
    }
)
# git subcommands that only read: a child running one changes nothing on disk.
_GIT_READS = frozenset(
    {
        "rev-parse",
        "ls-files",
        "ls-tree",
        "cat-file",
        "show",
        "log",
        "diff",
        "diff-index",
        "diff-files",
        "diff-tree",
        "rev-list",
        "for-each-ref",
        "check-attr",
        "check-ignore",
        "merge-base",
        "status",
        "var",
        "version",
        "name-rev",
        "symbolic-ref",
        "show-ref",
        "cherry",
        "grep",
        "blame",
        "describe",
        "hash-object",
    }
)


def git_subcommand(argv: list[str]) -> str | None:
    """The subcommand of a ``git`` argument list (global options and ``-c X`` skipped)."""
    words = iter(argv[1:])
    for word in words:
        if word in ("-c", "-C", "--git-dir", "--work-tree", "--namespace"):
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def git_writes(argv: list[str]) -> bool:
    """A git child that may change the repository (judged by its subcommand alone, so a
    ``git config`` that only reads counts too)."""
    if not argv or os.path.basename(str(argv[0])) != "git":
        return True  # not git: counted
    sub = git_subcommand([str(a) for a in argv])
    if sub == "hash-object":
        return "-w" in argv
    return sub not in _GIT_READS


def is_change(event: str, args: tuple[Any, ...]) -> bool:
    if event == "open":
        path, _mode, flags = args
        if isinstance(path, int) or not flags & _MAY_WRITE:
            return False
        where = os.fsdecode(path)
        return not where.startswith("/dev/") or where.startswith(_TMPFS)
    if event == "sqlite3.connect":
        return "mode=ro" not in str(args[0]) and str(args[0]) not in ("", ":memory:")
    if event == "subprocess.Popen":
        return git_writes(list(args[1]) if isinstance(args[1], (list, tuple)) else [args[1]])
    return event in _CHANGES


# Each event's (path, dir_fd) argument positions (CPython's audit events; -1: none).
_AT_FD = {
    "os.rename": ((0, 2), (1, 3)),
    "os.link": ((0, 2), (1, 3)),
    "os.remove": ((0, 1),),
    "os.rmdir": ((0, 1),),
    "os.mkdir": ((0, 2),),
    "os.chmod": ((0, 2),),
    "os.symlink": ((1, 2),),
}
_OPEN_AT: list[int] = []  # the dir_fd of each os.open under way (its event names none)


def _noting_dir_fd() -> None:
    """``os.open`` that notes its ``dir_fd`` while the real one runs (and raises
    ``open``)."""
    real = os.open

    def open_at(path: Any, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        if dir_fd is None:
            return real(path, flags, mode)
        _OPEN_AT.append(dir_fd)
        try:
            return real(path, flags, mode, dir_fd=dir_fd)
        finally:
            _OPEN_AT.pop()

    os.open = open_at  # type: ignore[assignment]
    # shutil.rmtree (and kernel/cache.py) ask whether os.open takes a dir_fd: it still does
    os.supports_dir_fd.add(open_at)


def _full(path: Any, dir_fd: Any) -> Any:
    """``path`` joined to the folder open at ``dir_fd`` when relative to one."""
    if not isinstance(dir_fd, int) or dir_fd < 0 or isinstance(path, int):
        return path
    where = os.fsdecode(path)
    if os.path.isabs(where):
        return path
    try:
        return os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), where)
    except OSError:  # no /proc: the name as given
        return path


_MAGIC = re.compile(r"/proc/self/fd/(?P<fd>[0-9]+)(?=/)")


def _unmagic(arg: Any) -> Any:
    """A name (or ``file:`` URI) that goes through a folder's descriptor
    (``/proc/self/fd/N/NAME``: kernel/paths.py ``through_folder``, root's way to SQLite)
    with the folder's path in its place."""
    if not isinstance(arg, str) or "/proc/self/fd/" not in arg:
        return arg
    try:
        return _MAGIC.sub(lambda m: os.readlink(f"/proc/self/fd/{m['fd']}"), arg, count=1)
    except OSError:
        return arg


def full_paths(event: str, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """``args`` with each path an event names relative to a ``dir_fd``, or through one
    (``/proc/self/fd/N/``), in full."""
    args = (_unmagic(args[0]), *args[1:]) if args else args
    if event == "open":
        return (_full(args[0], _OPEN_AT[-1]), *args[1:]) if _OPEN_AT else args
    named = list(args)
    for at, fd in _AT_FD.get(event, ()):
        if len(args) > max(at, fd):
            named[at] = _full(args[at], args[fd])
    return tuple(named)


def _shown(event: str, args: tuple[Any, ...]) -> list[Any]:
    if event == "subprocess.Popen" and isinstance(args[1], (list, tuple)):
        argv = [str(a) for a in args[1]]
        return ["git", git_subcommand(argv), *argv[-3:]]
    return [os.fsdecode(a) if isinstance(a, (str, bytes, os.PathLike)) else a for a in args[:2]]


class _Marked(sqlite3.Connection):
    """A connection that raises ``sqlite3.commit`` before each commit it is asked for."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith(("COMMIT", "END")):
            sys.audit("sqlite3.commit", sql)
        return super().execute(sql, *args)

    def executescript(self, script: str) -> sqlite3.Cursor:
        if "COMMIT" in script.upper():
            sys.audit("sqlite3.commit", "script")
        return super().executescript(script)

    def commit(self) -> None:
        if self.in_transaction:
            sys.audit("sqlite3.commit", "commit()")
        super().commit()


def _marked_connect() -> None:
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs.setdefault("factory", _Marked)
        return real(*args, **kwargs)

    sqlite3.connect = connect  # type: ignore[assignment]


def _due(kill_at: str) -> Callable[[int, str, tuple[Any, ...]], bool]:
    """``KILL_AT`` as a test of one event: its number, name and arguments."""
    if kill_at.lstrip("-").isdigit():
        return lambda n, _event, _args: n == int(kill_at)
    name, _, part = kill_at.partition("@")

    def named(_n: int, event: str, args: tuple[Any, ...]) -> bool:
        first = args[0] if args else None
        path = os.fsdecode(first) if isinstance(first, (str, bytes, os.PathLike)) else ""
        return event == name and part in path

    return named


def main() -> None:
    due = _due(sys.argv[1])
    log = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    argv = sys.argv[3:]
    count = 0
    opening = False  # the runner's own open of an ``open:opened`` event

    def passed(event: str, args: tuple[Any, ...]) -> None:
        nonlocal count
        os.write(log, (json.dumps([count, event, _shown(event, args)]) + "\n").encode())
        count += 1

    def hook(event: str, args: tuple[Any, ...]) -> None:
        nonlocal opening
        if opening:
            return
        args = full_paths(event, args)
        if not is_change(event, args):
            return
        if due(count, event, args):
            os.kill(os.getpid(), signal.SIGKILL)
        passed(event, args)
        if event != "open":
            return
        if due(count, "open:opened", args):  # opened, nothing written yet
            opening = True
            with contextlib.suppress(OSError):  # the real open fails the same way
                os.close(os.open(args[0], args[2], 0o666))
            os.kill(os.getpid(), signal.SIGKILL)
        passed("open:opened", args)

    sys.dont_write_bytecode = True  # an import writing a .pyc is no change of ours
    _marked_connect()
    _noting_dir_fd()
    sys.addaudithook(hook)
    sys.argv = ["forest", *argv]
    from forest_files.doors.entry import main as forest

    forest()


if __name__ == "__main__":
    main()
