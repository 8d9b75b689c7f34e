"""``forest log``'s text: one line per act, and one binding's chain (retired ones too).

A chain shows the binding's moves (``forest rebind``: from where, to where, by whom,
when) among its grounds, in the order they happened; a target where a binding stood
before a move, or one of merged branches put it (and none stands now), shows that
binding's chain, its first line naming where it stands (rebound on merged branches and
not settled: that they did, and that ``forest check`` prints the routes; so does the
log of the place where it stands, before its selector).

Stores: nothing itself; an index whose binding rows or grounds disagree with the
ledger is rebuilt from it first (the index proof every door runs,
custody/indexproof.py ``proven_map``, one ``forest:`` line on stderr), retired
bindings too (``retired_faults``: the log names them), so a forged binding row, live
or retired, or a lost edge row never names a chain; and the chain shown, entry for
entry with its body hash and status, is the one the binding's adopt act began (``chain_faults``:
a forged or damaged entry row rebuilds the index too).
Refuses: a target that names no binding, live or retired, now or before a move
(lookup.py), in the proven index.
Returns: text lines, or one JSON document for a chain with ``--json`` (ids,
signatures, words — never section text; ``moves`` the rebinds). A ground's words,
signer and time are its act's as ``forest log`` shows them (custody/actlog.py: the
ledger's words where the index lost or changed the record row; the act's signer and
time, never the index's rows alone), the chain in the order of those times. Every
text line is one line, its control characters shown escaped (kernel/shellword.py
``printable``); JSON keeps them.
Test: tests/check/test_dead_ends.py, tests/doors/test_cli_files.py,
tests/check/test_control_chars.py, tests/custody/test_log_words.py,
tests/doors/test_log_proven.py, tests/doors/test_log_retired_proven.py,
tests/doors/test_log_chain_rows.py, tests/doors/test_log_rebound_twice.py
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from forest_files.kernel.shellword import printable

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.ledger_claims import Claims
    from forest_files.custody.log_entries import LogEntry
    from forest_files.custody.lookup import ChainLink
    from forest_files.custody.repository import Repository
    from forest_files.store.forest import ForestStore


def log_line(e: LogEntry) -> str:
    """One act of ``forest log``: when, what, the section it is about, what it made,
    who, and the words (on one line)."""
    where = f" {e.selector}" if e.selector and e.selector != e.subject else ""
    said = _one_line(e.words)
    subject = e.subject
    if e.moved_from and e.moved_from != e.subject:  # a rebind: from where, to where
        subject = f"{e.moved_from} to {e.subject}"
    line = f"{e.created_at} {e.kind}{where} {subject} -> {e.result} by {e.by}"
    return printable(line + (f": “{said}”" if said else ""))


def _one_line(words: str) -> str:
    """Words as one line: runs of whitespace (line breaks too) as one space."""
    return " ".join(words.split())


def print_chain(target: str, repo: Path, as_json: bool) -> None:
    """The custody chain of one binding (``forest log TARGET``); a retired binding's
    chain too, ending with its retire act."""
    from forest_files.custody.repository import Repository

    r = Repository(repo)
    with r:
        binding, moved, links, acts = _proven_chain(r, target)
        ended = [e for e in acts if e.kind == "retire" and e.subject == binding.bind_act]
        moves = [e for e in acts if e.kind == "rebind" and e.result == binding.bind_act]
        # two rebinds or more: merged branches may each have rebound it (ask their tips)
        here = _rebound_here(r, binding, target) if len(moves) > 1 else ()
    if as_json:
        doc = {"selector": binding.selector, "retired": binding.retired}
        shown = [_move_doc(e) for e in moves]
        typer.echo(json.dumps({**doc, "chain": [asdict(x) for x in links], "moves": shown}))
        return
    if here:
        typer.echo(printable(_rebound_line(target, here)))
    elif moved:
        typer.echo(printable(f"{target}: moved; its binding is {binding.selector} now"))
    typer.echo(printable(binding.selector + (" (retired)" if binding.retired else "")))
    grounds = [
        (x.created_at, f"{x.status:<10} {x.content_id} by {x.adopted_by}: {_one_line(x.words)}")
        for x in links
    ]
    lines = _merged(grounds, [(e.created_at, _move_text(e)) for e in moves])
    for e in ended:
        said = _one_line(e.words)
        lines.append((e.created_at, f"{'retired':<10} binding {e.subject[:12]} by {e.by}: {said}"))
    for at, what in lines:
        typer.echo(printable(f"  {at} {what}"))


def proven_store(r: Repository) -> ForestStore:
    """The synced index once its binding rows, retired ones too, and grounds agree with
    the ledger (the proof every door runs, custody/indexproof.py, and the retired
    bindings' the log names): a forged or damaged index is rebuilt
    from the ledger, and one line on stderr says so."""
    return _proven(r)[0]


def _proven(r: Repository) -> tuple[ForestStore, Claims]:
    """``proven_store``, and the ledger's declarations it was proven against."""
    from forest_files.custody.indexproof import claims_of_ledger, proven_map

    store = r.synced()
    claims = claims_of_ledger(r.ledger_dir)
    proven_map(store, r, retired=True, claims=claims)  # the log names retired bindings too
    return r.store(), claims  # the rebuilt index, when the proof rebuilt it


def _proven_chain(
    r: Repository, target: str
) -> tuple[Binding, bool, list[ChainLink], list[LogEntry]]:
    """The binding ``target`` names (and whether it names where one stood before a
    move), its chain and the acts, every field of the chain as the ledger
    declares it: its entries, their body hashes and statuses proven against the ledger
    (custody/indexproof.py ``chain_faults``: a forged index rebuilt, one ``forest:``
    line), each one's words, signer and time its act's."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.indexproof import chain_faults, rebuilt, still
    from forest_files.custody.lookup import chain as chain_of

    store, claims = _proven(r)
    acts = r.log()
    binding, moved = _binding_of(store, acts, target, r.root)
    links = chain_of(store, binding)
    faults = chain_faults(binding.bind_act, links, claims)
    if faults:  # an entry of the chain no ground proof reads: forged or damaged
        store = rebuilt(r, faults[0])
        acts = r.log()
        every = all_bindings(store, include_retired=True)
        binding = next(b for b in every if b.bind_act == binding.bind_act)
        links = chain_of(store, binding)
        still(chain_faults(binding.bind_act, links, claims))
    return binding, moved, _as_ledger_says(links, acts, r.ledger_dir), acts


def _binding_of(
    store: ForestStore, acts: list[LogEntry], target: str, root: Path
) -> tuple[Binding, bool]:
    """The binding ``target`` names, live, retired, or where one stood before a move
    (then True); NoSuchBinding as a live binding's lookup refuses it."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.lookup import NoSuchBinding, find_binding

    every = all_bindings(store, include_retired=True)
    try:
        return find_binding(all_bindings(store), target, root=root), False
    except NoSuchBinding as live_refusal:  # not live: a retired chain is still a history
        try:
            return find_binding(every, target), False
        except NoSuchBinding:  # nor retired: where a binding stood before a move?
            went = _moved_away(acts, every, target)
            if went is None:
                raise live_refusal from None
            return went, True


def _as_ledger_says(
    links: list[ChainLink], acts: list[LogEntry], ledger_dir: Path
) -> list[ChainLink]:
    """Each ground's words, signer and time as ``forest log`` shows its act's
    (actlog.py: the ledger's words, where the index lost or changed the record row;
    the act's signer and time), not the index's rows alone, in the order of those
    times (the index's, for links of one time); a ground a rebind's supersession made,
    that supersession's."""
    from dataclasses import replace

    from forest_files.custody.actlog import rebind_grounds

    made_by = ("adopt", "supersede", "resolve")
    said = {e.result: (e.words, e.by, e.created_at) for e in acts if e.kind in made_by}
    made = rebind_grounds(ledger_dir) if any(e.kind == "rebind" for e in acts) else {}
    for e in acts:
        if e.act_id in made:
            cid, by, at = made[e.act_id]
            said[cid] = (e.words, by, at)
    out = []
    for x in links:
        words, by, at = said.get(x.content_id, (x.words, x.adopted_by, x.created_at))
        out.append(replace(x, words=words, adopted_by=by, created_at=at))
    return sorted(out, key=lambda x: x.created_at)  # stable: the index's order kept


def _move_text(e: LogEntry) -> str:
    said = _one_line(e.words)
    what = f"{'moved':<10} from {e.moved_from or '?'} to {e.subject} by {e.by}"
    if e.moved_from == e.subject:  # a new reading of the same place (forest normalise)
        what = f"{'rebound':<10} in place at {e.subject} by {e.by}"
    return what + (f": {said}" if said else "")


def _merged(chain: list[tuple[str, str]], moves: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The chain's lines in its own order, each move before the first ground claimed
    later than it (times are claims: the chain's order is never changed)."""
    out: list[tuple[str, str]] = []
    pending = list(moves)
    for at, what in chain:
        while pending and pending[0][0] < at:
            out.append(pending.pop(0))
        out.append((at, what))
    return out + pending


def _rebound_here(r: Repository, binding: Binding, target: str) -> tuple[str, ...]:
    """The places merged branches rebound ``binding`` to (where it stands first:
    custody/rebind_tips.py) when ``target`` is one of them, else ()."""
    from forest_files.custody.rebind_tips import rebound

    got = rebound(r.store().conn, [binding.bind_act])
    places = got[0][2] if got else ()
    return places if set(_names(target)) & set(places) else ()


def _rebound_line(target: str, places: tuple[str, ...]) -> str:
    """The first line of ``forest log`` of a place merged branches rebound a binding to
    (``places``, where it stands first): who put it there and where else, where it
    stands (here, or another of them), and that check prints the routes that settle
    it."""
    from forest_files.check.contests import on_branches

    names = _names(target)
    others = ", ".join(p for p in places if p not in names)
    stands = "here" if places[0] in names else f"at {places[0]}"
    return (
        f"{target}: its binding was rebound {on_branches([len(places)])}, here and to "
        f"{others}; it stands {stands} until one more rebind settles it "
        "(`forest check` prints the routes)"
    )


def _names(target: str) -> tuple[str, ...]:
    """``target`` as typed and as its selector renders (one that does not parse: as
    typed only)."""
    from forest_files.text.selector import parse_selector, render
    from forest_files.text.selector_errors import SelectorError

    try:
        return target, render(parse_selector(target))
    except SelectorError:
        return (target,)


def _moved_away(acts: list[LogEntry], every: list[Binding], target: str) -> Binding | None:
    """The binding that stood at ``target`` until a rebind moved it away, or that a
    rebind put there and stands elsewhere now (the other branch's place of one two
    merged branches rebound: check/contests.py), the last such act's, or None."""
    from forest_files.text.selector import parse_selector, render
    from forest_files.text.selector_errors import SelectorError

    try:
        asked = render(parse_selector(target))
    except SelectorError:
        return None
    by_act = {b.bind_act: b for b in every}
    names = (target, asked)
    left = [
        e.result
        for e in acts
        if e.kind == "rebind" and (e.moved_from in names or e.subject in names)
    ]
    return next((by_act[a] for a in reversed(left) if a in by_act), None)


def _move_doc(e: LogEntry) -> dict[str, str]:
    return {
        "act": e.act_id,
        "at": e.created_at,
        "by": e.by,
        "moved_from": e.moved_from,
        "moved_to": e.subject,
        "words": e.words,
    }
