"""The acts on entries named by content id: adopt text, supersede, seal and unseal,
resolve a contest (record.py has the acts on bound file sections).

Stores: through ``Repository.record`` (recording.py), one segment per call: an
adopt act per body (scrubbed by the default scrub), a supersede, a seal or
unseal, or a resolve act, each with its record's words.
Refuses: a body that is not a string; a supersede whose body (after scrub) does
not hash to the expected hash; a resolve of ground that is not contested, or of
a pick that is not a live head of the contest; an unknown or ambiguous content
id (store.local_id); everything recording.py and the applier refuse.
Returns: content ids of what it records (never local row ids).
Test: tests/custody/test_repository.py
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from forest_files.custody.applied import chain_deps
from forest_files.custody.plan import plan_adoptions, plan_resolve, plan_seal, plan_supersede
from forest_files.custody.replay import deps_for
from forest_files.custody.repo_face import Custodian, Recorded
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.ledger.kinds import BindSpec
from forest_files.scrub import default_scrub
from forest_files.store.forest import ForestStore


def adopt_many(
    repo: Custodian, bodies: Sequence[str], *, words: str, by: str, path: str | None
) -> list[str]:
    """``Repository.adopt_many`` (its docstring says what is refused)."""
    repo.authorize(path, by)
    if not bodies:
        return []
    for body in bodies:
        if not isinstance(body, str):
            raise ForestError(f"body must be a string; got {type(body).__name__}")
    scrubbed = [default_scrub(body) for body in bodies]

    def build(store: ForestStore) -> Recorded:
        items: list[tuple[str, Mapping[str, Any], BindSpec | None]] = [
            (body, {}, None) for body in scrubbed
        ]
        return repo.adoptions(store, items, words=words, by=by)

    results = repo.record(build, also_judge=path)
    return [r.produced[0] for r in results]


def adoptions(
    repo: Custodian,
    store: ForestStore,
    items: Sequence[tuple[str, Mapping[str, Any], BindSpec | None]],
    *,
    words: str,
    by: str,
) -> Recorded:
    """The adopt acts of ``items`` (origin: the repository anchor) and their bodies."""
    anchor = store.ensure_anchor(repo.config.project_id)
    deps = deps_for(store, refs=[anchor])
    planned = plan_adoptions(store, anchor, items, words=words, by=by)
    acts = [repo.act(p, deps) for p in planned]
    bodies = {p.entry.body_hash: body for p, (body, _, _) in zip(planned, items, strict=True)}
    if planned:
        bodies[planned[0].record.body_hash] = words.strip()
    return acts, bodies


def supersede(
    repo: Custodian,
    content_id: str,
    new_body: str,
    *,
    words: str,
    by: str,
    expected_body_hash: str,
    path: str | None,
) -> str:
    """``Repository.supersede``: ground ``content_id`` replaced by ``new_body``."""
    repo.authorize(path, by)
    body = default_scrub(new_body) if isinstance(new_body, str) else new_body
    if not isinstance(body, str):
        raise ForestError(f"supersede: new_body must be a string; got {type(new_body)}")
    if hash_body(body) != expected_body_hash:
        raise ForestError(
            f"supersede: body_hash mismatch for the new body (expected {expected_body_hash}, "
            f"stored {hash_body(body)}); re-read what was shown and supersede exactly that "
            "(note: scrub runs first)"
        )

    def build(store: ForestStore) -> Recorded:
        old = _local(store, content_id)
        planned = plan_supersede(store, old, body, words=words, by=by)
        act = repo.act(planned, chain_deps(store, old))
        return [act], {planned.entry.body_hash: body, planned.record.body_hash: words.strip()}

    return repo.record(build, also_judge=path)[0].produced[0]


def seal_like(
    repo: Custodian, sealing: bool, content_id: str, *, words: str, by: str, path: str | None
) -> str:
    """``Repository.seal`` (``sealing``) or ``unseal``: the record's content id."""
    repo.authorize(path, by)

    def build(store: ForestStore) -> Recorded:
        target = _local(store, content_id)
        planned = plan_seal(store, target, words=words, by=by, sealing=sealing)
        act = repo.act(planned, chain_deps(store, target))
        return [act], {planned.record.body_hash: words}

    return repo.record(build, also_judge=path)[0].produced[0]


def resolve(
    repo: Custodian, content_id: str, *, pick: str, words: str, by: str, path: str | None
) -> str:
    """``Repository.resolve`` (its docstring says how a contest ends)."""
    repo.authorize(path, by)

    def build(store: ForestStore) -> Recorded:
        contested = _local(store, content_id)
        picked = _local(store, pick)
        if not store.is_contested(contested):
            from forest_files.kernel.shellword import forest_text

            raise ForestError(
                f"{content_id} is not contested; `{forest_text('log')}` lists contested ground"
            )
        heads = store.contest_heads(contested)
        if picked not in heads:
            raise ForestError(
                f"{pick} is not a live head of the contest; pick one of "
                + ", ".join(store.content_id(h) for h in heads)
            )
        planned = plan_resolve(store, heads, picked, words=words, by=by)
        act = repo.act(planned, deps_for(store, refs=heads, status_of=heads))
        body = str(store.require(picked, "resolve")["body"])
        return [act], {planned.entry.body_hash: body, planned.record.body_hash: words.strip()}

    return repo.record(build, also_judge=path)[0].produced[0]


def _local(store: ForestStore, content_id: str) -> int:
    """A content id or a unique short id (store.local_id)."""
    return store.local_id(content_id)
