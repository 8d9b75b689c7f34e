"""A write a read-only filesystem refused (EROFS) is told so plainly by kernel/access.py
(``mounted_read_only``): the filesystem holding the path is mounted read-only, remount
it read-write or work in a clone on a writable disk; never a ``chmod`` (refused there
too), nor "their modes allow it already", which left the user to guess among a mount,
a flag and an ACL when the system had said which. The doors meet a real read-only
mount (tests/helpers/read_only_mount.py) in a repository ``my repo's``: a fix that
is not quoted does not paste there."""

from __future__ import annotations

import errno
import hashlib
import os
import shlex
from pathlib import Path

import pytest

from forest_files.kernel.access import access_fix, beyond_modes, regain_access
from forest_files.kernel.shellword import shell_word
from tests.helpers.custody import adopted_repo
from tests.helpers.read_only_mount import run_read_only

DOC = "# Doc\n\nThe sky is blue.\n"
REMOUNT = "is mounted read-only: remount it read-write, or work in a clone on a writable disk"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return adopted_repo(tmp_path, "doc.md", DOC, name="my repo's")


def _snapshot(top: Path) -> dict[str, str]:
    """Every path under ``top``: a file with the SHA-256 of its bytes."""
    return {
        p.relative_to(top).as_posix(): (
            hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        )
        for p in sorted(top.rglob("*"))
    }


def test_access_fix_read_only_filesystem_names_mount_detected(tmp_path: Path) -> None:
    """A real ``OSError`` with EROFS: the errno alone decides (it said "make … writable
    (their modes allow it already: a read-only mount, an immutable flag or an ACL stops
    it)"), whatever the modes say."""
    folder = tmp_path / "my repo's"
    folder.mkdir()
    path = folder / "doc.md"
    exc = OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
    assert access_fix(str(path), exc) == f"the filesystem holding {shell_word(str(path))} {REMOUNT}"
    folder.chmod(0o555)  # a mode to change too: still the mount, never a chmod
    assert access_fix(str(path), exc) == f"the filesystem holding {shell_word(str(path))} {REMOUNT}"


def test_state_folder_read_only_mount_names_remount_refused(repo: Path) -> None:
    """``forest check`` in a repository mounted read-only, ``.git/forest/cache`` not made
    yet: one line naming the mount (the state folders' ``access_fix``); every file as it
    was."""
    cache = repo / ".git" / "forest" / "cache"
    assert not cache.exists()
    before = _snapshot(repo)
    done = run_read_only(repo, "forest check")
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line == (
        f"forest: cannot create {cache} (Read-only file system): the filesystem holding "
        f"{shell_word(str(cache))} {REMOUNT}, then run the command again"
    ), line
    assert _snapshot(repo) == before


@pytest.mark.parametrize("mode", [0o644, 0o444])
def test_store_open_read_only_mount_names_remount_refused(repo: Path, mode: int) -> None:
    """``forest log`` in a repository mounted read-only: SQLite's "unable to open" has no
    errno, so kernel/access.py asks ``statvfs`` first and names the mount (it said "make …
    writable (their modes allow it already: …)", or, ``woods.db`` at ``0444``, a ``chmod``
    the mount refuses too); every file as it was."""
    woods = repo / ".git" / "forest" / "woods.db"
    woods.chmod(mode)
    before = _snapshot(repo)
    done = run_read_only(repo, "forest log doc.md")
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line == (
        f"forest: cannot open {woods}: unable to open database file; the filesystem holding "
        f"{shell_word(str(woods))} {REMOUNT}, then run the command again"
    ), line
    assert _snapshot(repo) == before


def test_regain_access_writable_mount_modes_decide_accepted(tmp_path: Path) -> None:
    """Off a read-only mount the modes decide as before: a folder at ``0555`` is told its
    ``chmod``, one whose modes allow it already nothing (the caller's ``beyond_modes``).
    A read-only mount cannot be made in this test's own process: the doors above meet
    one (tests/helpers/read_only_mount.py)."""
    folder = tmp_path / "my repo's"
    folder.mkdir()
    db = folder / "woods.db"
    db.write_bytes(b"")
    assert regain_access(str(db)) is None
    folder.chmod(0o555)
    assert regain_access(str(db)) == f"chmod u+rwX {shell_word(str(folder))} {shell_word(str(db))}"


def test_hooks_install_read_only_mount_names_hook_refused(repo: Path) -> None:
    """``forest hooks install`` in a repository mounted read-only: the line names the
    hook (it named its temporary file, ``pre-commit.PID.tmp``) and the mount (it said
    "their modes allow it already"); no hook written."""
    hooks = repo / ".git" / "hooks"
    before = _snapshot(repo)
    done = run_read_only(repo, "forest hooks install")
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    hook = hooks / "pre-commit"
    assert line == (
        f"forest: {hook}: cannot be written (Read-only file system); no hook was installed: "
        f"the filesystem holding {shell_word(str(hook))} {REMOUNT}, then run "
        "`forest hooks install` again"
    ), line
    assert _snapshot(repo) == before


def test_beyond_modes_read_only_mount_not_among_causes_accepted(repo: Path) -> None:
    """A real read-only mount never reaches ``beyond_modes``: ``regain_access`` asks
    ``statvfs`` first, so the expression its callers use (``regain_access(p) or
    beyond_modes(p)``) names the mount there. Its words list what is left when the modes
    allow it already: an immutable flag, an ACL, or a share its server keeps read-only
    (mounted writable, so ``statvfs`` cannot tell); they listed "a read-only mount",
    which that line is never said for."""
    woods = repo / ".git" / "forest" / "woods.db"
    script = (
        "import sys; from forest_files.kernel.access import beyond_modes, regain_access; "
        "print(regain_access(sys.argv[1]) or beyond_modes(sys.argv[1]))"
    )
    done = run_read_only(repo, f"python -c {shlex.quote(script)} {shlex.quote(str(woods))}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"the filesystem holding {shell_word(str(woods))} {REMOUNT}"
    assert beyond_modes(str(woods)) == (
        f"make {shell_word(str(woods.parent))} and {shell_word(str(woods))} writable (their "
        "modes allow it already: an immutable flag, an ACL or a share its server keeps "
        "read-only stops it)"
    )
