"""The working tree's index proven against the ledger before a verdict is drawn from it.

The index (``<git-dir>/forest/woods.db``) is a cache of the ledger that any
program with write access to the git directory can change. A binding map
(bindmap.py), and so every verdict a check draws from it, is derived from the
index only after the rows that decide a verdict agree with what the ledger
declares:

* each live binding is one an ``adopt`` act made, with its adopted rules, at
  the place its latest act named (its adopt's, or its last ``rebind``'s: a row moved
  back to a place it held before is a fault), and no ``retire`` act
  retired it; every binding the ledger keeps live is there;
* each ground is an entry an act declared, with the body hash the act declared
  (the content id covers it), and no act superseded it or left it sealed; so is each
  head of a contest (a supersedes or seals edge row lost makes a contest of a chain
  the ledger keeps one ground of, which a check would route to a ``forest resolve``);
* each ground (each contest head) is an entry of the chain the binding's adopt act
  began (its entry, or one a ``supersede`` or ``resolve`` put after it), so a binding
  row pointed at another binding's entry is never judged against that ground;
* a binding the index reaches no ground of (its edge rows lost, say) has none in
  the ledger either: every entry of its chain (its adopt's entry, and each a
  ``supersede`` or ``resolve`` put after it) superseded or sealed there; and its
  row names the entry its adopt act made (``_groundless``), not another chain's;
* asked by a door that shows retired bindings (``forest log``, ``forest fsck``;
  never a check, which reads none): each retired binding one a ``retire`` act
  retired, at a place and with rules its acts named, made for its adopt act's
  entry, its chain's ground as a live binding's (``retired_faults``);
* asked by the doors that show a binding's whole chain (``forest log TARGET`` the
  one it shows, ``forest fsck`` every binding's): the chain the index reads is the
  one its adopt act began, entry for entry, each with the body hash its act declared
  and the status the ledger's acts left it (chainproof.py ``chain_faults``: a
  ``seals`` edge row added makes a superseded entry "sealed").

A row that disagrees is a forged or damaged index: it is rebuilt from the
ledger (a replay) and the map derived again. What is left to a forger is what
the threat model leaves (docs/architecture.md): someone who can rewrite the
ledger in the work tree, or this module.

Stores: nothing itself; a forged index is rebuilt (Repository.rebuild).
Refuses: an index that still disagrees after the rebuild (ForestError: the
ledger and the replay disagree; run ``forest fsck``).
Returns: ``proven_map`` a ``BindMap``; ``disagreements`` the faults found
(``retired_faults`` those of retired bindings; ``chain_faults`` those of one
binding's chain, chainproof.py's; ``index_faults``: all three, every binding's chain,
of an index and a ledger, for ``forest fsck``); ``rebuilt`` / ``still``: a door's
rebuild on a fault, and its refusal when the rebuilt index still disagrees;
``claims_of_ledger`` / ``claims_of`` what the ledger declares (read by ledger_claims.py).
Test: tests/custody/test_indexproof.py, tests/doors/test_log_retired_proven.py,
tests/doors/test_log_chain_rows.py, tests/governance/test_fsck_chains.py,
tests/custody/test_indexproof_groundless.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody import bindmap
from forest_files.custody.chainproof import chain_faults, every_chain_faults
from forest_files.custody.erased_ground import is_mark
from forest_files.custody.ledger_claims import Claims, chain_of, claims_of, claims_of_ledger
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.ground import Ground
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore


def disagreements(
    bmap: bindmap.BindMap, claims: Claims, store: ForestStore | None = None
) -> list[str]:
    """Where the map derived from the index departs from the ledger (empty: none);
    with ``store``, the index it was derived from, a binding with no live ground is
    held to the entry its adopt act made (``_groundless``)."""
    out: list[str] = []
    seen: set[str] = set()
    for b in bmap.bindings:
        seen.add(b.bind_act)
        found = _binding_faults(b, bmap.grounds.get(b.entry_id), claims)
        if not found and store is not None and _no_ground(bmap.grounds.get(b.entry_id)):
            found = _groundless(b, store, claims)
        out += found
        if b.bind_act in claims.specs and (b.retired or b.bind_act in claims.retired):
            out.append(f"binding {b.bind_act[:12]}: live here, retired in the ledger")
    missing = claims.specs.keys() - claims.retired - seen
    out += [f"binding {m[:12]}: in the ledger, not in the index" for m in sorted(missing)]
    return out


def _binding_faults(b: Binding, ground: Ground | None, claims: Claims) -> list[str]:
    """Where one binding (live or retired) departs from the acts that made and moved it."""
    spec = claims.specs.get(b.bind_act)
    if spec is None:
        return [f"binding {b.bind_act[:12]}: no adopt act made it"]
    out = []
    if (b.excludes, b.normalisation, b.hash_algo) != spec:
        out.append(f"binding {b.bind_act[:12]}: its rules are not the adopted ones")
    if (b.path, b.selector) not in claims.places.get(b.bind_act, set()):
        out.append(f"binding {b.bind_act[:12]}: a place no act named")  # none last
    if ground is not None:
        out += _ground_faults(b.bind_act, ground, claims)
        first = claims.entry_of.get(b.bind_act)
        if ground[0] != first and not _of_chain(first, ground, claims):
            out.append(f"binding {b.bind_act[:12]}: {_NOT_ITS_CHAIN}")
    if _no_ground(ground):
        out += _unreached(b.bind_act, claims)
    return out


def _no_ground(ground: Ground | None) -> bool:
    return ground is None or ground == (None, None, ())


def _groundless(b: Binding, store: ForestStore, claims: Claims) -> list[str]:
    """A binding the index reaches no live ground of is held to the entry its adopt act
    made: one pointed at another chain with none either (both sealed, say) passes every
    ground proof. Asked of such bindings only (none in a clean check: a sealed ground
    is a finding), one lookup each."""
    made = claims.entry_of.get(b.bind_act)
    if made is None or store.id_for_content(made) != b.entry_id:
        return [f"binding {b.bind_act[:12]}: not the entry its adopt act made"]
    return []


def retired_faults(store: ForestStore, claims: Claims) -> list[str]:
    """Where the index's retired bindings depart from the ledger (empty: none): each
    retired by a ``retire`` act, at a place and with rules its acts named, made for
    the entry its adopt act made, its chain's ground proven as a live binding's.
    Asked where retired bindings are shown (``forest log``, ``forest fsck``), not by
    a check: it reads no retired binding, so its proof does not pay for them."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.ground import ground_map

    retired = [b for b in all_bindings(store, include_retired=True) if b.retired]
    grounds = ground_map(store, retired) if retired else {}
    out: list[str] = []
    for b in retired:
        faults = _binding_faults(b, grounds.get(b.entry_id), claims)
        if not faults and b.bind_act not in claims.retired:
            faults = [f"binding {b.bind_act[:12]}: retired here, live in the ledger"]
        made = claims.entry_of.get(b.bind_act)
        if not faults and (made is None or store.id_for_content(made) != b.entry_id):
            faults = [f"binding {b.bind_act[:12]}: not the entry its adopt act made"]
        out += faults
    return out


_NOT_ITS_CHAIN = "its ground is not of the chain its adopt act began"


def _of_chain(first: str | None, ground: Ground, claims: Claims) -> bool:
    """The ground (or each contest head) is an entry of the chain ``first`` (the
    binding's adopt act's entry) began: a binding row pointed at another binding's
    entry is judged, and would be restored, against that binding's ground. Nearly
    every ground is its adoption's own entry (the caller asks only for another: a
    clean run of unsuperseded grounds walks no chain)."""
    heads = ground[2] if isinstance(ground[2], tuple) else ()
    if ground[0] is None and is_mark(heads):
        return True  # a sealed ground a forget erased: nothing live to judge against
    wanted = {ground[0]} if ground[0] is not None else set(heads)
    return not wanted - chain_of(first, claims)


def _unreached(bind_act: str, claims: Claims) -> list[str]:
    """A binding the index reaches no ground of (no live head, no contest, nothing
    erased): a fault when its chain has a head the ledger neither superseded nor left
    sealed (edge rows lost: the ground would read as sealed)."""
    seen = chain_of(claims.entry_of.get(bind_act), claims)
    if any(cid not in claims.superseded and cid not in claims.sealed for cid in seen):
        return [f"binding {bind_act[:12]}: its ground is live in the ledger, unreached here"]
    return []


def _ground_faults(bind_act: str, ground: tuple[object, ...], claims: Claims) -> list[str]:
    content_id, body_hash, heads = ground[0], ground[1], ground[2]
    out = []
    if content_id is not None:
        if claims.declared.get(str(content_id)) != body_hash:
            out.append(f"binding {bind_act[:12]}: its ground is not the declared entry")
        elif content_id in claims.superseded or content_id in claims.sealed:
            out.append(f"binding {bind_act[:12]}: its ground is superseded or sealed")
    if is_mark(heads if isinstance(heads, tuple) else ()):
        return out  # an erased ground: a finding of the check (erased_ground.py)
    if not heads or not isinstance(heads, tuple):
        return out  # one ground, no contest (nearly every binding: nothing more to read)
    if any(str(h) not in claims.declared for h in heads):
        out.append(f"binding {bind_act[:12]}: a contest head no act declared")
    elif any(h in claims.superseded or h in claims.sealed for h in heads):
        # a supersedes or seals edge row lost: a contest the ledger never made
        out.append(f"binding {bind_act[:12]}: a contest head the ledger superseded or sealed")
    return out


def index_faults(store: ForestStore, ledger_dir: Path) -> list[str]:
    """What the proof finds in the index ``store`` against the ledger at ``ledger_dir``
    (empty: they agree), every binding's chain too: what ``forest fsck`` reports, each
    door rebuilding on it (a chain's on showing it). An
    index without its binding table (a cache table) holds no binding, as a door that
    opens it and makes the table again sees; ``store`` may be read-only."""
    table = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'binding_events'"
    has = store.conn.execute(table).fetchone() is not None
    if not has:
        return disagreements(bindmap.BindMap([], {}), claims_of_ledger(ledger_dir))
    claims = claims_of_ledger(ledger_dir)
    found = disagreements(bindmap.derive(store), claims, store) + retired_faults(store, claims)
    named = {f.split(":", 1)[0] for f in found}  # one binding's fault at a time
    return found + [f for f in every_chain_faults(store, claims) if f.split(":")[0] not in named]


def proven_map(
    store: ForestStore,
    repo: Repository | None,
    *,
    retired: bool = False,
    claims: Claims | None = None,
) -> bindmap.BindMap:
    """The binding map of the synced index ``store``, proven against the ledger
    ``repo`` keeps (``claims``: its declarations, when the caller read them); a
    forged index is rebuilt once and derived again. With ``retired``, its retired
    bindings are proven too (a door that shows them)."""
    found = bindmap.derive(store)
    if repo is None:
        return found
    if claims is None:
        claims = claims_of_ledger(repo.ledger_dir)
    faults = _faults(found, store, claims, retired=retired)
    if not faults:
        return found
    rebuilt(repo, faults[0])
    found = bindmap.derive(repo.store())
    still(_faults(found, repo.store(), claims, retired=retired))
    return found


def rebuilt(repo: Repository, fault: str) -> ForestStore:
    """The index rebuilt from the ledger, one ``forest:`` line on stderr naming
    ``fault``, the first disagreement found."""
    import sys

    sys.stderr.write(
        f"forest: the index disagreed with the ledger ({fault}); rebuilt it from the ledger\n"
    )
    repo.rebuild()
    return repo.store()


def still(faults: list[str]) -> None:
    """Refuses a rebuilt index that still disagrees (ForestError naming the first)."""
    if faults:
        from forest_files.kernel.shellword import forest_text

        raise ForestError(
            f"the index disagrees with the ledger after a rebuild ({faults[0]}); "
            f"run `{forest_text('fsck')}` and report it"
        )


def _faults(
    found: bindmap.BindMap, store: ForestStore, claims: Claims, *, retired: bool
) -> list[str]:
    faults = disagreements(found, claims, store)
    return faults + retired_faults(store, claims) if retired else faults


__all__ = [
    "Claims",
    "chain_faults",
    "claims_of",
    "claims_of_ledger",
    "disagreements",
    "index_faults",
    "proven_map",
    "rebuilt",
    "retired_faults",
    "still",
]
