"""Adopt file sections: import, root and bind every section in one act each, one segment.

Stores (through ``Repository.record``: one transaction, one ledger segment per
call, every act applied by the one applier): for each adopted section one
``adopt`` act — an ``import`` entry (origin: the repository anchor, stored
exactly as selected, never scrubbed), its adoption record and its binding
(path, full selector, exclusions, normalisation, hash algorithm, section hash;
declared normalisations as format 3's ``normalise`` field, canonical and sorted).
Refuses: a signature without authority over a section's path (before any file
is read twice or written); an adoption of a section already bound (by the same
selector, or a heading by another name: its id or its heading path); everything
the applier refuses.
Returns: ``BoundSection`` values (content ids, never local row ids);
``unbound_only``: the sections no live binding holds yet, and how many were left out.
Test: tests/custody/test_file_custody.py, tests/custody/test_bulk_adopt.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from forest_files.custody.bindings import all_bindings
from forest_files.custody.heading_names import held_elsewhere
from forest_files.custody.section_text import BoundSection, SectionText
from forest_files.kernel.errors import ForestError
from forest_files.kernel.gcpause import gc_paused
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.shellword import command_text, forest_step
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import BindSpec

if TYPE_CHECKING:
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore


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
        bindings = all_bindings(store)
        live = {(b.path, b.selector) for b in bindings}
        for section in unique:
            if (section.path, section.selector) in live:
                supersede = forest_step("supersede", section.selector, options=("--words", "…"))
                raise ForestError(
                    f"{section.selector} is already bound; change it with "
                    f"`{command_text(supersede)}`"
                )
        for selector, other in held_elsewhere(repo.root, bindings, unique).items():
            supersede = forest_step("supersede", other.selector, options=("--words", "…"))
            raise ForestError(
                f"{selector} is a heading bound already as {other.selector} (binding "
                f"{other.bind_act[:12]}); a second binding of it would contest it: change "
                f"it with `{command_text(supersede)}`"
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
    (``forest adopt --skip-bound``: re-running a glob takes in only new files); a
    heading bound under another name (its id, its heading path) is bound."""
    bindings = all_bindings(repo.synced())
    live = {(b.path, b.selector) for b in bindings}
    kept = [s for s in sections if (s.path, s.selector) not in live]
    elsewhere = held_elsewhere(repo.root, bindings, kept)  # one heading, another name
    kept = [s for s in kept if s.selector not in elsewhere]
    return kept, len(sections) - len(kept)
