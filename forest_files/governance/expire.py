"""``forest expire --as-of T``: explicit expiry of local, never-adopted bodies.

Per kind, ``[retention]`` in forest.toml gives a number of days; a body older
than ``T`` minus that many days goes: a proposal's text (and its earlier
versions; the row keeps its text hash and the ground it diverged from), a
restore capture's file (named by time and hash prefix). A kind without a
retention line is kept. Never a background job: only this command expires.
Ground, the ledger and the index never expire. What only a library store keeps
(the retrieval log, pairs, scrolls) expires through retention.py instead.

Stores: deletes what expires; one ``expiry`` record in the audit log (counts
and text hashes).
Refuses: an ``--as-of`` that is not an ISO-8601 time with a time zone.
Returns: ``Expired`` (counts and hashes, never text).
Test: tests/custody/test_expire.py
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from forest_files.custody import auditlog as audit
from forest_files.custody.config import ForestConfig
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import CAPTURES_DIR, LOCAL_DB_NAME
from forest_files.kernel.state import shared_dir

# restore.capture's names: 2026-01-02T030405123456Z-<12 hex>.txt
_CAPTURE = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{6})(\d*)Z-([0-9a-f]{12})\.txt")


@dataclass(frozen=True)
class Expired:
    as_of: str
    proposals: tuple[str, ...]  # text hashes dropped
    captures: tuple[str, ...]  # hash prefixes of the capture files deleted


def parse_as_of(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ForestError(f"--as-of {text!r} is not an ISO-8601 time") from None
    if when.tzinfo is None:
        raise ForestError("--as-of needs a time zone (e.g. 2026-01-31T00:00:00Z)")
    return when.astimezone(UTC)


def stamp(when: datetime) -> str:
    """The store's timestamp form (store/clock.py utc_now), for text comparison."""
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def _captures(root: Path, cutoff: datetime) -> list[str]:
    folder = shared_dir(root) / CAPTURES_DIR
    gone = []
    for path in sorted(folder.glob("*.txt")) if folder.is_dir() else []:
        found = _CAPTURE.fullmatch(path.name)
        if found is None:
            continue  # not a capture this tool wrote: never guessed at
        when = datetime.strptime(found[1], "%Y-%m-%dT%H%M%S").replace(tzinfo=UTC)
        if when < cutoff:
            path.unlink(missing_ok=True)
            gone.append(found[3])
    return gone


def expire(root: Path, config: ForestConfig, as_of: str) -> Expired:
    """Expire what ``config.retention`` allows as of ``as_of`` (see the module)."""
    from forest_files.custody.proposals import ProposalStore

    when = parse_as_of(as_of)
    days = dict(config.retention)
    proposals: list[str] = []
    captures: list[str] = []
    if "proposals" in days and (shared_dir(root) / LOCAL_DB_NAME).exists():
        with ProposalStore(root) as local:
            proposals = local.expire(stamp(when - timedelta(days=days["proposals"])))
    if "captures" in days:
        captures = _captures(root, when - timedelta(days=days["captures"]))
    counts = {"proposals": len(proposals), "captures": len(captures)}
    event = audit.Event("expiry", "ok", "retention", targets=(*proposals, *captures), counts=counts)
    audit.append_events(root, [event])
    return Expired(stamp(when), tuple(proposals), tuple(captures))
