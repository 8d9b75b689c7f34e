"""``ForestStore``: the Forest 0.4 ops contract over one SQLite file.

Stores: see forest_files/schema.sql; per instance, walk tickets and pending
wild cites (process-local, cleared by ``close``).
Refuses: files the version gate refuses (forest_files/store/gate.py); a
scope that is blank, over 128 characters or holds a control character; every
op's own refusals live in the mixin modules. Every op sees and writes only the
store's scope (see forest_files/store/base.py and docs/model.md, "Scope").
Returns: the store; ``conn`` is a sqlite3 connection whose rows are
addressable by column name, for raw-SQL readers and audits.
Test: tests/store/test_store_hostile.py

The interface the other rooms use, beyond Forest 0.4's contract (the ledger
applier, ``forest_files/custody/apply.py``, the repository layer and governance,
which call them inside their own transaction):

* ``require(id, what)`` — the row of an entry, or a refusal naming ``what``;
* ``insert_entry(...)`` — the one validated insert (explicit stamps on replay;
  ``erased_body_hash`` for an entry whose body a recorded erasure removed);
* ``root(...)`` — the rooting ceremony behind ``root_to_ground`` (Forest's
  ``_root`` is the same method);
* ``supersede_beside(...)``, ``seal_beside(...)`` — a merged branch's second
  supersession of one ground, or its second seal (unseal): the rows of
  ``supersede`` / ``seal`` without their status gates;
* ``erase_body(id, signature=, reason=, at=)`` — the audited body erasure;
* ``insert_adoptions(plans)`` — a batch of imports with their adoption records;
* ``rebuilding()`` — the rebuild's own transaction: reset, refill, foreign keys
  judged once before the commit.

What each ceremony writes is ``forest_files/store/rows.py``'s, the planner's too.
The latest adoption record of an entry is ``forest_files.custody.views.latest_record``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from types import TracebackType

from forest_files.kernel.errors import ForestError, StoreConstraint
from forest_files.store import connection, gate, queries
from forest_files.store.anchor import AnchorMixin
from forest_files.store.audit import AuditMixin
from forest_files.store.bulk import BulkMixin
from forest_files.store.ceremonies import CeremonyMixin
from forest_files.store.erasure import ErasureMixin
from forest_files.store.lookup import check_scope
from forest_files.store.recall import RecallMixin
from forest_files.store.resolve import ResolveMixin
from forest_files.store.walk import TicketState, WalkMixin
from forest_files.store.writing import WriteMixin


def load_schema_sql() -> str:
    return (resources.files("forest_files") / "schema.sql").read_text(encoding="utf-8")


class ForestStore(
    BulkMixin,
    WriteMixin,
    RecallMixin,
    WalkMixin,
    CeremonyMixin,
    ResolveMixin,
    AuditMixin,
    AnchorMixin,
    ErasureMixin,
):
    """Append-only custody store. Use as a context manager. ``derived``: the file is an
    index rebuilt from a ledger (a repository's ``woods.db``), so anything but a whole
    store of ours is ``StoreCorruption`` (store/gate.py), which its owner drops."""

    def __init__(self, path: str | Path, *, scope: str = "default", derived: bool = False) -> None:
        self.scope = check_scope(scope)
        self.path = Path(path)
        self._tickets: dict[str, TicketState] = {}
        self._pending_wild_access: set[int] = set()
        self.conn = connection.connect(self.path)
        try:
            gate.check_store(self.conn, self.path, derived=derived)
            connection.enable_wal(self.conn)
        except BaseException as exc:
            self.conn.close()
            if isinstance(exc, sqlite3.Error) and not isinstance(exc, ForestError):
                raise connection.translate(exc, f"open {self.path}", path=str(self.path)) from exc
            raise

    @classmethod
    def over(cls, conn: sqlite3.Connection, *, scope: str = "default") -> ForestStore:
        """A store over ``conn``, which its caller opened and closes (``forest fsck``'s
        read-only connection, rows addressable by name): no version gate, no WAL
        switch; a write fails as that connection refuses it."""
        store = cls.__new__(cls)
        store.scope = check_scope(scope)
        store.path = Path()
        store._tickets = {}
        store._pending_wild_access = set()
        store.conn = conn
        return store

    def init_schema(self, schema_path: str | Path | None = None) -> None:
        """Create the schema (idempotent). ``schema_path`` runs another SQL file."""
        sql = (
            load_schema_sql()
            if schema_path is None
            else Path(schema_path).read_text(encoding="utf-8")
        )
        self._script(sql, "init_schema")

    def drop_text_index(self) -> None:
        """Keep no full-text index in this store: for a store no one searches (a custody
        view), whose every write would otherwise index its bodies. Its search then
        fails (no such table) rather than answering empty. Before any entry is written."""
        self._script(queries.DROP_TEXT_INDEX, "drop_text_index")

    def _script(self, sql: str, what: str) -> None:
        """Run ``sql`` as one IMMEDIATE transaction: a second process opening the same
        new file sees none of it or all of it, never half (its gate would refuse)."""
        try:
            if self.conn.in_transaction:
                self.conn.execute("COMMIT")
            self.conn.executescript(f"BEGIN IMMEDIATE;\n{sql}\nCOMMIT;")
        except sqlite3.Error as exc:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            file = str(self.path) if self.path != Path() else None  # over(): no file
            raise connection.translate(exc, what, path=file) from exc

    def _reset_in_transaction(self) -> None:
        """Drop every object and recreate the schema, inside the caller's transaction.

        For a rebuildable index only (repository mode): other processes with the
        file open see the old contents or the new, never a deleted file.
        """
        if not self.conn.in_transaction:
            raise ForestError("reset must run inside store.atomic()")
        # Drop order would trip the foreign keys one by one; they are checked at commit,
        # when every referencing table is gone too.
        self.conn.execute("PRAGMA defer_foreign_keys = ON")
        objects = self.conn.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "AND type IN ('table', 'view') AND name NOT LIKE 'entries_fts_%'"
        ).fetchall()
        for kind, name in objects:
            if kind == "view":
                self.conn.execute(f'DROP VIEW IF EXISTS "{name}"')
        for kind, name in objects:
            if kind == "table":
                self.conn.execute(f'DROP TABLE IF EXISTS "{name}"')
        statement = ""
        for line in load_schema_sql().splitlines(keepends=True):
            statement += line
            if sqlite3.complete_statement(statement):
                self.conn.execute(statement)
                statement = ""
        self._tickets.clear()
        self._pending_wild_access.clear()

    @contextmanager
    def rebuilding(self) -> Iterator[None]:
        """One transaction that empties the index (``_reset_in_transaction``) and lets
        the caller refill it, its foreign keys judged once, before the commit.

        A reset's foreign keys are deferred to the commit anyway; with enforcement
        off (settable only outside a transaction) dropping the old tables skips
        SQLite's row-by-row implicit DELETE. ``foreign_key_check`` then refuses the
        whole transaction if any row points nowhere, as the deferred check would.
        """
        if self.conn.in_transaction:
            raise ForestError("a rebuild runs in its own transaction, not inside atomic()")
        self.conn.execute("PRAGMA foreign_keys = OFF")
        try:
            with self.atomic():
                try:
                    self._reset_in_transaction()
                    yield
                    bad = self.conn.execute("PRAGMA foreign_key_check").fetchone()
                except sqlite3.Error as exc:  # a full disk mid-reset: typed, with the fix
                    raise connection.translate(exc, "rebuild", path=str(self.path)) from exc
                if bad is not None:
                    raise StoreConstraint(
                        f"rebuild: a {bad[0]} row (rowid {bad[1]}) points at no {bad[2]} "
                        "row (FOREIGN KEY constraint failed); nothing was changed"
                    )
        finally:
            self.conn.execute("PRAGMA foreign_keys = ON")

    def close(self) -> None:
        self._tickets.clear()
        self._pending_wild_access.clear()
        self.conn.close()

    def __enter__(self) -> ForestStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
