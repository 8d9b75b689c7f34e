"""After a forget: the erased body's file, and every local copy of its text.

Stores: deletes ``.forest/ledger/bodies/…/<hash>.txt`` of every body the index
holds as erased that an erase act of the ledger removes (``delete_erased_bodies``;
sync calls it, so a forget killed after its commit is finished by the next
command; an erasure only the index holds is a claim, never evidence: the file
stays, and ``forest fsck`` names the row); deletes every cached view
(``views/`` in the git directory's state: whole stores that hold bodies; they are rebuilt on
demand), every restore capture and any other cache file holding the text,
purges matching proposals from ``.git/forest/local.db``, and rewrites the index
(FTS ``optimize``, ``secure_delete``, ``VACUUM``, ``wal_checkpoint(TRUNCATE)``)
so no free page or log frame keeps the old bytes.

Re-runnable: before its erase act commits, a forget writes a marker
``purge-pending/<erase act id>.json`` in the shared state directory (the act id and body hash,
never text); the marker goes once the purge is complete. If the purge fails
(a locked or damaged local.db, a directory where a file belongs) or the
process dies, the next sync (every repository command) finds the marker and
purges again, matching text by what the index keeps without the body: the
erase act's tombstone lines and the body's hash. (A body whose every line is
shorter than ``tombstone.MIN_LINE`` is then caught only as a whole.) A marker
whose act never applied (the forget was refused or died before its commit) is
dropped.
Refuses: nothing (a file that vanished meanwhile is skipped); a pending purge
that fails again raises ``PurgePending`` (exit 1), naming the act and the fix (free
space when the disk, a quota or a file-size limit refused a write, the index's
``VACUUM`` too; else kernel/access.py's fix for the file it names, or for ``local.db``
when SQLite may not write it).
Returns: ``Purged`` (counts and names; never text).
Test: tests/governance/test_forget.py
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody import tombstone
from forest_files.kernel.access import access_fix, beyond_modes, regain_access
from forest_files.kernel.cache import replace_atomically
from forest_files.kernel.errors import FREE_SPACE, ForestError, NoSpace, no_space
from forest_files.kernel.paths import (
    CACHE_DIR,
    CAPTURES_DIR,
    LOCAL_DB_NAME,
    PURGE_DIR,
    TMP_DIR,
    VIEWS_DIR,
)
from forest_files.kernel.shellword import forest_text
from forest_files.kernel.state import ensure_dir, every_worktree_dir, shared_dir
from forest_files.ledger.act_refs import erased_bodies
from forest_files.ledger.segments import body_path, read_ledger
from forest_files.store import queries
from forest_files.store.connection import translate
from forest_files.store.forest import ForestStore

Holds = Callable[[str], bool]
_HEX64 = re.compile(r"[0-9a-f]{64}")
_APPLIED = "SELECT 1 FROM ledger_applied WHERE act_id = ?"


def purge_failed(root: Path, lead: str, exc: BaseException) -> PurgePending:
    """``lead``, then what could not be purged and the fix: free space for want of room,
    else kernel/access.py's for the file the failure names (a body in the ledger, a
    view), or, for a local database SQLite may not write (no file named), for
    ``local.db`` and the folder holding it; any other failure in its own words."""
    sync = f"then run `{forest_text('sync')}`: it finishes the purge"
    if _no_room(exc):  # making anything writable would not help: room would
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return PurgePending(f"{lead} ({why}); {FREE_SPACE}, {sync}")
    if isinstance(exc, OSError) and exc.filename:
        path = Path(os.fsdecode(exc.filename))
        shown = path.relative_to(root) if path.is_relative_to(root) else path
        why = exc.strerror or type(exc).__name__
        return PurgePending(f"{lead}: {shown} ({why}); {access_fix(str(path), exc)}, {sync}")
    cause = exc.__cause__ if isinstance(exc.__cause__, sqlite3.Error) else exc
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN):
        local = str(shared_dir(root) / LOCAL_DB_NAME)
        fix = regain_access(local, f"{local}-wal", f"{local}-shm") or beyond_modes(local)
        return PurgePending(f"{lead} ({cause}); {fix}, {sync}")
    return PurgePending(f"{lead}: {exc}; {sync}")  # busy, damaged: the store's own words


def _no_room(exc: BaseException) -> bool:
    """A write the disk refused for want of room: an ``OSError`` (ENOSPC, EDQUOT,
    EFBIG), or SQLite's I/O error or "disk is full" (the index's ``VACUUM``)."""
    if no_space(exc) or isinstance(exc, NoSpace):
        return True
    return isinstance(exc, sqlite3.Error) and isinstance(translate(exc), NoSpace)


class PurgePending(ForestError):
    """A forget's erase act is recorded, but its local copies are not all purged yet."""


@dataclass(frozen=True)
class Purged:
    bodies: int  # ledger body files deleted
    views: int  # cached view files deleted
    cache_files: int  # captures and other cache files that held the text
    proposals: tuple[str, ...]  # proposal ids whose text was purged


def delete_erased_bodies(
    store: ForestStore, ledger_dir: Path, named: frozenset[str] | None = None
) -> int:
    """Delete the ledger body file of every body hash the index holds as erased and an
    erase act of the ledger names (``named``: those hashes, when the caller read the
    ledger already); the count deleted. The ledger is read only when such a file is
    still there (a forget's or a pulled erase's last step): an index row alone
    deletes nothing."""
    hashes = [str(h) for (h,) in store.conn.execute(queries.ERASED_BODY_HASHES).fetchall()]
    left = [h for h in hashes if body_path(ledger_dir, h).exists()]
    if not left:
        return 0
    if named is None:
        named = erased_bodies(a.payload for a in read_ledger(ledger_dir).acts.values())
    done = 0
    for body_hash in left:
        if body_hash not in named:
            continue  # no erase act removes it: the index's claim (fsck names it)
        try:
            body_path(ledger_dir, body_hash).unlink()
        except FileNotFoundError:
            continue
        done += 1
    return done


def holder(project: str, body: str, lines: tuple[str, ...]) -> Holds:
    """Whether a text holds the erased body: the whole of it, or one of its
    tombstoned lines (``lines``), raw or normalised. A line live ground still
    holds is no tombstone line, so a capture sharing only such lines is kept."""
    marks = {fp: frozenset({"-"}) for fp in lines}
    raw = [
        ln.strip()
        for ln in body.splitlines()
        if tombstone.fingerprint(project, tombstone.normalise_line(ln)) in marks
    ]

    def holds(text: str) -> bool:
        if body.strip() and body.strip() in text:
            return True
        if any(line in text for line in raw):
            return True
        return bool(tombstone.hits(marks, project, text, "-" * 64))

    return holds


def _cache_files(root: Path, holds: Holds) -> tuple[int, int]:
    """Delete every view store and every other cache file whose text ``holds``."""
    views = cache = 0
    # Every worktree's views and caches: a linked worktree's hold the text as well.
    locals_ = every_worktree_dir(root)
    for view in [v for local in locals_ for v in _files(local / VIEWS_DIR)]:
        view.unlink(missing_ok=True)
        views += 1
    folders = [f for local in locals_ for f in (local / CACHE_DIR, local / TMP_DIR)]
    for folder in [*folders, shared_dir(root) / CAPTURES_DIR]:
        for path in _files(folder):
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if holds(data.decode("utf-8", "replace")):
                path.unlink(missing_ok=True)
                cache += 1
    return views, cache


def _files(folder: Path) -> list[Path]:
    """Every regular file under ``folder`` (symlinks are neither followed nor listed)."""
    found: list[Path] = []
    for dirpath, _dirs, files in os.walk(folder):
        found += [p for p in (Path(dirpath) / n for n in files) if not p.is_symlink()]
    return found


def _compact_index(store: ForestStore) -> None:
    """Rewrite the index so the erased bytes survive in no page, segment or log frame."""
    conn = store.conn
    conn.execute("PRAGMA secure_delete = ON")
    conn.execute("INSERT INTO entries_fts (entries_fts) VALUES ('optimize')")
    conn.execute("VACUUM")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def purge_local(root: Path, store: ForestStore, holds: Holds, ledger_dir: Path) -> Purged:
    """Everything after the erase act's commit (see the module docstring)."""
    from forest_files.custody.proposals import ProposalStore

    bodies = delete_erased_bodies(store, ledger_dir)
    views, cache = _cache_files(root, holds)
    proposals: list[str] = []
    if (shared_dir(root) / LOCAL_DB_NAME).exists():
        with ProposalStore(root) as local:
            proposals = local.purge(holds)
    _compact_index(store)
    return Purged(bodies, views, cache, tuple(proposals))


def mark_pending(root: Path, act_id: str, body_hash: str) -> Path:
    """Write the marker of a purge about to be owed (see the module docstring)."""
    folder = shared_dir(root) / PURGE_DIR
    ensure_dir(folder)
    path = folder / f"{act_id}.json"
    marker = json.dumps({"act_id": act_id, "body_hash": body_hash}).encode("utf-8")
    replace_atomically(str(path), marker, mode=0o644)  # root's made another owner's too
    return path


def clear_pending(root: Path, act_id: str) -> None:
    folder = shared_dir(root) / PURGE_DIR
    (folder / f"{act_id}.json").unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        folder.rmdir()  # only when no other purge is owed


def _pending(root: Path) -> list[tuple[str, str]]:
    """(act id, body hash) of every well-formed marker; a malformed one is dropped."""
    folder = shared_dir(root) / PURGE_DIR
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            act_id, body_hash = str(data["act_id"]), str(data["body_hash"])
        except (OSError, ValueError, KeyError, TypeError):
            act_id = body_hash = ""
        if path.stem == act_id and _HEX64.fullmatch(act_id) and _HEX64.fullmatch(body_hash):
            out.append((act_id, body_hash))
        else:
            path.unlink(missing_ok=True)
    return out


def resumed_holder(store: ForestStore, project: str, act_id: str, body_hash: str) -> Holds:
    """Whether a text holds what erase act ``act_id`` removed, judged without the body:
    one of its tombstone lines, or the very body (its hash)."""
    from forest_files.kernel.hashing import hash_body

    marks = {
        str(fp): frozenset({act_id})
        for fp, act in store.conn.execute(queries.ALL_TOMBSTONE_LINES)
        if str(act) == act_id
    }

    def holds(text: str) -> bool:
        return hash_body(text) == body_hash or bool(tombstone.hits(marks, project, text, "-" * 64))

    return holds


def resume_pending(
    root: Path, store: ForestStore, project: str, ledger_dir: Path
) -> list[tuple[str, Purged]]:
    """Finish every purge a forget left owed; (act id, what was purged) of each."""
    done: list[tuple[str, Purged]] = []
    for act_id, body_hash in _pending(root):
        if store.conn.execute(_APPLIED, (act_id,)).fetchone() is None:
            clear_pending(root, act_id)  # the forget never committed: nothing is owed
            continue
        holds = resumed_holder(store, project, act_id, body_hash)
        try:
            purged = purge_local(root, store, holds, ledger_dir)
        except Exception as exc:
            lead = f"the purge of local copies after erase act {act_id[:12]} failed again"
            raise purge_failed(root, lead, exc) from exc
        clear_pending(root, act_id)
        done.append((act_id, purged))
    return done
