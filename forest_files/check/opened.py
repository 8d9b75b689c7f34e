"""The custody of one source once opened: the ``Custody`` handle and the names of the evidence.

``Custody.via`` names what it was opened from (``PATHS``, ``MAP``, ``VIEW``,
``REPLAY`` or ``ABSENT``); ``Custody.source`` is ``WORKTREE``, ``INDEX`` or a
commit id. Only check/opening.py (``open_custody``) and the paths it takes
(opening_worktree.py, opening_git.py) make one.

Stores: nothing; the store it opens on first use is the synced index of the
working tree (through ``Repository``) or the view of a git source.
Refuses: what opening that store refuses (``Repository.synced``); rows in a folder
this user may not write with a ``-wal`` beside them (``reader``: the fix, never none).
Returns: a handle to close (or use as a context manager): bindings, grounds, the
content they are judged against, the store and a read-only reader of its rows (its
file: ``rows_file``; and ``held_before`` and ``bound_in``: the binding history, read
there).
Test: tests/check/test_opening.py, tests/check/test_check_evidence.py,
tests/check/test_history_read_only_state.py
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # the light doors (fastcheck, the hook) load none of this
    import sqlite3
    from collections.abc import Callable
    from pathlib import Path
    from types import TracebackType

    from forest_files.check.move_rebound import RowHistory
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
        "contest_free",
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
        contest_free: bool = False,
    ) -> None:
        self.root = root
        self.source = source  # "worktree", "index" or a commit id
        self.via = via
        self.bindings = bindings
        self.grounds = grounds
        self.inputs = inputs  # the working tree's verdict inputs, taken before
        self.view = view  # the view of a git source (None for the working tree)
        # A git source whose decoded segments or sealed view said no contest is possible
        # (check/opening_views.py ``BoundPaths``): its contests need not be asked.
        self.contest_free = contest_free
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

    @property
    def repository(self) -> Repository | None:
        """The working tree's repository once ``store()`` opened it; None for a view."""
        return self._repo

    def rows_file(self) -> str:
        """The file of the rows the grounds came from: the view of a git source, the
        working tree's index (``woods.db``) otherwise; it may not be there."""
        from pathlib import Path

        from forest_files.kernel.paths import INDEX_NAME
        from forest_files.kernel.state import worktree_path

        if self.view is not None:
            return str(self.view)
        return str(Path(worktree_path(str(self.root), create=False)) / INDEX_NAME)

    def reader(self) -> sqlite3.Connection | None:
        """A read-only connection to the rows the grounds came from, without opening the
        repository (no git call, no sync); None when there is none to read. In a folder
        this user may not write, a closed WAL file (no ``-wal`` beside it) is read as
        immutable, store/localdb.py ``read_local``'s rule: no writer is mid-way, and none
        can start; one with a ``-wal`` there is refused with the fix, never read empty."""
        import sqlite3
        from pathlib import Path

        from forest_files.kernel.errors import ForestError
        from forest_files.store.dbfile import open_db

        db = self.rows_file()
        try:
            conn = open_db(db, "mode=ro")
        except (sqlite3.Error, ForestError):
            return None
        try:
            conn.execute("PRAGMA schema_version").fetchone()  # its -shm made, or not
        except sqlite3.OperationalError as exc:
            name = getattr(exc, "sqlite_errorname", "")
            if name not in ("SQLITE_READONLY_DIRECTORY", "SQLITE_CANTOPEN"):
                return conn  # what the rows' readers meet, as before
            conn.close()
            if Path(f"{db}-wal").exists():
                from forest_files.store.connection import translate

                where = f"cannot read the binding history in {db}"
                raise translate(exc, where, path=str(db)) from exc
            conn = open_db(db, "mode=ro&immutable=1")
        return conn

    def held_before(self, path: str, selector: str) -> tuple[str, ...]:
        """The selectors held now by the live bindings that ever held ``selector`` (a
        section of ``path``), from the binding history of the rows the grounds came
        from (check/move_rebound.py: a renamed subsection whose chapter was rebound
        first); none when they cannot be read."""
        return self._history(lambda h: h.held_before(path, selector))

    def bound_in(self, path: str) -> tuple[str, ...]:
        """The selectors of the live bindings of ``path`` in those rows (every binding
        of it, whichever paths this handle's ``bindings`` hold); none when they cannot
        be read."""
        return self._history(lambda h: h.bound_in(path))

    def _history(self, ask: Callable[[RowHistory], tuple[str, ...]]) -> tuple[str, ...]:
        import sqlite3

        from forest_files.check.move_rebound import RowHistory

        conn = self.reader()
        if conn is None:
            return ()
        try:
            return ask(RowHistory(conn))
        except sqlite3.Error:
            return ()
        finally:
            conn.close()

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


__all__ = ["ABSENT", "INDEX", "MAP", "PATHS", "REPLAY", "VIEW", "WORKTREE", "Custody"]
