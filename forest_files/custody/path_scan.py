"""The paths a ledger's acts bind, its lines decoded in parts by child processes.

The first pre-commit hook after a clone has no view yet: before it replays
anything it asks which paths the staged ledger's acts bind, and a commit that
touches none of them is judged without a replay. That answer needs every line
decoded and checked by the one codec (``acts.decode_line``), which is Python work
proportional to the ledger. From ``PARALLEL_MIN_BYTES`` of segments on, and with
more than one CPU, the segments (in name order, as one stream of lines) are cut
into contiguous parts of about equal size at line ends, one per CPU (at most
``MAX_PARTS``): this process decodes the first, and each child
(``forest_files.custody.path_scan``, started by ``kernel.spawn``) gets one of
the others through its stdin, decodes it and hands back only the paths its
acts bind and how many lines it decoded.

This process checks every segment as a whole (not empty, ends with an LF, named
by the SHA-256 of its bytes) itself. A child's answer is used only when it exited
0, echoed the digest of the very part it was sent (no file by name: nothing a
watcher of a shared temp directory could swap) and decoded exactly the lines of
its part; otherwise this process decodes the part. Any fault anywhere ends in
the serial read (``sources.snapshot_of``), so a damaged ledger raises exactly
the ``LedgerError`` a serial read raises. What this process decoded is kept
(``segments``' memos), so a replay that follows decodes only the other parts.

Stores: nothing (each part's bytes go through the child's stdin).
Refuses: a damaged segment or line, as ``LedgerError`` (the serial read's).
Returns: the set of paths the acts bind (``kinds.bound_path_refs``), a superset
of the paths the ledger's bindings hold.
Test: tests/ledger/test_path_scan.py
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from forest_files.kernel import spawn as childproc
from forest_files.ledger.acts import Act, LedgerError
from forest_files.ledger.kinds import bound_path_refs
from forest_files.ledger.segments import (
    decode_lines,
    decode_prefix,
    parse_segment,
    segment_faults,
)

# Decoding runs at ~20 MB/s here; a child costs ~0.1 s to start and import, so
# below ~4 MB of segments one process is as fast.
PARALLEL_MIN_BYTES = 4 * 1024 * 1024
MAX_PARTS = 4


@dataclass(frozen=True)
class Piece:
    """Lines ``first``.. of one segment: its bytes ``start:end`` (whole lines)."""

    name: str
    start: int
    end: int
    first: int


def bound_paths(segments: Mapping[str, bytes], *, parts: int | None = None) -> set[str]:
    """Every path an act of ``segments`` (file name -> bytes) binds. ``parts`` is how
    many parts to decode in (default: by size and CPUs)."""
    total = sum(len(data) for data in segments.values())
    if parts is None:
        cpus = childproc.usable_cpus()
        parts = 1 if total < PARALLEL_MIN_BYTES or cpus < 2 else min(cpus, MAX_PARTS)
    plan = plan_parts(segments, parts)
    if len(plan) < 2:
        return _serial(segments)
    try:
        return _in_parts(segments, plan)
    except LedgerError:
        return _serial(segments)  # raises the serial read's first fault


def plan_parts(segments: Mapping[str, bytes], parts: int) -> list[list[Piece]]:
    """The segments in name order, as one stream, cut into at most ``parts`` runs of
    about equal size. Each cut is moved forward to the end of a line; a segment
    without a final LF is never cut (the serial read reports it)."""
    names = sorted(segments)
    bases: list[int] = []
    total = 0
    for name in names:
        bases.append(total)
        total += len(segments[name])
    cuts = {0, total}
    for k in range(1, max(parts, 1)):
        goal = total * k // parts
        for name, base in zip(names, bases, strict=True):
            data = segments[name]
            if base <= goal < base + len(data):
                local = goal - base
                if local > 0:
                    lf = data.find(b"\n", local - 1) if data.endswith(b"\n") else -1
                    goal = base + (lf + 1 if lf >= 0 else len(data))
                cuts.add(goal)
                break
    bounds = sorted(cuts)
    plan: list[list[Piece]] = []
    for low, high in pairwise(bounds):
        part: list[Piece] = []
        for name, base in zip(names, bases, strict=True):
            data = segments[name]
            start, end = max(low - base, 0), min(high - base, len(data))
            if start < end:
                first = 1 if start == 0 else data.count(b"\n", 0, start) + 1
                part.append(Piece(name, start, end, first))
        if part:
            plan.append(part)
    return plan


def _serial(segments: Mapping[str, bytes]) -> set[str]:
    from forest_files.custody.sources import snapshot_of

    snapshot = snapshot_of(segments)
    return {p for act in snapshot.acts.values() for p in bound_path_refs(act.payload)}


def _in_parts(segments: Mapping[str, bytes], plan: list[list[Piece]]) -> set[str]:
    children: list[_Child | None] = []
    try:
        for part in plan[1:]:
            children.append(_Child.start(segments, part))
        own = {p.name for p in plan[0]}  # checked whole as they are decoded below
        for name in sorted(segments):  # every other segment checked whole here, once
            if name not in own:
                faults = segment_faults(segments[name], name)
                if faults:
                    raise faults[0]
        found = _paths(_decode_own(segments, plan[0]))
        for part, child in zip(plan[1:], children, strict=True):
            got = child.result() if child is not None else None
            if got is None:  # failed or never started: decoded here
                got = _paths(
                    act
                    for p in part
                    for _, act in decode_lines(segments[p.name][p.start : p.end], p.name, p.first)
                )
            found |= got
        return found
    finally:
        for child in children:
            if child is not None:
                child.stop()


def _decode_own(segments: Mapping[str, bytes], part: list[Piece]) -> list[Act]:
    """This process's part: whole segments through ``parse_segment`` and a cut one
    through ``decode_prefix`` (both remembered for a replay to come)."""
    acts: list[Act] = []
    for piece in part:
        data = segments[piece.name]
        if piece.end == len(data):
            decoded, errors = parse_segment(data, piece.name)
            if errors:
                raise errors[0]
        else:
            decoded = decode_prefix(data, piece.name, piece.end)
        acts.extend(act for _, act in decoded)
    return acts


def _paths(acts: Iterable[Act]) -> set[str]:
    return {p for act in acts for p in bound_path_refs(act.payload)}


class _Child:
    """One child decoding one part."""

    def __init__(self, child: childproc.Child, lines: int) -> None:
        self.child, self.lines = child, lines

    @classmethod
    def start(cls, segments: Mapping[str, bytes], part: list[Piece]) -> _Child | None:
        chunks = [segments[p.name][p.start : p.end] for p in part]
        header = [[p.name, p.first, len(c)] for p, c in zip(part, chunks, strict=True)]
        job = b"".join([json.dumps(header).encode("ascii"), b"\n", *chunks])
        child = childproc.spawn("forest_files.custody.path_scan", job=job)
        if child is None:
            return None
        return cls(child, sum(c.count(b"\n") for c in chunks))

    def result(self) -> set[str] | None:
        """The part's bound paths, or None unless the child decoded every line."""
        answer = self.child.answer()
        if answer is None:
            return None
        try:
            doc = json.loads(answer)
        except ValueError:
            return None
        if not isinstance(doc, dict):
            return None
        lines, paths = doc.get("lines"), doc.get("paths")
        if lines != self.lines or not isinstance(paths, list):
            return None
        if not all(isinstance(p, str) for p in paths):
            return None
        return set(paths)

    def stop(self) -> None:
        self.child.stop()


def _work(job: bytes) -> bytes | None:
    """The child: decode the job's lines; their bound paths as JSON, or None (exit 1)."""
    try:
        head, _, body = job.partition(b"\n")
        found: set[str] = set()
        lines = at = 0
        for name, first, size in json.loads(head):
            chunk = body[at : at + size]
            if len(chunk) != size or not isinstance(name, str) or not isinstance(first, int):
                return None
            at += size
            acts = decode_lines(chunk, name, first)
            lines += len(acts)
            found |= _paths(act for _, act in acts)
        if at != len(body):
            return None
    except (LedgerError, ValueError, TypeError):
        return None  # the parent decodes this part itself, and says what is wrong
    return json.dumps({"lines": lines, "paths": sorted(found)}).encode("utf-8")


if __name__ == "__main__":
    childproc.serve(_work)
