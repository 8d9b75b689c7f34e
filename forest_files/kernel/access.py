"""The one advice for a file or folder this user may not read or write: the command
that gives it back.

A path the user may not use (a mode changed by hand, a ``.git/forest`` or a file in
it left by ``sudo forest …``, an index at mode ``000``) is told the ``chmod`` that
makes it and its folder readable and writable by its owner, or, when another user
(root) owns either, the ``chown`` that gives the folder back: a ``chmod`` there
fails. A path in a state folder (``.git/forest``, kernel/state.py) is told the
``chmod -R`` or ``chown -R`` of that whole folder: what stopped one of its files
stops the next (``forest ci`` on a read-only copy met a view, then a temporary file,
then the audit log, one refusal each); a state folder that is a symlink is told the
``rm`` of the link (kernel/state.py refuses one), naming its target. The error
boundary (doors/boundary.py), the state directories (kernel/state.py), the store's
opening (store/connection.py), the watcher's log (doors/watch/watcher.py), a
restore's file and capture (custody/restore_files.py, custody/restore_capture.py)
and ``forest fsck`` (governance/fsck.py, its command alone) all say this one.

Stores: nothing. Refuses: nothing.
Returns: the fix as text, its paths absolute and quoted to work pasted from any folder
(kernel/shellword.py); ``beyond_modes``, the one advice when the modes allow it
already; ``denied_line``, the whole line for an EACCES/EPERM error; ``access_fix``, the
advice alone for any refused write (``regain_access``, else ``beyond_modes``;
``mounted_read_only`` for a read-only filesystem);
``refused_beside``, which of a database's ``-wal``/``-shm`` stops its writes;
``chown_back``, the one ``sudo chown -R`` that gives a folder back;
``on_read_only_mount``, whether a read-only filesystem holds a path.
Test: tests/kernel/test_access_advice.py, tests/doors/test_unwritable_state.py,
tests/doors/test_ci_state_access.py, tests/kernel/test_access_state_marks.py,
tests/kernel/test_access_linked_state.py, tests/store/test_access_beyond_modes.py,
tests/custody/test_access_beyond_modes_restore.py, tests/kernel/test_access_read_only_mount.py
"""

from __future__ import annotations

import os
import stat


def regain_access(path: str, *beside: str) -> str | None:
    """How this user gets ``path`` back: ``sudo chown -R "$(id -un)" FOLDER`` when
    another user owns its folder or ``path`` itself, else ``chmod u+rwX FOLDER PATH``
    (``PATH`` only when it exists: a file not created yet needs its folder alone;
    ``FOLDER`` the state folder holding ``path``, and ``chmod -R`` of it, in one);
    None when this user owns both and their modes allow it already (an immutable
    file, an ACL: neither command helps, the caller says its own).
    ``beside``: files in the same folder used with it (a database's ``-wal`` and
    ``-shm``, made with its mode), judged and named with it when they exist.
    A read-only filesystem, asked first (SQLite's "readonly database" and "unable to
    open" carry no errno to say it), is ``mounted_read_only``: neither command works
    there, whatever the modes say."""
    if on_read_only_mount(path):
        return mounted_read_only(path)
    linked = _linked_state(path)
    if linked is not None:
        from forest_files.kernel.shellword import printable, shell_word

        return (
            f"{printable(linked)} is a symlink (to {printable(os.path.realpath(linked))}), "
            "where forest-files keeps a folder of its own: remove the link, its target "
            f"stays (rm -- {shell_word(linked)})"
        )
    command = regain_command(path, *beside)
    if command is not None and command.startswith("sudo "):
        return f"another user owns it: {command}"
    return command


def denied_line(exc: BaseException, then: str = "run the command again") -> str | None:
    """The line for a file or folder this user may not read or write (EACCES, EPERM):
    the path, why, and the command that gives it back, then ``then``; None for any
    other exception, or one that names no path."""
    import errno

    if not isinstance(exc, OSError) or exc.errno not in (errno.EACCES, errno.EPERM):
        return None
    if not isinstance(exc.filename, (str, bytes, os.PathLike)):
        return None
    from forest_files.kernel.shellword import printable

    path = os.fsdecode(exc.filename)
    return f"cannot use {printable(path)} ({exc.strerror}); {access_fix(path, exc)}, then {then}"


def access_fix(path: str, exc: OSError) -> str:
    """The fix for ``path`` a write refused with ``exc`` (room aside: the caller's):
    ``regain_access`` for a mode or an owner (EACCES, EPERM), else, when that finds
    nothing to change, ``beyond_modes`` (an immutable flag, an ACL); a read-only
    filesystem (EROFS), ``mounted_read_only``;
    any other refusal (a failing disk, a name too long) names the path and the
    system's words, never a mode that would not help.
    The one wording of the state folders, a restore's file and its capture, and
    ``denied_line``."""
    import errno

    if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):  # no mode, mount or flag
        from forest_files.kernel.shellword import shell_word

        why = exc.strerror or type(exc).__name__  # a failing disk (EIO), a name too long
        return f"check {shell_word(os.path.abspath(path))} and its disk (the system said: {why})"
    if exc.errno == errno.EROFS:  # the errno alone decides: no mode or owner to change
        return mounted_read_only(path)
    return regain_access(path) or beyond_modes(path)


def mounted_read_only(path: str) -> str:
    """The one advice for a write a read-only filesystem refused: it names the
    filesystem holding ``path`` (absolute, quoted) and its fixes, a remount or a clone
    on a writable disk; never a ``chmod``, which that filesystem refuses too."""
    from forest_files.kernel.shellword import shell_word

    return (
        f"the filesystem holding {shell_word(os.path.abspath(path))} is mounted read-only: "
        "remount it read-write, or work in a clone on a writable disk"
    )


def beyond_modes(path: str) -> str:
    """The one advice when ``regain_access`` finds nothing to change (this user owns
    ``path`` and its folder, their modes allow it already): what stops it lies beyond
    the modes, and no ``chmod`` or ``chown`` helps. Names the folder, and ``path`` when
    it exists, absolute and quoted (kernel/shellword.py). A read-only mount is not
    among the causes: ``regain_access`` names one first (``statvfs``); a share its
    server keeps read-only, mounted writable, ``statvfs`` cannot tell."""
    from forest_files.kernel.shellword import shell_word

    path = os.path.abspath(path)
    named = [os.path.dirname(path), *([path] if os.path.lexists(path) else [])]
    return (
        f"make {' and '.join(map(shell_word, named))} writable (their modes allow it "
        "already: an immutable flag, an ACL or a share its server keeps read-only stops it)"
    )


def refused_beside(*beside: str) -> str | None:
    """Which of ``beside`` (a database's ``-wal`` and ``-shm``) this user cannot write,
    as words naming it (``"…/woods.db-wal is another user's"``, ``"… is read-only"``);
    None when each is missing or this user's to write."""
    from forest_files.kernel.shellword import printable

    for path in map(os.path.abspath, beside):
        uid, mode = _owner_and_mode(path)
        if uid is not None and uid != _me():
            return f"{printable(path)} is another user's"
        if mode is not None and mode & _NEEDED[False] != _NEEDED[False]:
            return f"{printable(path)} is read-only"
    return None


def regain_command(path: str, *beside: str) -> str | None:
    """The command alone of ``regain_access`` (``sudo chown …`` or ``chmod …``), for a
    caller that prints its own reason beside it; None as there."""
    from forest_files.kernel.shellword import shell_word

    # absolute, each: a relative name the error gave (``-x``) would read as an option
    path, beside = os.path.abspath(path), tuple(map(os.path.abspath, beside))
    linked = _linked_state(path)
    if linked is not None:  # a chmod or chown of the link's name would fix its target only
        return f"rm -- {shell_word(linked)}"
    folder = os.path.dirname(path)
    held = [folder, *(p for p in (path, *beside) if os.path.lexists(p) and p != folder)]
    state = _state_holding(path)
    owners = [_owner_and_mode(p) for p in ([state] if state else []) + held]
    if any(uid is not None and uid != _me() for uid, _mode in owners):
        return chown_back(state or folder)
    if all(
        mode is not None and mode & _NEEDED[stat.S_ISDIR(mode)] == _NEEDED[stat.S_ISDIR(mode)]
        for _uid, mode in owners
    ):
        return None
    if state is not None:  # the whole folder: the next file in it would be refused next
        return f"chmod -R u+rwX {shell_word(state)}"
    return f"chmod u+rwX {' '.join(shell_word(p) for p in held)}"


def chown_back(folder: str) -> str:
    """The one command that gives ``folder`` and all in it back to the user who types
    it, ``sudo chown -R "$(id -un)" FOLDER`` (absolute, quoted): ``regain_command``'s,
    and gitio/ownership.py's for a git directory another user owns in this user's
    work tree."""
    from forest_files.kernel.shellword import shell_word

    return f'sudo chown -R "$(id -un)" {shell_word(os.path.abspath(folder))}'


def on_read_only_mount(path: str) -> bool:
    """Whether the filesystem holding ``path`` (or, not made yet, the nearest folder
    above it) is mounted read-only (``statvfs``'s ``ST_RDONLY``); False where the system
    cannot say (Windows, a folder this user may not look into). The one check
    ``regain_access`` asks first; ``forest fsck`` asks it to refuse as every door does."""
    held = os.path.abspath(path)
    while not os.path.lexists(held) and os.path.dirname(held) != held:
        held = os.path.dirname(held)
    try:
        return bool(os.statvfs(held).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # AttributeError: no statvfs (Windows)
        return False


def _state_holding(path: str) -> str | None:
    """The state folder (kernel/state.py: ``forest`` in a git directory) ``path`` lies
    in, when it exists: its advice covers all of it, since a mode or an owner that
    stops one of its files (``sudo forest …``, a read-only copy) stops the next one
    (the index, a view, a temporary file, the audit log) too. None outside one, or for
    the state folder itself (not made yet: its git directory is the one to fix). A
    ``forest`` folder of a work tree is the user's own, even beside a file named
    ``HEAD`` (a repository of git fixtures): its parent must be a git directory by
    git's own marks (``_git_dir``)."""
    from forest_files.kernel.paths import STATE_NAME

    folder = os.path.dirname(path)
    while os.path.basename(folder) != STATE_NAME:
        if os.path.dirname(folder) == folder:
            return None
        folder = os.path.dirname(folder)
    return folder if _git_dir(os.path.dirname(folder)) and os.path.lexists(folder) else None


def _linked_state(path: str) -> str | None:
    """The state folder holding ``path`` when it is a symlink: every door that makes
    its folders refuses it (kernel/state.py ``ensure_dir``), so its removal is the fix,
    never a ``chmod -R`` or ``chown -R`` of the link (one the next command refuses)."""
    state = _state_holding(os.path.abspath(path))
    return state if state is not None and os.path.islink(state) else None


def _git_dir(folder: str) -> bool:
    """Whether ``folder`` is a git directory by the marks git itself looks for: a
    ``HEAD`` that is no folder, and ``objects`` and ``refs`` folders (a clone's ``.git``,
    a bare repository, a common directory) or a ``commondir`` file (a linked worktree's
    git directory). Asked on the error path only: a few ``lstat`` calls."""
    head = os.path.join(folder, "HEAD")
    if not os.path.lexists(head) or os.path.isdir(head):
        return False
    if os.path.isfile(os.path.join(folder, "commondir")):
        return True
    return all(os.path.isdir(os.path.join(folder, name)) for name in ("objects", "refs"))


_NEEDED = {False: stat.S_IRUSR | stat.S_IWUSR, True: stat.S_IRWXU}  # a file; a folder


def _owner_and_mode(path: str) -> tuple[int | None, int | None]:
    try:
        found = os.lstat(path)
    except OSError:  # not there
        return None, None
    return found.st_uid, found.st_mode


def _me() -> int | None:
    return os.geteuid() if hasattr(os, "geteuid") else None  # Windows: no owners
