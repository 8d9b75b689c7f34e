"""Root drops a cache record in a hostile owner's ``cache/``, and makes the MAC key in
their ``.git/forest``.

Root runs ``forest check`` in ``nobody``'s repository (under ``sudo``, ``SUDO_UID``
naming ``nobody``); the check finds drift, so the clean verdict it remembered before
is dropped (kernel/cache.py ``forget``). As root removes it, ``nobody`` swaps
``.git/forest/cache`` for a link to a folder of root's holding a file of the record's
name. Root must never remove a file in the folder the link leads to.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.git import pasted
from tests.helpers.swap import ONE_DOC as FILES
from tests.helpers.swap import owned_place, owner_script
from tests.helpers.unprivileged import SUDO, as_root_with_owner, handed_copy

# The child: root's ``forest check``; at the first removal (``os.remove``) naming the
# remembered verdict (``verdict-….bin``), the owner swaps CACHE for a link to OUTSIDE
# (an audit hook, PEP 578, plays the owner at that one moment: no product code changed).
_SWAP_AT_FORGET = owner_script(
    ("cache", "outside"),
    'event == "os.remove" and path is not None and os.path.basename(path).startswith("verdict-")'
    ' and path.endswith(".bin")',
    "swap(cache, outside)",
    forest=("check",),
)
# The child: root's ``forest check`` in a state folder with no MAC key yet; as root
# opens the key's temporary file (``mac.key.<pid>.tmp``), the owner swaps the state
# folder STATE for a link to OUTSIDE.
_SWAP_AT_KEY = owner_script(
    ("state", "outside"),
    'event == "open" and path is not None and os.path.basename(path).startswith("mac.key.")'
    ' and path.endswith(".tmp")',
    "swap(state, outside)",
    forest=("check",),
)
place = owned_place(FILES, "doc.md")


def test_cache_forget_cache_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """Root's clean ``forest check`` remembered its verdict; the file drifts, and as
    root's next check drops that record, ``nobody`` swaps ``cache/`` for a link to a
    folder of root's holding a file of the record's name: root removed root's own file,
    by path through the link. Now the record is removed in the cache folder opened from
    the git directory with no link followed: root's file is left, byte for byte, and
    the record root remembered is gone from the folder it was in."""
    repo = handed_copy(place[0], "swap cache at forget")
    assert pasted(repo, "forest check", env=SUDO).returncode == 0  # remembers it clean
    cache = repo / ".git" / "forest" / "cache"
    (record,) = cache.glob("verdict-*.bin")
    (repo / "doc.md").write_text(FILES["doc.md"].replace("blue", "green"), encoding="utf-8")
    outside = tmp_path / "roots"
    outside.mkdir()
    (outside / record.name).write_bytes(b"root's own file\n")
    done = as_root_with_owner(repo, _SWAP_AT_FORGET, str(cache), str(outside))
    moved = cache.with_name("cache-moved")
    assert cache.is_symlink() and moved.is_dir(), done.stderr  # the owner did swap it
    assert [p.name for p in outside.iterdir()] == [record.name], done.stderr
    assert (outside / record.name).read_bytes() == b"root's own file\n"
    assert (outside / record.name).stat().st_uid == 0
    assert not (moved / record.name).exists(), done.stderr  # dropped where it was
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)


def test_cache_key_state_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """Root's first cache write in a clone makes its MAC key; as root opens the key's
    temporary file, ``nobody`` swaps ``.git/forest`` for a link to a folder of root's:
    root made the temporary file there, handed it to ``nobody`` and linked it in as
    ``mac.key``, a file of ``nobody``'s in root's folder. Now the key is made, linked
    and its temporary name removed in the state folder opened from the git directory
    with no link followed: root's folder holds what it held, and the check ends."""
    repo = handed_copy(place[0], "swap state at key")
    state = repo / ".git" / "forest"
    (state / "mac.key").unlink(missing_ok=True)
    outside = tmp_path / "roots"
    outside.mkdir()
    (outside / "keep.txt").write_bytes(b"root's own file\n")
    done = as_root_with_owner(repo, _SWAP_AT_KEY, str(state), str(outside))
    assert state.is_symlink() and state.with_name("forest-moved").is_dir(), done.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"], done.stderr
    assert (outside / "keep.txt").read_bytes() == b"root's own file\n"
    assert "Traceback" not in done.stderr, done.stderr
