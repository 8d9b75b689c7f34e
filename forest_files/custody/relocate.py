"""Moving an older layout's local state out of the work tree, once.

forest-files used to keep its index, caches, captures, proposals and audit log under
``.forest/`` in the work tree, where a clone could bring forged ones. They now live
in the git directory (kernel/state.py). On the first command in a repository laid
out the old way, the files a user wrote and nothing can rebuild (restore captures,
proposals ``local.db``, the audit log ``audit.db``, a forget's unfinished purge
markers) are moved there; the index, views and caches are deleted, never moved,
since the index is rebuilt from the ledger and a forged one must not be carried in.
Only files git does not track are touched: a tracked one is a claim that arrived
through git, reported as a finding and never read, and so is a ``local.db`` or
``audit.db`` that any commit ever held: a file that came through git is nobody's
own proposals or log. Symlinks are never followed or moved: every directory on
the way (``.forest``, ``.forest/cache``, …) is checked with ``lstat`` and a linked
one is left alone (custody/relocate_scan.py, which asks git what it holds too), so
a committed ``.forest -> elsewhere`` moves or deletes nothing there; an untracked
link among the old caches is removed as a link (its target untouched). A SQLite
file moves with its ``-wal``/``-shm``/``-journal`` files, to one place, all or none
(that place noted before the first of them moves, so the rest follow it after a
kill); across file systems each is copied whole or not at all
(custody/relocate_copy.py), and a copy an earlier run left at the new place (a kill
stopped its move, or its old file could not be removed) is recognised, never taken
for another file. A file whose new place is taken already is kept under a new
``legacy/<n>/`` directory of its own (never overwritten), so nothing a user wrote
is lost. One line on stderr says what happened.

Stores: files under ``<git-common-dir>/forest`` (a ``legacy/<n>`` root makes in a git
directory another user owns given to that user: kernel/handover.py); deletes the old
index and caches.
Refuses: with ``NoSpace`` (exit 1: free space, then the command again) a move across
file systems with no room to finish a copy: the database and its journal files move
all or none, every source stays whole where it was, and the command stops before it
makes a new file in its place (the next run moves it). Any other file that cannot be
moved stays where it was, and is named. Nothing happens where ``.forest`` is no real
directory (custody/ledger_dirs.py refuses that repository).
Returns: ``Relocated`` (what moved, what was dropped); None when there was nothing.
Test: tests/custody/test_relocate.py, tests/custody/test_relocate_no_space.py,
tests/custody/test_relocate_killed.py, tests/custody/test_relocate_unremovable.py,
tests/custody/test_relocate_journals.py, tests/doors/test_state_of_another_owner.py
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from forest_files.custody.relocate_scan import (
    ever_committed,
    parent_real,
    prune_empty,
    real_dir,
    regular_rels,
    tracked_local,
)
from forest_files.kernel.errors import FREE_SPACE, NoSpace, no_space
from forest_files.kernel.handover import hand_over_path
from forest_files.kernel.paths import (
    AUDIT_DB_NAME,
    CAPTURES_DIR,
    FOREST_DIR,
    INDEX_NAME,
    LEGACY_AUDIT_DB,
    LEGACY_CACHE,
    LEGACY_CAPTURES,
    LEGACY_INDEX,
    LEGACY_LOCAL_DB,
    LOCAL_DB_NAME,
    PURGE_DIR,
)
from forest_files.kernel.state import ensure_dir, shared_dir

TYPE_CHECKING = False  # typing itself is not imported: the hook loads this module
if TYPE_CHECKING:
    from forest_files.custody.relocate_copy import Noted

LEGACY_PURGES = f"{LEGACY_CACHE}/purge-pending"  # a forget's unfinished purge markers
_LEGACY = (LEGACY_INDEX, LEGACY_CACHE, LEGACY_LOCAL_DB, LEGACY_AUDIT_DB)
_SQLITE_SUFFIXES = ("", "-wal", "-shm", "-journal")
LEGACY_KEPT = "legacy"  # under the shared state: files whose new place was taken


@dataclass
class Relocated:
    moved: list[str] = field(default_factory=list)  # repository-relative, old places
    dropped: list[str] = field(default_factory=list)  # rebuilt from the ledger instead
    kept: list[str] = field(default_factory=list)  # left in place: tracked, links, errors
    no_room: list[str] = field(default_factory=list)  # left in place: no room for a copy
    legacy: Path | None = None  # where files whose new place was taken went
    unremoved: list[str] = field(default_factory=list)  # copied, the old file left too
    noted: Noted | None = field(default=None, repr=False, compare=False)  # relocated.json


def relocate_once(root: Path) -> Relocated | None:
    """Move ``root``'s old-layout local state into the git directory (see above)."""
    if not real_dir(root, FOREST_DIR):
        return None  # the usual case (no .forest, or a new one): one lstat more
    if not any(os.path.lexists(root / rel) for rel in _LEGACY):
        return None  # the usual case: four lstat calls
    from forest_files.custody.relocate_copy import sweep_kept

    tracked = tracked_local(root)
    done = Relocated()
    target = shared_dir(root)
    sweep_kept(target / LEGACY_KEPT)  # a killed run's unused legacy/<n>: that number again
    for rel in (LEGACY_LOCAL_DB, LEGACY_AUDIT_DB):
        group = [rel + suffix for suffix in _SQLITE_SUFFIXES]
        present = [r for r in group if os.path.lexists(root / r)]
        if present and ever_committed(root, group):
            done.kept += present  # it came through git: not this machine's own
            continue
        # one destination for the database and its journal files, all or none
        _move(root, [(r, target / Path(r).name) for r in group], tracked, done)
    for old, new in ((LEGACY_CAPTURES, CAPTURES_DIR), (LEGACY_PURGES, PURGE_DIR)):
        for rel in regular_rels(root, old):
            _move(root, [(rel, target / new / rel.removeprefix(old + "/"))], tracked, done)
    if done.noted is not None:
        with contextlib.suppress(OSError):  # unsaved: the next run keeps it under legacy/
            done.noted.save()
    # The old index, its WAL files and the binding maps kept beside it, then the caches.
    index_files = sorted((root / FOREST_DIR).glob(f"{INDEX_NAME}*"))
    for rel in [p.relative_to(root).as_posix() for p in index_files] + regular_rels(
        root, LEGACY_CACHE
    ):
        _drop(root, rel, tracked, done)
    if real_dir(root, LEGACY_CACHE):
        prune_empty(root / LEGACY_CACHE)
    if done.no_room:  # the command stops here: nothing of it takes their places
        raise NoSpace(
            f"local state could not all be moved into {target}: no room to copy "
            f"{', '.join(done.no_room)}, left where it was, whole; {FREE_SPACE}, then run "
            "the command again"
        )
    if done.moved or done.dropped:
        sys.stderr.write(_notice(done, target))
    return done


def _move(root: Path, group: list[tuple[str, Path]], tracked: set[str], done: Relocated) -> None:
    """Move the files of ``group`` (``(rel, dest)``: a database and its journal files,
    present or not, or one file), all or none: one that cannot be placed (no room for
    its copy) takes back the others, and every source stays where it was, whole, for
    the next run. A place taken already (by a file that is no copy of this one, or a
    journal file this database lacks) sends them all under ``legacy/``; the rest of a
    group a killed run began to move follow it there (``Noted.bound``)."""
    from forest_files.custody.relocate_copy import covered, place_all

    noted, key = _noted(root, done), group[0][0]
    group = noted.bound(group)  # where a killed run began to move it, if it did
    if noted.moving.get(key):  # under legacy/<n>: the notice names it
        done.legacy = done.legacy or group[0][1].parent
    plan = [(rel, dest) for rel, dest in group if _movable(root, rel, tracked, done)]
    if _copied_before(root, plan, done):
        return
    cover = {rel: covered(root / rel, dest) for rel, dest in plan if os.path.lexists(dest)}
    landed = {rel for rel, how in cover.items() if how == "whole"}  # copied before a kill
    ours = {rel for rel, _dest in plan} if key in noted.moving else {rel for rel, _ in group}
    if any(os.path.lexists(dest) and not cover.get(rel) for rel, dest in group if rel in ours):
        landed = set()
        plan = [(rel, _legacy(root, done) / rel.removeprefix(FOREST_DIR + "/")) for rel, _ in plan]
    try:
        if len(plan) > 1 and key not in noted.moving:
            noted.begin(key, plan[0][1].parent)
        copied = place_all(root, plan, landed)
    except OSError as exc:  # every source where it was, nothing of the group placed
        (done.no_room if no_space(exc) else done.kept).extend(rel for rel, _ in plan)
        return
    for rel in landed | copied:
        try:
            (root / rel).unlink()
        except OSError:  # whole at both places: noted, never copied again
            _noted(root, done).note(root, rel)
            done.unremoved.append(rel)
    noted.end(key)
    done.moved += [rel for rel, _dest in plan]


def _copied_before(root: Path, plan: list[tuple[str, Path]], done: Relocated) -> bool:
    """A group an earlier run copied whose old files could not be removed: removed now
    where they can be, never copied again (relocate_copy.py ``Noted``)."""
    noted = _noted(root, done)
    if not any(noted.moved_before(root, rel) for rel, _dest in plan):
        return False
    for rel, _dest in plan:
        if not noted.moved_before(root, rel):
            done.kept.append(rel)  # beside a database copied before: never parted from it
            continue
        with contextlib.suppress(OSError):
            (root / rel).unlink()
            noted.forget(rel)
    return True


def _noted(root: Path, done: Relocated) -> Noted:
    if done.noted is None:
        from forest_files.custody.relocate_copy import Noted

        done.noted = Noted(shared_dir(root))
    return done.noted


def _movable(root: Path, rel: str, tracked: set[str], done: Relocated) -> bool:
    source = root / rel
    if not os.path.lexists(source) or not parent_real(root, rel):
        return False
    if source.is_symlink():
        return False  # never followed: removed as a link with the old caches below
    if rel in tracked or not source.is_file():
        done.kept.append(rel)
        return False
    return True


def _legacy(root: Path, done: Relocated) -> Path:
    """This run's own ``legacy/<n>`` directory, made on first use with ``mkdir``
    (which fails on a name that exists): nothing kept before is ever overwritten."""
    if done.legacy is None:
        base = Path(ensure_dir(shared_dir(root) / LEGACY_KEPT))
        n = 1
        while True:
            try:
                os.mkdir(base / str(n), 0o700)
                break
            except FileExistsError:
                n += 1
        hand_over_path(str(base / str(n)))  # root's, in another user's git directory: theirs
        done.legacy = base / str(n)
    return done.legacy


def _drop(root: Path, rel: str, tracked: set[str], done: Relocated) -> None:
    path = root / rel
    if not os.path.lexists(path) or rel in tracked or not parent_real(root, rel):
        return
    if path.is_dir() and not path.is_symlink():
        return
    try:
        path.unlink()
    except OSError:
        done.kept.append(rel)
        return
    done.dropped.append(rel)


def _notice(done: Relocated, target: Path) -> str:
    parts = []
    if done.moved:
        parts.append(
            f"moved {len(done.moved)} local file(s) (captures, {LOCAL_DB_NAME}, "
            f"{AUDIT_DB_NAME}) into {target}"
        )
    if done.legacy is not None:
        parts.append(f"files whose new place was taken are kept in {done.legacy}")
    if done.dropped:
        parts.append(
            f"dropped {len(done.dropped)} cache file(s) (the index is rebuilt from the ledger)"
        )
    if done.unremoved:
        parts.append(
            f"could not remove {', '.join(done.unremoved)} after copying it (it stays there "
            "too, never copied again; delete it once it can be)"
        )
    left = f"; left in place: {', '.join(done.kept)}" if done.kept else ""
    return f"forest: local state now lives in the git directory: {'; '.join(parts)}{left}\n"
