"""Replay's second pass: no erased text left in the index; live ground an erase emptied, named.

Replay judges each act against its own dependencies (DESIGN's rule), so an
erase whose dependencies leave out a live adoption of the same text (a forged
act, or an honest merge of a forget with a branch that adopted the identical
text) is applied, and an adoption that never saw an erase keeps its text.
This pass looks at the result: every entry holding a body hash some erase
removed is erased too, whatever the order the acts came in (the index never
keeps erased text); and a live head whose body is erased is ground no check
can compare a file with: ``ground_map`` marks it (``ERASED_HEAD``) and the
engine reports the binding as ``erased-content``, naming the act that made
the ground and the erase act. Its way out never needs the erased text: take
the text out of the file and ``forest supersede`` (or ``forest retire``).

Stores: the erasures of the entries it erases (``ForestStore.erase_body``,
with the signer, reason and time of the erasure already recorded for that hash).
Refuses: ``refuse_restore``: restoring such a ground (there is no text to write;
the marker is never written into a file), one ``forest:`` line, audited.
Returns: ``settle``: how many entries it erased; ``erased_hashes``; ``mark``:
the ``ERASED_HEAD`` heads of an erased live ground; ``erased_by``: the
(erase act, maker act) a ground's heads name; ``sealed_erased``: the content id
of a sealed ground a forget erased (``SEALED_ERASED_HEAD``, marked by
``ground_map``: its way out is an unseal and a supersede, or a retire);
``is_mark``: heads that mark either, not a contest.
Test: tests/governance/test_erased_ground.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files.kernel.shellword import command_text, forest_step

TYPE_CHECKING = False
if TYPE_CHECKING:  # the ground map imports this module: nothing heavy at import time
    from forest_files.store.forest import ForestStore

# A live head whose body an erase removed: its ground's heads are this one string.
ERASED_HEAD = "erased:"
# A chain with no live head whose sealed head's body a forget erased (the usual way
# to erase: seal, then forget): its ground's heads are this string and the content id.
SEALED_ERASED_HEAD = "sealed-erased:"

_ERASED = (
    "SELECT e.body_hash, x.signature, x.reason, x.created_at FROM erasures x "
    "JOIN entries e ON e.id = x.entry_id ORDER BY x.rowid"
)
_LEFT = (
    "SELECT id FROM entries WHERE body_hash = ? "
    "AND id NOT IN (SELECT entry_id FROM erasures) ORDER BY id"
)
_TOMB_ACT = "SELECT act_id FROM tombstone_lines WHERE fingerprint = ? ORDER BY act_id LIMIT 1"
_ERASED_IDS = (
    "SELECT e.content_id FROM erasures x JOIN entries e ON e.id = x.entry_id "
    "WHERE e.content_id IN ({marks})"
)


def erased_hashes(store: ForestStore) -> frozenset[str]:
    """Body hashes the index holds as erased."""
    return frozenset(str(r[0]) for r in store.conn.execute(_ERASED))


def settle(store: ForestStore) -> int:
    """Erase every entry still holding a body hash an erase removed (call inside the
    replay's transaction); the number erased."""
    done = 0
    seen: set[str] = set()
    for body_hash, signature, reason, at in store.conn.execute(_ERASED).fetchall():
        if body_hash in seen:
            continue
        seen.add(body_hash)
        for (entry_id,) in store.conn.execute(_LEFT, (body_hash,)).fetchall():
            store.erase_body(int(entry_id), signature=signature, reason=reason, at=at)
            done += 1
    return done


def erased_among(store: ForestStore, content_ids: list[str]) -> set[str]:
    """Those of ``content_ids`` whose body is erased (one query per 500)."""
    out: set[str] = set()
    for start in range(0, len(content_ids), 500):
        chunk = content_ids[start : start + 500]
        rows = store.conn.execute(_ERASED_IDS.format(marks=",".join("?" * len(chunk))), chunk)
        out.update(str(r[0]) for r in rows)
    return out


def mark(store: ForestStore, content_id: str, body_hash: str) -> tuple[str]:
    """The heads of an erased live ground: the erase act and the act that made it."""
    from forest_files.custody import tombstone
    from forest_files.custody.applied import creator_act
    from forest_files.custody.apply import project_of

    fp = tombstone.body_mark(project_of(store) or "", body_hash)
    row = store.conn.execute(_TOMB_ACT, (fp,)).fetchone()
    erase = "" if row is None else str(row[0])
    return (f"{ERASED_HEAD}{erase}:{creator_act(store, content_id) or ''}",)


def erased_by(heads: tuple[str, ...]) -> tuple[str, str] | None:
    """(erase act, act that made the ground) when ``heads`` mark an erased ground."""
    if len(heads) != 1 or not heads[0].startswith(ERASED_HEAD):
        return None
    erase, _, maker = heads[0].removeprefix(ERASED_HEAD).partition(":")
    return erase, maker


def sealed_erased(heads: tuple[str, ...]) -> str | None:
    """The content id of a sealed ground whose body a forget erased, when ``heads``
    mark one (``ground_map``)."""
    if len(heads) != 1 or not heads[0].startswith(SEALED_ERASED_HEAD):
        return None
    return heads[0].removeprefix(SEALED_ERASED_HEAD)


def is_mark(heads: tuple[str, ...]) -> bool:
    """``heads`` mark an erased ground (either kind), not the heads of a contest."""
    return erased_by(heads) is not None or sealed_erased(heads) is not None


def refuse_restore(root: Path, store: ForestStore, selector: str, content_id: str) -> None:
    """Refuse (one ``forest:`` line, audited with ids and hashes) to restore a ground
    whose body an erase removed: there is no text to write, and the marker is none."""
    from forest_files.custody import auditlog as audit
    from forest_files.kernel.errors import ForestError

    if not erased_among(store, [content_id]):
        return
    (body_hash,) = store.conn.execute(
        "SELECT body_hash FROM entries WHERE content_id = ?", (content_id,)
    ).fetchone()
    erase, _maker = erased_by(mark(store, content_id, str(body_hash))) or ("", "")
    words = ("--words", "…")
    supersede = command_text(forest_step("supersede", selector, options=words))
    retire = command_text(forest_step("retire", selector, options=words))
    refused = ForestError(
        f"{selector}: its ground {content_id[:12]} has no text to restore — erase act "
        f"{erase[:12]} (forest forget) removed its body; nothing was written. Take the "
        f"erased text out of the file, then `{supersede}` (or `{retire}`)"
    )
    targets = (selector, content_id, str(body_hash), erase)
    audit.append_events(root, [audit.Event("drift", "refused", "erased-ground", targets=targets)])
    audit.mark_recorded(refused)
    raise refused
