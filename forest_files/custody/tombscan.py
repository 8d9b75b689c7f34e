"""Every text an act carries, judged against the tombstones: bodies and every field.

A forgotten line or token must not come back as an act's words (``--words``),
its signature (``--as``), a file name, a selector, an exclusion, a reason, a
timestamp or a meta value, nor in a body. ``texts`` lists an act's texts with
a label a refusal can name (never the text); ``first_hit`` finds the first one
holding tombstoned content; ``describe`` words the refusal: the erase act, the
kind of match (line, token or body) and the line number.

Stores: nothing.
Refuses: nothing itself (callers refuse with ``describe``).
Returns: ``ActHit`` values (labels, line numbers, act ids — never text).
Test: tests/custody/test_tombscan.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from forest_files.custody.tombstone import Tombs, located
from forest_files.kernel.errors import ForestError
from forest_files.ledger.acts import Act, is_hex64
from forest_files.ledger.kinds import EntryRecord, EraseAct, RebindAct

# Field names as a user knows them (the flag that set them, where there is one).
_LABELS = {
    "by": "signature (--as)",
    "signature": "signature (--as)",
    "words": "words (--words)",
    "reason": "words (--words)",
    "path": "file name",
    "selector": "selector",
    "excludes": "exclusion",
}
BodyOf = Callable[[str], str | None]  # body hash -> text, None when absent or erased


class TombstoneHit(ForestError):
    """A live act refused because it holds tombstoned content (audited as
    ``tombstone-hit`` with the erase act and the match kind as its targets)."""

    def __init__(self, message: str, hit: ActHit) -> None:
        super().__init__(message)
        self.hit = hit

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.hit.erase_act, self.hit.match, self.hit.act_id)


@dataclass(frozen=True)
class ActHit:
    act_id: str
    kind: str  # the act's kind
    label: str  # which text: "words (--words)", "file name", "section text" ...
    match: str  # "line", "token" or "body"
    line: int  # 1-based line of that text; 0 for a body match
    erase_acts: frozenset[str]

    @property
    def erase_act(self) -> str:
        return min(self.erase_acts)


def _strings(value: Any, label: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        if not is_hex64(value):  # ids and hashes carry no text
            yield label, value
    elif isinstance(value, Mapping):
        for key in sorted(value):
            yield from _strings(value[key], _LABELS.get(str(key), label))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item, label)


def records(act: Act) -> Iterator[tuple[EntryRecord, str]]:
    owner: object = act.payload
    if isinstance(act.payload, RebindAct) and act.payload.supersede is not None:
        owner = act.payload.supersede  # a rebind that supersedes: its entry and record
    for name, label in (("entry", "section text"), ("record", "words (--words)")):
        record = getattr(owner, name, None)
        if isinstance(record, EntryRecord):
            yield record, label


def texts(
    act: Act, body_of: BodyOf, *, entry_bodies: bool = True
) -> Iterator[tuple[str, str, str | None]]:
    """(label, text, body hash or None) of every text of ``act``: its fields'
    strings (``meta`` values too), then the bodies its entries and records name
    (``entry_bodies=False``: its records' only, the words). An erase's own body
    is not read: it is what the act removes."""
    for key in sorted(act.fields):
        for label, text in _strings(act.fields[key], _LABELS.get(key, key)):
            yield label, text, None
    if isinstance(act.payload, EraseAct):
        return
    for record, label in records(act):
        if label == "section text" and not entry_bodies:
            continue
        body = body_of(record.body_hash)
        if body is not None:
            yield label, body, record.body_hash


def hits(
    tombs: Tombs, project: str, act: Act, body_of: BodyOf, *, entry_bodies: bool = True
) -> list[ActHit]:
    """Every place ``act`` holds tombstoned content (empty when ``tombs`` is)."""
    if not tombs:
        return []
    out: list[ActHit] = []
    for label, text, body_hash in texts(act, body_of, entry_bodies=entry_bodies):
        for hit in located(tombs, project, text, body_hash):
            out.append(ActHit(act.id, act.kind, label, hit.match, hit.line, hit.acts))
    return out


def first_hit(
    tombs: Tombs,
    project: str,
    act: Act,
    body_of: BodyOf,
    seen: Callable[[frozenset[str]], frozenset[str]] | None = None,
) -> ActHit | None:
    """The first hit of ``act``; with ``seen``, only erase acts it returns count
    (the applier: those in the act's dependency closure)."""
    for hit in hits(tombs, project, act, body_of):
        acts = hit.erase_acts if seen is None else seen(hit.erase_acts)
        if acts:
            return ActHit(hit.act_id, hit.kind, hit.label, hit.match, hit.line, acts)
    return None


def describe(hit: ActHit) -> str:
    """The refusal's words: which text, which line, which erase, which match."""
    where = f"its {hit.label}" + (f", line {hit.line}," if hit.line else "")
    what = "is the very body" if hit.match == "body" else f"holds a {hit.match}"
    return (
        f"{where} {what} that erase act {hit.erase_act} removed (forest forget; "
        f"{hit.match} match); take it out and record again — erased content never "
        "comes back"
    )


def tombs_of(acts: Iterable[Act]) -> dict[str, frozenset[str]]:
    """The tombstones a set of acts carries, without an index: fingerprint -> the
    erase acts holding it (lines, tokens and body marks, salted by each act's scope)."""
    from forest_files.custody.tombstone import body_mark

    out: dict[str, set[str]] = {}
    for act in acts:
        p = act.payload
        if isinstance(p, EraseAct):
            for fp in (*(p.lines or ()), *(p.tokens or ()), body_mark(act.scope, p.body_hash)):
                out.setdefault(fp, set()).add(act.id)
    return {fp: frozenset(ids) for fp, ids in out.items()}


def refuse_own(project: str, marks: Iterable[str], given: Mapping[str, str]) -> None:
    """ForestError when a text of ``given`` (label -> text: a forget's words and
    signer) holds a line or token of the tombstone being made (``marks``): the
    erase act would carry the very secret it removes."""
    tombs = dict.fromkeys(marks, frozenset({"-"}))
    for label, text in given.items():
        found = located(tombs, project, text)
        if found:
            hit = found[0]
            raise ForestError(
                f"forget: {label}, line {hit.line}, holds a {hit.match} of the body being "
                f"forgotten ({hit.match} match); say why without quoting it"
            )
