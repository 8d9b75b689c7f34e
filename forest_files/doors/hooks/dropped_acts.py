"""The acts a force push or a deleted default branch drops from the server's ledger.

The ledger only grows: every act of OLD's ledger must still be in NEW's. Each
segment of OLD that lost acts is one ``ledger-deleted`` finding; a pushed NEW's is
routed to put that segment back from OLD, with the body files its lost acts name
that NEW lacks (but for those an erase act of NEW tombstones), then ``forest
check`` before the commit: the acts put back may show a bound file drifted, which
goes into the same commit (a commit of the ledger alone would be judged drifted
itself). The route is pasted at the top of the pusher's clone.

Stores: nothing.
Refuses: nothing.
Returns: ``ledger-deleted`` findings (``Reported``), each naming its segment.
Test: tests/doors/test_server_hook.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files.check.engine import Finding
from forest_files.check.findings import Reported, Route
from forest_files.kernel.paths import LEDGER_DIR
from forest_files.kernel.shellword import (
    command_text,
    forest_step,
    forest_text,
    git_step,
    in_batches,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from forest_files.ledger.acts import Act


def dropped_acts(top: Path, old: str, new: str | None, why: str = "") -> list[Reported]:
    """A ``ledger-deleted`` finding per segment of OLD's ledger whose acts NEW lacks
    (``why``: a last clause for the detail); pushed (NEW a commit), routed to put that
    segment back, with the bodies its lost acts name (``_put_back``)."""
    from forest_files.gate.range import acts_at
    from forest_files.kernel.paths import segment_file

    before = acts_at(top, old)
    kept = set(acts_at(top, new).acts) if new is not None else set()
    lost: dict[str, list[str]] = {}
    for act_id in sorted(set(before.acts) - kept):
        lost.setdefault(before.origin(act_id), []).append(act_id)
    where = new[:12] if new is not None else "nothing (the ref deleted)"
    out: list[Reported] = []
    for segment, ids in sorted(lost.items()):
        path = segment_file(segment)
        named = ", ".join(i[:12] for i in ids[:3]) + (" …" if len(ids) > 3 else "")
        detail = (
            f"{len(ids)} act(s) of {old[:12]} ({named}) are missing at {where}; the ledger "
            f"only grows: a force push or a deletion may not drop acts{why}"
        )
        routes: tuple[Route, ...] = ()
        if new is not None:
            detail += (
                "; once they are put back, a bound file may show drift against them: run "
                f"`{forest_text('check')}` before you commit them"
            )
            bodies = _bodies_lost(top, old, new, [before.acts[i] for i in ids])
            routes = (_put_back(old, [path, *bodies]),)
        found = Finding("ledger-deleted", path, path, "", None, None, detail=detail, act=ids[0])
        out.append(Reported(found, routes=routes))
    return out


def _bodies_lost(top: Path, old: str, new: str, acts: list[Act]) -> list[str]:
    """The body files ``acts`` name that OLD holds and NEW lacks, but for those an erase
    act of NEW's ledger tombstones (putting one back would undo that erase)."""
    from forest_files.custody.holders import body_path
    from forest_files.custody.sources import ledger_blobs, segments_at
    from forest_files.ledger.acts import body_hashes

    held, kept = ledger_blobs(top, old).bodies, ledger_blobs(top, new).bodies
    erases = (a for a in segments_at(top, new, strict=False).acts.values() if a.kind == "erase")
    erased = {a.fields.get("body_hash") for a in erases}
    wanted = {h for a in acts for h in body_hashes(a)}
    return [body_path(h) for h in sorted(wanted) if h in held and h not in kept and h not in erased]


def _put_back(old: str, paths: list[str]) -> Route:
    """The ledger files ``paths`` checked out from OLD (the server's tip), then ``forest
    check``, pasted at the top of the pusher's clone: what the acts put back say of the
    bound files goes into the same commit (a commit of the ledger alone would be judged
    drifted itself, and no commit on top clears that)."""
    checkouts = in_batches(("checkout", old, "--"), paths)
    add = command_text(git_step("add", "--", LEDGER_DIR))
    commit = command_text(git_step("commit", "-m", f"put back the ledger acts of {old[:12]}"))
    note = (
        f"at the top of your clone (`git fetch` first if it lacks {old[:12]}); restore or "
        f"supersede what `{forest_text('check')}` finds, then commit it all in one commit "
        f"(`{add}`, the files its routes changed, `{commit}`) and push again"
    )
    steps = (*(git_step(*batch) for batch in checkouts), forest_step("check"))
    return Route(f"put the acts back from {old[:12]}", steps, note)
