"""Applying the acts on bindings: rebind (with its supersede part) and retire.

Stores: the binding event each act makes (bindings.py) and, for a rebind that
carries a supersede part, that supersession's rows (apply_entries.py).
Refuses (``LedgerError`` naming the act, or a live command's ``ForestError``):
an act whose dependencies do not include its binding, or on a binding retired
at its dependencies; a rebind whose selector is not valid or does not name its
path, or whose section hash is not the binding's ground text at its
dependencies (without a supersede part); a supersede part whose entry hash is
not the section hash, adopted by someone other than the signer, or of another
chain than the binding's; every shared rule (apply_rules.py).
Returns: the content ids made and every path the binding and its chain touch.
Test: tests/ledger/test_ledger_kinds.py, tests/custody/test_applier_props.py,
tests/governance/test_authority_derived.py
"""

from __future__ import annotations

from forest_files.custody import applied as book
from forest_files.custody import apply_entries, bindings
from forest_files.custody.apply_rules import ApplyRules, chain_of
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import RebindAct, RetireAct


def _binding(ap: ApplyRules, act: Act, bind_act: str) -> bindings.Binding:
    current = bindings.binding_of(ap.store, bind_act, act_id=act.id)
    if not book.ancestors_among(ap.store, act, {bind_act}):
        raise ap.fail(act, f"its dependencies do not include binding {bind_act}")
    # Retired by a merged branch this act never saw: recorded beside it (the
    # binding stays retired); retired within its own history: refused.
    if current.retired and book.ancestors_among(ap.store, act, _retire_acts(ap, bind_act)):
        raise ap.fail(act, f"binding {bind_act} was retired at its dependencies")
    return current


def _retire_acts(ap: ApplyRules, bind_act: str) -> set[str]:
    rows = ap.store.conn.execute(
        "SELECT act_id FROM binding_events WHERE bind_act = ? AND kind = 'retire'",
        (bind_act,),
    ).fetchall()
    return {str(r[0]) for r in rows}


def rebind(ap: ApplyRules, act: Act, p: RebindAct) -> tuple[list[str], frozenset[str]]:
    from forest_files.text.selector import parse_selector
    from forest_files.text.selector_errors import SelectorError

    current = _binding(ap, act, p.binding)
    try:
        named = parse_selector(p.selector).path
    except SelectorError as exc:  # a ledger's selector was never typed: no forms listed
        raise ap.fail(act, f"its selector is not valid: {exc.problem}") from None
    except ValueError as exc:
        raise ap.fail(act, f"its selector is not valid: {exc}") from None
    if named != p.path:
        raise ap.fail(act, f"its selector names {named}, not its path")
    produced: list[str] = []
    paths = frozenset({current.path, p.path}) | ap.paths_of_entry(current.entry_id)
    if p.supersede is None:
        if not _ground_text_at_deps(ap, act, current.entry_id, p.section_hash):
            raise ap.fail(
                act,
                "its section_hash is not the binding's ground text at its dependencies "
                "(a rebind moves ground; it never changes it — add a supersede part)",
            )
    else:
        produced, chain = _rebind_supersede(ap, act, p, current)
        paths |= chain
    bindings.apply_rebind(ap.store, act.id, p, current)
    return produced, paths


def _rebind_supersede(
    ap: ApplyRules, act: Act, p: RebindAct, current: bindings.Binding
) -> tuple[list[str], frozenset[str]]:
    """The supersession a moved-and-edited section's rebind carries: of the
    binding's own chain, adopted by the rebind's signer, judged as a supersede."""
    part = p.supersede
    assert part is not None
    if part.entry.body_hash != p.section_hash:
        raise ap.fail(act, "its section_hash is not its supersede entry's body hash")
    if part.record.signature != p.by:
        raise ap.fail(act, "its supersede part is adopted by someone other than its signer")
    old = ap.local(act, part.old, "old")
    if chain_of(ap.store, old) != chain_of(ap.store, current.entry_id):
        raise ap.fail(act, "it supersedes an entry of another chain than its binding's")
    return apply_entries.supersede(ap, act, part)


def _ground_text_at_deps(ap: ApplyRules, act: Act, entry_id: int, body_hash: str) -> bool:
    chain = chain_of(ap.store, entry_id)
    rows = ap.store.conn.execute(
        "SELECT id FROM entries WHERE (id = ? OR chain_root = ?) AND body_hash = ?",
        (chain, chain, body_hash),
    ).fetchall()
    return any(book.status_at_deps(ap.store, int(r[0]), act).ground for r in rows)


def retire(ap: ApplyRules, act: Act, p: RetireAct) -> frozenset[str]:
    current = _binding(ap, act, p.binding)
    paths = ap.paths_of_entry(current.entry_id) | {current.path}
    bindings.apply_retire(ap.store, act.id, p, current)
    return paths
