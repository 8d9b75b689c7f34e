"""Root's commands open and drop SQLite databases in a hostile owner's ``.git/forest``.

Root runs forest in ``nobody``'s repository (under ``sudo``, ``SUDO_UID`` naming
``nobody``); ``nobody`` swaps ``.git/forest`` for a link to a folder of root's (root's
own clone's state, say) at the moment root opens a database there, or drops a damaged
index. Root must neither open, create nor remove a database in the folder the link
leads to.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.helpers.git import pasted
from tests.helpers.swap import ONE_DOC as FILES
from tests.helpers.swap import owned_place, owner_script
from tests.helpers.unprivileged import SUDO, as_root_with_owner, handed_copy

# The child: root's ``forest ARGS…``; the owner swaps ``.git/forest`` for a link to
# OUTSIDE at the first event EVENT naming a file called NAME (an audit hook, PEP 578,
# plays the owner at that one moment: no product code changed).
_SWAP_AT = owner_script(
    ("state", "outside", "event_name", "name"),
    'event == event_name and path is not None and path.endswith("/" + name)',
    "swap(state, outside)",
)
place = owned_place(FILES, "doc.md")


def _roots_state(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A folder of root's holding the databases of root's own clone's state (one
    table of root's in each)."""
    outside = tmp_path / "roots-state"
    outside.mkdir()
    for name in ("woods.db", "local.db", "audit.db"):
        with closing(sqlite3.connect(outside / name)) as conn, conn:
            conn.execute("CREATE TABLE mine (what TEXT)")
            conn.execute("INSERT INTO mine VALUES (?)", (f"root's own {name}",))
    return outside, _held(outside)


def _held(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _swapped_at(repo: Path, outside: Path, event: str, name: str, *args: str) -> tuple[Path, str]:
    """Root's ``forest ARGS`` in ``repo``, ``.git/forest`` swapped for a link to
    ``outside`` at ``event`` naming ``name``: the folder moved aside, and stderr."""
    state = repo / ".git" / "forest"
    done = as_root_with_owner(repo, _SWAP_AT, str(state), str(outside), event, name, *args)
    moved = state.with_name("forest-moved")
    assert state.is_symlink() and moved.is_dir(), done.stderr  # the owner did swap it
    return moved, done.stderr


@pytest.mark.parametrize(
    ("command", "name"),
    [(("sync",), "woods.db"), (("restore", "doc.md"), "audit.db")],
    ids=["index", "audit"],
)
def test_database_open_state_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path, command: tuple[str, ...], name: str
) -> None:
    """As root opens ``.git/forest/NAME``, ``nobody`` swaps ``.git/forest`` for a link to
    root's own state: SQLite opened the database by its path, through the link, and root
    wrote its index (or its audit record) into root's file there. Now root hands SQLite
    the database through the folder it opened from the git directory with no link
    followed (``/proc/self/fd/N/NAME``): root's folder is left byte for byte."""
    repo = handed_copy(place[0], f"swap at {name}")
    assert pasted(repo, "forest sync", env=SUDO).returncode == 0
    (repo / "doc.md").write_text(FILES["doc.md"].replace("blue", "green"), encoding="utf-8")
    outside, before = _roots_state(tmp_path)
    moved, said = _swapped_at(repo, outside, "sqlite3.connect", name, *command)
    assert _held(outside) == before, said
    assert (moved / name).is_file()


def test_index_drop_state_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """Root's ``forest sync`` finds ``nobody``'s index damaged and drops it; as root
    removes it, ``nobody`` swaps ``.git/forest`` for a link to root's own state: root
    removed root's own ``woods.db`` there, by name through the link. Now the index is
    removed in the folder opened from the git directory with no link followed: root's
    file is left, the damaged one is gone, and the command refuses the link in one line
    naming its ``rm``."""
    repo = handed_copy(place[0], "swap at drop")
    state = repo / ".git" / "forest"
    assert pasted(repo, "forest sync", env=SUDO).returncode == 0
    (state / "woods.db").write_bytes(b"not a database at all\n" * 64)
    for side in ("-wal", "-shm"):
        (state / f"woods.db{side}").unlink(missing_ok=True)
    outside, before = _roots_state(tmp_path)
    moved, said = _swapped_at(repo, outside, "os.remove", "woods.db", "sync")
    assert _held(outside) == before, said
    assert not (moved / "woods.db").exists()
    rm = f"rm -- {shlex.quote(str(state))}"
    assert f"found a symlink; remove it ({rm}) and run the command again" in said, said
    assert pasted(repo, rm).returncode == 0 and not os.path.lexists(state)  # the fix pastes
    assert pasted(repo, "forest sync", env=SUDO).returncode == 0
