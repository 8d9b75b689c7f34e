"""The local audit log: every ceremony and refusal on this clone, never a body.

Stores: ``.git/forest/audit.db`` (SQLite, WAL, append-only by trigger; in the
git directory, which git never transfers; untouched by ``forest rebuild``). A
record holds a monotonic ``seq``, the wall-clock time, the actor (an act's signer,
or ``local``), an action and an outcome from closed vocabularies (``auditsql``), a
fixed reason code, target ids/hashes/paths, integer counts, the HEAD commit, and a ceremony's act id
(logged once per act). Never a body, words or an error message.
Refuses (``AuditRefused``, one line with the fix; nothing of the batch written): an
action, outcome or reason outside the vocabulary; an actor holding a character
kernel/shellword.py calls unprintable (``first_unprintable``: C0, DEL, C1,
U+2028/U+2029, a byte that is not UTF-8); an actor or target over
``MAX_TARGET_CHARS``; a count that is not an integer; a page size outside
1..``MAX_PAGE``; a ``before`` that is not a positive sequence number. A target (an
id, a hash, a selector, a path: a file's name is the user's and may hold any of
those characters) is not refused for them but stored as ``printable`` shows it.
Returns: ``AuditRecord`` values, newest first (a row edited outside forest-files
read as damaged, saying what is wrong: custody/auditrecord.py, imported by ``page``
alone: appending never loads it).
Test: tests/governance/test_audit.py, tests/doors/test_audit_unwritable.py,
      tests/doors/test_audit_gap_again.py

Appending is best effort for callers (``append_events`` returns False when the
log cannot be written): the act it records is already in the ledger, so a full
disk must not turn a recorded ceremony into a reported failure. A gap is said
once while it lasts (a command says it once; a long-running watcher or MCP server
again after the log was written in between, or for another cause), in one
warning with the fix (custody/auditgap.py): ``chmod u+w`` on the
folder and ``audit.db``, or ``chown`` when another user owns the folder; never
for a refusal's own record (``quiet``, doors/doorlog.py), whose command has one
``forest:`` line already and holds no act to lose. Nothing is
written where there is no ``.forest/`` directory (a repository never put under
custody, a path outside git): the log never creates an untracked file there.
A refusal recorded where it is raised is marked (``mark_recorded``) so the CLI's
error boundary does not record it twice.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forest_files.custody import auditsql as sql
from forest_files.custody.auditgap import gap_closed, say_gap
from forest_files.custody.relocate import relocate_once
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import AUDIT_DB_NAME, FOREST_DIR
from forest_files.kernel.shellword import first_unprintable, printable
from forest_files.kernel.state import shared_dir
from forest_files.store.clock import utc_now
from forest_files.store.connection import atomic
from forest_files.store.localdb import local_error, open_local

if TYPE_CHECKING:
    from forest_files.custody.auditrecord import AuditRecord

MAX_TARGETS = 64
MAX_TARGET_CHARS = 4096
MAX_PAGE = 1000
_REASON = re.compile(r"[a-z][a-z0-9-]{0,63}")
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_RECORDED = "_forest_audit_recorded"
NO_HEAD = ""  # a caller's ``head`` when it knows there is no commit yet (recorded as null)


class AuditRefused(ForestError):
    """An audit record or page request outside the log's bounds."""


@dataclass(frozen=True)
class Event:
    """What a caller appends (``seq``, time and HEAD are the log's)."""

    action: str
    outcome: str
    reason: str
    actor: str = "local"
    targets: tuple[str, ...] = ()
    counts: Mapping[str, int] = field(default_factory=dict)
    act_id: str | None = None


def reason_of(exc: BaseException) -> str:
    """A refusal's fixed code: its exception type, kebab-cased (never its message)."""
    return _CAMEL.sub("-", type(exc).__name__).lower()[:64]


def mark_recorded(exc: BaseException) -> None:
    """Note on ``exc`` that its refusal is in the log already (see the module)."""
    setattr(exc, _RECORDED, True)


def was_recorded(exc: BaseException) -> bool:
    return bool(getattr(exc, _RECORDED, False))


def _actor(text: str) -> str:
    """The actor, refused if it holds what kernel/shellword.py would escape (a
    control character, U+2028/U+2029, a byte that is not UTF-8): a name is one
    printable line wherever it is shown."""
    if len(text) > MAX_TARGET_CHARS:
        raise AuditRefused(f"audit actor: over {MAX_TARGET_CHARS} characters; sign with a name")
    bad = first_unprintable(text)
    if bad is not None:
        raise AuditRefused(
            f"audit actor: holds {printable(bad)}, an unprintable character; sign with a "
            "name of printable characters (git config user.name, or --as)"
        )
    return text


def _target(text: str) -> str:
    """A target, escaped as ``printable`` shows it: a path or selector is the user's
    name for a file, which may hold any character git allows; its record is kept."""
    if len(text) > MAX_TARGET_CHARS:
        raise AuditRefused(f"audit target: over {MAX_TARGET_CHARS} characters")
    return printable(text)


def _row(event: Event, head: str | None) -> tuple[Any, ...]:
    if event.action not in sql.ACTIONS or event.outcome not in sql.OUTCOMES:
        raise AuditRefused(
            f"audit: unknown action or outcome ({event.action!r}, {event.outcome!r})"
        )
    if _REASON.fullmatch(event.reason) is None:
        raise AuditRefused("audit: a reason is a fixed lower-case code")
    targets = [_target(t) for t in event.targets[:MAX_TARGETS]]
    counts = dict(event.counts)
    if len(event.targets) > MAX_TARGETS:
        counts["targets_left_off"] = len(event.targets) - MAX_TARGETS
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in counts.values()):
        raise AuditRefused("audit: counts are integers")
    return (
        utc_now(),
        _actor(event.actor) or "local",
        event.action,
        event.outcome,
        event.reason,
        json.dumps(targets, ensure_ascii=False),
        json.dumps(counts, sort_keys=True),
        head,
        event.act_id,
    )


def head_at(root: Path) -> str | None:
    """HEAD's commit asked of git (one ``rev-parse``); None on an unborn branch or when
    git cannot say (a missing HEAD is not a revision to fetch: no fetch hint asked)."""
    from forest_files import gitio

    try:
        return gitio.head_commit(root)
    except ForestError:
        return None


def check_page(limit: int, before: int | None) -> None:
    """Refuse a page size outside 1..MAX_PAGE or a ``before`` under 1."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
        raise AuditRefused(f"--limit must be 1..{MAX_PAGE}")
    if before is not None and (isinstance(before, bool) or before < 1):
        raise AuditRefused("--before must be a sequence number (1 or more)")


class AuditLog:
    """``AuditLog(root)``: open (creating) the repository's audit log."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        relocate_once(self.root)
        self.path = shared_dir(self.root) / AUDIT_DB_NAME
        self.conn = open_local(self.root, AUDIT_DB_NAME, sql.SCHEMA_VERSION, sql.SCHEMA)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> AuditLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def append(self, events: Sequence[Event], *, head: str | None = None) -> None:
        """Append every event in one short transaction of its own (``head``: the HEAD
        commit when the caller knows it, as the watcher and the hook do, ``NO_HEAD``
        when it knows there is none, an unborn branch; None: asked of git)."""
        at = head_at(self.root) if head is None else head or None
        rows = [_row(e, at) for e in events]
        try:
            with atomic(self.conn):
                self.conn.executemany(sql.INSERT, rows)
        except sqlite3.Error as exc:
            raise local_error(exc, self.path) from exc

    def page(self, *, limit: int = 50, before: int | None = None) -> list[AuditRecord]:
        """Up to ``limit`` records with ``seq < before`` (all when None), newest first."""
        from forest_files.custody.auditrecord import record_of  # a reader's, never a writer's

        check_page(limit, before)
        top = (1 << 62) if before is None else before
        try:
            rows = self.conn.execute(sql.PAGE, (top, limit)).fetchall()
        except sqlite3.Error as exc:
            raise local_error(exc, self.path) from exc
        return [record_of(r) for r in rows]


def append_events(
    root: Path, events: Sequence[Event], *, head: str | None = None, quiet: bool = False
) -> bool:
    """Append ``events``; False (nothing raised) when the log cannot be written (said
    once per gap in one warning line on stderr, with the fix; ``quiet``: not at all),
    or when ``root`` has no ``.forest/`` directory (nothing is created there)."""
    if not events:
        return True
    if not (Path(root) / FOREST_DIR).is_dir():
        return False
    try:
        with AuditLog(root) as log:
            log.append(events, head=head)
    except (ForestError, OSError, sqlite3.Error) as exc:
        if not quiet:  # the act itself stands (the ledger holds it): said, never silent
            say_gap(Path(root), exc)
        return False
    gap_closed(Path(root))  # written: a gap said is over, and a later one is said again
    return True


def __getattr__(name: str) -> Any:
    """``AuditRecord`` from auditrecord.py when asked: appending never imports it."""
    if name == "AuditRecord":
        from forest_files.custody.auditrecord import AuditRecord

        return AuditRecord
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
