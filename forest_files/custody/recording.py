"""The one write path of custody: planned acts applied, authority judged, one segment.

Stores: one ledger segment per call (with the bodies it needs) and the index rows
its acts make, in one transaction; each recorded act, and each refusal (its
type's code, never its message), in the local audit log (an act's record owed beside
the index from before its segment lands until the log holds it: auditowed.py).
Refuses: a signature without authority over a path an act touches or the caller names
(``AuthorityRefused``, naming the path's holders, at most three; an act tied to no
path is judged over ``**``); a body over ``[policy] max_body_bytes``; everything the
applier refuses; a ledger file that cannot be written (an ``OSError``: one line naming
its directory and the fix: free space when the disk, a quota or a file-size limit
refused it, else kernel/access.py's ``access_fix`` for that file); an act the erase
acts every act names push past the bound of its deps a reader accepts
(``with_erasures``: erase acts of branches that never saw each other, said so). A
refusal leaves nothing: the segment (not in git yet) and every body file this act
created are removed (a body that was there before stays: other acts cite it).
Returns: the ``Applied`` result of each act, in order.
Test: tests/custody/test_repository.py, tests/custody/test_recording.py,
tests/custody/test_access_one_wording.py
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from forest_files.custody import auditlog as audit
from forest_files.custody import auditowed
from forest_files.custody.apply import Applied, Applier
from forest_files.custody.config import ForestConfig, holders_for, may_act
from forest_files.custody.repo_face import Custodian, Recorded
from forest_files.custody.sync import mark_segments
from forest_files.custody.tombscan import TombstoneHit
from forest_files.kernel.access import access_fix
from forest_files.kernel.errors import FREE_SPACE, AuthorityRefused, ForestError, no_space
from forest_files.kernel.paths import LEDGER_DIR
from forest_files.ledger.acts import Act
from forest_files.ledger.early_bodies import EarlyBodies
from forest_files.ledger.segment_write import take_back, write_segment
from forest_files.ledger.segments import read_body
from forest_files.store.forest import ForestStore


def authorize(repo: Custodian, path: str | None, by: str) -> None:
    """``Repository.authorize``: refused (and audited) unless ``by`` may act on ``path``."""
    if path is not None and not may_act(repo.config, path, by):
        refused = AuthorityRefused(
            f"{by!r} holds no authority over {path} ([authority] in forest.toml); "
            f"ask a listed holder{_named(holders_for(repo.config, path))} to record this"
        )
        audit_refusal(repo.root, refused, by, (path,))
        raise refused


def with_erasures(deps: set[str], heads: frozenset[str]) -> set[str]:
    """``deps`` and the erase heads every new act names (``Repository.act``), refused in
    one line when the heads push it past the bound of an act's deps a reader accepts
    (``MAX_ACT_DEPS``) that its own deps keep within: each forget names the erase heads
    of its time, so only forgets on branches that never saw each other, merged, leave
    that many heads; no command folds them."""
    from forest_files.ledger import acts

    out = deps | heads
    if len(deps) <= acts.MAX_DEPS < len(out):
        raise ForestError(
            f"an act names {len(out)} deps, over the bound of {acts.MAX_DEPS} a reader "
            f"accepts: {len(heads)} of them are erase acts no later erase act names "
            "(forgets recorded on branches that never saw each other, then merged), and "
            "every new act names each; it cannot be recorded"
        )
    return out


def _named(holders: tuple[str, ...] | None, shown: int = 3) -> str:
    """`` (A, B, C and N more)``: who may act, so the one refused knows whom to ask."""
    if not holders:
        return ""
    from forest_files.kernel.shellword import printable

    names = ", ".join(printable(h) for h in holders[:shown])
    more = f" and {len(holders) - shown} more" if len(holders) > shown else ""
    return f" ({names}{more})"


def authorize_pathless(repo: Custodian, act: Act) -> None:
    """``Repository.authorize_pathless``: judged as a path only ``**`` matches."""
    by = act.payload.signer
    if not may_act(repo.config, None, by):
        refused = AuthorityRefused(
            f"{by!r} holds no authority over acts tied to no path ('**' in [authority] "
            f"of forest.toml); ask a holder of '**' to record this {act.kind}"
        )
        audit_refusal(repo.root, refused, by, (act.id,))
        raise refused


def record(
    repo: Custodian,
    store: ForestStore,
    build: Callable[[ForestStore], Recorded],
    *,
    bodies_first: Mapping[str, str] | None,
    also_judge: str | None,
    on_refusal: Callable[[BaseException], None] | None,
) -> list[Applied]:
    """``Repository.record`` once the index is synced (its docstring says how)."""
    written: Path | None = None
    early: EarlyBodies | None = None
    planned: list[Act] = []
    created: list[Path] = []  # body files this act placed that were not there before
    owed: Path | None = None  # the marker of the records the log owes until it holds them
    head = audit.head_at(repo.root)  # HEAD as the acts are recorded: their records'
    try:
        with store.atomic():
            # Started under the write lock: another recorder cannot be placing
            # (or discarding) the same body files meanwhile.
            if bodies_first:
                early = EarlyBodies(repo.ledger_dir, bodies_first)
            acts, bodies = build(store)
            planned = acts
            within_policy(repo.config, bodies)

            def read(body_hash: str) -> str | None:
                text = bodies.get(body_hash)
                return text if text is not None else read_body(repo.ledger_dir, body_hash)

            results = Applier(store, read, live=True).apply_many(acts)
            for result in results:
                paths = set(result.paths) | ({also_judge} if also_judge else set())
                for path in sorted(paths):
                    repo.authorize(path, result.act.payload.signer)
                if not paths:  # tied to no path: judged as one only '**' matches
                    repo.authorize_pathless(result.act)
            events = [_ceremony(r) for r in results]
            # Before the segment lands: a kill between it and the log's commit leaves
            # the act standing and its records owed, restored by the next sync.
            owed = auditowed.owe(repo.root, events, head)
            try:
                done = early.finish() if early is not None else frozenset()
                rest = {h: text for h, text in bodies.items() if h not in done}
                segment = write_segment(repo.ledger_dir, acts, rest, created)
            except OSError as exc:
                raise unwritable(repo.root, exc) from exc
            written = segment.path if segment.placed else None  # never one it found there
            mark_segments(store, repo.ledger_dir, [segment.name])
    except BaseException as exc:
        if written is not None:  # not committed to git yet: nobody can hold it
            written.unlink(missing_ok=True)
        # Then its bodies: text nobody adopted must not wait in the ledger for the
        # next `git add`. Only files this act created; one already there is cited.
        take_back(created)
        auditowed.paid(owed)
        if early is not None:
            early.discard()
        if isinstance(exc, ForestError) and not isinstance(exc, AuthorityRefused):
            if on_refusal is not None:  # the caller audits it, with its targets
                on_refusal(exc)
            else:
                targets = exc.targets if isinstance(exc, TombstoneHit) else ()
                signer = planned[0].payload.signer if planned else "local"
                audit_refusal(repo.root, exc, signer, targets)
        raise
    if audit.append_events(repo.root, events, head=head or audit.NO_HEAD):
        auditowed.paid(owed)  # else kept: the next sync appends them once the log can be
    return results


def unwritable(root: Path, exc: OSError) -> ForestError:
    """A ledger file that could not be written, as a refusal naming its directory and
    the fix its error calls for: free space, or kernel/access.py's for that file (its
    ``chmod``, the ``chown`` of another user's, or what lies beyond the modes)."""
    where = exc.filename2 if exc.filename2 is not None else exc.filename
    place = Path(os.fsdecode(where)).parent if where is not None else None
    if place is None:
        shown = LEDGER_DIR
    elif place.is_relative_to(root):
        shown = place.relative_to(root).as_posix()
    else:
        shown = str(place)
    why = exc.strerror or type(exc).__name__
    failed = os.fsdecode(where) if where is not None else str(root / LEDGER_DIR)
    fix = FREE_SPACE if no_space(exc) else access_fix(failed, exc)
    return ForestError(
        f"cannot write {shown} ({why}): {fix}, then run the command again; nothing was recorded"
    )


def audit_refusal(root: Path, exc: BaseException, by: str, targets: tuple[str, ...]) -> None:
    """A refusal, in the local audit log: its type's code, never its message."""
    event = audit.Event("refusal", "refused", audit.reason_of(exc), by, targets)
    audit.append_events(root, [event])
    audit.mark_recorded(exc)  # the CLI's error boundary then records nothing more


def within_policy(config: ForestConfig, bodies: Mapping[str, str]) -> None:
    limit = config.max_body_bytes
    for text in bodies.values():
        size = len(text.encode("utf-8"))
        if size > limit:
            raise ForestError(
                f"a body of {size} bytes is over [policy] max_body_bytes = {limit} "
                "in forest.toml; bind a smaller section or raise the limit"
            )


def _ceremony(result: Applied) -> audit.Event:
    """A recorded act, in the local audit log: ids and paths, never text."""
    act = result.act
    targets = (act.id, *result.produced, *sorted(result.paths))
    return audit.Event(act.kind, "ok", "recorded", act.payload.signer, targets, act_id=act.id)
