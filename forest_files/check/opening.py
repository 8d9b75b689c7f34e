"""One way into custody: the bindings, grounds and content of a source, and how they were known.

Every door opens custody here: ``forest check`` and ``forest status`` (the
working tree), ``check --staged`` and every branch of the pre-commit hook (the
git index), ``check --rev``, ``verify`` and ``forest ci`` (HEAD and every commit
of a range), the watcher and ``forest review``. This module alone chooses the
evidence, cheapest first. Before anything is opened, the light doors ask
``remembered_count``/``remembered_rows``: the working tree's remembered clean
verdict still holds (verdict.py: the ledger and every bound file stat the same)
and git's index tracks no local state, so every binding is clean and nothing is
read. Otherwise ``open_custody`` says which evidence it took (``Custody.via``):

* ``paths``: a staged change touches none of the paths the staged ledger binds
  (known beside its view, or decoded from its segments after a clone): no
  binding can have moved;
* ``map``: the binding map saved beside the index or the view (bindmap.py);
* ``view``: a cached view this machine built and sealed (viewkey.py), its map
  derived once;
* ``replay``: the working tree's index synced from the ledger, or a view built
  by replaying the source's ledger (viewbuild.py).

A binding map derived from the working tree's index is derived from rows
proven against the ledger first (indexproof.py): a forged row is a rebuilt
index, never a verdict.

Stores: the binding maps, bound-path sets and view aliases it derives (through
kernel/cache.py), the views it builds, the index a sync brings in step.
Refuses: what a sync or a replay refuses (a forged or damaged ledger), an
unknown revision.
Returns: a ``Custody`` (close it, or use it as a context manager).
Test: tests/check/test_opening.py, tests/check/test_check_evidence.py,
tests/gate/test_ci_git_calls.py
"""

from __future__ import annotations

from forest_files.custody import bindmap, verdict

TYPE_CHECKING = False
if TYPE_CHECKING:  # the light doors (fastcheck, the hook) load none of this
    import sqlite3
    from pathlib import Path
    from types import TracebackType

    from forest_files.custody.bindings import Binding
    from forest_files.custody.content import ContentSource
    from forest_files.custody.ground import Ground
    from forest_files.custody.repository import Repository
    from forest_files.custody.session import VerdictInputs
    from forest_files.store.forest import ForestStore

PATHS, MAP, VIEW, REPLAY = "paths", "map", "view", "replay"
ABSENT = "absent"  # asked not to replay, and nothing cached: no custody known
WORKTREE, INDEX = "worktree", "index"


class Custody:
    """The custody of one source. ``bindings`` and ``grounds`` are empty when ``via``
    is ``paths`` (none touched) or ``absent`` (nothing cached, no replay asked)."""

    __slots__ = (
        "_content",
        "_repo",
        "_store",
        "_tree",
        "bindings",
        "grounds",
        "inputs",
        "root",
        "source",
        "via",
        "view",
    )

    def __init__(
        self,
        root: Path | str,
        source: str,
        via: str,
        bindings: list[Binding],
        grounds: dict[int, Ground],
        *,
        view: Path | None = None,
        content: ContentSource | None = None,
        tree: tuple[str | None, bool, tuple[str, ...]] | None = None,
        inputs: VerdictInputs | None = None,
    ) -> None:
        self.root = root
        self.source = source  # "worktree", "index" or a commit id
        self.via = via
        self.bindings = bindings
        self.grounds = grounds
        self.inputs = inputs  # the working tree's verdict inputs, taken before
        self.view = view  # the view of a git source (None for the working tree)
        self._content = content
        self._tree = tree  # a git source's (rev, keep_index_file, only), made on first use
        self._store: ForestStore | None = None
        self._repo: Repository | None = None

    @property
    def content(self) -> ContentSource:
        """What the bindings are judged against (made on first use)."""
        if self._content is None:
            from pathlib import Path

            if self._tree is not None:
                from forest_files.custody.content import GitTreeSource

                rev, keep, only = self._tree
                self._content = GitTreeSource(Path(self.root), rev, keep_index_file=keep, only=only)
            else:
                from forest_files.custody.content import WorktreeSource

                self._content = WorktreeSource(Path(self.root))
        return self._content

    def store(self) -> ForestStore:
        """The store the grounds came from, opened on first use: the synced index of the
        working tree, or the view of a git source (words, adopters, diffs)."""
        if self._store is None:
            if self.view is None:
                from pathlib import Path

                from forest_files.custody.repository import Repository

                self._repo = Repository(Path(self.root))
                self._store = self._repo.synced()
            else:
                from forest_files.store.forest import ForestStore

                self._store = ForestStore(self.view)
        return self._store

    def reader(self) -> sqlite3.Connection | None:
        """A read-only connection to the rows the grounds came from, without opening the
        repository (no git call, no sync); None when there is none to read."""
        import sqlite3
        from pathlib import Path

        from forest_files.kernel.paths import INDEX_NAME
        from forest_files.kernel.state import worktree_path

        if self.view is not None:
            db = self.view
        else:
            db = Path(worktree_path(str(self.root), create=False)) / INDEX_NAME
        try:
            return sqlite3.connect(f"{Path(db).absolute().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error:
            return None

    def close(self) -> None:
        if self._repo is not None:
            self._repo.close()
        elif self._store is not None:
            self._store.close()
        self._store = self._repo = None

    def __enter__(self) -> Custody:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def open_custody(
    root: Path | str,
    source: str,
    *,
    within: tuple[str, ...] = (),
    touched: set[str] | None = None,
    keep_index_file: bool = False,
    fingerprint: str | None = None,
    replay: bool = True,
    key: tuple[str, str] | None = None,
) -> Custody:
    """The custody of ``source``: ``worktree``, ``index`` (the staged ledger and
    files) or a commit.

    ``within``: only bindings at or under these paths (a check of some paths, the
    watcher's saved files). ``touched``: a staged change's paths: only their
    bindings, and none at all when the ledger binds none of them.
    ``fingerprint``: the view's key when the caller knows it already.
    ``replay`` False (a git source): what this machine holds, or ``via`` ABSENT.
    ``key``: a commit's ``viewkey.heads_custody`` entry, asked of git for a whole
    range at once (its commit id and ledger tree key)."""
    if source == WORKTREE:
        return _worktree(str(root), within)
    from pathlib import Path

    where = (touched, keep_index_file, fingerprint, replay, key)
    return _git(Path(root), source, within, *where)


def remembered_count(root: str) -> int | None:
    """Bindings of the remembered clean verdict of the working tree, or None (judge)."""
    count = verdict.recall(root)
    if count is None:
        return None
    from forest_files.check.localstate import worktree_clean

    return count if worktree_clean(root) else None


def remembered_rows(root: str) -> list[tuple[str, str, str]] | None:
    """(path, selector, ground content id) of every binding of the remembered clean
    verdict, from the binding map's packed rows (nothing unpacked); None: judge."""
    count = remembered_count(root)
    ledger = verdict.ledger_key(root) if count is not None else None
    if count is None or ledger is None:
        return None
    rows = bindmap.status_rows(bindmap.worktree_record(root), ledger)
    return rows if rows is not None and len(rows) == count else None


def _worktree(root: str, within: tuple[str, ...]) -> Custody:
    from forest_files.custody.session import verdict_inputs

    before = verdict_inputs(root)
    ledger, stamp = before
    record = bindmap.worktree_record(root)
    found = bindmap.load(record, ledger, under=within) if ledger is not None else None
    if found is not None:
        return Custody(root, WORKTREE, MAP, found.bindings, found.grounds, inputs=before)
    custody = Custody(root, WORKTREE, REPLAY, [], {}, inputs=before)
    try:
        from forest_files.custody.indexproof import proven_map

        found = proven_map(custody.store(), custody._repo)
    except BaseException:
        custody.close()
        raise
    if ledger is not None and verdict.ledger_trusted(ledger, stamp):
        bindmap.save(record, ledger, found)
    if within:
        from forest_files.kernel.repopath import under

        keep = [b for b in found.bindings if any(under(b.path, p) for p in within)]
        found = bindmap.BindMap(keep, found.grounds)
    custody.bindings, custody.grounds = found.bindings, found.grounds
    return custody


def index_fingerprint(
    root: Path, head: tuple[str, str] | None, ledger_staged: bool, *, keep_index_file: bool
) -> str:
    """The staged ledger's view key. While no ledger file is staged it is HEAD's,
    known by its tree id through the alias an earlier run wrote (no listing)."""
    from forest_files.custody.viewkey import ledger_fingerprint, read_alias, write_alias

    same_as_head = head is not None and not ledger_staged
    found = read_alias(root, head[1]) if same_as_head and head is not None else None
    if found is None:
        found = ledger_fingerprint(root, INDEX, keep_index_file=keep_index_file)
        if same_as_head and head is not None:
            write_alias(root, head[1], found)
    return found


def _git(
    root: Path,
    source: str,
    within: tuple[str, ...],
    touched: set[str] | None,
    keep_index_file: bool,
    fingerprint: str | None,
    replay: bool,
    key: tuple[str, str] | None,
) -> Custody:
    from forest_files.custody.viewkey import ledger_fingerprint, view_path

    if source == INDEX:
        if fingerprint is None:
            fingerprint = ledger_fingerprint(root, source, keep_index_file=keep_index_file)
    elif fingerprint is None:
        source, fingerprint = _commit_key(root, source, key)
    else:
        from forest_files import gitio

        source = gitio.resolve_commit(root, source)
    view = view_path(root, fingerprint)
    rev = None if source == INDEX else source
    only = tuple(sorted(touched)) if touched is not None else ()
    tree = (rev, keep_index_file, only)  # the content source, made when first read
    if touched is not None:
        known = _bound_paths(root, source, view, keep_index_file)
        if known is not None and not (known & touched):
            return Custody(root, source, PATHS, [], {}, view=view, tree=tree)
    wanted = sorted(touched) if touched is not None else None
    got = _map(root, source, view, keep_index_file, wanted, replay)
    if got is None:
        return Custody(root, source, ABSENT, [], {}, view=view, tree=tree)
    via, found = got
    bindings = found.bindings
    if touched is not None:
        bindings = [b for b in bindings if b.path in touched]
    if within:
        from forest_files.kernel.repopath import under

        bindings = [b for b in bindings if any(under(b.path, p) for p in within)]
    return Custody(root, source, via, bindings, found.grounds, view=view, tree=tree)


def _commit_key(root: Path, rev: str, known: tuple[str, str] | None) -> tuple[str, str]:
    """(the commit ``rev`` names, its view key): one ``rev-parse`` names the commit and
    its ledger tree, whose alias an earlier run wrote holds the key (no listing); a
    range judges each commit with this one git call. A commit without a ledger tree
    or forest.toml is resolved on its own (UnknownRef when ``rev`` names no commit)
    and its ledger listed. ``known``: ``head_custody(root, rev)`` asked already."""
    from forest_files.custody.viewkey import (
        head_custody,
        ledger_fingerprint,
        read_alias,
        write_alias,
    )

    if known is None:
        known = head_custody(root, rev)
    if known is None:
        from forest_files import gitio

        commit = gitio.resolve_commit(root, rev)
        return commit, ledger_fingerprint(root, commit)
    commit, tree_key = known
    found = read_alias(root, tree_key)
    if found is None:
        found = ledger_fingerprint(root, commit)
        write_alias(root, tree_key, found)
    return commit, found


def _map(
    root: Path,
    source: str,
    view: Path,
    keep_index_file: bool,
    wanted: list[str] | None,
    replay: bool,
) -> tuple[str, bindmap.BindMap] | None:
    """The view's binding map: saved, derived from the sealed view, or replayed."""
    from forest_files.custody.viewkey import bound_paths, view_ready, write_bound_paths

    record = bindmap.view_record(str(view))
    found = bindmap.load(record, view.stem, wanted) if view_ready(view) else None
    if found is not None:
        return MAP, found
    via = VIEW
    if not view_ready(view):
        if not replay:
            return None
        from forest_files.custody.viewbuild import build_view

        build_view(root, source, keep_index_file, view)
        via = REPLAY
    from forest_files.store.forest import ForestStore

    store = ForestStore(view)
    try:
        every = bindmap.derive(store)
    finally:
        store.close()
    bindmap.save(record, view.stem, every)
    if bound_paths(view) is None:
        write_bound_paths(view, {b.path for b in every.bindings})
    if wanted is None:
        return via, every
    keep = set(wanted)
    return via, bindmap.BindMap([b for b in every.bindings if b.path in keep], every.grounds)


def _bound_paths(root: Path, source: str, view: Path, keep_index_file: bool) -> set[str] | None:
    """Every path the source's ledger binds, without a replay: remembered beside the
    view, from its saved map, or (no view yet: the first hook after a clone) from
    the decoded segments (every path any act binds: a superset). None: not known."""
    from forest_files.custody.viewkey import bound_paths, view_ready, write_bound_paths

    known = bound_paths(view)
    if known is not None:
        return known
    known = bindmap.paths_of(bindmap.view_record(str(view)), view.stem)
    if known is None and not view_ready(view):
        from forest_files.custody import path_scan
        from forest_files.custody.sources import segment_bytes_at
        from forest_files.ledger.acts import LedgerError

        try:
            known = path_scan.bound_paths(
                segment_bytes_at(root, source, keep_index_file=keep_index_file)
            )
        except LedgerError:
            return None  # the replay reports it
    if known is not None:
        from forest_files.kernel.state import ensure_dir

        try:
            ensure_dir(view.parent)
            write_bound_paths(view, known)
        except OSError:
            pass  # only a slower next hook
    return known


__all__ = [
    "ABSENT",
    "MAP",
    "PATHS",
    "REPLAY",
    "VIEW",
    "Custody",
    "index_fingerprint",
    "open_custody",
    "remembered_count",
    "remembered_rows",
]
