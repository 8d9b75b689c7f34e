"""Who adopted a ground, with which words, as the ledger declares it: an index's adoption
record rows believed only where they are the record the ledger declares.

The index (``<git-dir>/forest/woods.db``) is a cache anyone with write access to the git
directory can change, and the index proof (indexproof.py) sees bindings and grounds, not
the record rows that say who adopted a ground: a row given another signer or other words
behind the triggers, or a row of the forger's own with its content id made to hash, was
named beside a finding as if the ledger said so. Asked only where a door names adopters
(a failing finding's ground, a contest's heads: never a clean check or hook), the
ledger's segments are read for the acts that declared those grounds (lines that name one,
the rest left unparsed), and each row is held to its ground's declared record: its
content id, its signer and a body hashing to the record's body hash.
A view's rows (a replay of a ledger) are read as they are, by ``index_records`` alone,
which loads no ledger module: the pre-commit hook names adopters from a view.

Stores: nothing.
Refuses: nothing (a ledger that cannot be read names nobody: nothing unproven is shown).
Returns: ``ledger_of``: the ledger of the working tree whose index a connection reads
(None for a view or a throwaway replay: replays of a ledger, read as they are);
``proven_adoptions``: (signer, words) per ground; a row that is not the declared
record (changed, deleted, another's) gives the ledger's signer and words instead (its body
file; ``[erased]`` where a forget erased them), and one line on stderr says the index is
damaged, naming ``forest fsck`` and ``forest rebuild`` (nothing repaired here);
``undeclared_grounds``: for fsck, each ground whose latest adoption record row in the
index is not the one the ledger declares (an ``adopts`` edge moved or taken away).
Test: tests/check/test_adopted_by_forged.py, tests/governance/test_fsck_adoption_edges.py,
tests/check/test_hook_move_cost.py
"""

from __future__ import annotations

import re
import sys
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from forest_files.kernel.hashing import hash_body
from forest_files.kernel.shellword import forest_text

if TYPE_CHECKING:
    import sqlite3

    from forest_files.ledger.acts import Act

ADOPTION = "adoption_record"
_HEX64 = re.compile(rb"[0-9a-f]{64}")


class Declared(NamedTuple):
    """The adoption record an act declared of a ground."""

    content_id: str
    signature: str
    body_hash: str


class Row(NamedTuple):
    """An index's latest adoption record row of a ground."""

    content_id: str
    signature: str
    body: str


def ledger_of(conn: sqlite3.Connection) -> Path | None:
    """The ledger of the working tree whose index (``<git-dir>/forest/woods.db``)
    ``conn`` reads, or None: a view, a throwaway replay, a tree with no ledger. Found
    from the index's own file, the way git leads from a work tree to its git directory
    and back (a linked worktree's ``gitdir`` file), never from the caller's directory."""
    from forest_files.kernel.errors import StateError
    from forest_files.kernel.paths import INDEX_NAME, LEDGER_DIR, STATE_NAME
    from forest_files.kernel.state import git_dir_paths
    from forest_files.store.dbfile import main_file

    file = main_file(conn)  # a folder's name that is not UTF-8 kept as the OS spells it
    db = Path(file) if file else None
    if db is None or db.name != INDEX_NAME or db.parent.name != STATE_NAME:
        return None
    git_dir = db.parent.parent.resolve()
    linked = git_dir / "gitdir"  # a linked worktree's: the path of its .git file
    try:
        top = Path(linked.read_text().strip()).parent if linked.is_file() else git_dir.parent
        if Path(git_dir_paths(top)[0]).resolve() != git_dir:
            return None
    except (OSError, UnicodeError, StateError):
        return None
    ledger = top / LEDGER_DIR
    return ledger if ledger.is_dir() else None


def declared_records(ledger_dir: Path, grounds: Collection[str]) -> dict[str, Declared]:
    """The adoption record the ledger declares of each of ``grounds`` (an act's entry and
    record: an adopt, supersede, resolve, or a rebind's supersession), by ground. Only
    the segment lines that name one of them are decoded; a line that is not what the
    format says sends the whole read the typed way (the codec)."""
    import json

    from forest_files.ledger.segment_files import segment_paths

    if not grounds:
        return {}
    # a line's ids against a set: one pass per line however many grounds are asked
    # (``Repository.ground()`` asks of all), and a forged row's id is never a pattern
    named = {g.encode() for g in grounds}
    out: dict[str, Declared] = {}
    try:
        for path in segment_paths(ledger_dir):
            for line in path.read_bytes().split(b"\n"):
                if line and not named.isdisjoint(_HEX64.findall(line)):
                    _declared_raw(out, grounds, json.loads(line))
    except (ValueError, TypeError, KeyError, AttributeError):
        return _declared_typed(ledger_dir, grounds)
    return out


def _declared_raw(out: dict[str, Declared], grounds: Collection[str], act: Any) -> None:
    for part in (act, act.get("supersede") or {}):
        if "entry" in part and "record" in part and part["record"]["bucket"] == ADOPTION:
            cid, rec = str(part["entry"]["content_id"]), part["record"]
            if cid in grounds:
                out[cid] = Declared(
                    str(rec["content_id"]), str(rec["signature"]), str(rec["body_hash"])
                )


def _declared_typed(ledger_dir: Path, grounds: Collection[str]) -> dict[str, Declared]:
    from forest_files.ledger.segments import read_ledger

    every = declared_in(read_ledger(ledger_dir).acts.values())
    return {g: rec for g, rec in every.items() if g in grounds}


def declared_in(acts: Iterable[Act]) -> dict[str, Declared]:
    """The adoption record ``acts`` (a ledger's, in its order) declare of every ground
    they adopt (an adopt, supersede, resolve, or a rebind's supersession), by ground."""
    from forest_files.ledger.kinds import EntryRecord

    out: dict[str, Declared] = {}
    for act in acts:
        for part in (act.payload, getattr(act.payload, "supersede", None)):
            entry, rec = getattr(part, "entry", None), getattr(part, "record", None)
            if not isinstance(entry, EntryRecord) or not isinstance(rec, EntryRecord):
                continue
            if rec.bucket == ADOPTION:
                out[entry.content_id] = Declared(rec.content_id, rec.signature, rec.body_hash)
    return out


def index_records(conn: sqlite3.Connection, grounds: Collection[str]) -> dict[str, Row]:
    """The index's latest adoption record row of each of ``grounds`` (by its ``adopts``
    edge, the last wins: what a door names), in as few queries as SQLite allows."""
    import sqlite3

    from forest_files.store.queries import ADOPTIONS_OF_CONTENTS

    wanted = sorted(grounds)
    # As few queries as SQLite's parameter limit allows: past a few dozen ids SQLite's
    # planner reads every adoption record once per query, however few ids it names.
    size = min(30_000, conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER))
    found: dict[str, Row] = {}
    for start in range(0, len(wanted), size):
        chunk = wanted[start : start + size]
        sql = ADOPTIONS_OF_CONTENTS.format(marks=",".join("?" * len(chunk)))
        for row in conn.execute(sql, chunk):  # oldest first: the last wins
            found[str(row[0])] = Row(str(row[3]), str(row[1]), str(row[2]))
    return found


def undeclared_grounds(conn: sqlite3.Connection, acts: Iterable[Act]) -> list[str]:
    """The grounds ``acts`` declare an adoption record of whose latest adoption record
    row in the index (``conn``) is another, or none: its ``adopts`` edge moved or
    taken away, which no row's content id shows (fsck's ``content-id`` check)."""
    declared = declared_in(acts)
    rows = index_records(conn, declared)
    return sorted(
        g for g, rec in declared.items() if g not in rows or rows[g].content_id != rec.content_id
    )


def proven_adoptions(
    ledger_dir: Path, rows: Mapping[str, Row], grounds: Collection[str]
) -> dict[str, tuple[str, str]]:
    """(signer, words) of each of ``grounds`` the ledger declares an adoption of: its
    row's where ``rows`` holds the declared record, else the ledger's (said once on
    stderr). A ground the ledger declares none of is left out."""
    from forest_files.ledger.fault import LedgerError
    from forest_files.store.entryrow import ERASED_MARK

    try:
        declared = declared_records(ledger_dir, grounds)
    except (LedgerError, OSError):  # verify and fsck name it; nothing unproven is shown
        return {}
    out: dict[str, tuple[str, str]] = {}
    damaged = sum(1 for g in rows if g not in declared)  # a row the ledger never made
    erased = _Erased(ledger_dir)
    for ground, rec in declared.items():
        row = rows.get(ground)
        if row is not None and _is_declared(row, rec):
            out[ground] = (row.signature, row.body)
            continue
        kept = _kept(ledger_dir, rec.body_hash)
        gone = kept is None and rec.body_hash in erased  # a forget erased them
        if gone and row is not None and row == (*rec[:2], ERASED_MARK):
            out[ground] = (row.signature, ERASED_MARK)  # here and there
            continue
        damaged += 1
        out[ground] = (rec.signature, ERASED_MARK if gone else kept or "")
    if damaged:
        said = f"{damaged} ground" if damaged == 1 else f"{damaged} grounds"
        rows_said = "its adoption record row" if damaged == 1 else "their adoption record rows"
        sys.stderr.write(
            f"forest: the index lost or changed who adopted {said} ({rows_said}); shown "
            f"from the ledger; `{forest_text('fsck')}` names the damage, "
            f"`{forest_text('rebuild')}` repairs it\n"
        )
    return out


class _Erased:
    """The body hashes the ledger's erase acts remove, read once when first asked (only
    where a record's body file is gone): an ``[erased]`` row is a claim of the index,
    believed only where an erase act of the ledger names the body."""

    def __init__(self, ledger_dir: Path) -> None:
        self.ledger_dir = ledger_dir
        self.hashes: frozenset[str] | None = None

    def __contains__(self, body_hash: object) -> bool:
        if self.hashes is None:
            from forest_files.ledger.act_refs import erased_bodies
            from forest_files.ledger.fault import LedgerError
            from forest_files.ledger.segments import read_ledger

            try:
                acts = list(read_ledger(self.ledger_dir).acts.values())
            except LedgerError:  # verify and fsck name it; nothing unproven is believed
                acts = []
            self.hashes = erased_bodies(a.payload for a in acts)
        return body_hash in self.hashes


def _is_declared(row: Row, rec: Declared) -> bool:
    """The row is the declared record: its content id, signer, and words hashing to it."""
    same = (row.content_id, row.signature) == (rec.content_id, rec.signature)
    return same and hash_body(row.body) == rec.body_hash


def _kept(ledger_dir: Path, body_hash: str) -> str | None:
    """The record's words from the ledger's body file (None: erased or damaged)."""
    from forest_files.ledger.fault import LedgerError
    from forest_files.ledger.segments import read_body

    try:
        return read_body(ledger_dir, body_hash)
    except LedgerError:
        return None


__all__ = [
    "Declared",
    "Row",
    "declared_in",
    "declared_records",
    "index_records",
    "ledger_of",
    "proven_adoptions",
    "undeclared_grounds",
]
