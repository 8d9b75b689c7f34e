"""A git repository under forest-files custody: forest.toml, the ledger, the index.

Stores: ``forest.toml``, ``.forest/ledger/`` (segments and bodies, committed),
``.forest/.gitignore``, a ``.gitattributes`` line, and ``.git/forest/woods.db``
(the local index, a cache of the working tree's ledger).
Refuses: paths outside a git working tree; ``init`` where forest.toml exists;
any command before ``forest init`` (ConfigError naming it); acts by a
signature without authority over a given or derived path (an act tied to no
path: over ``**``); everything the store's gates and replay refuse.
Returns: content ids of what it records; ground, contested and log listings
by content id (never local row ids).
Test: tests/custody/test_repository.py

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

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any

from forest_files.custody import auditlog as audit
from forest_files.custody import pulled, tombstone
from forest_files.custody.applied import chain_deps
from forest_files.custody.apply import Applied, Applier
from forest_files.custody.config import (
    CONFIG_NAME,
    ConfigError,
    ForestConfig,
    load_config,
    may_act,
    new_config,
    render_config,
)
from forest_files.custody.plan import plan_adoptions, plan_resolve, plan_seal, plan_supersede
from forest_files.custody.relocate import relocate_once
from forest_files.custody.replay import applied_ids, deps_for, replay
from forest_files.custody.sync import mark_segments, sync_index
from forest_files.custody.tombscan import TombstoneHit
from forest_files.custody.views import GroundEntry, list_view
from forest_files.gitio import NotARepo, toplevel
from forest_files.kernel.errors import AuthorityRefused, ForestError, StoreCorruption
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.paths import (
    FOREST_DIR,
    GITATTRIBUTES_LINE,
    GITIGNORE_LINES,
    INDEX_NAME,
    LEDGER_DIR,
)
from forest_files.kernel.state import worktree_dir
from forest_files.ledger.acts import Act, build_act
from forest_files.ledger.early_bodies import EarlyBodies
from forest_files.ledger.kinds import (
    AdoptAct,
    BindSpec,
    EraseAct,
    Payload,
    RebindAct,
    ResolveAct,
    RetireAct,
    SealAct,
    SupersedeAct,
)
from forest_files.ledger.segments import (
    LedgerSnapshot,
    gc_paused,
    read_body,
    read_ledger,
    write_segment,
)
from forest_files.scrub import default_scrub
from forest_files.store.anchor import anchor_body
from forest_files.store.forest import ForestStore

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
    selector: str = ""  # the bound section the act is about (actlog.py), if any
    words: str = ""  # the words it recorded, if any


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
        relocate_once(self.root)
        self.index_path = worktree_dir(self.root) / INDEX_NAME
        self._store: ForestStore | None = None
        self._snapshot: LedgerSnapshot | None = None
        self._erase_deps: frozenset[str] | None = None

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
    def store(self) -> ForestStore:
        if self._store is None:
            store = ForestStore(self.index_path)
            store.init_schema()
            foreign = store.conn.execute(
                "SELECT COUNT(*) FROM entries WHERE bucket = 'anchor' AND body != ?",
                (anchor_body(self.config.project_id),),
            ).fetchone()[0]
            if foreign:  # forest.toml names another project now: start over
                store.close()
                self._delete_index()
                return self.store()
            store.ensure_anchor(self.config.project_id)
            self._store = store
        return self._store

    def _index_dropped(self, exc: StoreCorruption) -> ForestStore:
        """Drop an index too damaged to open (and its journal files), say so, open anew."""
        import sys

        self._delete_index()
        why = str(exc).splitlines()[0][:160]
        sys.stderr.write(
            f"forest: the index could not be read ({why}); dropped it, rebuilding from the ledger\n"
        )
        return self.store()

    def _delete_index(self) -> None:
        self.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.index_path}{suffix}").unlink(missing_ok=True)

    def _read_body(self, body_hash: str) -> str | None:
        return read_body(self.ledger_dir, body_hash)

    def sync(self) -> SyncReport:
        """Bring the index in step with the working tree's ledger. An erase it brings
        (a pulled forget) purges every local copy of the body, and says so."""
        before = pulled.erasures(self.store())
        count = sync_index(self.store(), self.ledger_dir, self._read_body)
        if count is None:
            return self.rebuild()
        if count:
            pulled.owe_purges(self.root, self.store(), self.config.project_id, before)
        self._finish_erasures()
        if count:
            rows = (
                self.store()
                .conn.execute(
                    "SELECT act_id FROM ledger_applied ORDER BY rowid DESC LIMIT ?",
                    (min(count, audit.MAX_TARGETS),),
                )
                .fetchall()
            )
            event = audit.Event("sync", "ok", "applied", targets=tuple(str(r[0]) for r in rows))
            audit.append_events(self.root, [replace(event, counts={"acts": count})])
        return SyncReport(applied=count, rebuilt=False)

    def _finish_erasures(self) -> None:
        """Delete the body file of every erasure the index holds (a forget killed
        after its commit left one; a pulled erase names one a branch still had), and
        finish any purge of local copies a forget still owes (custody/purge.py)."""
        from forest_files.custody.purge import delete_erased_bodies, resume_pending

        store = self.store()
        delete_erased_bodies(store, self.ledger_dir)
        done = resume_pending(self.root, store, self.config.project_id, self.ledger_dir)
        for act_id, purged in done:
            counts = {"bodies": purged.bodies, "views": purged.views}
            counts["cache_files"], counts["proposals"] = purged.cache_files, len(purged.proposals)
            event = audit.Event("purge", "ok", "resumed", targets=(act_id, *purged.proposals))
            audit.append_events(self.root, [replace(event, counts=counts)])
        pulled.say(done)

    def rebuild(self) -> SyncReport:
        """Replay the whole ledger into an emptied index, in one transaction.

        The index file is reset in place (never deleted), so another process that
        has it open sees the old custody or the new one, never a missing file. An
        index too damaged to open is dropped (it is derived, and may hold a body a
        forget must not leave behind) and built anew: rebuild repairs the index,
        never refuses it.
        """
        try:
            store = self.store()
        except StoreCorruption as exc:
            store = self._index_dropped(exc)
        before = pulled.erasures(store)
        # No cyclic collection while the whole ledger is decoded, ordered and replayed:
        # each pass would walk every live act again (see ``gc_paused``).
        with gc_paused(), store.rebuilding():
            store.ensure_anchor(self.config.project_id)
            snapshot = read_ledger(self.ledger_dir)
            self._snapshot = snapshot
            count = replay(store, snapshot.ordered(), self._read_body)
            mark_segments(store, self.ledger_dir, snapshot.segments)
        pulled.owe_purges(self.root, store, self.config.project_id, before)
        self._finish_erasures()
        event = audit.Event("rebuild", "ok", "replayed", counts={"acts": count})
        audit.append_events(self.root, [event])
        return SyncReport(applied=count, rebuilt=True)

    def synced(self) -> ForestStore:
        self.sync()
        return self.store()

    # -- recording -----------------------------------------------------------
    def authorize(self, path: str | None, by: str) -> None:
        if path is not None and not may_act(self.config, path, by):
            refused = AuthorityRefused(
                f"{by!r} holds no authority over {path} ([authority] in forest.toml); "
                "ask a listed holder to record this"
            )
            self._audit_refusal(refused, by, (path,))
            raise refused

    def authorize_pathless(self, act: Act) -> None:
        """An act tied to no path is judged as a path only the glob ``**`` matches: a
        holder of ``**`` where [authority] lists one; anyone where it does not."""
        by = act.payload.signer
        if not may_act(self.config, None, by):
            refused = AuthorityRefused(
                f"{by!r} holds no authority over acts tied to no path ('**' in [authority] "
                f"of forest.toml); ask a holder of '**' to record this {act.kind}"
            )
            self._audit_refusal(refused, by, (act.id,))
            raise refused

    def act(self, payload: Payload, deps: set[str]) -> Act:
        """The act of a planned payload, in this project's scope. Every act depends
        on every erase act with a tombstone (each carries text: words, a signature,
        a path), so replay judges it against them exactly as this command does (the
        applier refuses erased lines and tokens only at the deps)."""
        if self._erase_deps is None:  # once per recording: a bulk adoption asks 10,000 times
            self._erase_deps = frozenset(tombstone.erase_acts(self.store()))
        deps = deps | self._erase_deps
        return build_act(payload, deps, scope=self.config.project_id)

    def record(
        self,
        build: Callable[[ForestStore], Recorded],
        *,
        bodies_first: Mapping[str, str] | None = None,
        also_judge: str | None = None,
        on_refusal: Callable[[BaseException], None] | None = None,
    ) -> list[Applied]:
        """Apply the acts ``build`` plans through the one applier, judge authority over
        every path they touched, and write them as one segment, in one transaction.

        ``bodies_first``: bodies known before ``build`` runs (a bulk adoption's
        texts), written on a thread meanwhile; removed again if the act fails.
        ``also_judge``: a path the caller names for authority besides the derived ones.
        ``on_refusal``: audits a refusal instead of the generic record (forget: its
        targets, ids and hashes).
        """
        store = self.synced()
        self._erase_deps = None  # read again under this recording's write lock
        written: Path | None = None
        early: EarlyBodies | None = None
        planned: list[Act] = []
        try:
            with store.atomic():
                # Started under the write lock: another recorder cannot be placing
                # (or discarding) the same body files meanwhile.
                if bodies_first:
                    early = EarlyBodies(self.ledger_dir, bodies_first)
                acts, bodies = build(store)
                planned = acts
                self._within_policy(bodies)

                def read(body_hash: str) -> str | None:
                    text = bodies.get(body_hash)
                    return text if text is not None else self._read_body(body_hash)

                results = Applier(store, read, live=True).apply_many(acts)
                for result in results:
                    paths = set(result.paths) | ({also_judge} if also_judge else set())
                    for path in sorted(paths):
                        self.authorize(path, result.act.payload.signer)
                    if not paths:  # tied to no path: judged as one only '**' matches
                        self.authorize_pathless(result.act)
                done = early.finish() if early is not None else frozenset()
                rest = {h: text for h, text in bodies.items() if h not in done}
                segment = write_segment(self.ledger_dir, acts, rest)
                written = segment.path
                mark_segments(store, self.ledger_dir, [segment.name])
        except BaseException as exc:
            if written is not None:  # not committed to git yet: nobody can hold it
                written.unlink(missing_ok=True)
            if early is not None:
                early.discard()
            if isinstance(exc, ForestError) and not isinstance(exc, AuthorityRefused):
                if on_refusal is not None:  # the caller audits it, with its targets
                    on_refusal(exc)
                else:
                    targets = exc.targets if isinstance(exc, TombstoneHit) else ()
                    signer = planned[0].payload.signer if planned else "local"
                    self._audit_refusal(exc, signer, targets)
            raise
        audit.append_events(self.root, [_ceremony(r) for r in results])
        return results

    def _audit_refusal(self, exc: BaseException, by: str, targets: tuple[str, ...]) -> None:
        """A refusal, in the local audit log: its type's code, never its message."""
        event = audit.Event("refusal", "refused", audit.reason_of(exc), by, targets)
        audit.append_events(self.root, [event])
        audit.mark_recorded(exc)  # the CLI's error boundary then records nothing more

    def _within_policy(self, bodies: Mapping[str, str]) -> None:
        limit = self.config.max_body_bytes
        for text in bodies.values():
            size = len(text.encode("utf-8"))
            if size > limit:
                raise ForestError(
                    f"a body of {size} bytes is over [policy] max_body_bytes = {limit} "
                    "in forest.toml; bind a smaller section or raise the limit"
                )

    def adopt_text(self, body: str, *, words: str, by: str, path: str | None = None) -> str:
        """Import ``body`` (origin: the anchor) and root it; returns its content id."""
        return self.adopt_many([body], words=words, by=by, path=path)[0]

    def adopt_many(
        self, bodies: Sequence[str], *, words: str, by: str, path: str | None = None
    ) -> list[str]:
        """Import and root every body in one transaction and one segment (one adopt
        act each); returns their content ids in order. Nothing is recorded if any is
        refused. Bodies go through the default scrub, as ``ForestStore.write`` does.
        ``path``, when given, is judged for authority too (the entries bind nothing)."""
        self.authorize(path, by)
        if not bodies:
            return []
        for body in bodies:
            if not isinstance(body, str):
                raise ForestError(f"body must be a string; got {type(body).__name__}")
        scrubbed = [default_scrub(body) for body in bodies]

        def build(store: ForestStore) -> Recorded:
            items: list[tuple[str, Mapping[str, Any], BindSpec | None]] = [
                (body, {}, None) for body in scrubbed
            ]
            return self.adoptions(store, items, words=words, by=by)

        results = self.record(build, also_judge=path)
        return [r.produced[0] for r in results]

    def adoptions(
        self,
        store: ForestStore,
        items: Sequence[tuple[str, Mapping[str, Any], BindSpec | None]],
        *,
        words: str,
        by: str,
    ) -> Recorded:
        """The adopt acts of ``items`` (origin: the repository anchor) and their bodies."""
        anchor = store.ensure_anchor(self.config.project_id)
        deps = deps_for(store, refs=[anchor])
        planned = plan_adoptions(store, anchor, items, words=words, by=by)
        acts = [self.act(p, deps) for p in planned]
        bodies = {p.entry.body_hash: body for p, (body, _, _) in zip(planned, items, strict=True)}
        if planned:
            bodies[planned[0].record.body_hash] = words.strip()
        return acts, bodies

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
        self.authorize(path, by)
        body = default_scrub(new_body) if isinstance(new_body, str) else new_body
        if not isinstance(body, str):
            raise ForestError(f"supersede: new_body must be a string; got {type(new_body)}")
        if hash_body(body) != expected_body_hash:
            raise ForestError(
                f"supersede: body_hash mismatch for the new body (expected {expected_body_hash}, "
                f"stored {hash_body(body)}); re-read what was shown and supersede exactly that "
                "(note: scrub runs first)"
            )

        def build(store: ForestStore) -> Recorded:
            old = _local(store, content_id)
            planned = plan_supersede(store, old, body, words=words, by=by)
            act = self.act(planned, chain_deps(store, old))
            return [act], {planned.entry.body_hash: body, planned.record.body_hash: words.strip()}

        return self.record(build, also_judge=path)[0].produced[0]

    def seal(self, content_id: str, *, words: str, by: str, path: str | None = None) -> str:
        """Seal an entry; returns the sealing record's content id."""
        return self._seal_like(True, content_id, words=words, by=by, path=path)

    def unseal(self, content_id: str, *, words: str, by: str, path: str | None = None) -> str:
        """Unseal an entry; returns the unsealing record's content id."""
        return self._seal_like(False, content_id, words=words, by=by, path=path)

    def _seal_like(
        self, sealing: bool, content_id: str, *, words: str, by: str, path: str | None
    ) -> str:
        self.authorize(path, by)

        def build(store: ForestStore) -> Recorded:
            target = _local(store, content_id)
            planned = plan_seal(store, target, words=words, by=by, sealing=sealing)
            act = self.act(planned, chain_deps(store, target))
            return [act], {planned.record.body_hash: words}

        return self.record(build, also_judge=path)[0].produced[0]

    def resolve(
        self, content_id: str, *, pick: str, words: str, by: str, path: str | None = None
    ) -> str:
        """End a contest: every live head of ``content_id``'s chain is superseded by a new
        entry carrying ``pick``'s text. Returns the new ground's content id. The signer
        must hold every path bound to the chain."""
        self.authorize(path, by)

        def build(store: ForestStore) -> Recorded:
            contested = _local(store, content_id)
            picked = _local(store, pick)
            if not store.is_contested(contested):
                raise ForestError(
                    f"{content_id} is not contested; `forest log` lists contested ground"
                )
            heads = store.contest_heads(contested)
            if picked not in heads:
                raise ForestError(
                    f"{pick} is not a live head of the contest; pick one of "
                    + ", ".join(store.content_id(h) for h in heads)
                )
            planned = plan_resolve(store, heads, picked, words=words, by=by)
            act = self.act(planned, deps_for(store, refs=heads, status_of=heads))
            body = str(store.require(picked, "resolve")["body"])
            return [act], {planned.entry.body_hash: body, planned.record.body_hash: words.strip()}

        return self.record(build, also_judge=path)[0].produced[0]

    # -- reading -----------------------------------------------------------
    def ground(self) -> list[GroundEntry]:
        """Current ground (not the anchor), by content id."""
        return self._listing("current_ground")

    def contested(self) -> list[GroundEntry]:
        """Live heads that share a supersession chain (merged sibling supersessions)."""
        return self._listing("contested_entries")

    def _listing(self, view: str) -> list[GroundEntry]:
        return list_view(self.synced(), view)

    def log(self) -> list[LogEntry]:
        """Custody acts in the order this index applied them (bodies never included)."""
        store = self.synced()
        snapshot = read_ledger(self.ledger_dir)
        from forest_files.custody.actlog import described

        acts = [a for a in map(snapshot.acts.get, applied_ids(store)) if a is not None]
        said = described(store, acts)
        out: list[LogEntry] = []
        for act in acts:
            selector, words = said.get(act.id, ("", ""))
            out.append(replace(_log_entry(act), selector=selector, words=words))
        return out


def _append_line(path: Path, line: str) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if line in text.splitlines():
        return
    if text and not text.endswith("\n"):
        text += "\n"
    path.write_text(text + line + "\n", encoding="utf-8")


def _ceremony(result: Applied) -> audit.Event:
    """A recorded act, in the local audit log: ids and paths, never text."""
    act = result.act
    targets = (act.id, *result.produced, *sorted(result.paths))
    return audit.Event(act.kind, "ok", "recorded", act.payload.signer, targets, act_id=act.id)


def _local(store: ForestStore, content_id: str) -> int:
    """A content id or a unique short id (store.local_id)."""
    return store.local_id(content_id)


def _log_entry(act: Act) -> LogEntry:
    """What ``forest log`` shows of one act: ids, signer and time, never a body."""
    p = act.payload
    if isinstance(p, RebindAct):
        return LogEntry(act.id, act.kind, p.selector, p.binding, p.by, p.at)
    if isinstance(p, RetireAct):
        return LogEntry(act.id, act.kind, p.binding, p.binding, p.by, p.at)
    if isinstance(p, EraseAct):
        return LogEntry(act.id, act.kind, p.body_hash, act.id, p.by, p.at)
    if isinstance(p, SealAct):
        record = p.record
        return LogEntry(act.id, act.kind, p.target, record.content_id, p.signer, record.created_at)
    entry = p.entry
    if isinstance(p, AdoptAct):
        subject = p.binding.selector if p.binding is not None else entry.content_id
    elif isinstance(p, SupersedeAct):
        subject = p.old
    elif isinstance(p, ResolveAct):
        subject = p.pick
    else:
        subject = entry.content_id
    return LogEntry(act.id, act.kind, subject, entry.content_id, p.signer, entry.created_at)
