"""A git repository under forest-files custody: forest.toml, the ledger, the index.

Stores: ``forest.toml``, ``.forest/ledger/`` (segments and bodies, committed),
``.forest/.gitignore``, a ``.gitattributes`` line, and ``.git/forest/woods.db``
(the local index, a cache of the working tree's ledger).
Refuses: paths outside a git working tree; ``init`` where forest.toml exists;
any command before ``forest init`` (ConfigError naming it); acts by a
signature without authority over a given or derived path (an act tied to no
path: over ``**``); an act the erase acts of branches that never saw each other push
past the bound of its deps (recording.py ``with_erasures``); everything the store's
gates and replay refuse.
Returns: content ids of what it records; ground, contested and log listings
by content id (never local row ids).
Test: tests/custody/test_repository.py

The façade: each job is a room of its own, and these methods are thin
delegates to it: setting up (repo_init.py), the index opened (index_open.py) and
kept in step (index_refresh.py), the one write path (recording.py), the acts on entries by
content id (entry_acts.py), the log (log_entries.py). Helpers see the
repository through ``repo_face.Custodian``.

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

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from forest_files.custody import (
    entry_acts,
    index_open,
    index_refresh,
    recording,
    repo_init,
    tombstone,
)
from forest_files.custody.apply import Applied
from forest_files.custody.config import CONFIG_NAME, ForestConfig, load_config
from forest_files.custody.index_refresh import SyncReport
from forest_files.custody.ledger_dirs import refuse_linked_ledger
from forest_files.custody.left_out import refuse_left_out
from forest_files.custody.log_entries import LogEntry, log_of
from forest_files.custody.relocate import relocate_once
from forest_files.custody.repo_face import Recorded
from forest_files.custody.views import GroundEntry, list_view
from forest_files.gitio import NotARepo, toplevel
from forest_files.kernel.errors import ForestError, StoreCorruption
from forest_files.kernel.paths import INDEX_NAME, LEDGER_DIR
from forest_files.kernel.state import git_dir_paths, worktree_dir
from forest_files.ledger.acts import Act, build_act
from forest_files.ledger.kinds import BindSpec, Payload
from forest_files.ledger.segments import LedgerSnapshot
from forest_files.store.forest import ForestStore


def find_root(path: Path | str) -> Path:
    """The work tree's root; refused when git names another repository (GIT_DIR)."""
    try:
        root = toplevel(path)
        git_dir_paths(root)  # before anything is written there (kernel/state.py)
        return root
    except NotARepo:
        raise ForestError(
            f"{Path(path).absolute()}: not inside a git working tree; "
            "run forest inside a git repository (or `git init` first)"
        ) from None


class Repository:
    """Open with ``Repository(path)`` (any path inside the working tree)."""

    def __init__(self, path: Path | str = ".") -> None:
        self.root = find_root(path)
        refuse_left_out(self.root)  # never custody read as empty, nor a ledger written there
        self.config: ForestConfig = load_config(self.root / CONFIG_NAME)
        self.ledger_dir = self.root / LEDGER_DIR
        refuse_linked_ledger(self.root)  # a linked ledger is never read nor written
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
        refuse_left_out(root)  # custody git holds, not checked out here: not a new project
        undo = repo_init.lay_out(root, project_id)
        repo = None
        try:
            repo = cls(root)
            repo.sync()
        except BaseException:  # a ledger the first sync refuses: nothing of init is left
            if repo is not None:
                repo.close()
            undo()
            raise
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
        """The index, open (index_open.py: a damaged file dropped, another project's
        index started over)."""
        if self._store is None:
            self._store = index_open.open_index(self.root, self.config.project_id, self.index_path)
        return self._store

    def _index_dropped(self, exc: StoreCorruption) -> ForestStore:
        self.close()
        self._store = index_open.dropped(self.root, self.config.project_id, self.index_path, exc)
        return self._store

    def sync(self) -> SyncReport:
        """Bring the index in step with the working tree's ledger. An erase it brings
        (a pulled forget) purges every local copy of the body, and says so."""
        report = index_refresh.sync(self)
        return self.rebuild() if report is None else report

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
        report, self._snapshot = index_refresh.rebuild(self, store)
        return report

    def synced(self) -> ForestStore:
        self.sync()
        return self.store()

    # -- recording -----------------------------------------------------------
    def authorize(self, path: str | None, by: str) -> None:
        recording.authorize(self, path, by)

    def authorize_pathless(self, act: Act) -> None:
        """An act tied to no path is judged as a path only the glob ``**`` matches: a
        holder of ``**`` where [authority] lists one; anyone where it does not."""
        recording.authorize_pathless(self, act)

    def act(self, payload: Payload, deps: set[str]) -> Act:
        """The act of a planned payload, in this project's scope. Every act holds
        every erase act with a tombstone in its dependency closure (each carries text:
        words, a signature, a path), so replay judges it against them exactly as this
        command does (the applier refuses erased lines and tokens only within the
        closure). It names the erase acts no other erase act names (each erase names
        the ones before it), never all of them: a ledger of thousands of erasures
        would push every act past the bound of its deps (``MAX_ACT_DEPS``); erase acts
        of as many branches that never saw each other still do, and are refused saying so."""
        if self._erase_deps is None:  # once per recording: a bulk adoption asks 10,000 times
            self._erase_deps = frozenset(tombstone.erase_heads(self.store()))
        deps = recording.with_erasures(deps, self._erase_deps)  # refused past the bound
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
        return recording.record(
            self,
            store,
            build,
            bodies_first=bodies_first,
            also_judge=also_judge,
            on_refusal=on_refusal,
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
        return entry_acts.adopt_many(self, bodies, words=words, by=by, path=path)

    def adoptions(
        self,
        store: ForestStore,
        items: Sequence[tuple[str, Mapping[str, Any], BindSpec | None]],
        *,
        words: str,
        by: str,
    ) -> Recorded:
        """The adopt acts of ``items`` (origin: the repository anchor) and their bodies."""
        return entry_acts.adoptions(self, store, items, words=words, by=by)

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
        return entry_acts.supersede(
            self,
            content_id,
            new_body,
            words=words,
            by=by,
            expected_body_hash=expected_body_hash,
            path=path,
        )

    def seal(self, content_id: str, *, words: str, by: str, path: str | None = None) -> str:
        """Seal an entry; returns the sealing record's content id."""
        return entry_acts.seal_like(self, True, content_id, words=words, by=by, path=path)

    def unseal(self, content_id: str, *, words: str, by: str, path: str | None = None) -> str:
        """Unseal an entry; returns the unsealing record's content id."""
        return entry_acts.seal_like(self, False, content_id, words=words, by=by, path=path)

    def resolve(
        self, content_id: str, *, pick: str, words: str, by: str, path: str | None = None
    ) -> str:
        """End a contest: every live head of ``content_id``'s chain is superseded by a new
        entry carrying ``pick``'s text. Returns the new ground's content id. The signer
        must hold every path bound to the chain."""
        return entry_acts.resolve(self, content_id, pick=pick, words=words, by=by, path=path)

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
        return log_of(self.synced(), self.ledger_dir)
