"""The ground of each binding's chain in a store: its content id, body hash, and the
heads of a contest. What a check compares a section with; computed in one pass.

Stores: nothing (reads the index or a view).
Refuses: nothing.
Returns: ``Ground`` tuples keyed by a binding's entry id. A single live head whose
body an erase removed carries, as its heads, one ``erased_ground.ERASED_HEAD``
string naming the erase act and the act that made it (the check reports it as
``erased-content``). A chain with no live head whose one sealed head a forget erased
carries one ``erased_ground.SEALED_ERASED_HEAD`` string naming that content id (the
check says so, and its route is no bare unseal: there is no text to read again).
Test: tests/check/test_check.py, tests/custody/test_bindmap.py
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # a check from a binding map never opens a store: nothing loaded here
    from forest_files.custody.bindings import Binding
    from forest_files.store.forest import ForestStore

Ground = tuple[str | None, str | None, tuple[str, ...]]

# Every live head (adopted, not superseded, not sealed) with its chain, in one
# pass: the per-binding status lookups cost ~7 queries each otherwise.
_HEADS_FROM = """
FROM edges a
JOIN entries r ON r.id = a.from_id AND r.bucket = 'adoption_record'
JOIN entries e ON e.id = a.to_id
WHERE a.kind = 'adopts'
  AND NOT EXISTS (SELECT 1 FROM edges s WHERE s.to_id = e.id AND s.kind = 'supersedes')
  AND COALESCE((SELECT z.kind FROM edges z
                WHERE z.to_id = e.id AND z.kind IN ('seals', 'unseals')
                ORDER BY z.id DESC LIMIT 1), '') != 'seals'
"""
HEAD_COLUMNS = (
    """
SELECT DISTINCT COALESCE(e.chain_root, e.id) AS chain, e.content_id AS content_id,
       e.body_hash AS body_hash"""
    + _HEADS_FROM
)
# All of them, each with its own entry id: a binding made for a head (most are) finds
# its chain here, with no query of its own.
_LIVE_HEADS = (
    """
SELECT DISTINCT e.id, COALESCE(e.chain_root, e.id), e.content_id, e.body_hash"""
    + _HEADS_FROM
)
# The same for a few chains (a hook judging one staged file): by the chain index.
_LIVE_HEADS_OF = HEAD_COLUMNS + "  AND (e.chain_root IN ({marks}) OR e.id IN ({marks}))"
# The sealed heads (adopted, not superseded, last sealed) of a few chains whose content
# an erasure holds: asked only for chains with no live head, only when erasures exist.
_SEALED_HEADS = """
SELECT COALESCE(e.chain_root, e.id) AS chain, e.content_id AS content_id,
       e.id IN (SELECT entry_id FROM erasures) AS erased
FROM edges a
JOIN entries r ON r.id = a.from_id AND r.bucket = 'adoption_record'
JOIN entries e ON e.id = a.to_id
WHERE a.kind = 'adopts'
  AND NOT EXISTS (SELECT 1 FROM edges s WHERE s.to_id = e.id AND s.kind = 'supersedes')
  AND (SELECT z.kind FROM edges z
       WHERE z.to_id = e.id AND z.kind IN ('seals', 'unseals')
       ORDER BY z.id DESC LIMIT 1) = 'seals'
  AND COALESCE(e.chain_root, e.id) IN ({marks})
"""
_FEW_CHAINS = 100


def ground_map(store: ForestStore, bindings: list[Binding]) -> dict[int, Ground]:
    """Ground of every binding's chain, keyed by the binding's entry id."""
    ids = sorted({b.entry_id for b in bindings})
    heads: dict[int, list[tuple[str, str]]] = {}
    if len(ids) > _FEW_CHAINS:  # every live head listed, each with its chain
        chain_of: dict[int, int] = {}
        for head, chain, cid, body_hash in store.conn.execute(_LIVE_HEADS):
            chain_of[int(head)] = int(chain)
            heads.setdefault(int(chain), []).append((str(cid), str(body_hash)))
        chains = {i: chain_of[i] for i in ids if i in chain_of}
        # the rest: bindings made for an entry since superseded or sealed
        chains.update(_chains(store, [i for i in ids if i not in chain_of]))
    else:
        chains = _chains(store, ids)
        few = sorted(set(chains.values()))
        marks = ",".join("?" * len(few))
        for row in store.conn.execute(_LIVE_HEADS_OF.format(marks=marks), [*few, *few]):
            heads.setdefault(int(row[0]), []).append((str(row[1]), str(row[2])))
    gone = _erased_heads(store, [h[0] for hs in heads.values() if len(hs) == 1 for h in hs])
    sealed = _sealed_erased(store, sorted(set(chains.values()) - heads.keys()))
    out: dict[int, Ground] = {}
    for entry_id in ids:
        live = sorted(heads.get(chains.get(entry_id, entry_id), []))
        if len(live) > 1:
            out[entry_id] = (None, None, tuple(cid for cid, _ in live))
        elif live:
            out[entry_id] = (live[0][0], live[0][1], gone.get(live[0][0], ()))
        else:
            out[entry_id] = (None, None, sealed.get(chains.get(entry_id, entry_id), ()))
    return out


def _chains(store: ForestStore, ids: list[int]) -> dict[int, int]:
    """The chain (its root's id) of each of ``ids``, 500 a query."""
    chains: dict[int, int] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in store.conn.execute(
            f"SELECT id, COALESCE(chain_root, id) FROM entries WHERE id IN ({marks})", chunk
        ):
            chains[int(row[0])] = int(row[1])
    return chains


def _any_erasure(store: ForestStore) -> bool:
    """The index holds an erasure (most never do: no erasure query runs then)."""
    return store.conn.execute("SELECT 1 FROM erasures LIMIT 1").fetchone() is not None


def _erased_heads(store: ForestStore, content_ids: list[str]) -> dict[str, tuple[str, ...]]:
    """The heads marking each of ``content_ids`` whose body an erase removed
    (erased_ground.py); none at all while the index holds no erasure."""
    if not _any_erasure(store):
        return {}
    from forest_files.custody import erased_ground

    out: dict[str, tuple[str, ...]] = {}
    for cid in erased_ground.erased_among(store, content_ids):
        (body_hash,) = store.conn.execute(
            "SELECT body_hash FROM entries WHERE content_id = ?", (cid,)
        ).fetchone()
        out[cid] = erased_ground.mark(store, cid, str(body_hash))
    return out


def _sealed_erased(store: ForestStore, chains: list[int]) -> dict[int, tuple[str]]:
    """The ``SEALED_ERASED_HEAD`` heads of those ``chains`` (none live) whose one sealed
    head a forget erased; no query at all while the index holds no erasure."""
    if not chains or not _any_erasure(store):
        return {}
    from forest_files.custody.erased_ground import SEALED_ERASED_HEAD

    found = _sealed_heads(store, chains)
    return {
        c: (f"{SEALED_ERASED_HEAD}{heads[0][0]}",)
        for c, heads in found.items()
        if len(heads) == 1 and heads[0][1]
    }


def _sealed_heads(store: ForestStore, chains: list[int]) -> dict[int, list[tuple[str, bool]]]:
    """(content id, erased) of every sealed head of ``chains``, by chain."""
    found: dict[int, list[tuple[str, bool]]] = {}
    for start in range(0, len(chains), 500):
        chunk = chains[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in store.conn.execute(_SEALED_HEADS.format(marks=marks), chunk):
            found.setdefault(int(row["chain"]), []).append(
                (str(row["content_id"]), bool(row["erased"]))
            )
    return found


def sealed_state(store: ForestStore, binding: Binding) -> str | None:
    """Of a binding whose chain has no live head: "erased" when its one sealed head's
    text a forget erased, "sealed" when it has a sealed head, else None."""
    row = store.require(binding.entry_id, "check")
    chain = int(row["chain_root"] or binding.entry_id)
    heads = _sealed_heads(store, [chain]).get(chain, [])
    if len(heads) == 1 and heads[0][1]:
        return "erased"
    return "sealed" if heads else None


def ground_of(store: ForestStore, binding: Binding) -> Ground:
    """(ground content id, ground body hash, contest candidates): the candidates sorted,
    as ``ground_map`` lists them, so every door numbers a contest's routes alike."""
    heads = store.contest_heads(binding.entry_id)
    if len(heads) > 1:
        return None, None, tuple(sorted(store.content_id(h) for h in heads))
    if not heads:
        row = store.require(binding.entry_id, "check")
        chain = int(row["chain_root"] or binding.entry_id)
        return None, None, _sealed_erased(store, [chain]).get(chain, ())
    row = store.require(heads[0], "check")
    cid = store.content_id(heads[0])
    return cid, str(row["body_hash"]), _erased_heads(store, [cid]).get(cid, ())
