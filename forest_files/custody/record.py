"""File custody acts: adopt sections, supersede them, rebind and retire bindings.

Stores (through ``Repository._record``: one transaction, one ledger segment
per call, every act applied by the one applier): for each adopted section
one ``adopt`` act — an ``import`` entry (origin: the repository anchor, stored
exactly as selected, never scrubbed), its adoption record and its binding
(path, full selector, exclusions, normalisation, hash algorithm, section hash).
Refuses: a signature without authority over a path an act touches (derived
by the applier: the bound paths of the chain, both paths of a rebind); an
adoption of a section already bound; a supersede whose binding is retired or
whose section text is unchanged; a rebind to text that is not ground unless
words are given (then the rebind act carries a supersession of that ground);
everything the applier refuses.
Returns: ``BoundSection`` values (content ids, never local row ids).
Test: tests/custody/test_file_custody.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from forest_files.custody.applied import chain_deps
from forest_files.custody.bindings import Binding, all_bindings, event_acts
from forest_files.custody.plan import plan_supersede
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import BindSpec, RebindAct, RetireAct
from forest_files.ledger.segments import gc_paused
from forest_files.store.base import utc_now

if TYPE_CHECKING:
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore


@dataclass(frozen=True)
class SectionText:
    """A section as read from a file, ready to be recorded."""

    path: str
    selector: str
    excludes: tuple[str, ...]
    text: str
    normalisation: str
    hash_algo: str = "sha256"


@dataclass(frozen=True)
class BoundSection:
    path: str
    selector: str
    content_id: str
    binding: str


def _spec(section: SectionText) -> BindSpec:
    """The binding a section is recorded with: its exclusions, and its declared
    normalisations (``normalise:NAME@V`` items of ``excludes``) as format 3's
    ``normalise`` field, canonical and sorted."""
    excludes, normalise = split_rules(section.excludes)
    return BindSpec(
        path=section.path,
        selector=section.selector,
        excludes=excludes,
        normalisation=section.normalisation,
        hash_algo=section.hash_algo,
        section_hash=hash_body(section.text),
        normalise=normalise,
    )


def split_rules(rules: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(exclusions, canonical sorted normalisations) of a section's rules."""
    excludes = tuple(r for r in rules if not r.startswith("normalise:"))
    names = [r[10:] for r in rules if r.startswith("normalise:")]
    if not names:
        return excludes, ()
    from forest_files.text.normalisers import canonical_list

    return excludes, canonical_list(names)


def _binding_deps(store: ForestStore, binding: Binding, head: int) -> set[str]:
    """A binding act depends on the act that made its ground and on the binding's
    latest event, so replay meets both first and judges it at the same state."""
    deps = chain_deps(store, head)
    return deps | {event_acts(store, binding.bind_act)[-1]}


def adopt_sections(
    repo: Repository, sections: Sequence[SectionText], *, words: str, by: str
) -> list[BoundSection]:
    """Import, root and bind every section in one transaction and one segment.

    A section named twice (a glob and an explicit path) is adopted once; each
    section is one ``adopt`` act.
    """
    named: dict[tuple[str, str], SectionText] = {}
    for section in sections:
        named.setdefault((section.path, section.selector), section)
    unique = list(named.values())
    for section in unique:  # early, before any file is read twice or written
        repo.authorize(section.path, by)
    specs = [_spec(s) for s in unique]  # each section's text hashed once

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        live = {(b.path, b.selector) for b in all_bindings(store)}
        for section in unique:
            if (section.path, section.selector) in live:
                raise ForestError(
                    f"{section.selector} is already bound; change it with "
                    f"`forest supersede {section.selector} --words …`"
                )
        items = [
            (s.text, {"path": s.path, "selector": s.selector}, spec)
            for s, spec in zip(unique, specs, strict=True)
        ]
        return repo.adoptions(store, items, words=words, by=by)

    # Every body is known now: the section texts and the adopting words.
    first = {spec.section_hash: s.text for s, spec in zip(unique, specs, strict=True)}
    if unique:
        first[hash_body(words.strip())] = words.strip()
    with gc_paused():  # thousands of live acts and rows: no collector passes over them
        results = repo.record(build, bodies_first=first)
    return [
        BoundSection(s.path, s.selector, r.produced[0], r.act.id)
        for s, r in zip(unique, results, strict=True)
    ]


def unbound_only(
    repo: Repository, sections: Sequence[SectionText]
) -> tuple[list[SectionText], int]:
    """The sections no live binding holds yet, and how many were left out
    (``forest adopt --skip-bound``: re-running a glob takes in only new files)."""
    live = {(b.path, b.selector) for b in all_bindings(repo.synced())}
    kept = [s for s in sections if (s.path, s.selector) not in live]
    return kept, len(sections) - len(kept)


def supersede_section(
    repo: Repository,
    binding: Binding,
    section: SectionText,
    *,
    words: str,
    by: str,
    expected_body_hash: str,
) -> str:
    """Adopt the text the file holds now as the binding's new ground; one segment.

    The binding follows its chain to the new ground; no rebind is recorded."""
    return supersede_sections(repo, [(binding, section, expected_body_hash)], words=words, by=by)[0]


def supersede_sections(
    repo: Repository,
    items: Sequence[tuple[Binding, SectionText, str]],
    *,
    words: str,
    by: str,
) -> list[str]:
    """Supersede every (binding, section read now, hash that was shown) in one segment
    with one set of words: each act records exactly the hash that was shown, or
    nothing is recorded (law 4, per target)."""
    return rebind_and_supersede(repo, (), items, words=words, by=by)[1]


def rebind_and_supersede(
    repo: Repository,
    moves: Sequence[tuple[Binding, SectionText]],
    items: Sequence[tuple[Binding, SectionText, str]],
    *,
    words: str | None,
    by: str,
) -> tuple[list[str], list[str]]:
    """``rebind_sections`` of ``moves`` and ``supersede_sections`` of ``items`` as one
    segment (the hook's one route for a commit): every act judged as those two judge
    it, and nothing recorded unless all may be. Returns (rebind act ids, new ground
    content ids)."""
    _authorize_moves(repo, moves, by)
    _check_shown(repo, items, by)
    if items and words is None:
        raise ForestError("a supersede needs --words saying why the new text is right")

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        acts, bodies = _rebind_acts(repo, store, moves, by=by, words=words)
        more, texts = _supersede_acts(repo, store, items, words=words or "", by=by)
        return [*acts, *more], {**bodies, **texts}

    applied = repo.record(build)
    cut = len(moves)
    return [r.act.id for r in applied[:cut]], [r.produced[0] for r in applied[cut:]]


def _check_shown(
    repo: Repository, items: Sequence[tuple[Binding, SectionText, str]], by: str
) -> None:
    for binding, section, shown in items:
        repo.authorize(binding.path, by)
        if hash_body(section.text) != shown:
            raise ForestError(
                f"{section.selector}: the text changed since it was shown "
                f"(expected {shown[:12]}); look again and supersede what you saw"
            )


def _supersede_acts(
    repo: Repository,
    store: ForestStore,
    items: Sequence[tuple[Binding, SectionText, str]],
    *,
    words: str,
    by: str,
) -> tuple[list[Act], dict[str, str]]:
    acts: list[Act] = []
    bodies: dict[str, str] = {}
    for binding, section, _ in items:
        head = _ground_of(store, binding)
        if store.require(head, "supersede")["body_hash"] == hash_body(section.text):
            raise ForestError(
                f"{binding.selector} already holds its ground text; nothing to supersede"
            )
        planned = plan_supersede(store, head, section.text, words=words, by=by)
        acts.append(repo.act(planned, chain_deps(store, head)))
        bodies[planned.entry.body_hash] = section.text
        bodies[planned.record.body_hash] = words.strip()
    return acts, bodies


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


def rebind_section(
    repo: Repository, binding: Binding, section: SectionText, *, by: str, words: str | None = None
) -> str:
    """Point a binding at a new path/selector (a moved or renamed section); with
    ``words``, text that differs from ground is superseded in the same act."""
    return rebind_sections(repo, [(binding, section)], by=by, words=words)[0]


def rebind_sections(
    repo: Repository,
    moves: Sequence[tuple[Binding, SectionText]],
    *,
    by: str,
    words: str | None = None,
) -> list[str]:
    """Every (binding, new location) as one rebind act, in one segment (a directory
    moved). A location whose text is not ground is refused without ``words``; with
    them its act also supersedes ground with that text (the chain is kept)."""
    return rebind_and_supersede(repo, moves, (), words=words, by=by)[0]


def _authorize_moves(
    repo: Repository, moves: Sequence[tuple[Binding, SectionText]], by: str
) -> None:
    for binding, section in moves:
        repo.authorize(binding.path, by)
        repo.authorize(section.path, by)


def _rebind_acts(
    repo: Repository,
    store: ForestStore,
    moves: Sequence[tuple[Binding, SectionText]],
    *,
    by: str,
    words: str | None,
) -> tuple[list[Act], dict[str, str]]:
    acts: list[Act] = []
    bodies: dict[str, str] = {}
    for binding, section in moves:
        head = _ground_of(store, binding)
        payload = _rebind_payload(store, head, binding, section, by=by, words=words)
        if payload.supersede is not None:
            bodies[payload.section_hash] = section.text
            bodies[payload.supersede.record.body_hash] = (words or "").strip()
        acts.append(repo.act(payload, _binding_deps(store, binding, head)))
    return acts, bodies


def _rebind_payload(
    store: ForestStore,
    head: int,
    binding: Binding,
    section: SectionText,
    *,
    by: str,
    words: str | None,
) -> RebindAct:
    ground = str(store.require(head, "rebind")["body_hash"])
    now = hash_body(section.text)
    part = None
    if now != ground:
        if words is None:
            raise ForestError(
                f"{section.selector} holds text other than the ground of {binding.selector}; "
                "to move the binding and adopt that text in one act, add --words '…' "
                "saying why the new text is right"
            )
        part = plan_supersede(store, head, section.text, words=words, by=by)
    return RebindAct(
        binding=binding.bind_act,
        path=section.path,
        selector=section.selector,
        section_hash=now,
        by=by,
        at=utc_now(),
        supersede=part,
    )


def retire_binding(repo: Repository, binding: Binding, *, words: str, by: str) -> str:
    """End a binding by a recorded act (a deleted or deprecated file section)."""
    repo.authorize(binding.path, by)
    if not words.strip():
        raise ForestError("retire without words refused: say why the binding ends")

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        payload = RetireAct(binding=binding.bind_act, words=words.strip(), by=by, at=utc_now())
        deps = {binding.bind_act, event_acts(store, binding.bind_act)[-1]}
        return [repo.act(payload, deps)], {}

    return repo.record(build)[0].act.id
