"""A git repository under forest-files custody: forest.toml, the ledger, the index.

Stores: ``forest.toml``, ``.forest/ledger/`` (segments and bodies, committed),
``.forest/.gitignore``, a ``.gitattributes`` line, and ``.forest/woods.db``
(the local index, a cache of the working tree's ledger).
Refuses: paths outside a git working tree; ``init`` where forest.toml exists;
any command before ``forest init`` (ConfigError naming it); acts by a
signature without authority over a given path; everything the store's gates
and replay refuse.
Returns: content ids of what it records; ground, contested and log listings
by content id (never local row ids).
Test: tests/test_repository.py

Every public method syncs first (``ledger.sync``): if every segment the index
applied is still on disk, only the new segments are read and their acts
replayed; otherwise (branch switch, reset) the index is deleted and rebuilt
from the ledger. Each command that records writes one segment and applies its
acts in one transaction (``adopt_many``: any number of adoptions at once).

Recording writes the new segment while holding the index's write lock, then
commits the transaction; if anything fails before the commit the segment is
deleted again (it cannot be in git yet). Crash window: a process killed
between the segment's rename and the commit leaves a segment whose acts the
index lacks; the next sync replays them, so nothing is lost or doubled.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from forest_files.config import (
    CONFIG_NAME,
    ConfigError,
    ForestConfig,
    load_config,
    may_act,
    new_config,
    render_config,
)
from forest_files.errors import ForestError
from forest_files.gitio import NotARepo, toplevel
from forest_files.ledger.acts import Act, make_act
from forest_files.ledger.early_bodies import EarlyBodies
from forest_files.ledger.record import adopted_bodies, adoption_acts, describe
from forest_files.ledger.replay import (
    applied_ids,
    deps_for,
    mark_applied,
    mark_applied_many,
    replay,
)
from forest_files.ledger.segments import LedgerSnapshot, read_body, read_ledger, write_segment
from forest_files.ledger.sync import mark_segments, sync_index
from forest_files.ledger.views import GroundEntry, list_view
from forest_files.scrub import default_scrub
from forest_files.store.anchor import anchor_body
from forest_files.store.base import utc_now
from forest_files.store.bulk import Adopted
from forest_files.store.forest import ForestStore

FOREST_DIR = ".forest"
LEDGER_DIR = ".forest/ledger"
INDEX_NAME = "woods.db"
GITIGNORE_LINES = ("woods.db*", "cache/")
GITATTRIBUTES_LINE = ".forest/ledger/** -text"

Recorded = tuple[list[Act], dict[str, str]]


@dataclass(frozen=True)
class LogEntry:
    """One custody act: ``subject`` is the entry it is about, ``result`` what it made."""

    act_id: str
    kind: str
    subject: str
    result: str
    by: str
    created_at: str


@dataclass(frozen=True)
class SyncReport:
    applied: int
    rebuilt: bool


def find_root(path: Path | str) -> Path:
    try:
        return toplevel(path)
    except NotARepo:
        raise ForestError(
            f"{Path(path).absolute()}: not inside a git working tree; "
            "run forest inside a git repository (or `git init` first)"
        ) from None


class Repository:
    """Open with ``Repository(path)`` (any path inside the working tree)."""

    def __init__(self, path: Path | str = ".") -> None:
        self.root = find_root(path)
        self.config: ForestConfig = load_config(self.root / CONFIG_NAME)
        self.ledger_dir = self.root / LEDGER_DIR
        self.index_path = self.root / FOREST_DIR / INDEX_NAME
        self._store: ForestStore | None = None
        self._snapshot: LedgerSnapshot | None = None

    # -- setup -------------------------------------------------------------
    @classmethod
    def init(cls, path: Path | str = ".", *, project_id: str | None = None) -> Repository:
        """Create forest.toml, the ledger directory, ignore/attribute lines and the index."""
        root = find_root(path)
        config_path = root / CONFIG_NAME
        if config_path.exists():
            raise ConfigError(
                f"{config_path} exists: this repository is already initialised; "
                "use `forest sync` (or `forest rebuild`)"
            )
        cfg = new_config(project_id or uuid.uuid4().hex)
        (root / LEDGER_DIR).mkdir(parents=True, exist_ok=True)
        (root / FOREST_DIR / ".gitignore").write_text(
            "".join(f"{line}\n" for line in GITIGNORE_LINES), encoding="utf-8"
        )
        _append_line(root / ".gitattributes", GITATTRIBUTES_LINE)
        config_path.write_text(render_config(cfg), encoding="utf-8")
        repo = cls(root)
        repo.sync()
        return repo

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> Repository:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- the index -----------------------------------------------------------
    def _open(self) -> ForestStore:
        if self._store is None:
            self.index_path.parent.mkdir(parents=True, exist_ok=True)
            store = ForestStore(self.index_path)
            store.init_schema()
            foreign = store.conn.execute(
                "SELECT COUNT(*) FROM entries WHERE bucket = 'anchor' AND body != ?",
                (anchor_body(self.config.project_id),),
            ).fetchone()[0]
            if foreign:  # forest.toml names another project now: start over
                store.close()
                self._delete_index()
                return self._open()
            store.ensure_anchor(self.config.project_id)
            self._store = store
        return self._store

    def _delete_index(self) -> None:
        self.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.index_path}{suffix}").unlink(missing_ok=True)

    def _read_body(self, body_hash: str) -> str | None:
        return read_body(self.ledger_dir, body_hash)

    def sync(self) -> SyncReport:
        """Bring the index in step with the working tree's ledger."""
        count = sync_index(self._open(), self.ledger_dir, self._read_body)
        if count is None:
            return self.rebuild()
        return SyncReport(applied=count, rebuilt=False)

    def rebuild(self) -> SyncReport:
        """Replay the whole ledger into an emptied index, in one transaction.

        The index file is reset in place (never deleted), so another process that
        has it open sees the old custody or the new one, never a missing file.
        """
        store = self._open()
        with store.atomic():
            store._reset_in_transaction()
            store.ensure_anchor(self.config.project_id)
            snapshot = read_ledger(self.ledger_dir)
            self._snapshot = snapshot
            count = replay(store, snapshot.ordered(), self._read_body)
            mark_segments(store, self.ledger_dir, snapshot.segments)
        return SyncReport(applied=count, rebuilt=True)

    def _synced(self) -> ForestStore:
        self.sync()
        return self._open()

    # -- recording -----------------------------------------------------------
    def _authorize(self, path: str | None, by: str) -> None:
        if path is not None and not may_act(self.config, path, by):
            raise ForestError(
                f"{by!r} holds no authority over {path} ([authority] in forest.toml); "
                "ask a listed holder to record this"
            )

    def _record(
        self,
        build: Callable[[ForestStore], Recorded],
        *,
        bodies_first: Mapping[str, str] | None = None,
    ) -> list[Act]:
        """Apply ``build`` live and write its acts as one segment, in one transaction.

        ``bodies_first``: bodies known before ``build`` runs (a bulk adoption's
        texts), written on a thread meanwhile; removed again if the act fails.
        """
        store = self._synced()
        written: Path | None = None
        early: EarlyBodies | None = None
        try:
            with store.atomic():
                # Started under the write lock: another recorder cannot be placing
                # (or discarding) the same body files meanwhile.
                if bodies_first:
                    early = EarlyBodies(self.ledger_dir, bodies_first)
                acts, bodies = build(store)
                done = early.finish() if early is not None else frozenset()
                rest = {h: text for h, text in bodies.items() if h not in done}
                segment = write_segment(self.ledger_dir, acts, rest)
                written = segment.path
                mark_segments(store, self.ledger_dir, [segment.name])
        except BaseException:
            if written is not None:  # not committed to git yet: nobody can hold it
                written.unlink(missing_ok=True)
            if early is not None:
                early.discard()
            raise
        return acts

    def adopt_text(self, body: str, *, words: str, by: str, path: str | None = None) -> str:
        """Import ``body`` (origin: the anchor) and root it; returns its content id."""
        return self.adopt_many([body], words=words, by=by, path=path)[0]

    def adopt_many(
        self, bodies: Sequence[str], *, words: str, by: str, path: str | None = None
    ) -> list[str]:
        """Import and root every body in one transaction and one segment (2 acts each);
        returns their content ids in order. Nothing is recorded if any is refused.
        Bodies go through the default scrub, as ``ForestStore.write`` does."""
        self._authorize(path, by)
        if not bodies:
            return []
        for body in bodies:
            if not isinstance(body, str):
                raise ForestError(f"body must be a string; got {type(body).__name__}")
        scrubbed = [default_scrub(body) for body in bodies]

        def build(store: ForestStore) -> Recorded:
            items: list[tuple[str, Mapping[str, Any]]] = [(body, {}) for body in scrubbed]
            adopted, made = import_batch(store, self, items, words=words, by=by, path=path)
            mark_applied_many(store, made)
            return [act for act, _ in made], adopted_bodies(adopted)

        acts = self._record(build)
        return [str(a.fields["entry"]["content_id"]) for a in acts if a.kind == "write"]

    def supersede(
        self,
        content_id: str,
        new_body: str,
        *,
        words: str,
        by: str,
        expected_body_hash: str,
        path: str | None = None,
    ) -> str:
        """Replace ground ``content_id`` with ``new_body``; returns the new content id."""
        self._authorize(path, by)

        def build(store: ForestStore) -> Recorded:
            old = _local(store, content_id)
            deps = deps_for(store, refs=[old], status_of=[old])
            new_id = store.supersede(
                old_id=old,
                new_body=new_body,
                adopting_words=words,
                adopting_signature=by,
                signature=by,
                expected_body_hash=expected_body_hash,
                stamp=(utc_now(), secrets.token_hex(8)),
            )
            record_id = _latest_record(store, new_id, "adopts")
            fields = {"old": old, "entry": new_id, "record": record_id}
            act = _act(store, "supersede", deps, fields, _path_field(path))
            return [act], _bodies(store, [new_id, record_id])

        acts = self._record(build)
        return str(acts[0].fields["entry"]["content_id"])

    def seal(self, content_id: str, *, words: str, by: str, path: str | None = None) -> str:
        """Seal an entry; returns the sealing record's content id."""
        return self._seal_like("seal", content_id, words=words, by=by, path=path)

    def unseal(self, content_id: str, *, words: str, by: str, path: str | None = None) -> str:
        """Unseal an entry; returns the unsealing record's content id."""
        return self._seal_like("unseal", content_id, words=words, by=by, path=path)

    def _seal_like(
        self, kind: str, content_id: str, *, words: str, by: str, path: str | None
    ) -> str:
        self._authorize(path, by)

        def build(store: ForestStore) -> Recorded:
            target = _local(store, content_id)
            deps = deps_for(store, refs=[target], status_of=[target])
            ceremony = store.seal if kind == "seal" else store.unseal
            record_id = ceremony(entry_id=target, quote=words, signature=by)
            refs = {"target": target, "record": record_id}
            act = _act(store, kind, deps, refs, _path_field(path))
            return [act], _bodies(store, [record_id])

        acts = self._record(build)
        return str(acts[0].fields["record"]["content_id"])

    def resolve(
        self, content_id: str, *, pick: str, words: str, by: str, path: str | None = None
    ) -> str:
        """End a contest: every live head of ``content_id``'s chain is superseded by a new
        entry carrying ``pick``'s text. Returns the new ground's content id."""
        self._authorize(path, by)

        def build(store: ForestStore) -> Recorded:
            contested = _local(store, content_id)
            picked = _local(store, pick)
            if not store.is_contested(contested):
                raise ForestError(
                    f"{content_id} is not contested; `forest log` lists contested ground"
                )
            heads = store.contest_heads(contested)
            deps = deps_for(store, refs=heads, status_of=heads)
            new_id = store.resolve(
                contested_id=contested,
                pick_id=picked,
                adopting_words=words,
                adopting_signature=by,
                stamp=(utc_now(), secrets.token_hex(8)),
            )
            record_id = _latest_record(store, new_id, "adopts")
            fields: dict[str, Any] = {
                "heads": sorted(store.content_id(h) for h in heads),
                "pick": store.content_id(picked),
            }
            refs = {"entry": new_id, "record": record_id}
            act = _act(store, "resolve", deps, refs, {**fields, **(_path_field(path) or {})})
            return [act], _bodies(store, [new_id, record_id])

        acts = self._record(build)
        return str(acts[0].fields["entry"]["content_id"])

    # -- reading -----------------------------------------------------------
    def ground(self) -> list[GroundEntry]:
        """Current ground (not the anchor), by content id."""
        return self._listing("current_ground")

    def contested(self) -> list[GroundEntry]:
        """Live heads that share a supersession chain (merged sibling supersessions)."""
        return self._listing("contested_entries")

    def _listing(self, view: str) -> list[GroundEntry]:
        return list_view(self._synced(), view)

    def log(self) -> list[LogEntry]:
        """Custody acts in the order this index applied them (bodies never included)."""
        store = self._synced()
        snapshot = read_ledger(self.ledger_dir)
        out: list[LogEntry] = []
        for act_id in applied_ids(store):
            act = snapshot.acts.get(act_id)
            if act is not None:
                out.append(_log_entry(act))
        return out


def _append_line(path: Path, line: str) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if line in text.splitlines():
        return
    if text and not text.endswith("\n"):
        text += "\n"
    path.write_text(text + line + "\n", encoding="utf-8")


def _local(store: ForestStore, content_id: str) -> int:
    local = store.id_for_content(content_id)
    if local is None:
        raise ForestError(f"unknown entry {content_id}; list ground with `forest log`")
    return local


def _latest_record(store: ForestStore, entry_id: int, kind: str) -> int:
    row = store.conn.execute(
        "SELECT from_id FROM edges WHERE to_id = ? AND kind = ? ORDER BY id DESC LIMIT 1",
        (entry_id, kind),
    ).fetchone()
    if row is None:
        raise ForestError(f"entry {store.content_id(entry_id)} has no {kind} record")
    return int(row[0])


def _act(
    store: ForestStore,
    kind: str,
    deps: set[str],
    refs: dict[str, int],
    extra: dict[str, Any] | None = None,
) -> Act:
    """An act naming ``refs`` (key → entry); the entry made by the act is described in full,
    the one it acts on (``target``/``old``) by content id; ``extra`` fields are copied as
    they are. Marks it applied."""
    fields: dict[str, Any] = dict(extra or {})
    produced: list[str] = []
    for key, entry_id in refs.items():
        if key in ("target", "old"):
            fields[key] = store.content_id(entry_id)
        else:
            record = describe(store, entry_id)
            fields[key] = record.to_fields()
            produced.append(record.content_id)
    act = make_act(kind, deps, fields)
    mark_applied(store, act.id, produced, deps=act.deps)
    return act


def import_batch(
    store: ForestStore,
    repo: Repository,
    items: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    words: str,
    by: str,
    path: str | None = None,
) -> tuple[list[Adopted], list[tuple[Act, list[str]]]]:
    """Import (origin: the repository anchor) and root ``items`` in one store batch;
    the rows, and each entry's ``write`` and ``root`` acts with what they produced.
    The caller marks the acts applied (after adding its own, such as binds)."""
    anchor = store.ensure_anchor(repo.config.project_id)
    adopted = store.import_and_root(
        items, origin=anchor, signature=by, adopting_words=words, adopting_signature=by
    )
    write_deps = deps_for(store, refs=[anchor])
    made: list[tuple[Act, list[str]]] = []
    for new in adopted:
        made += adoption_acts(new, write_deps, _path_field(path))
    return adopted, made


def _path_field(path: str | None) -> dict[str, Any] | None:
    """The act's ``path`` (what ``verify --base`` judges authority over), when given."""
    return None if path is None else {"path": path}


def _bodies(store: ForestStore, entry_ids: list[int]) -> dict[str, str]:
    out: dict[str, str] = {}
    for entry_id in entry_ids:
        row = store._require(entry_id, "ledger")
        out[str(row["body_hash"])] = str(row["body"])
    return out


def _log_entry(act: Act) -> LogEntry:
    fields = act.fields
    if act.kind in ("bind", "rebind", "retire", "erase"):
        # File-custody acts name their section and sign at the top level.
        subject = fields.get("selector") or fields.get("binding") or fields.get("body_hash")
        return LogEntry(
            act_id=act.id,
            kind=act.kind,
            subject=str(subject or ""),
            result=str(fields.get("entry") or fields.get("binding") or act.id),
            by=str(fields.get("by", "")),
            created_at=str(fields.get("at", "")),
        )
    made = fields.get("entry") or fields.get("record") or {}
    made = made if isinstance(made, dict) else {}
    subject = fields.get("target") or fields.get("old") or made.get("content_id", "")
    record = fields.get("record")
    by = (record if isinstance(record, dict) else made).get("signature", "")
    return LogEntry(
        act_id=act.id,
        kind=act.kind,
        subject=str(subject),
        result=str(made.get("content_id", "")),
        by=str(by),
        created_at=str(made.get("created_at", "")),
    )
