"""``forest forget``: erase an adopted body, tombstone its lines, purge local copies.

Order (crash-safe): the erase act is applied inside the index transaction and
its segment written under the write lock, then the transaction commits (the
body is gone from the index and its full-text shadow), then the body file is
deleted from the ledger, then local copies are purged (owed from before the
commit by a marker of hashes only, so a purge that fails or is killed is
finished by the next command's sync: purge.py). A process killed after
the segment landed but before the commit leaves a segment the next sync
replays; killed after the commit, the next sync deletes the body file
(``index_refresh._finish_erasures``). Commit the new segment together with the
body file's deletion: the gate accepts exactly that deletion.

Stores: one segment holding one ``erase`` act (body hash, signer, words, time,
tombstone ``lines``); what ``purge`` deletes and rewrites; a ``purge`` record
in the local audit log (ids and counts); a refused forget as an ``erase``
``refused`` record with a reason code and its targets (content id and body
hash once known; never text, never the id as typed).
Refuses (``ForestError``, nothing written, never echoing text): blank or
placeholder words, a blank signer, words or signer over ``MAX_TEXT``
characters, a body with more long lines than one tombstone holds
(``MAX_TOMBSTONE_LINES``: name them with ``--line``); an unknown content id; a body already
erased; a body live ground holds at the act's dependencies (supersede or seal
it first; another live entry holding the same body refuses it too); a signer
without authority over every path bound to the chains holding the body; a
``--line`` that is shorter than ``MIN_LINE`` characters, is no line of the
body, or is still held by live ground.
A purge that fails after the commit raises ``PurgePending`` (exit 1): the act
stands; ``forest sync`` finishes the purge once the obstacle is gone.
Returns: ``ForgetReport`` (ids, counts, and what forget cannot do).
Test: tests/governance/test_forget.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody import auditlog as audit
from forest_files.custody import tombscan, tombstone
from forest_files.custody.applied import deps_for
from forest_files.custody.purge import (
    Purged,
    clear_pending,
    holder,
    mark_pending,
    purge_failed,
    purge_local,
)
from forest_files.custody.repo_face import Recorded
from forest_files.custody.repository import Repository
from forest_files.governance.forget_rewrite import cannot_do, rewrite_place
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text
from forest_files.ledger.fault import LedgerError
from forest_files.ledger.kinds import MAX_TEXT, MAX_TOMBSTONE_LINES, EraseAct
from forest_files.praise import placeholder_signature, placeholder_words, refuse_praise
from forest_files.store import queries
from forest_files.store.clock import utc_now
from forest_files.store.erasure import ERASED_MARK
from forest_files.store.forest import ForestStore


@dataclass(frozen=True)
class ForgetReport:
    act_id: str
    content_id: str
    body_hash: str
    lines: int  # fingerprints in the tombstone
    kept_out: int  # long lines left out because live ground still holds them
    purged: Purged
    cannot: tuple[str, ...]


def _check_words(words: str, by: str, lines: Sequence[str]) -> None:
    for why in (placeholder_words(words), placeholder_signature(by)):
        if why is not None:
            raise ForestError(why)
    if not words.strip() or not by.strip():
        raise ForestError("forget needs --words (why) and a signer (--as); both non-blank")
    if len(words.strip()) > MAX_TEXT or len(by.strip()) > MAX_TEXT:
        raise ForestError(f"forget: --words and --as hold at most {MAX_TEXT} characters each")
    if len(lines) > MAX_TOMBSTONE_LINES or any(len(line) > MAX_TEXT for line in lines):
        raise ForestError(
            f"forget: at most {MAX_TOMBSTONE_LINES} --line values of {MAX_TEXT} characters"
        )
    refuse_praise(words)


def _bounded(tomb: tuple[str, ...]) -> tuple[str, ...]:
    if len(tomb) > MAX_TOMBSTONE_LINES:
        raise ForestError(
            f"forget: the body has {len(tomb)} long lines, more than one tombstone holds "
            f"({MAX_TOMBSTONE_LINES}); name the lines to block with --line"
        )
    return tomb


def _chosen_lines(
    project: str, body: str, chosen: Sequence[str], live: Sequence[str]
) -> tuple[str, ...]:
    """The tombstone of the ``--line`` spans: each a whole line of the body."""
    of_body = tombstone.line_fingerprints(project, body)
    held = set().union(*(tombstone.line_fingerprints(project, t) for t in live))
    out: set[str] = set()
    for n, given in enumerate(chosen, 1):
        line = tombstone.normalise_line(given)
        if len(line) < tombstone.MIN_LINE:
            raise ForestError(
                f"--line #{n} is shorter than {tombstone.MIN_LINE} characters once "
                "normalised: a short line is guessable and too common to block"
            )
        fp = tombstone.fingerprint(project, line)
        if fp not in of_body:
            raise ForestError(f"--line #{n} is no line of the body being forgotten")
        if fp in held:
            raise ForestError(f"--line #{n} is still in live ground; supersede that first")
        out.add(fp)
    return tuple(sorted(out))


def _tokens(repo: Repository, project: str, text: str, live: Sequence[str]) -> tuple[str, ...]:
    """The token fingerprints of ``text`` (custody/tombtokens.py), less tokens live
    ground holds and hex strings naming an object of this repository (its own
    commit hashes are no secret)."""
    from forest_files.custody import tombtokens
    from forest_files.gitio.history import objects_named

    named = objects_named(repo.root, sorted(tombtokens.hex_candidates(text)))
    tokens = tombstone.tokens_for(project, text, live, innocent=lambda c: c.lower() in named)
    return _bounded(tokens)


@dataclass
class _Planned:
    """What the planning step found (filled inside the transaction)."""

    act_id: str = ""
    content_id: str = ""
    body: str = ""
    body_hash: str = ""
    tomb: tuple[str, ...] = ()
    kept_out: int = 0


def _audit_refused(repo: Repository, exc: BaseException, by: str, seen: _Planned) -> None:
    """A refused forget in the audit log: a reason code and its targets (the entry's
    content id and body hash once known; never text, never the id as typed)."""
    if audit.was_recorded(exc):
        return
    text = str(exc)
    reason = next((code for key, code in _REASONS if key in text), audit.reason_of(exc))
    targets = tuple(t for t in (seen.content_id, seen.body_hash) if t)
    event = audit.Event("erase", "refused", reason, by.strip() or "local", targets)
    audit.append_events(repo.root, [event])
    audit.mark_recorded(exc)


# Forget's own refusals, by the words of their (fixed) messages: the audit's reason.
_REASONS = (
    ("live ground", "live-ground"),
    ("already erased", "already-erased"),
    ("holds no authority", "authority"),
    ("--line", "line"),
    ("tombstone holds", "tombstone-size"),
    ("--words", "words"),
)


def forget(
    repo: Repository,
    content_id: str,
    *,
    words: str,
    by: str,
    lines: Sequence[str] = (),
) -> ForgetReport:
    """Erase the body of ``content_id`` everywhere the index holds it (see module)."""
    seen = _Planned()
    try:
        _check_words(words, by, lines)
    except ForestError as exc:
        _audit_refused(repo, exc, by, seen)
        raise
    project = repo.config.project_id

    def build(store: ForestStore) -> Recorded:
        entry_id = store.local_id(content_id)
        row = store.require(entry_id, "forget")
        body_hash = str(row["body_hash"])
        seen.content_id, seen.body_hash = str(row["content_id"]), body_hash
        erased = {str(r[0]) for r in store.conn.execute(queries.ERASED_BODY_HASHES)}
        if body_hash in erased or str(row["body"]) == ERASED_MARK:
            raise ForestError(_already_erased(repo.ledger_dir, str(row["content_id"]), body_hash))
        body = str(row["body"])
        holders = [
            int(r[0])
            for r in store.conn.execute("SELECT id FROM entries WHERE body_hash = ?", (body_hash,))
        ]
        live = [str(r[0]) for r in store.conn.execute(queries.LIVE_GROUND_BODIES)]
        if lines:
            tomb = _chosen_lines(project, body, lines, live)
        else:
            tomb = _bounded(tombstone.tombstone_for(project, body, live))
        everything = tombstone.line_fingerprints(project, body)
        tokens = _tokens(repo, project, "\n".join(lines) if lines else body, live)
        given = {"--words": words, "--as": by}
        tombscan.refuse_own(project, (*everything, *tokens), given)
        seen.content_id, seen.body, seen.body_hash, seen.tomb = (
            str(row["content_id"]),
            body,
            body_hash,
            tomb,
        )
        seen.kept_out = 0 if lines else len(everything - set(tomb))
        payload = EraseAct(
            body_hash=body_hash,
            by=by.strip(),
            reason=words.strip(),
            at=utc_now(),
            lines=tomb,
            tokens=tokens or None,  # format 3 only when there are tokens (ledger/versions.py)
        )
        act = repo.act(payload, deps_for(store, refs=holders, status_of=holders))
        seen.act_id = act.id
        # Before the commit: from it on the purge is owed, whatever happens next.
        mark_pending(repo.root, act.id, body_hash)
        return [act], {}

    try:
        repo.record(build, on_refusal=lambda exc: _audit_refused(repo, exc, by, seen))
    except BaseException:
        if seen.act_id:  # refused (or failed) before the commit: nothing is owed
            clear_pending(repo.root, seen.act_id)
        raise
    store = repo.store()
    holds = holder(project, seen.body, seen.tomb)
    try:
        purged = purge_local(repo.root, store, holds, repo.ledger_dir)
    except Exception as exc:
        lead = (
            f"erase act {seen.act_id[:12]} is recorded (commit .forest/ledger as usual), "
            "but purging its local copies failed"
        )
        raise purge_failed(repo.root, lead, exc) from exc
    clear_pending(repo.root, seen.act_id)
    counts = {"bodies": purged.bodies, "views": purged.views, "cache_files": purged.cache_files}
    counts["proposals"], counts["lines"] = len(purged.proposals), len(seen.tomb)
    targets = (seen.act_id, seen.content_id, seen.body_hash, *purged.proposals)
    event = audit.Event("purge", "ok", "forget", by.strip(), targets, counts)
    audit.append_events(repo.root, [event])
    return ForgetReport(
        act_id=seen.act_id,
        content_id=seen.content_id,
        body_hash=seen.body_hash,
        lines=len(seen.tomb),
        kept_out=seen.kept_out,
        purged=purged,
        cannot=cannot_do(seen.body_hash, rewrite_place(repo.root)),
    )


def _already_erased(ledger_dir: Path, content_id: str, body_hash: str) -> str:
    """The refusal of a body the index holds as erased: already erased where an erase
    act of the ledger removes it; else the index's erasure is a claim the ledger never
    made (a damaged index: ``forest fsck`` names it, ``forest rebuild`` repairs it)."""
    from forest_files.ledger.act_refs import erased_bodies
    from forest_files.ledger.segments import read_ledger

    try:
        acts = read_ledger(ledger_dir).acts.values()
        made = body_hash in erased_bodies(a.payload for a in acts)
    except LedgerError:  # verify names it; the index's word is all there is
        made = True
    if made:
        return f"forget: the body of {content_id} is already erased"
    return (
        f"forget: the index holds the body of {content_id} as erased, but no erase act of "
        f"the ledger removes it (the index is damaged); run `{forest_text('fsck')}`, then "
        f"`{forest_text('rebuild')}`, and forget again"
    )
