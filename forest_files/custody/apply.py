"""One applier per act kind: the only code that turns an act into index rows.

A live command builds its act (``plan``), applies it here inside its
transaction and then writes the segment; replay applies the acts of a ledger
here too. There is no second implementation of any act, so a hand-written
act is refused exactly where the live command would be refused.

The applier's rooms: apply_rules.py (its state and the rules every kind
shares), apply_adopt.py (adopts, batched), apply_entries.py (write, supersede,
resolve), apply_bindings.py (rebind, retire), apply_governance.py (seal,
unseal, erase); this module holds the entry points and is the one import path.

Stores: the entries, edges and binding events each act makes, the act's
bookkeeping (``applied``) and the bound paths it touched.
Refuses (``LedgerError`` naming the act, never a body): an act of another
project (its ``scope`` is not the anchor's project id); a body missing or not
hashing to its ``body_hash``; declared content ids other than the ones the
store produces (forged or edited fields); entries of a shape the kind never
makes (an adopt of anything but a fresh import from one origin, a ceremony
bucket in a write, a record whose origins are not its entry); praise-only or
blank words and blank signatures; a supersession, resolve, seal or unseal of
an entry whose status at the act's dependencies does not allow it; a binding
whose section hash is not its entry's body hash or whose selector does not
name its path; a rebind to text that was not ground at its dependencies (or,
with a supersede part, a part that is not a valid supersession of the
binding's own chain by the rebind's signer, to the rebind's hash); a
rebind or retire of a binding retired at its dependencies; an erase of a body
that live ground holds at its dependencies;
any act any text of which (bodies, words, signatures, file names, selectors,
every field: custody/tombscan.py) holds a line, a token or the body an erase
act in its dependency closure tombstoned (``erased-content``; the erase
records its tombstone lines and tokens). A busy, damaged or full index
(``StoreBusy``, ``StoreCorruption``, ``NoSpace``) is raised as it is: the act is
not at fault.
An act whose body or words a recorded erase removed replays with an erased
body (erased_acts.py): content ids, hashes and edges kept, the text the marker.
Returns: ``Applied`` (the content ids made and the bound paths touched: what
authority is judged over, derived from state, never from the act's own words —
an act on a chain touches every path the chain was ever bound to, retired or
moved; an act on adopting words or a sealing record, the chain it names; an act
touching none is judged as a path only ``**`` matches).
Test: tests/ledger/test_ledger_kinds.py, tests/governance/test_authority_derived.py,
tests/ledger/test_ledger_equivalence.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from forest_files.custody import applied as book
from forest_files.custody import apply_adopt, apply_bindings, apply_entries, apply_governance
from forest_files.custody.apply_rules import (
    Applied,
    ApplyRules,
    BodyReader,
    chain_of,
    project_of,
)
from forest_files.kernel.errors import ForestError, NoSpace, StoreBusy, StoreCorruption
from forest_files.ledger.acts import Act, LedgerError
from forest_files.ledger.kinds import (
    AdoptAct,
    EraseAct,
    RebindAct,
    ResolveAct,
    RetireAct,
    SealAct,
    SupersedeAct,
    WriteAct,
)

__all__ = ["Applied", "Applier", "BodyReader", "chain_of", "project_of"]


class Applier(ApplyRules):
    """Applies acts to one store; ``erased``: body hashes a recorded erase removed."""

    # -- entry points ---------------------------------------------------------------
    def apply(self, act: Act) -> Applied:
        """Apply one act and its bookkeeping (call inside a transaction)."""
        return self.apply_many([act])[0]

    def apply_many(self, acts: Sequence[Act]) -> list[Applied]:
        """Apply acts in the given (dependency) order; consecutive adopts in one batch."""
        out: list[Applied] = []
        run: list[tuple[Act, AdoptAct]] = []
        made_in_run: set[str] = set()
        for act in acts:
            p = act.payload
            if isinstance(p, AdoptAct):
                origins = p.entry.origins
                # Needs the run inserted and marked first: its origin is made in the
                # run, or it depends on an act of the run (one whose body was erased is
                # marked only after the batch's bookkeeping).
                if (origins and origins[0][0] in made_in_run) or made_in_run.intersection(act.deps):
                    out += apply_adopt.adopts(self, run)
                    run, made_in_run = [], set()
                run.append((act, p))
                made_in_run.update((p.entry.content_id, act.id))
                continue
            if run:
                out += apply_adopt.adopts(self, run)
                run, made_in_run = [], set()
            out.append(self._one(act))
        if run:
            out += apply_adopt.adopts(self, run)
        return out

    def _one(self, act: Act) -> Applied:
        self.scope(act)
        try:
            self.refuse_tombstoned(act)
            produced, paths = self._dispatch(act)
        except (StoreBusy, StoreCorruption, NoSpace):
            raise
        except ForestError as exc:
            if self.live or isinstance(exc, LedgerError):
                raise
            raise self.fail(act, f"refused: {exc}") from None
        book.mark_applied(self.store, act.id, produced, deps=act.deps)
        book.record_paths(self.store, [(act.id, paths)])
        return Applied(act, tuple(produced), paths)

    def _dispatch(self, act: Act) -> tuple[list[str], frozenset[str]]:
        p = act.payload
        if isinstance(p, WriteAct):
            return apply_entries.write(self, act, p), frozenset()
        if isinstance(p, SupersedeAct):
            return apply_entries.supersede(self, act, p)
        if isinstance(p, ResolveAct):
            return apply_entries.resolve(self, act, p)
        if isinstance(p, SealAct):  # an UnsealAct too
            return apply_governance.seal(self, act, p)
        if isinstance(p, RebindAct):
            return apply_bindings.rebind(self, act, p)
        if isinstance(p, RetireAct):
            return [], apply_bindings.retire(self, act, p)
        if isinstance(p, EraseAct):
            return [], apply_governance.erase(self, act, p)
        if isinstance(p, AdoptAct):
            raise self.fail(act, "adopts are applied in batches")
        assert_never(p)  # every kind of ``kinds.Payload`` has its applier above
