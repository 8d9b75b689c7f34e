"""Root's ``forest restore`` keeps its capture in a hostile owner's ``captures/``.

Root runs ``forest restore`` in ``nobody``'s repository (under ``sudo``, ``SUDO_UID``
naming ``nobody``); ``nobody`` swaps ``.git/forest/captures`` for a link to a folder
of root's as root makes or renames its capture's part file. The capture (text
``nobody`` wrote) must never be made, nor renamed, in the folder the link leads to.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.git import pasted
from tests.helpers.swap import ONE_DOC as FILES
from tests.helpers.swap import owned_place, owner_script
from tests.helpers.unprivileged import SUDO, as_root_with_owner, handed_copy

# The child: root's ``forest restore doc.md``; at the first EVENT naming a part file
# (``….part``), the owner swaps CAPTURES for a link to OUTSIDE (an audit hook, PEP 578,
# plays the owner at that one moment: no product code changed).
_SWAP_AT_PART = owner_script(
    ("captures", "outside", "event_name"),
    'event == event_name and path is not None and path.endswith(".part")',
    "swap(captures, outside)",
    forest=("restore", "doc.md"),
)
place = owned_place(FILES, "doc.md")


@pytest.mark.parametrize("event", ["open", "os.rename"], ids=["made", "renamed"])
def test_restore_capture_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path, event: str
) -> None:
    """As root's ``forest restore`` makes (``open``) or renames (``os.rename``) its
    capture's part file, ``nobody`` swaps ``captures/`` for a link to a folder of
    root's: root made the capture, text ``nobody`` chose, in root's folder (or, swapped
    after it was made, could not rename it, refused the restore and left the part file
    behind). Now the part file is made, renamed and removed in the captures folder
    opened from the git directory with no link followed: root's folder is left empty,
    the capture is whole in the folder root opened, and the file is restored."""
    repo = handed_copy(place[0], f"swap captures at {event}")
    assert pasted(repo, "forest sync", env=SUDO).returncode == 0
    captures = repo / ".git" / "forest" / "captures"
    captures.mkdir(exist_ok=True)
    drifted = FILES["doc.md"].replace("blue", "green")
    (repo / "doc.md").write_text(drifted, encoding="utf-8")
    outside = tmp_path / "roots"
    outside.mkdir()
    done = as_root_with_owner(repo, _SWAP_AT_PART, str(captures), str(outside), event)
    moved = captures.with_name("captures-moved")
    assert captures.is_symlink() and moved.is_dir(), done.stderr  # the owner did swap it
    assert list(outside.iterdir()) == [], done.stderr
    (kept,) = moved.iterdir()
    assert kept.suffix == ".txt" and "The sky is green." in kept.read_text(encoding="utf-8")
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert (repo / "doc.md").read_text(encoding="utf-8") == FILES["doc.md"]


def test_restore_capture_sweep_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path
) -> None:
    """A killed restore left a part file in ``captures/`` (an hour old: its writer is
    gone); as root's next ``forest restore`` removes it, ``nobody`` swaps ``captures/``
    for a link to a folder of root's holding a file of that name: root removed root's
    own file, by path through the link. Now the part files are listed and removed in
    the captures folder opened from the git directory with no link followed: root's
    file is left, the stale part file is gone, and the restore's capture is whole."""
    repo = handed_copy(place[0], "swap captures at sweep")
    assert pasted(repo, "forest sync", env=SUDO).returncode == 0
    captures = repo / ".git" / "forest" / "captures"
    captures.mkdir(exist_ok=True)
    stale = "20260101T000000Z-0123456789ab.txt.1.part"
    (captures / stale).write_text("a killed restore's capture\n", encoding="utf-8")
    os.utime(captures / stale, (0, 0))  # an hour old and more: its writer is gone
    (repo / "doc.md").write_text(FILES["doc.md"].replace("blue", "green"), encoding="utf-8")
    outside = tmp_path / "roots"
    outside.mkdir()
    (outside / stale).write_text("root's own file\n", encoding="utf-8")
    done = as_root_with_owner(repo, _SWAP_AT_PART, str(captures), str(outside), "os.remove")
    moved = captures.with_name("captures-moved")
    assert captures.is_symlink() and moved.is_dir(), done.stderr  # the owner did swap it
    assert [p.name for p in outside.iterdir()] == [stale], done.stderr
    assert (outside / stale).read_text(encoding="utf-8") == "root's own file\n"
    (kept,) = moved.iterdir()
    assert kept.suffix == ".txt" and "The sky is green." in kept.read_text(encoding="utf-8")
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert (repo / "doc.md").read_text(encoding="utf-8") == FILES["doc.md"]
