"""Where this machine keeps its own state for a repository: inside the git directory.

Only the ledger is trusted from git. Everything else forest-files keeps (the
index, views, caches, captures, proposals, the audit log, the watcher's files,
the crash log, temp files) is a claim this machine made for itself, so it lives
where git never transfers anything: ``<git-dir>/forest`` for what belongs to
one worktree (the index and views follow its checked-out branch), and
``<git-common-dir>/forest`` for what every worktree of a clone may share
(content-keyed caches, the MAC key, proposals, the audit log, captures).

The git directories are found from the working tree's ``.git`` entry the way
git itself does (a directory, or a ``gitdir:`` file with a ``commondir`` beside
the target), so the hook's fast path pays no ``git rev-parse``. A git
directory git would not accept is refused rather than guessed.

Directories are created ``0700`` and checked with ``lstat``: a symlink planted
where a state directory belongs is refused, never followed. What root creates in a
git directory another user owns is given to that user (kernel/handover.py
``hand_over``): here, each folder and appended file; kernel/cache.py's atomic write,
each record. The string functions use ``os`` alone (the warm ``forest check`` loads
neither pathlib nor the error module's sqlite3); the ``Path`` ones are for everyone
else.

Stores: the directories themselves.
Refuses: a state directory that is a symlink or not a directory, or that cannot be
created (a read-only or full git directory: the fix named, kernel/access.py's
``chmod``/``chown`` where this user may not write it, else its one advice beyond
the modes) (StateError);
a state folder that cannot be opened with no link followed (``refuse_unopened``);
a state file that is a symlink or not a file (``refuse_linked_file``,
``open_append``: its removal named, ``rm -r --`` for a folder); a
``.git`` file that names no git directory; a ``GIT_DIR`` naming another
repository than the one the work tree's ``.git`` leads to
(``refuse_foreign_git_dir``).
Returns: absolute paths.
Test: tests/kernel/test_state.py, tests/custody/test_access_beyond_modes_restore.py
"""

from __future__ import annotations

import os
import stat

from forest_files.kernel.handover import hand_over, hand_over_path
from forest_files.kernel.paths import STATE_NAME

TYPE_CHECKING = False  # typing itself is not imported: the warm check pays for every module
if TYPE_CHECKING:
    from pathlib import Path


def _refuse(message: str) -> BaseException:
    from forest_files.kernel.errors import StateError

    return StateError(message)


def git_dir_paths(root: str | os.PathLike[str]) -> tuple[str, str]:
    """``(git_dir, common_dir)`` of the working tree at ``root``, both absolute."""
    dotgit = os.path.join(os.fspath(root), ".git")
    try:
        mode = os.lstat(dotgit).st_mode
    except FileNotFoundError:
        # A work tree kept apart from its repository (GIT_DIR / GIT_WORK_TREE, as
        # dotfile setups do): git named the directory, so take it from git's variable.
        named = os.environ.get("GIT_DIR")
        if not named or not os.path.isdir(named):
            raise _refuse(
                f"{root}: no .git here; run forest inside a git working tree "
                "(or set GIT_DIR for a work tree kept apart from its repository)"
            ) from None
        mode, dotgit = stat.S_IFDIR, named
    if stat.S_ISDIR(mode):
        git_dir = os.path.abspath(dotgit)
    elif stat.S_ISREG(mode):
        git_dir = _gitdir_file(dotgit)
    else:
        raise _refuse(f"{dotgit}: neither a directory nor a gitdir file; repair the clone")
    if os.environ.get("GIT_DIR"):  # git exported one: it must be this tree's
        from forest_files.kernel.foreign_gitdir import refuse_foreign_git_dir

        refuse_foreign_git_dir(git_dir, os.fspath(root))
    common = git_dir
    commondir = os.path.join(git_dir, "commondir")
    if os.path.isfile(commondir):
        with open(commondir, encoding="utf-8", errors="surrogateescape") as fh:
            named = fh.read().strip()
        common = os.path.normpath(os.path.join(git_dir, named))
    return git_dir, common


def _gitdir_file(dotgit: str) -> str:
    with open(dotgit, encoding="utf-8", errors="surrogateescape") as fh:
        first = fh.readline().rstrip("\r\n")
    if not first.startswith("gitdir: "):
        raise _refuse(f"{dotgit}: not a gitdir file; repair the clone (git worktree repair)")
    target = first[len("gitdir: ") :].strip()
    if not os.path.isabs(target):
        target = os.path.join(os.path.dirname(dotgit), target)
    return os.path.normpath(os.path.abspath(target))


def worktree_path(root: str | os.PathLike[str], *, create: bool = True) -> str:
    """``<git-dir>/forest``: state of this worktree (index, views, watcher, temp files)."""
    return _state(git_dir_paths(root)[0], create)


def worktree_key(root: str | os.PathLike[str]) -> str:
    """Which worktree of its clone ``root`` is, as the clone's shared state names it:
    ``.`` for the main one, ``worktrees/NAME`` for a linked one (its git directory
    under the common one: the same after ``git worktree move`` or a moved clone)."""
    git_dir, common = git_dir_paths(root)
    return key_text(os.path.relpath(git_dir, common).replace(os.sep, "/"))


def key_text(name: str) -> str:
    """``name`` as text a store can hold: git keeps a linked worktree's name as the
    bytes of its directory's, and SQLite takes UTF-8 only, so each byte that is not
    UTF-8 (a surrogate here) is written ``\\xNN``."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def shared_path(root: str | os.PathLike[str], *, create: bool = True) -> str:
    """``<git-common-dir>/forest``: state every worktree of this clone may share."""
    return _state(git_dir_paths(root)[1], create)


def _state(git_dir: str, create: bool) -> str:
    path = os.path.join(git_dir, STATE_NAME)
    if create:
        ensure_dir(path)
    return path


def ensure_dir(path: str | os.PathLike[str]) -> str:
    """``path`` as a real directory of ours, created ``0700`` where missing; every
    directory from the state directory (``…/forest``) down to it is checked with
    ``lstat``, so a symlink planted anywhere on the way is refused, never followed."""
    path = os.fspath(path)
    chain = [path]
    while os.path.basename(chain[-1]) != STATE_NAME:
        parent = os.path.dirname(chain[-1])
        if parent == chain[-1]:  # not under a state directory: the path alone
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            chain = [path]
            break
        chain.append(parent)
    for directory in reversed(chain):
        _real_dir(directory)
    return path


def _real_dir(path: str) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass  # a racing process made it; checked below
        except OSError as exc:  # a read-only or full git directory: said, with the fix
            raise _refuse(_cannot_create(path, exc)) from exc
        else:
            hand_over_path(path)  # root's, in another user's git directory: theirs
        mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
        from forest_files.kernel.shellword import shell_word

        found = "a symlink" if stat.S_ISLNK(mode) else "another kind of file"
        raise _refuse(
            f"{path}: expected a directory of forest-files' own, found {found}; "
            f"remove it (rm -- {shell_word(path)}) and run the command again"
        )


def refuse_unopened(path: str, exc: OSError) -> BaseException:
    """The refusal of the state file ``path`` whose folder root could not open from the
    git directory with no link followed (kernel/paths.py ``through_folder``): a link on
    the way named with its ``rm`` (``ensure_dir`` raises it), else the folder and why."""
    folder = os.path.dirname(os.path.abspath(path))
    ensure_dir(folder)
    return _refuse(f"{folder}: cannot be opened ({exc.strerror}); run the command again")


def _cannot_create(path: str, exc: OSError) -> str:
    import errno

    from forest_files.kernel.access import access_fix

    fix = "free space (a full disk or a quota)"
    if exc.errno not in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        # a mode, or another user's folder: its chmod or chown; else (a read-only
        # mount, an immutable folder) kernel/access.py's one advice beyond the modes
        fix = access_fix(path, exc)
    return f"cannot create {path} ({exc.strerror}): {fix}, then run the command again"


_SQLITE_SIDES = ("", "-wal", "-shm", "-journal")


def refuse_linked_file(path: str | os.PathLike[str], what: str, *, sqlite: bool = False) -> None:
    """Refuse a symlink (or anything but a regular file) where forest-files keeps the
    file ``what``, before anything opens it (SQLite and the logging module follow
    links). ``sqlite``: the database's ``-wal``/``-shm``/``-journal`` files too, which
    SQLite opens beside it by name."""
    found = linked_file(path, what, sqlite=sqlite)
    if found is not None:
        raise _refuse(found[0])


def linked_file(
    path: str | os.PathLike[str], what: str, *, sqlite: bool = False
) -> tuple[str, str] | None:
    """(the refusal's words, the ``rm`` that removes it) of the first symlink or
    non-file at ``path`` (and beside it, ``sqlite``), or None (forest fsck asks too)."""
    path = os.fspath(path)
    for side in _SQLITE_SIDES if sqlite else ("",):
        try:
            mode = os.lstat(path + side).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(mode) or not stat.S_ISREG(mode):
            from forest_files.kernel.shellword import shell_word

            found = "a symlink" if stat.S_ISLNK(mode) else "another kind of file"
            rm = "rm -r" if stat.S_ISDIR(mode) else "rm"  # plain rm refuses a folder
            fix = f"{rm} -- {shell_word(path + side)}"
            words = (
                f"{path + side}: {found} where forest-files keeps {what}; remove it "
                f"({fix}) and run the command again"
            )
            return words, fix
    return None


def open_append(path: str | os.PathLike[str], what: str) -> int:
    """A descriptor appending to ``path`` (created ``0600``), never through a symlink:
    ``O_NOFOLLOW`` refuses a link planted at the name itself, ``refuse_linked_file``
    says how to remove it."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
    try:
        fd = os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        refuse_linked_file(path, what)  # a link or a non-file: named, with its removal
        raise
    hand_over(fd, os.fspath(path))
    return fd


def git_dirs(root: str | os.PathLike[str]) -> tuple[Path, Path]:
    """``git_dir_paths`` as ``Path`` values."""
    from pathlib import Path

    git_dir, common = git_dir_paths(root)
    return Path(git_dir), Path(common)


def worktree_dir(root: str | os.PathLike[str], *, create: bool = True) -> Path:
    """``worktree_path`` as a ``Path``."""
    from pathlib import Path

    return Path(worktree_path(root, create=create))


def shared_dir(root: str | os.PathLike[str], *, create: bool = True) -> Path:
    """``shared_path`` as a ``Path``."""
    from pathlib import Path

    return Path(shared_path(root, create=create))


def every_worktree_dir(root: str | os.PathLike[str]) -> list[Path]:
    """The per-worktree state directory of every worktree of the clone at ``root`` that
    has one (the main one and each linked worktree's), for what must reach them all:
    a forget's purge of local copies."""
    from pathlib import Path

    common = Path(git_dir_paths(root)[1])
    found = [common / STATE_NAME]
    linked = common / "worktrees"
    if linked.is_dir() and not linked.is_symlink():
        found += sorted(d / STATE_NAME for d in linked.iterdir() if d.is_dir())
    return [d for d in found if d.is_dir() and not d.is_symlink()]
