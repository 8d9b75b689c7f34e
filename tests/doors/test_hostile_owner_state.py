"""Root's commands in a repository whose owner is hostile.

Root runs forest in ``nobody``'s repository (under ``sudo``, ``SUDO_UID`` naming
``nobody``), and ``nobody`` owns ``.git/forest`` and all in it: they may put a FIFO,
a symlink or a hard link at any name there, or swap a folder for a link while root
works. Nothing they plant may make root's command wait forever, nor write, or give
``nobody``, a file outside that folder.
"""

from __future__ import annotations

import fcntl
import os
import shlex
import shutil
from pathlib import Path

import pytest

from tests.helpers.git import pasted
from tests.helpers.swap import ONE_DOC as FILES
from tests.helpers.swap import owned_place, owner_script
from tests.helpers.unprivileged import NOBODY, SUDO, as_root_with_owner, handed_copy

BOUND = 30  # seconds a hang is given before ``timeout`` ends it: a bound, never a measure
place = owned_place(FILES, "doc.md")


def _warm(place: tuple[Path, Path], name: str) -> Path:
    """A copy of the place handed to ``nobody``, its caches written by root's check."""
    repo = handed_copy(place[0], name)
    done = pasted(repo, "forest check", env=SUDO)
    assert done.returncode == 0, done.stderr
    return repo


def _fifo_at(path: Path) -> None:
    """``nobody``'s FIFO where root's file was."""
    path.unlink(missing_ok=True)
    os.mkfifo(path, 0o600)
    os.chown(path, NOBODY, NOBODY)


@pytest.mark.parametrize(
    "name",
    ["cache/verdict-*.bin", "mac.key"],
    ids=["verdict", "key"],
)
def test_cache_record_fifo_in_repo_of_another_user_recovers(
    place: tuple[Path, Path], name: str
) -> None:
    """A FIFO at a cache record or the MAC key: root's ``forest check`` opened it to read
    and waited for a writer forever. Now it reads as no record, and the check answers."""
    repo = _warm(place, f"fifo {name.replace('/', ' ').replace('*', 'x')}")
    state = repo / ".git" / "forest"
    (record,) = state.glob(name)  # the record this test replaces: root's check wrote it
    _fifo_at(record)
    done = pasted(repo, f"timeout {BOUND} forest check", env=SUDO)
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert "checked against the working tree" in done.stdout


@pytest.mark.parametrize("name", ["watch.pid", "watch.json"])
def test_watch_file_fifo_in_repo_of_another_user_recovers(
    place: tuple[Path, Path], name: str
) -> None:
    """The owner holds the watcher's lock and puts a FIFO at its pid or state file: root's
    ``forest watch status`` read it and waited forever. Now it reads as absent."""
    repo = _warm(place, f"fifo {name}")
    state = repo / ".git" / "forest"
    lock = os.open(state / "watch.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        os.fchown(lock, NOBODY, NOBODY)
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the owner's watcher, as it were
        _fifo_at(state / name)
        done = pasted(repo, f"timeout {BOUND} forest watch status", env=SUDO)
    finally:
        os.close(lock)
    assert done.returncode == 0, (done.returncode, done.stderr)


# The child: root's ``forest check``, the owner swapping ``.git/forest`` for a link to
# OUTSIDE right after root makes ``.git/forest/cache`` (an audit hook, PEP 578, plays
# the owner at that one moment: no product code changed).
_SWAP_AFTER_MKDIR = owner_script(
    ("state", "outside"),
    'event == "open"',
    "swap(state, outside)",
    arm='event == "os.mkdir" and path == os.path.join(state, "cache")',
    forest=("check",),
)


def _swapped(place: tuple[Path, Path], tmp_path: Path, name: str) -> Path:
    """Root's ``forest check`` in a copy named ``name``, ``.git/forest`` swapped for a
    link to a folder of root's (OUTSIDE, holding a ``cache`` folder) as it ran; OUTSIDE."""
    repo = _warm(place, name)
    state = repo / ".git" / "forest"
    shutil.rmtree(state / "cache")
    outside = tmp_path / "var"
    (outside / "cache").mkdir(parents=True)
    as_root_with_owner(repo, _SWAP_AFTER_MKDIR, str(state), str(outside))
    assert (state.with_name("forest-moved") / "cache").is_dir()  # the owner did swap it
    return outside


def test_handover_state_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """The owner swaps ``.git/forest`` for a link to a folder of root's holding a
    ``cache`` folder (``/var`` has one) between root's ``mkdir`` of
    ``.git/forest/cache`` and its hand-over: root gave the owner its own
    ``/var/cache``, as it were. Now the hand-over finds its folder again from the git
    directory without following a link, and gives nothing."""
    outside = _swapped(place, tmp_path, "swapped state folder")
    given = [p.name for p in [outside, *outside.rglob("*")] if p.lstat().st_uid != 0]
    assert given == []


def test_cache_write_state_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """The same swap, after ``ensure_dir`` looked at ``.git/forest/cache``: root wrote
    its check's stamp (``.verdict-stamp``) through the link, into the folder of root's
    it led to. Now a record's folder is opened from the git directory with no link
    followed, and the temp file made and renamed in that descriptor: nothing is written
    outside."""
    outside = _swapped(place, tmp_path, "swapped cache folder")
    assert [p.name for p in outside.rglob("*")] == ["cache"]


# The child: root's watcher log (doors/watch/daemon.py ``OwnersLog``) at a full
# ``watch.log``; the owner plants a link at its name right after the rotation renames
# it away (an audit hook plays the owner then), before the handler opens it again.
_LINK_AT_ROTATION = owner_script(
    ("log_path", "outside", "owner"),
    'event == "open" and path == log_path',
    "plant(log_path, outside, owner)",
    arm='event == "os.rename" and path == log_path',
    program="""
import logging

from forest_files.doors.watch.daemon import OwnersLog

handler = OwnersLog(log_path, maxBytes=1 << 20, backupCount=3, encoding="utf-8")
sys.addaudithook(hook)
handler.emit(logging.makeLogRecord({"msg": "a line that starts a new log"}))
handler.close()
""",
)


def test_watch_log_link_planted_at_rotation_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """The watcher's log is full; as root's watcher rotates it, the owner plants a link
    at ``watch.log`` to a file of root's: the handler opened the name again, following
    the link, and appended to root's file. Now it opens it with ``O_NOFOLLOW``: root's
    file is left byte for byte, and root's."""
    repo = _warm(place, "watch log link")
    log_path = repo / ".git" / "forest" / "watch.log"
    log_path.write_bytes(b"x" * (1 << 20))
    os.chown(log_path, NOBODY, NOBODY)
    roots = tmp_path / "roots"
    roots.write_bytes(b"root's own\n")
    roots.chmod(0o600)
    args = [str(log_path), str(roots), str(NOBODY)]
    as_root_with_owner(repo, _LINK_AT_ROTATION, *args)
    assert log_path.is_symlink() and log_path.with_name("watch.log.1").is_file()  # it rotated
    assert roots.read_bytes() == b"root's own\n"
    assert roots.stat().st_uid == 0


# The child: root's ``forest restore doc.md``; the owner plants a link at the name of
# the capture's part file just as root opens it (an audit hook plays the owner then).
_LINK_AT_PART = owner_script(
    ("target", "owner"),
    'event == "open" and path is not None and path.endswith(".part")',
    """
# a relative name: made in the captures folder's descriptor
name = path if os.path.isabs(path) else os.path.join(".git", "forest", "captures", path)
if not os.path.lexists(name):
    plant(name, target, owner)
""",
    once=False,
    forest=("restore", "doc.md"),
)


def test_restore_capture_link_planted_at_part_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """As root's ``forest restore`` opens its capture's part file in ``nobody``'s
    captures folder, ``nobody`` plants a link at that name to a file of root's: root
    truncated the file and wrote the capture into it. Now the part file is opened
    ``O_CREAT|O_EXCL|O_NOFOLLOW``: one ``forest:`` line names the link and its ``rm``,
    root's file, the drifted file and the link are left as they were."""
    repo = _warm(place, "link at part")
    drifted = FILES["doc.md"].replace("blue", "green")
    (repo / "doc.md").write_text(drifted, encoding="utf-8")
    roots = tmp_path / "roots"
    roots.write_bytes(b"root's own\n")
    roots.chmod(0o600)
    done = as_root_with_owner(repo, _LINK_AT_PART, str(roots), str(NOBODY))
    assert roots.read_bytes() == b"root's own\n" and roots.stat().st_uid == 0
    assert (repo / "doc.md").read_text(encoding="utf-8") == drifted
    (link,) = (repo / ".git" / "forest" / "captures").iterdir()
    assert link.is_symlink() and os.readlink(link) == str(roots)
    assert done.returncode == 1, (done.returncode, done.stderr)
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: doc.md: nothing was restored; "), line
    rm = f"rm -- {shlex.quote(str(link))}"
    assert f"a symlink where forest-files keeps a capture being written; remove it ({rm})" in line
    assert pasted(repo, rm).returncode == 0 and not os.path.lexists(link)  # the fix pastes
    assert pasted(repo, "forest restore doc.md", env=SUDO).returncode == 0


# The child: root's ``forest check --staged``, which builds the staged ledger's view;
# right after the view is renamed into ``.git/forest/views``, the owner swaps that
# folder for a link to OUTSIDE (an audit hook plays the owner then).
_SWAP_VIEWS = owner_script(
    ("views", "outside"),
    'event == "open" and not os.path.islink(views)',
    "swap(views, outside)",
    # the view renamed in: by its path, or by its name in the views folder's descriptor
    arm='event == "os.rename" and (os.fsdecode(args[1]).startswith(views + os.sep)'
    ' or (args[3] is not None and os.fsdecode(args[1]).endswith(".db")))',
    forest=("check", "--staged"),
)


def test_view_prune_views_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """As root's ``forest check --staged`` builds a view, ``nobody`` swaps
    ``.git/forest/views`` for a link to a folder of root's holding databases: root's
    prune of old views, by name through the link, removed all but the six newest
    ``*.db`` files of that folder. Now the prune lists and removes in the folder opened
    from the git directory with no link followed: root's files are left."""
    repo = handed_copy(place[0], "swapped views")
    views = repo / ".git" / "forest" / "views"
    outside = tmp_path / "lib"
    outside.mkdir()
    for n in range(9):
        (outside / f"app{n}.db").write_bytes(b"root's database %d\n" % n)
        os.utime(outside / f"app{n}.db", ns=(n * 10**9, n * 10**9))
    done = as_root_with_owner(repo, _SWAP_VIEWS, str(views), str(outside))
    assert views.is_symlink() and views.with_name("views-moved").is_dir(), done.stderr
    assert sorted(p.name for p in outside.iterdir()) == [f"app{n}.db" for n in range(9)]
