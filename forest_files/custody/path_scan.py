"""The paths a ledger's acts bind, and whether it can hold a contest, read without a replay.

The first pre-commit hook after a clone has no view yet: before it replays
anything it asks which paths the staged ledger's acts bind, and a commit that
touches none of them is judged without a replay. That answer needs every line
decoded and checked by the one codec (``acts.decode_line``): this process reads
the segments once (``sources.snapshot_of``), the very read a replay makes, and
what it decoded is remembered (``segments``' memo), so a replay that follows
decodes nothing again. (Child processes once decoded parts of a large ledger;
with the compiled codec one process reads 10,000 acts well inside the hook's
budget, so there is no child, no job to hand over and no answer to check.)

The same read says whether the ledger can hold a contest (check/contests.py), which
the hook reports on every commit: only where some act's predecessor is claimed by
two acts (``forked``): one entry superseded by two acts (a supersede's ``old``, a
rebind's supersede part, a resolve's heads: the ``supersedes`` edges contests.py
counts), or one binding's bind or rebind left as a tip beside another (no rebind of
it names either among its deps: custody/rebind_tips.py's tips, from the same deps).
Without that, no chain has two live heads and no binding two tips, so nothing more
is read; with it, the view is built and asked. (A contest resolved since stays
flagged, as contests.py's query still looks at its chain: a replay more, no miss.)

Stores: nothing.
Refuses: a damaged segment or line, as ``LedgerError`` (the serial read's).
Returns: ``scan``: the set of paths the acts bind (``kinds.bound_path_refs``), a
superset of the paths the ledger's bindings hold, and ``forked`` (True whenever
the ledger's view reports a contest: a superset of them too).
Test: tests/ledger/test_path_scan.py, tests/doors/test_hook_contest_clone.py
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from forest_files.ledger.kinds import RebindAct, ResolveAct, SupersedeAct, bound_path_refs

if TYPE_CHECKING:
    from forest_files.ledger.acts import Act


class Scanned(NamedTuple):
    paths: set[str]  # every path an act binds
    forked: bool  # some act's predecessor claimed by two acts: a contest is possible


def scan(segments: Mapping[str, bytes]) -> Scanned:
    """What the acts of ``segments`` (file name -> bytes) bind, and ``forked``."""
    from forest_files.custody.sources import snapshot_of

    acts = snapshot_of(segments).acts.values()
    return Scanned({p for act in acts for p in bound_path_refs(act.payload)}, forked(acts))


def bound_paths(segments: Mapping[str, bytes]) -> set[str]:
    """Every path an act of ``segments`` binds."""
    return scan(segments).paths


def _superseded(act: Act) -> tuple[str, ...]:
    """The content ids whose entries ``act`` supersedes (a ``supersedes`` edge each)."""
    p = act.payload
    if isinstance(p, RebindAct):
        return () if p.supersede is None else (p.supersede.old,)
    if isinstance(p, SupersedeAct):
        return (p.old,)
    if isinstance(p, ResolveAct):
        return p.heads
    return ()


def forked(acts: Iterable[Act]) -> bool:
    """True when an entry is superseded by two acts, or a binding rebound twice or more
    has two events no rebind of it names among its deps (two tips, counted as
    custody/rebind_tips.py counts them, its retires aside: a superset)."""
    superseded: set[str] = set()
    rebinds: dict[str, list[Act]] = {}
    for act in acts:
        for old in _superseded(act):
            if old in superseded:
                return True
            superseded.add(old)
        if isinstance(act.payload, RebindAct):
            rebinds.setdefault(act.payload.binding, []).append(act)
    for binding, theirs in rebinds.items():
        if len(theirs) < 2:
            continue  # rebound once: one tip (rebind_tips.py asks no more of it either)
        named = {d for act in theirs for d in act.deps}
        if sum(e not in named for e in (binding, *(a.id for a in theirs))) > 1:
            return True
    return False
