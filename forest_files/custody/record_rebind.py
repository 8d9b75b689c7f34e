"""Supersede and rebind bound sections: the acts that change a binding's ground or place.

Stores (through ``Repository.record``: one transaction, one ledger segment per
call, every act applied by the one applier): a ``supersede`` act per section
whose text the file holds now becomes the binding's new ground (the binding
follows its chain, no rebind recorded), and a ``rebind`` act per moved or
renamed section (with ``words``, one that also supersedes ground with the text
found there: the chain is kept). ``rebind_and_supersede`` records both kinds as
one segment: the hook's one route for a commit.
Refuses: a signature without authority over a path an act touches (derived by
the applier: the bound paths of the chain, both paths of a rebind); a supersede
without words, of text changed since it was shown (law 4, per target; with
``again``, the file read once more under the index's write lock, the lock a
restore renames its files under: custody/restore_gate.py), of text
that is ground already, or of a contested or sealed chain; a rebind to text
that is not ground unless words are given; a rebind to the place the binding
stands already (its selector unchanged: an act that moves nothing); everything
the applier refuses.
Nothing is recorded unless every act may be.
Returns: the new ground's content ids (supersede), the rebind act ids (rebind);
``rebind_payload``: the planned ``RebindAct`` of one binding (renormalise.py
builds on it).
Test: tests/custody/test_file_custody.py, tests/check/test_moves.py,
tests/check/test_bulk_routes.py, tests/governance/test_authority_derived.py
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from forest_files.custody.applied import chain_deps
from forest_files.custody.bindings import Binding
from forest_files.custody.plan import plan_supersede
from forest_files.custody.rebind_tips import tip_acts
from forest_files.custody.record_ground import ground_of
from forest_files.custody.section_text import SectionText
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.shellword import command_text, forest_step
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import RebindAct
from forest_files.store.clock import utc_now

if TYPE_CHECKING:
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore


def _binding_deps(store: ForestStore, binding: Binding, head: int) -> set[str]:
    """A binding act depends on the act that made its ground and on the binding's
    latest event (each tip of one rebound twice: it settles it), so replay meets them
    first and judges it at the same state."""
    deps = chain_deps(store, head)
    return deps | tip_acts(store, binding.bind_act)


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
    again: Callable[[Binding], SectionText] | None = None,
) -> list[str]:
    """Supersede every (binding, section read now, hash that was shown) in one segment
    with one set of words: each act records exactly the hash that was shown, or
    nothing is recorded (law 4, per target). ``again``: the binding's section read
    once more, under the write lock (a restore may have written the file since)."""
    return rebind_and_supersede(repo, (), items, words=words, by=by, again=again).grounds


class Moved(NamedTuple):
    """What ``rebind_and_supersede`` recorded: the rebind act ids, the new grounds of
    the supersedes, and how many rebinds adopted new text as well (the words are kept
    only with acts that adopt text)."""

    rebound: list[str]
    grounds: list[str]
    adopted: int


def rebind_and_supersede(
    repo: Repository,
    moves: Sequence[tuple[Binding, SectionText]],
    items: Sequence[tuple[Binding, SectionText, str]],
    *,
    words: str | None,
    by: str,
    again: Callable[[Binding], SectionText] | None = None,
) -> Moved:
    """``rebind_sections`` of ``moves`` and ``supersede_sections`` of ``items`` as one
    segment (the hook's one route for a commit): every act judged as those two judge
    it, and nothing recorded unless all may be."""
    _authorize_moves(repo, moves, by)
    _refuse_in_place(repo, moves)
    _check_shown(repo, items, by)
    if items and words is None:
        raise ForestError("a supersede needs --words saying why the new text is right")

    def build(store: ForestStore) -> tuple[list[Act], dict[str, str]]:
        if again is not None:  # under the write lock: a restore renames files under it
            _check_shown(repo, [(b, again(b), shown) for b, _, shown in items], by)
        acts, bodies = _rebind_acts(repo, store, moves, by=by, words=words)
        more, texts = _supersede_acts(repo, store, items, words=words or "", by=by)
        return [*acts, *more], {**bodies, **texts}

    applied = repo.record(build)  # the rebinds first, in order
    cut = len(moves)
    return Moved(
        [r.act.id for r in applied[:cut]],
        [r.produced[0] for r in applied[cut:]],
        sum(1 for r in applied[:cut] if r.produced),
    )


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
        head = ground_of(store, binding)
        if store.require(head, "supersede")["body_hash"] == hash_body(section.text):
            raise ForestError(
                f"{binding.selector} already holds its ground text; nothing to supersede"
            )
        planned = plan_supersede(store, head, section.text, words=words, by=by)
        acts.append(repo.act(planned, chain_deps(store, head)))
        bodies[planned.entry.body_hash] = section.text
        bodies[planned.record.body_hash] = words.strip()
    return acts, bodies


def rebind_section(
    repo: Repository, binding: Binding, section: SectionText, *, by: str, words: str | None = None
) -> str:
    """Point a binding at a new path/selector (a moved or renamed section); with
    ``words``, text that differs from ground is superseded in the same act."""
    return rebind_sections(repo, [(binding, section)], by=by, words=words).acts[0]


class Rebound(NamedTuple):
    """The rebind acts recorded, and how many of them adopted new text as well (the
    only acts that keep the words)."""

    acts: list[str]
    adopted: int


def rebind_sections(
    repo: Repository,
    moves: Sequence[tuple[Binding, SectionText]],
    *,
    by: str,
    words: str | None = None,
) -> Rebound:
    """Every (binding, new location) as one rebind act, in one segment (a directory
    moved). A location whose text is not ground is refused without ``words``; with
    them its act also supersedes ground with that text (the chain is kept)."""
    done = rebind_and_supersede(repo, moves, (), words=words, by=by)
    return Rebound(done.rebound, done.adopted)


def _authorize_moves(
    repo: Repository, moves: Sequence[tuple[Binding, SectionText]], by: str
) -> None:
    for binding, section in moves:
        repo.authorize(binding.path, by)
        repo.authorize(section.path, by)


def _refuse_in_place(repo: Repository, moves: Sequence[tuple[Binding, SectionText]]) -> None:
    """A rebind to where the binding stands already would record an act that moves
    nothing (the append-only ledger keeps it for ever): refused, unless two merged
    branches rebound the binding (rebind_tips.py): there it settles the place."""
    for binding, section in moves:
        if (section.path, section.selector) != (binding.path, binding.selector):
            continue
        if len(tip_acts(repo.store(), binding.bind_act)) < 2:
            supersede = forest_step("supersede", binding.selector, options=("--words", "…"))
            raise ForestError(
                f"{binding.selector} is bound there already; nothing rebound, nothing "
                "recorded: give the selector its section moved to (to adopt new text "
                f"where it stands: `{command_text(supersede)}`)"
            )


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
        head = ground_of(store, binding)
        payload = rebind_payload(store, head, binding, section, by=by, words=words)
        if payload.supersede is not None:
            bodies[payload.section_hash] = section.text
            bodies[payload.supersede.record.body_hash] = (words or "").strip()
        acts.append(repo.act(payload, _binding_deps(store, binding, head)))
    return acts, bodies


def rebind_payload(
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
