"""File custody acts: adopt sections, supersede them, rebind and retire bindings.

Stores (through ``Repository._record``: one transaction, one ledger segment
per call): for each adopted section an ``import`` entry (origin: the
repository anchor, stored exactly as selected, never scrubbed), its root, and a
``bind`` act recording path, full selector, exclusions, normalisation, hash
algorithm, section hash and the whole-file hash it was verified against.
Refuses: a signature without authority over a path; a supersede whose
binding is retired or whose section text is unchanged; everything the store
gates refuse.
Returns: ``BoundSection`` values (content ids, never local row ids).
Test: tests/test_file_custody.py
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forest_files.errors import ForestError
from forest_files.hashing import hash_body
from forest_files.ledger.acts import Act, make_act
from forest_files.ledger.bindings import Binding, all_bindings, apply_binds, apply_rebind
from forest_files.ledger.record import adopted_bodies
from forest_files.ledger.replay import deps_for, mark_applied, mark_applied_many
from forest_files.store.base import utc_now

if TYPE_CHECKING:
    from forest_files.repository import Repository
    from forest_files.store.forest import ForestStore


@dataclass(frozen=True)
class SectionText:
    """A section as read from a file, ready to be recorded."""

    path: str
    selector: str
    excludes: tuple[str, ...]
    text: str
    file_hash: str
    normalisation: str
    hash_algo: str = "sha256"


@dataclass(frozen=True)
class BoundSection:
    path: str
    selector: str
    content_id: str
    binding: str


def _section_fields(section: SectionText, by: str, **extra: Any) -> dict[str, Any]:
    """The fields every bind and rebind act carries about its section."""
    return {
        "path": section.path,
        "selector": section.selector,
        "section_hash": hash_body(section.text),
        "file_hash": section.file_hash,
        "by": by,
        "at": utc_now(),
        **extra,
    }


def _rebind_act(
    store: ForestStore, section: SectionText, entry_id: int, by: str, *, binding: str
) -> Act:
    # A rebind depends on the act that made the entry ground (its root or
    # supersession) and on the binding it moves, so replay meets them first.
    deps = deps_for(store, refs=[entry_id], status_of=[entry_id]) | {binding}
    act = make_act("rebind", deps, _section_fields(section, by, binding=binding))
    apply_rebind(store, act)
    mark_applied(store, act.id, [], deps=act.deps)
    return act


def _entry_act(
    store: ForestStore, kind: str, deps: set[str], extra: dict[str, Any] | None = None, **refs: int
) -> Act:
    """An act naming entries (the repository's one act builder, keyword form)."""
    from forest_files.repository import _act

    return _act(store, kind, deps, dict(refs), extra)


def _latest_adoption(store: ForestStore, entry_id: int) -> int:
    row = store.conn.execute(
        "SELECT from_id FROM edges WHERE to_id = ? AND kind = 'adopts' ORDER BY id DESC LIMIT 1",
        (entry_id,),
    ).fetchone()
    return int(row[0])


def adopt_sections(
    repo: Repository, sections: Sequence[SectionText], *, words: str, by: str
) -> list[BoundSection]:
    """Import, root and bind every section in one transaction and one segment.

    A section named twice (a glob and an explicit path) is adopted once. The
    entries are written and rooted in one store batch (``import_and_root``);
    each section's acts are ``write`` → ``root`` → ``bind``, as replay applies them.
    """
    named: dict[tuple[str, str], SectionText] = {}
    for section in sections:
        named.setdefault((section.path, section.selector), section)
    unique = list(named.values())
    for section in unique:
        repo._authorize(section.path, by)
    out: list[BoundSection] = []

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        from forest_files.repository import import_batch

        live = {(b.path, b.selector) for b in all_bindings(store)}
        for section in unique:
            if (section.path, section.selector) in live:
                raise ForestError(
                    f"{section.selector} is already bound; change it with "
                    f"`forest supersede {section.selector} --words …`"
                )
        items = [(s.text, {"path": s.path, "selector": s.selector}) for s in unique]
        adopted, pairs = import_batch(store, repo, items, words=words, by=by)
        made: list[tuple[Act, list[str]]] = []
        binds: list[tuple[Act, int, str]] = []
        for pos, (section, new) in enumerate(zip(unique, adopted, strict=True)):
            pair = pairs[2 * pos : 2 * pos + 2]  # (write, produced), (root, produced)
            write, root = pair[0][0], pair[1][0]
            fields = _section_fields(
                section,
                by,
                entry=new.entry.content_id,
                excludes=list(section.excludes),
                normalisation=section.normalisation,
                hash_algo=section.hash_algo,
            )
            # Known without a query: the write made the entry, the root made it ground.
            bind = make_act("bind", {write.id, root.id}, fields)
            made += [*pair, (bind, [])]
            binds.append((bind, new.entry_id, new.entry.body_hash))
            out.append(BoundSection(section.path, section.selector, new.entry.content_id, bind.id))
        mark_applied_many(store, made)
        apply_binds(store, binds)
        return [act for act, _ in made], adopted_bodies(adopted)

    # Every body is known now: the section texts and the adopting words.
    first = {hash_body(s.text): s.text for s in unique}
    if unique:
        first[hash_body(words.strip())] = words.strip()
    repo._record(build, bodies_first=first)
    return out


def supersede_section(
    repo: Repository,
    binding: Binding,
    section: SectionText,
    *,
    words: str,
    by: str,
    expected_body_hash: str,
) -> str:
    """Adopt the text the file holds now as the binding's new ground; one segment."""
    repo._authorize(binding.path, by)
    new_cid: list[str] = []

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        head = _ground_of(store, binding)
        if store._require(head, "supersede")["body_hash"] == hash_body(section.text):
            raise ForestError(
                f"{binding.selector} already holds its ground text; nothing to supersede"
            )
        deps = deps_for(store, refs=[head], status_of=[head])
        new_id = store.supersede(
            old_id=head,
            new_body=section.text,
            adopting_words=words,
            adopting_signature=by,
            signature=by,
            scrub=None,
            expected_body_hash=expected_body_hash,
            stamp=(utc_now(), secrets.token_hex(8)),
        )
        record = _latest_adoption(store, new_id)
        act = _entry_act(
            store,
            "supersede",
            deps,
            {"path": binding.path},
            old=head,
            entry=new_id,
            record=record,
        )
        rebind = _rebind_act(store, section, new_id, by, binding=binding.bind_act)
        new_cid.append(store.content_id(new_id))
        bodies = {hash_body(section.text): section.text}
        bodies[str(store._require(record, "supersede")["body_hash"])] = words.strip()
        return [act, rebind], bodies

    repo._record(build)
    return new_cid[0]


def _ground_of(store: ForestStore, binding: Binding) -> int:
    """The live head of the binding's chain, or a refusal naming the problem."""
    heads = store.contest_heads(binding.entry_id)
    if len(heads) > 1:
        raise ForestError(
            f"{binding.selector} is contested; resolve it first "
            f"(`forest resolve {store.content_id(heads[0])} --pick … --words …`)"
        )
    if not heads or not store.is_ground(heads[0]):
        raise ForestError(f"{binding.selector} has no current ground (sealed?)")
    return heads[0]


def ground_body(store: ForestStore, binding: Binding) -> tuple[int | None, str]:
    """(entry id, status) of the binding's ground: status is ground|contested|none."""
    heads = store.contest_heads(binding.entry_id)
    if len(heads) > 1:
        return None, "contested"
    if not heads:
        return None, "none"
    return heads[0], "ground"


def rebind_section(repo: Repository, binding: Binding, section: SectionText, *, by: str) -> str:
    """Point a binding at a new path/selector holding the same text (a moved section)."""
    repo._authorize(binding.path, by)
    repo._authorize(section.path, by)
    if hash_body(section.text) != binding.section_hash:
        raise ForestError(
            f"{section.selector} does not hold the bound text; rebind only moves "
            "unchanged text — use `forest supersede` to adopt new words"
        )
    made: list[str] = []

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        head = _ground_of(store, binding)
        act = _rebind_act(store, section, head, by, binding=binding.bind_act)
        made.append(act.id)
        return [act], {}

    repo._record(build)
    return made[0]


def retire_binding(repo: Repository, binding: Binding, *, words: str, by: str) -> str:
    """End a binding by a recorded act (a deleted or deprecated file section)."""
    from forest_files.ledger.bindings import apply_retire

    repo._authorize(binding.path, by)
    if not words.strip():
        raise ForestError("retire without words refused: say why the binding ends")
    made: list[str] = []

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        fields = {
            "binding": binding.bind_act,
            "path": binding.path,
            "words": words.strip(),
            "by": by,
            "at": utc_now(),
        }
        act = make_act("retire", {binding.bind_act}, fields)
        apply_retire(store, act)
        mark_applied(store, act.id, [], deps=act.deps)
        made.append(act.id)
        return [act], {}

    repo._record(build)
    return made[0]
