"""Convert a Forest 0.3.x or 0.4 store into a new forest-files store.

Stores: one new file at ``new_path``. It is built beside the target under a
temporary name and linked into place only after the whole copy committed and
its views were checked, so a failed run leaves no target behind. The source is
opened read-only (``mode=ro``) inside one read transaction and never written.
Refuses: an existing target, even an empty one, or a leftover SQLite journal
beside it; a missing, non-SQLite or non-Forest source; a Forest version other
than 0.3.x and 0.4.0; a store that is already forest-files; any entry whose
body_hash is not the SHA-256 of its body (the whole run, naming the ids);
meta_json that is not a JSON object; an edge history the schema rejects.
Returns: ``MigrationReport`` with counts and notes on every translation made.
Test: tests/face/test_migrate.py
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from forest_files.kernel.cache import fsync_dir
from forest_files.kernel.errors import ForeignStore, ForestError
from forest_files.kernel.hashing import entry_content_id, hash_body
from forest_files.kernel.vocab import BUCKETS, Bucket
from forest_files.store import ForestStore
from forest_files.store.connection import translate

SourceVersion = Literal["0.3", "0.4"]
MIGRATION_SCOPE = "default"
# 0.3 buckets that 0.4 renamed or dropped; everything else carries over as is.
_BUCKETS_03 = {"session_pair": Bucket.PAIR.value, "canon": Bucket.NOTE.value}
# A migrated entry may use any bucket Forest had, never forest-files' reserved anchor.
_TARGET_BUCKETS = BUCKETS - {Bucket.ANCHOR.value}
_ENTRY_COLUMNS = (
    "id, created_at, {j} AS jurisdiction, bucket, {s} AS source, signature, body, body_hash, "
    "meta_json"
)
_SELECT_ENTRIES = {
    "0.4": f"SELECT {_ENTRY_COLUMNS.format(j='jurisdiction', s='source')} FROM entries ORDER BY id",
    "0.3": f"SELECT {_ENTRY_COLUMNS.format(j='forest', s='NULL')} FROM entries ORDER BY id",
}
_SELECT_EDGES = "SELECT id, from_id, to_id, kind, created_at FROM edges ORDER BY id"
_SELECT_LOG = (
    "SELECT id, created_at, query, open_buckets_json, result_ids_json, note "
    "FROM retrieval_log ORDER BY id"
)
_INSERT_ENTRY = (
    "INSERT INTO entries (id, created_at, jurisdiction, bucket, source, signature, body, "
    "body_hash, meta_json, content_id, scope, nonce, chain_root) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_EDGE = "INSERT INTO edges (id, from_id, to_id, kind, created_at) VALUES (?, ?, ?, ?, ?)"
_INSERT_LOG = (
    "INSERT INTO retrieval_log (id, created_at, query, open_buckets_json, result_ids_json, "
    "note) VALUES (?, ?, ?, ?, ?, ?)"
)


@dataclass(frozen=True)
class MigrationReport:
    """What a migration copied, and every translation it had to make."""

    source_version: SourceVersion
    entries: int
    edges: int
    retrieval_log: int
    notes: tuple[str, ...] = ()


@dataclass
class _Tally:
    entries: int = 0
    tampered: list[int] = field(default_factory=list)
    bad_meta: list[int] = field(default_factory=list)
    bad_bucket: list[int] = field(default_factory=list)
    canon: list[int] = field(default_factory=list)
    pairs_03: list[int] = field(default_factory=list)

    def refused(self) -> bool:
        return bool(self.tampered or self.bad_meta or self.bad_bucket)


def migrate_to_latest(
    old_path: str | os.PathLike[str], new_path: str | os.PathLike[str]
) -> MigrationReport:
    """Copy the Forest store at ``old_path`` into a new forest-files store at ``new_path``."""
    old, new = Path(old_path), Path(new_path)
    _refuse_existing_target(new)
    src = _open_source(old)
    try:
        version = _detect_version(src, old)
        tmp = _temp_beside(new)
        try:
            report = _build(src, tmp, version)
            _publish(tmp, new)
        except BaseException:
            _discard(tmp)
            raise
    except sqlite3.Error as exc:
        raise translate(exc, f"migrating {old}") from exc
    finally:
        src.close()
    return report


# -- the source ---------------------------------------------------------------
def _open_source(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise ForestError(f"source store not found: {path}")
    try:
        try:
            return _connect_read_only(path, immutable=False)
        except sqlite3.OperationalError as exc:
            if not _wal_reader_blocked(exc, path):
                raise
            return _connect_read_only(path, immutable=True)
    except sqlite3.Error as exc:
        raise translate(exc, f"cannot read source {path}") from exc


def _connect_read_only(path: Path, *, immutable: bool) -> sqlite3.Connection:
    flags = "mode=ro&immutable=1" if immutable else "mode=ro"
    conn = sqlite3.connect(f"file:{quote(path.resolve().as_posix())}?{flags}", uri=True)
    try:
        conn.isolation_level = None
        conn.execute("PRAGMA busy_timeout = 5000")
        # One read transaction, opened by the first read: every pass below sees
        # the same snapshot even if another process writes to the source.
        conn.execute("BEGIN")
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


def _wal_reader_blocked(exc: sqlite3.OperationalError, path: Path) -> bool:
    """A closed WAL store in a read-only directory: ``mode=ro`` cannot create its -shm.

    Without a -wal file every committed page is in the main file, and no writer
    can start (a WAL writer must create the -wal in that same directory), so
    reading the file as immutable is safe there and nowhere else.
    """
    name = getattr(exc, "sqlite_errorname", "")
    blocked = name in ("SQLITE_READONLY_DIRECTORY", "SQLITE_CANTOPEN")
    return blocked and not Path(f"{path}-wal").exists()


def _detect_version(conn: sqlite3.Connection, path: Path) -> SourceVersion:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    tables = {str(r[0]) for r in rows}
    if "entries" not in tables:
        shown = ", ".join(sorted(tables)[:8]) or "none"
        raise ForeignStore(
            f"{path} is not a Forest store: it has no entries table (tables: {shown})"
        )
    columns = {str(r[1]) for r in conn.execute("PRAGMA table_info(entries)")}
    meta = _forest_meta(conn) if "forest_meta" in tables else {}
    if "forest_files_schema" in meta or "content_id" in columns:
        raise ForestError(f"{path} is already a forest-files store; nothing to migrate")
    missing = {"edges", "retrieval_log"} - tables
    if missing:
        raise ForestError(f"{path} is a partial Forest schema (no {', '.join(sorted(missing))})")
    if "jurisdiction" in columns:
        if meta.get("schema_version") != "0.4.0":
            got = meta.get("schema_version", "(missing)")
            raise ForestError(
                f"{path} has jurisdiction columns but forest_meta schema_version={got!r}; "
                "this migrator reads Forest 0.3.x and 0.4.0 stores only"
            )
        return "0.4"
    if "forest" in columns:
        return _check_03(conn, path, columns)
    raise ForestError(
        f"{path} has an entries table with neither a jurisdiction nor a forest column "
        f"(columns: {', '.join(sorted(columns))}); not a Forest version this migrator knows"
    )


def _forest_meta(conn: sqlite3.Connection) -> dict[str, str]:
    return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM forest_meta")}


def _check_03(conn: sqlite3.Connection, path: Path, columns: set[str]) -> SourceVersion:
    older = "convert it to 0.3 with forest-memory 0.3.1's migrate_to_latest first"
    if columns & {"authority", "visibility"}:
        raise ForestError(f"{path} is a Forest v0.1 store (mutable status columns); {older}")
    row = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type='table' AND name='edges'"
    ).fetchone()
    if "asks_about" not in str(row[0] if row else ""):
        raise ForestError(f"{path} is a Forest v0.2 store (edges predate mycelium); {older}")
    return "0.3"


# -- the copy -----------------------------------------------------------------
def _build(src: sqlite3.Connection, tmp: Path, version: SourceVersion) -> MigrationReport:
    roots, notes = _chain_roots(src)
    with ForestStore(tmp, scope=MIGRATION_SCOPE) as store:
        store.init_schema()
        dst = store.conn
        with store.atomic():
            # Ids are copied verbatim, so a reference may point forward; the
            # foreign keys are checked once, before COMMIT.
            dst.execute("PRAGMA defer_foreign_keys = ON")
            tally = _copy_entries(src, dst, version, roots)
            _refuse_bad_entries(tally)
            edges = _copy_edges(src, dst)
            log = _copy_log(src, dst)
            _refuse_dangling(dst)
        notes += _translation_notes(version, tally)
        notes += _compare_views(src, dst)
    return MigrationReport(version, tally.entries, edges, log, tuple(notes))


def _chain_roots(src: sqlite3.Connection) -> tuple[dict[int, int], list[str]]:
    """chain_root per superseding entry: the far end of its ``supersedes`` chain."""
    targets: dict[int, int] = {}
    forks: list[int] = []
    for from_id, to_id in src.execute(
        "SELECT from_id, to_id FROM edges WHERE kind = 'supersedes' ORDER BY id"
    ):
        if from_id in targets:
            forks.append(int(from_id))
            targets[from_id] = min(targets[from_id], int(to_id))
        else:
            targets[int(from_id)] = int(to_id)
    roots: dict[int, int] = {}
    for start in sorted(targets):
        roots[start] = _chain_end(start, targets, roots)
    notes = []
    if forks:
        notes.append(
            f"entries {_ids(forks)} supersede more than one entry; their chain_root follows "
            "the lowest superseded id"
        )
    return roots, notes


def _chain_end(start: int, targets: dict[int, int], roots: dict[int, int]) -> int:
    """Follow ``supersedes`` from ``start`` to the entry that supersedes nothing.

    A cycle (impossible through Forest's API, possible in a hand-edited file)
    ends at the first entry met twice, so the walk always stops.
    """
    seen, here = {start}, targets[start]
    while here in targets and here not in seen:
        if here in roots:
            return roots[here]
        seen.add(here)
        here = targets[here]
    return here


def _copy_entries(
    src: sqlite3.Connection, dst: sqlite3.Connection, version: SourceVersion, roots: dict[int, int]
) -> _Tally:
    tally = _Tally()
    for row in src.execute(_SELECT_ENTRIES[version]):
        tally.entries += 1
        values = _target_values(tuple(row), version, tally, roots)
        # After the first bad entry nothing is inserted, but every entry is
        # still verified so that the refusal names all of them.
        if values is not None and not tally.refused():
            _insert(dst, _INSERT_ENTRY, values, f"entry {row[0]}")
    return tally


def _target_values(
    row: tuple[Any, ...], version: SourceVersion, tally: _Tally, roots: dict[int, int]
) -> tuple[Any, ...] | None:
    """The target row for one source entry, or None (recorded in ``tally``) if it is bad."""
    old_id, created_at, jurisdiction, bucket, source, signature, body, body_hash, meta_json = row
    if not _hash_matches(body, body_hash):
        tally.tampered.append(old_id)
        return None
    meta = _meta_object(meta_json)
    if meta is None:
        tally.bad_meta.append(old_id)
        return None
    if version == "0.3" and bucket in _BUCKETS_03:
        (tally.canon if bucket == "canon" else tally.pairs_03).append(old_id)
        bucket = _BUCKETS_03[bucket]
    if bucket not in _TARGET_BUCKETS:
        tally.bad_bucket.append(old_id)
        return None
    nonce = f"migrated:{old_id}"
    cid = entry_content_id(
        scope=MIGRATION_SCOPE,
        created_at=created_at,
        jurisdiction=jurisdiction,
        bucket=bucket,
        source=source,
        signature=signature,
        body_hash=body_hash,
        meta=meta,
        nonce=nonce,
        origins=[],
    )
    return (
        *(old_id, created_at, jurisdiction, bucket, source, signature, body, body_hash),
        *(meta_json, cid, MIGRATION_SCOPE, nonce, roots.get(old_id)),
    )


def _hash_matches(body: object, body_hash: object) -> bool:
    if not isinstance(body, str) or not isinstance(body_hash, str):
        return False
    try:
        return hash_body(body) == body_hash
    except ForestError:
        return False


def _meta_object(meta_json: object) -> dict[str, Any] | None:
    """The parsed meta when it is a JSON object that hashes canonically, else None."""
    try:
        meta = json.loads(str(meta_json))
        if not isinstance(meta, dict):
            return None
        json.dumps(meta, allow_nan=False)
    except ValueError:
        return None
    return meta


def _refuse_bad_entries(tally: _Tally) -> None:
    if tally.tampered:
        raise ForestError(
            f"body_hash does not match body for entries {_ids(tally.tampered)}; "
            "the source looks tampered, so nothing was migrated"
        )
    if tally.bad_meta:
        raise ForestError(
            f"meta_json is not a JSON object for entries {_ids(tally.bad_meta)}; "
            "nothing was migrated"
        )
    if tally.bad_bucket:
        raise ForestError(
            f"entries {_ids(tally.bad_bucket)} use a bucket that neither Forest nor "
            "forest-files knows; nothing was migrated"
        )


def _copy_edges(src: sqlite3.Connection, dst: sqlite3.Connection) -> int:
    copied = 0
    for row in src.execute(_SELECT_EDGES):
        edge_id, from_id, to_id, kind = row[:4]
        _insert(dst, _INSERT_EDGE, tuple(row), f"edge {edge_id} ({kind} {from_id}->{to_id})")
        copied += 1
    return copied


def _copy_log(src: sqlite3.Connection, dst: sqlite3.Connection) -> int:
    copied = 0
    for row in src.execute(_SELECT_LOG):
        _insert(dst, _INSERT_LOG, tuple(row), f"retrieval_log row {row[0]}")
        copied += 1
    return copied


def _insert(dst: sqlite3.Connection, sql: str, values: tuple[object, ...], what: str) -> None:
    try:
        dst.execute(sql, values)
    except sqlite3.IntegrityError as exc:
        raise ForestError(
            f"{what} is refused by the forest-files schema ({exc}); the source is "
            "inconsistent, so nothing was migrated"
        ) from exc


def _refuse_dangling(dst: sqlite3.Connection) -> None:
    bad = dst.execute("PRAGMA foreign_key_check").fetchall()
    if bad:
        shown = ", ".join(f"{r[0]} row {r[1]} -> {r[2]}" for r in bad[:10])
        raise ForestError(f"the source has dangling references ({shown}); nothing was migrated")


# -- what the report says -----------------------------------------------------
def _translation_notes(version: SourceVersion, tally: _Tally) -> list[str]:
    notes = [
        f"content ids computed in scope {MIGRATION_SCOPE!r} with nonce 'migrated:<old id>'; "
        "ids, timestamps, bodies, hashes, signatures and meta are verbatim"
    ]
    if version == "0.3":
        notes.append("0.3 column forest became jurisdiction; source is NULL for every entry")
    if tally.canon:
        notes.append(
            f"canon entries {_ids(tally.canon)} became bucket 'note': canon was 0.3's minted "
            "ground, and their ground status is kept by their adoption edges, not the bucket"
        )
    if tally.pairs_03:
        notes.append(
            f"session_pair entries {_ids(tally.pairs_03)} became bucket 'pair' with their meta "
            "kept; they lack scroll evidence (0.3 pairs had no scroll pointer)"
        )
    return notes


def _compare_views(src: sqlite3.Connection, dst: sqlite3.Connection) -> list[str]:
    """Ground and sealed sets must survive; the only allowed drift is a contested fork."""
    if _id_set(src, "sealed_entries") != _id_set(dst, "sealed_entries"):
        raise ForestError("sealed entries differ after migration; nothing was migrated")
    lost = _id_set(src, "current_ground") - _id_set(dst, "current_ground")
    gained = _id_set(dst, "current_ground") - _id_set(src, "current_ground")
    unexplained = lost - _id_set(dst, "contested_entries")
    if gained or unexplained:
        raise ForestError(
            f"current ground differs after migration (lost {_ids(lost)}, gained {_ids(gained)}); "
            "nothing was migrated"
        )
    if not lost:
        return []
    return [
        f"entries {_ids(lost)} were ground in the source but are contested here: two live "
        "heads share one supersession chain; supersede or seal one of them to settle it"
    ]


def _id_set(conn: sqlite3.Connection, view: str) -> set[int]:
    return {int(r[0]) for r in conn.execute(f"SELECT id FROM {view}")}


def _ids(ids: Iterable[int], limit: int = 20) -> str:
    ordered = sorted(ids)
    if len(ordered) <= limit:
        return str(ordered)
    return f"{ordered[:limit]} and {len(ordered) - limit} more"


# -- the target file ----------------------------------------------------------
_SIDE_FILES = ("-wal", "-shm", "-journal")


def _refuse_existing_target(new: Path) -> None:
    for path in (new, *(Path(f"{new}{s}") for s in _SIDE_FILES)):
        if path.exists() or path.is_symlink():
            raise ForestError(
                f"refusing to overwrite existing file: {path}; choose a new target path"
            )


def _temp_beside(new: Path) -> Path:
    try:
        fd, name = tempfile.mkstemp(prefix=f".{new.name}.", suffix=".migrating", dir=new.parent)
    except FileNotFoundError:
        raise ForestError(f"target directory does not exist: {new.parent}") from None
    os.close(fd)
    return Path(name)


def _publish(tmp: Path, new: Path) -> None:
    """Give the finished file its name without ever replacing one that appeared meanwhile."""
    try:
        os.link(tmp, new)
    except FileExistsError:
        raise ForestError(f"refusing to overwrite existing file: {new}") from None
    except OSError:
        # No hard links on this filesystem: a checked rename (racy only here).
        if new.exists():
            raise ForestError(f"refusing to overwrite existing file: {new}") from None
        os.replace(tmp, new)
    else:
        tmp.unlink()
    fsync_dir(new.parent)


def _discard(tmp: Path) -> None:
    for path in _with_side_files(tmp):
        path.unlink(missing_ok=True)


def _with_side_files(path: Path) -> Iterator[Path]:
    yield path
    for suffix in _SIDE_FILES:
        yield Path(f"{path}{suffix}")
