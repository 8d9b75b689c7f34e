"""Root's ``forest check`` builds a view in a hostile owner's ``views/``.

Root runs ``forest check`` in ``nobody``'s repository (under ``sudo``, ``SUDO_UID``
naming ``nobody``), which builds the custody view of the staged ledger in
``.git/forest/views``; ``nobody`` swaps ``views/`` for a link to a folder of root's
as root first names its temporary database (``.view-….db``), or renames it over the
view. Root must never make, rename or remove a file in the folder the link leads to.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.helpers.git import pasted
from tests.helpers.swap import ONE_DOC as FILES
from tests.helpers.swap import owned_place, owner_script
from tests.helpers.unprivileged import SUDO, as_root_with_owner, handed_copy

# The child: root's ``forest check``; at the first EVENT (any, for "first") naming the
# temporary view (``.view-…``), the owner swaps VIEWS for a link to OUTSIDE; at every
# later event naming it, what OUTSIDE holds is written to SEEN (an audit hook, PEP 578,
# plays the owner and watches root's folder: no product code changed).
_SWAP_AT_TEMP = owner_script(
    ("views", "outside", "event_name", "seen"),
    'event != "os.listdir" and path is not None and os.path.basename(path).startswith(".view-")',
    """
if done:
    held = os.listdir(outside)
    if held:
        with open(seen, "a", encoding="utf-8") as out:
            out.write(f"{event} {held}\\n")
elif event_name in ("first", event):
    done.append(True)
    swap(views, outside)
""",
    once=False,
    forest=("check", "--staged"),
)
place = owned_place(FILES, "doc.md")


@pytest.mark.parametrize("event", ["first", "os.rename"], ids=["made", "renamed"])
def test_view_build_views_folder_swapped_for_link_refused(
    place: tuple[Path, Path], tmp_path: Path, event: str
) -> None:
    """As root's ``forest check`` first names its temporary view (``mkstemp`` made it)
    or renames it over the view, ``nobody`` swaps ``views/`` for a link to a folder of
    root's: root made (and then removed) its temporary database in root's folder, by
    path through the link, or could not rename it and left it behind in ``nobody``'s.
    Now it is made, renamed and removed in the views folder opened once from the git
    directory with no link followed: root's folder never holds a file, and no
    temporary view is left behind; the link is refused in one line naming its ``rm``
    (pasted, it works, and the check then passes)."""
    repo = handed_copy(place[0], f"swap views at {event}")
    views = repo / ".git" / "forest" / "views"
    for stale in views.glob("*"):  # no view to start from: root builds one here
        stale.unlink()
    outside = tmp_path / "roots"
    outside.mkdir()
    seen = tmp_path / "seen"
    done = as_root_with_owner(repo, _SWAP_AT_TEMP, str(views), str(outside), event, str(seen))
    moved = views.with_name("views-moved")
    assert views.is_symlink() and moved.is_dir(), done.stderr  # the owner did swap it
    assert not seen.exists(), seen.read_text(encoding="utf-8")
    assert list(outside.iterdir()) == [], done.stderr
    assert [p.name for p in moved.iterdir() if p.name.startswith(".view-")] == []
    rm = f"rm -- {shlex.quote(str(views))}"
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert done.stderr.count("\n") == 1 and f"found a symlink; remove it ({rm})" in done.stderr
    assert pasted(repo, rm).returncode == 0
    assert pasted(repo, "forest check --staged", env=SUDO).returncode == 0
