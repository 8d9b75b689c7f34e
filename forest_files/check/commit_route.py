"""One route per commit, and one finding per edit: how the hook shows many drifts.

When a staged change drifts several bindings, the hook prints, beside each
finding, one route that supersedes exactly the drifted bindings it listed::

    forest supersede --staged --expect DIGEST --words '…' && git add -- .forest/ledger

``DIGEST`` (``staged_digest``) covers each listed binding (its bind act) and its
staged section hash, so the route refuses when anything it covers changed
since it was printed (governance/staged_supersede.py); authority is judged per
binding when it records.

An edit inside nested bindings makes every enclosing binding drift too;
``nested`` shows it once, at the innermost drifted binding, with the enclosing
drifted ones named beneath it (same file, line range inside theirs). Display
only: every binding is still judged, fails, and needs its own act (the commit
route records them all).

Stores: nothing.
Refuses: nothing.
Returns: ``staged_digest``, ``commit_route`` (None below two drifted bindings),
``nested`` (each finding to show, with the enclosing findings named under it).
Test: tests/check/test_commit_route.py
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from forest_files.check.findings import WORDS_PLACEHOLDER, Reported, Route
from forest_files.kernel.paths import LEDGER_PREFIX

if TYPE_CHECKING:
    from forest_files.check.engine import Finding

DIGEST_CHARS = 20
_TAG = "forest-staged-supersede/v1"


def staged_digest(pairs: Iterable[tuple[str, str]]) -> str:
    """The digest of (bind act, staged section hash) pairs, in any order."""
    lines = sorted(f"{binding}\t{section}" for binding, section in pairs)
    raw = "\n".join([_TAG, *lines]).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()[:DIGEST_CHARS]


def drifted(findings: Iterable[Finding]) -> list[Finding]:
    """The drifted findings a commit route covers (each binding once)."""
    seen: dict[str, Finding] = {}
    for f in findings:
        if f.kind == "drifted" and f.binding and f.actual_hash:
            seen.setdefault(f.binding, f)
    return list(seen.values())


def commit_route(findings: Iterable[Finding]) -> Route | None:
    """The one route superseding every drifted binding listed (None below two)."""
    covered = drifted(findings)
    if len(covered) < 2:
        return None
    digest = staged_digest((f.binding, f.actual_hash or "") for f in covered)
    step = ("forest", "supersede", "--staged", "--expect", digest, "--words", WORDS_PLACEHOLDER)
    return Route(
        f"or adopt all {len(covered)} drifted sections at once",
        (step, ("git", "add", "--", LEDGER_PREFIX.rstrip("/"))),
        "replace … with why the reviewed text is right; refused if the staged text changed",
    )


def nested(items: Sequence[Reported]) -> list[tuple[Reported, tuple[Reported, ...]]]:
    """Each item to show, in order, with the drifted items enclosing it; an enclosing
    drifted item is shown only under the innermost drifted items inside it."""
    by_path: dict[str, list[Reported]] = {}
    for r in items:
        if r.finding.kind == "drifted" and r.finding.start_line is not None:
            by_path.setdefault(r.finding.path, []).append(r)
    above: dict[int, tuple[Reported, ...]] = {}
    hidden: set[int] = set()
    for group in by_path.values():
        if len(group) > 1:
            _nest(group, above, hidden)
    return [(r, above.get(id(r), ())) for r in items if id(r) not in hidden]


def _nest(group: list[Reported], above: dict[int, tuple[Reported, ...]], hidden: set[int]) -> None:
    """Fill ``above`` (innermost -> enclosing) and ``hidden`` for one file's drifts."""

    def span(r: Reported) -> tuple[int, int]:
        return r.finding.start_line or 0, r.finding.end_line or 0

    def key(r: Reported) -> tuple[int, int, bool, int]:
        lo, hi = span(r)  # outer first: earlier start, later end, the file, shorter
        return lo, -hi, r.finding.selector != r.finding.path, len(r.finding.selector)

    stack: list[Reported] = []
    parents: set[int] = set()
    for r in sorted(group, key=key):
        lo, hi = span(r)
        while stack and span(stack[-1])[1] < lo:
            stack.pop()
        enclosing = tuple(s for s in reversed(stack) if span(s)[1] >= hi)
        if enclosing:
            above[id(r)] = enclosing
            parents.update(id(s) for s in enclosing)
        stack.append(r)
    for r in group:
        if id(r) in parents:
            hidden.add(id(r))
            above.pop(id(r), None)
