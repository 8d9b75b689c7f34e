"""Damaged ledger files that git still holds, and acts the ledger lacks that some
commit holds: the one command that brings them back.

A segment edited or truncated in the working tree, or a body file changed, is a
fault ``forest verify`` lists; where HEAD holds the file, its committed bytes are
the ledger's own, and ``git checkout HEAD -- FILES`` restores them. A dangling
dependency names no damaged file (the segment at fault is whole): the files to
bring back are those of the act it depends on, the segment that holds it and its
bodies. HEAD's are checked out from HEAD; an act HEAD lacks is looked for in every
commit a ref reaches, by the search ``forest ci`` uses (holders.py: only a whole
segment holding an act of that very id), and its files (and those of the acts it
needs in turn) are checked out from the commit that holds them, which stages them.
The working tree of another worktree is not searched: files nobody committed may
still change, and no ``git checkout`` reaches them (commit them there first).

An act no commit holds cannot be brought back here: the dependent segment's acts
cannot stand; the way out is to fetch the branch that recorded the act, or to
take the dependent segment out (``git rm``, or ``rm`` when git does not track it),
with the bodies only its acts name, and record its acts again.

Stores: nothing.
Refuses: nothing; it says.
Returns: ``replay_fault``: the replay's refusal as a fault at its segment, with the
take-out of a segment no commit holds; ``restore_plan``: ``Restore`` (the checkouts
of every damaged file HEAD holds with other bytes and of every missing act some
commit holds, as steps, none when nothing can be brought back, and which faults they
cover; and per dependent segment whose missing act is nowhere, a ``TakeOut``: its
steps and its sentence). The doors print the steps as one command and give them as
a route's ``argv`` in JSON.
Test: tests/custody/test_damaged.py
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from forest_files import gitio
from forest_files.custody.holders import Holder, body_path, checkouts, closure, find_holders
from forest_files.kernel.paths import LEDGER_DIR, LEDGER_PREFIX, SEGMENTS, segment_file
from forest_files.kernel.shellword import command_text, git_step, in_batches
from forest_files.ledger.acts import Act, body_hashes
from forest_files.ledger.fault import LedgerError
from forest_files.ledger.segment_files import segment_paths
from forest_files.ledger.segments import parse_segment, read_ledger
from forest_files.ledger.verify import Fault


def fetch_advice() -> str:
    """How a segment whose dependency is missing can stand: ``forest verify`` as the
    user runs it where they stand."""
    from forest_files.kernel.shellword import forest_text

    return f"fetch the branch that recorded it and run `{forest_text('verify')}` again"


@dataclass(frozen=True)
class TakeOut:
    """A dependent segment whose missing act no commit holds: its ``steps`` take it
    out with the bodies only its acts name (run at the top of the work tree)."""

    segment: str
    dep: str  # the missing act
    acts: int  # the segment's acts, lost when it is taken out
    steps: tuple[tuple[str, ...], ...]

    def line(self) -> str:
        take_out = " && ".join(command_text(s) for s in self.steps)
        return (
            f"act {self.dep[:12]} is in no commit any ref reaches, so the {self.acts} act(s) "
            f"of segment {self.segment[:12]} cannot stand here: {fetch_advice()}, or take the "
            f"segment out (its acts are then lost and must be recorded again): `{take_out}`"
        )


@dataclass(frozen=True)
class Restore:
    """What brings the ledger back: one command, and what no command brings back."""

    steps: tuple[tuple[str, ...], ...] = ()  # the checkouts, run at the top in order
    taken_out: tuple[TakeOut, ...] = ()  # per dependent segment whose act is nowhere
    files: frozenset[str] = frozenset()  # the damaged files the checkouts bring back
    brought: frozenset[str] = frozenset()  # the missing acts the checkouts bring back

    @property
    def route(self) -> str | None:
        """The checkouts as one command, joined with ``&&``; None: none brings anything."""
        return " && ".join(command_text(s) for s in self.steps) or None

    @property
    def lost(self) -> tuple[str, ...]:
        """One sentence per dependent segment whose missing act no commit holds."""
        return tuple(t.line() for t in self.taken_out)

    def covers(self, fault: Fault) -> bool:
        """Whether the checkouts bring back what ``fault`` names."""
        if fault.code == "dangling-dep":
            return bool(fault.missing()) and set(fault.missing()) <= self.brought
        named = fault.path or (fault.segment and _segment_path(fault.segment))
        return bool(named) and named in self.files


def damaged_files(faults: Iterable[Fault]) -> list[str]:
    """The ledger files at fault that no printed fix removes (not strays)."""
    found: dict[str, None] = {}
    for f in faults:
        if f.fix or f.code == "dangling-dep":
            continue
        if f.path:
            found[f.path] = None
        elif f.segment:
            found[_segment_path(f.segment)] = None
    return list(found)


def _segment_path(segment: str) -> str:
    return f"{LEDGER_DIR}/{SEGMENTS}/{segment}.jsonl"


def restore_plan(root: Path, faults: Iterable[Fault]) -> Restore:
    """``git checkout HEAD -- FILES`` for the damaged files HEAD holds and the files of
    each missing dependency HEAD holds, then ``git checkout COMMIT -- FILES`` for each
    missing dependency another commit holds; the dependent segments whose missing act
    is nowhere, with their take-out."""
    faults = list(faults)
    dangling = [(f.segment, d) for f in faults if f.code == "dangling-dep" for d in f.missing()]
    head = gitio.head_commit(root) is not None
    files = damaged_files(faults) if head else []
    at_head = _at_head(root, [d for _, d in dangling]) if head else {}
    files += [p for d in sorted(at_head) for p in at_head[d]]
    head_steps = _from_head(root, files)
    steps = [*head_steps]
    restored = frozenset(p for step in head_steps for p in step[step.index("--") + 1 :])
    brought = {d for d in at_head if at_head[d][0] in restored}  # its segment is back
    elsewhere = [(s, d) for s, d in dangling if d not in at_head]
    lost: tuple[TakeOut, ...] = ()
    if elsewhere:
        ledger = _worktree_acts(root)
        have = {a.id for acts in ledger.values() for a in acts}
        holders = find_holders(root, (d for _, d in elsewhere), have)
        chains = {d: closure(d, holders, have) for _, d in elsewhere}
        steps += _checkouts([h for c in chains.values() if c is not None for h in c])
        brought.update(d for d, c in chains.items() if c is not None)
        nowhere: dict[str, str] = {}
        for segment, dep in elsewhere:
            if chains[dep] is None and segment is not None:
                nowhere.setdefault(segment, dep)
        lost = tuple(_take_out(root, ledger, s, d) for s, d in sorted(nowhere.items()))
    return Restore(tuple(steps), lost, restored, frozenset(brought))


def _from_head(root: Path, files: list[str]) -> tuple[tuple[str, ...], ...]:
    """The checkout from HEAD of the ``files`` HEAD holds with other bytes."""
    if not files:
        return ()
    listed = gitio.run_git(root, ["ls-tree", "-r", "-z", "--name-only", "HEAD", "--", *files])
    changed = gitio.run_git(
        root, ["diff", "--no-ext-diff", "-z", "--name-only", "HEAD", "--", *files]
    )
    # A file HEAD holds with the same bytes (the damage committed) is not restored
    # by a checkout of HEAD: a route that changes nothing is no route.
    held = set(gitio.split_z(listed.stdout)) & set(gitio.split_z(changed.stdout))
    kept = [p for p in dict.fromkeys(files) if p in held]
    return (git_step("checkout", "HEAD", "--", *kept),) if kept else ()


def _at_head(root: Path, deps: list[str]) -> dict[str, list[str]]:
    """For each of ``deps`` HEAD's ledger holds: its segment and body files there."""
    if not deps:
        return {}
    from forest_files.custody.sources import segments_at

    snap = segments_at(root, "HEAD", strict=False)
    return {
        dep: [segment_file(snap.origin(dep)), *map(body_path, sorted(body_hashes(act)))]
        for dep in deps
        if (act := snap.acts.get(dep)) is not None
    }


def _checkouts(holders: list[Holder]) -> tuple[tuple[str, ...], ...]:
    """``git checkout COMMIT -- SEGMENT BODIES…`` per commit holding some of them (a
    body the segment's commit lacks, from the commit that holds it: as the gate does)."""
    return tuple(
        git_step(*batch)
        for commit, paths in checkouts(holders).items()
        for batch in in_batches(("checkout", commit, "--"), paths)
    )


def _worktree_acts(root: Path) -> dict[str, list[Act]]:
    """The acts of each whole-enough segment file of the working tree, by its name
    (a line that does not decode is left out: verify lists it)."""
    out: dict[str, list[Act]] = {}
    for path in segment_paths(root / LEDGER_DIR):
        acts, _ = parse_segment(path.read_bytes(), path.name)
        out[path.name.removesuffix(".jsonl")] = [act for _, act in acts]
    return out


def _take_out(root: Path, ledger: dict[str, list[Act]], segment: str, dep: str) -> TakeOut:
    """What to do with ``segment``, whose act depends on ``dep`` that no commit holds:
    fetch, or remove it and the bodies only its acts name (``git rm`` for the files
    the index holds, ``rm`` for the others)."""
    acts = ledger.get(segment, [])
    kept = {h for name, others in ledger.items() if name != segment for a in others
            for h in body_hashes(a)}  # fmt: skip
    only = sorted({h for a in acts for h in body_hashes(a)} - kept)
    files = [segment_file(segment), *map(body_path, only)]
    return TakeOut(segment, dep, len(acts), _removal(root, files))


def _removal(root: Path, files: list[str]) -> tuple[tuple[str, ...], ...]:
    """The steps that take ``files`` out: ``git rm`` for those the index holds, ``rm``
    for the others."""
    indexed = {e.path for e in gitio.ls_files_stage(root, LEDGER_PREFIX)}
    return (
        *(
            git_step(*b)
            for b in in_batches(("rm", "-q", "-f", "--"), [p for p in files if p in indexed])
        ),
        *in_batches(("rm", "-f", "--"), [p for p in files if p not in indexed]),
    )


def replay_fault(root: Path, exc: LedgerError) -> Fault:
    """The replay's refusal of the working tree's ledger (an act whose lines hash right
    but whose fields were forged or edited: only the replay recomputes its content
    ids) as a fault at the segment that holds the act, so ``forest verify`` lists it.
    Its fix takes the segment out when no commit holds it; a segment HEAD holds came
    with a commit, which ``forest ci --base`` names with its way out."""
    segment = exc.segment
    if segment is None and exc.act_id is not None:
        segment = read_ledger(root / LEDGER_DIR).found_in.get(exc.act_id, (None,))[0]
    fault = Fault(exc.code, segment, exc.line, exc.act_id, exc.reason)
    if segment is None:
        return fault
    path = segment_file(segment)
    if gitio.head_commit(root) is not None and gitio.ls_tree(root, "HEAD", path):
        return fault
    (step,) = _removal(root, [path])
    return replace(fault, fix=command_text(step), fix_argv=step)


__all__ = [
    "Restore",
    "TakeOut",
    "damaged_files",
    "fetch_advice",
    "replay_fault",
    "restore_plan",
]
