"""Tombstone hits at the doors that accept acts: the pre-commit hook (ledger growth)
and the CI gate / ``forest verify --base`` (every act new in the range).

The applier refuses an act holding tombstoned content only when the erase is in
its dependency closure (live commands always are). An act written without
that dependency (by hand, or on a branch that never saw the forget) replays;
these doors judge every NEW act against every erase of the ledger they accept,
in every text field (tombscan.py): the erased body itself, a line or a token
in its words, signature, file name, selector, reason or any other field. Entry
bodies are judged at HEAD by governance/resurrected.py (``erased-content``);
here an act's fields and its words.

Stores: one ``refusal``/``refused`` record per hit in the local audit log,
reason ``tombstone-hit``, targets the erase act id, the match kind
(``line``/``token``/``body``) and the act id (best effort; never text).
Refuses: nothing (callers report).
Returns: ``Fault`` values (the gate) or findings (the hook): act ids, the
erase act, the match kind, the line number — never text. A hook report with
such a finding shows no adopting words and no diff (``withhold``): the words
the staged ledger names may be the erased content itself.
Test: tests/check/test_tombhits.py
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody import tombscan
from forest_files.custody.tombstone import Tombs
from forest_files.ledger.acts import Act

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.findings import CheckReport
    from forest_files.ledger.segments import LedgerSnapshot
    from forest_files.ledger.verify import Fault
    from forest_files.store.forest import ForestStore

CODE = "erased-content"


def new_act_hits(
    tombs: Tombs, new_acts: Sequence[Act], body_of: tombscan.BodyOf
) -> list[tombscan.ActHit]:
    """The first hit of each of ``new_acts`` against ``tombs`` (every erase's)."""
    if not tombs:
        return []
    out = []
    for act in new_acts:
        found = tombscan.hits(tombs, act.scope, act, body_of, entry_bodies=False)
        if found:
            out.append(found[0])
    return out


def detail(hit: tombscan.ActHit) -> str:
    return f"act {hit.act_id[:12]} ({hit.kind}): {tombscan.describe(hit)}"


def audit(root: Path | str, hits: Sequence[tombscan.ActHit]) -> None:
    """Each hit in the local audit log (see the module docstring); best effort."""
    if not hits:
        return
    try:
        from forest_files.custody.auditlog import Event, append_events

        events = [
            Event(
                "refusal",
                "refused",
                "tombstone-hit",
                targets=(h.erase_act, h.match, h.act_id),
                counts={"line": h.line},
            )
            for h in hits
        ]
        append_events(Path(root), events)
    except Exception:  # best effort: recording never changes a door's verdict
        return


def range_faults(
    root: Path, head: str, new_acts: Sequence[Act], at_head: LedgerSnapshot
) -> list[Fault]:
    """The gate's faults: every new act of the range holding tombstoned content."""
    from forest_files.ledger.verify import Fault

    erases = [a for a in at_head.acts.values() if a.kind == "erase"]
    if not erases:
        return []
    hits = new_act_hits(tombscan.tombs_of(erases), new_acts, _head_words(root, head, new_acts))
    audit(root, hits)
    return [Fault(CODE, at_head.origin(h.act_id), None, h.act_id, detail(h)) for h in hits]


def _head_words(root: Path, head: str, acts: Sequence[Act]) -> tombscan.BodyOf:
    """A reader of the words (record bodies) of ``acts`` in ``head``'s tree."""
    from forest_files import gitio
    from forest_files.custody.sources import body_reader, ledger_blobs

    where = ledger_blobs(root, head, refuse_links=False)  # a link: verify's to report
    wanted = {
        r.body_hash: where.bodies[r.body_hash]
        for a in acts
        for r, label in tombscan.records(a)
        if label != "section text" and r.body_hash in where.bodies
    }
    data = gitio.cat_blobs(root, set(wanted.values()))
    return body_reader({h: data[blob] for h, blob in wanted.items()})


def staged_findings(root: Path, head_commit: str | None, store: ForestStore) -> list[Finding]:
    """The hook's findings: every act of a segment the staged ledger adds (to
    HEAD's) holding content a tombstone of the staged ledger (``store``) holds."""
    from forest_files.check.engine import Finding
    from forest_files.custody.tombstone import load
    from forest_files.kernel.paths import segment_file

    tombs = load(store)
    if not tombs:
        return []
    found_in = _staged_new_acts(root, head_commit)
    hits = new_act_hits(tombs, list(found_in), _store_words(store))
    audit(root, hits)
    return [
        Finding(
            CODE,
            segment_file(found_in[_act(found_in, h.act_id)]),
            "",
            h.act_id,
            None,
            None,
            actual_hash=h.erase_act,
            detail=detail(h),
            act=h.act_id,
        )
        for h in hits
    ]


def _act(found_in: Mapping[Act, str], act_id: str) -> Act:
    return next(a for a in found_in if a.id == act_id)


def _staged_new_acts(root: Path, head_commit: str | None) -> dict[Act, str]:
    """The acts of the segments staged but not in HEAD's tree, with their segment."""
    from forest_files import gitio
    from forest_files.custody.sources import INDEX, ledger_blobs, snapshot_of

    staged = ledger_blobs(root, INDEX, keep_index_file=True, with_bodies=False).segments
    before: Mapping[str, str] = {}
    if head_commit is not None:
        before = ledger_blobs(root, head_commit, with_bodies=False).segments
    new = {name: blob for name, blob in staged.items() if name not in before}
    if not new:
        return {}
    data = gitio.cat_blobs(root, set(new.values()))
    snapshot = snapshot_of({name: data[blob] for name, blob in new.items()}, strict=False)
    return {act: snapshot.origin(act.id) for act in snapshot.acts.values()}


def _store_words(store: ForestStore) -> tombscan.BodyOf:
    """A reader of bodies the index holds (None when absent or erased)."""
    from forest_files.store.entryrow import ERASED_MARK

    def read(body_hash: str) -> str | None:
        row = store.conn.execute(
            "SELECT body FROM entries WHERE body_hash = ? LIMIT 1", (body_hash,)
        ).fetchone()
        return None if row is None or row[0] == ERASED_MARK else str(row[0])

    return read


WITHHELD = "[withheld: the staged ledger holds erased content]"


def withhold(report: CheckReport) -> CheckReport:
    """``report`` without any adopting words (and never a diff): when a staged act
    holds tombstoned content, the words the ledger names may be that content."""
    items = tuple(r._replace(adopted_words=WITHHELD) if r.adopted_by else r for r in report.items)
    extra = tuple(r._replace(adopted_words=WITHHELD) if r.adopted_by else r for r in report.extra)
    return report._replace(items=items, extra=extra)
