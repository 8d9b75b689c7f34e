"""One server's hold on its repository: the index kept open between calls, the
bindings read again only when the ledger changed, the audit log open.

Stores: nothing itself (the index is synced before every answer, as any command
does; the audit log is appended to by audit.py).
Refuses: what ``Repository`` refuses (a path outside git, no forest.toml).
Returns: ``Session``: ``store()`` (synced), ``repo``, ``bindings()``, ``audit()``,
``head()``.
Test: tests/doors/test_mcp_tools.py

Every call still syncs the index with the ledger on disk, so a commit, a pull or a
``forest supersede`` in another terminal is seen by the next call; only what
cannot have changed since (the bindings and their grounds, while the ledger's
segments stat the same: custody/verdict.py ``ledger_key``) is reused. Whether this
server's sync applied an act is no test of that: another process records its act
into the same index, so the sync finds nothing left to apply. A changed
forest.toml reopens the repository. HEAD, which each audit record names,
is asked of git at most once every ``HEAD_TTL`` seconds.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.custody.auditlog import AuditLog
    from forest_files.custody.bindings import Binding
    from forest_files.custody.ground import Ground
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore

HEAD_TTL = 2.0


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class Session:
    """``Session(root)``; ``close()`` when the server stops."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._repo: Repository | None = None
        self._config: tuple[int, int] | None = None
        self._bindings: list[Binding] | None = None
        self._grounds: dict[int, Ground] = {}
        self._ledger: object = None  # the ledger's key the bindings were read at
        self._audit: AuditLog | None = None
        self._head: tuple[float, str | None] = (0.0, None)

    @property
    def repo(self) -> Repository:
        from forest_files.custody.config import CONFIG_NAME
        from forest_files.custody.repository import Repository

        stamp = _stamp(self.root / CONFIG_NAME)
        if self._repo is None or stamp != self._config:
            self.close_repo()
            self._repo, self._config = Repository(self.root), stamp
        return self._repo

    def store(self) -> ForestStore:
        """The index, in step with the ledger on disk now."""
        from forest_files.custody.verdict import ledger_key

        repo = self.repo
        ledger = ledger_key(str(self.root))  # before the sync: a later act changes it
        report = repo.sync()
        if report.applied or report.rebuilt or ledger is None or ledger != self._ledger:
            self._bindings = None
        self._ledger = ledger
        return repo.store()

    def bindings(self) -> list[Binding]:
        """Every live binding (synced first), opened the one way every door opens
        custody (check/opening.py: a map of index rows proven against the ledger)."""
        self.store()
        if self._bindings is None:
            from forest_files.check.opening import open_custody

            with open_custody(self.root, "worktree") as custody:
                self._bindings, self._grounds = custody.bindings, custody.grounds
        return self._bindings

    def ground(self, binding: Binding) -> Ground | None:
        """(content id, body hash, contest heads) of ``binding``'s chain, as the map
        holds it (None: the binding has no chain in the map)."""
        self.bindings()
        return self._grounds.get(binding.entry_id)

    def audit(self) -> AuditLog:
        from forest_files.custody.auditlog import AuditLog

        if self._audit is None:
            self._audit = AuditLog(self.root)
        return self._audit

    def head(self) -> str | None:
        from forest_files import gitio
        from forest_files.kernel.errors import ForestError

        at, head = self._head
        if time.monotonic() - at > HEAD_TTL:
            try:
                head = gitio.resolve_commit(self.root, "HEAD")
            except ForestError:
                head = None  # no commit yet
            self._head = (time.monotonic(), head)
        return head

    def close_repo(self) -> None:
        if self._repo is not None:
            self._repo.close()
        self._repo, self._bindings = None, None

    def close(self) -> None:
        self.close_repo()
        if self._audit is not None:
            self._audit.close()
            self._audit = None
