"""A heading the watcher saw renamed becomes a rebind proposal (proposals/rebinds.py).

An ``unresolved`` finding names the headings now near where the bound one was
(its ``candidates``). Each candidate's section is read from the file as the
check read it; the one whose body (the lines under the heading) shares most of
ground's body becomes the binding's rebind proposal, if it shares at least
``MIN_SHARED``, no live binding holds that selector already and no other
binding's open rebind proposal names it (two bindings are never offered the same
target). Ties go to the candidate the check named first. Bodies past a few
hundred characters are compared line-aligned (``shared``), at a cost about their length.

Stores: through ``RebindStore`` (selectors and a score; never text).
Refuses: nothing; a file that changed again, or no candidate close enough,
proposes nothing.
Returns: ``(proposal id, outcome)`` or None.
Test: tests/doors/test_watch_writers.py, tests/proposals/test_rebinds.py,
tests/doors/test_watch_rename_cost.py
"""

from __future__ import annotations

import difflib
from pathlib import Path

from forest_files.check.findings import Reported
from forest_files.kernel.errors import ForestError

MIN_SHARED = 0.6
# Characters of one body times the other's compared by difflib at once (two bodies of
# ~500 characters: a few milliseconds; character searches cost about this product).
EXACT_PRODUCT = 250_000
# Products one comparison may spend on its changed gaps (about 0.2 s).
MAX_SPENT = 40 * EXACT_PRODUCT


def _body(section: str) -> str:
    """The section without its heading line."""
    return section.split("\n", 1)[1] if "\n" in section else ""


def shared(ground: str, now: str) -> float:
    """The characters two bodies share, in [0, 1] (2M / T, as ``difflib``'s ratio):
    ``difflib``'s own for bodies whose lengths multiply to at most ``EXACT_PRODUCT``;
    longer ones have their lines aligned first (text/line_align.py), equal lines
    counted whole and each changed gap compared character by character, line by line
    where the gap is too long, within ``MAX_SPENT`` (past it a gap shares nothing)."""
    a, b = _body(ground), _body(now)
    if len(a) * len(b) <= EXACT_PRODUCT:
        return _matcher(a, b).ratio()
    from forest_files.text.line_align import line_opcodes

    left, same = MAX_SPENT, 0
    la, lb = a.splitlines(True), b.splitlines(True)
    for tag, a0, a1, b0, b1 in line_opcodes(la, lb):
        if tag == "equal":
            same += sum(len(x) for x in la[a0:a1])
            continue
        for x, y in _pieces(la[a0:a1], lb[b0:b1]) if tag == "replace" else ():
            if len(x) * len(y) <= min(EXACT_PRODUCT, left):
                left -= len(x) * len(y)
                same += sum(m.size for m in _matcher(x, y).get_matching_blocks())
    return 2.0 * same / (len(a) + len(b))


def _pieces(one: list[str], two: list[str]) -> list[tuple[str, str]]:
    """A changed gap's two sides compared whole, or line by line when too long."""
    x, y = "".join(one), "".join(two)
    if len(x) * len(y) <= EXACT_PRODUCT:
        return [(x, y)]
    return list(zip(one, two, strict=False))


def _matcher(a: str, b: str) -> difflib.SequenceMatcher[str]:
    return difflib.SequenceMatcher(None, a, b, autojunk=False)


def likeliest(
    root: Path, r: Reported, excludes: tuple[str, ...], taken: frozenset[str]
) -> tuple[str, float] | None:
    """The candidate the renamed section most likely is, with its score."""
    from forest_files.custody.content import read_regular
    from forest_files.text.extract import extract
    from forest_files.text.normalise import decode_bytes, normalise_text
    from forest_files.text.selector import parse_selector

    f = r.finding
    ground = _ground(root, f.ground)
    data = read_regular(str(root / f.path))
    if ground is None or data is None:
        return None
    try:
        text = normalise_text(decode_bytes(data, f.path))
    except ForestError:
        return None
    best: tuple[str, float] | None = None
    for candidate in f.candidates:
        if candidate in taken:
            continue
        try:
            section = extract(text, parse_selector(candidate), excludes).text
        except ForestError:
            continue
        score = shared(ground, section)
        if score >= MIN_SHARED and (best is None or score > best[1]):
            best = (candidate, score)
    return best


def _ground(root: Path, content_id: str | None) -> str | None:
    from forest_files.check.diff import ground_text
    from forest_files.custody.repository import Repository

    with Repository(root) as repo:
        return ground_text(repo.synced(), content_id)


def propose_rebind(
    root: Path, r: Reported, excludes: tuple[str, ...], taken: frozenset[str]
) -> tuple[str, str] | None:
    """Keep the likeliest rename of ``r``'s heading as its binding's rebind proposal."""
    from forest_files.proposals.rebinds import RebindStore

    f = r.finding
    if f.kind != "unresolved" or not f.candidates or f.ground is None:
        return None
    with RebindStore(root) as store:
        offered = {p.new_selector for p in store.open_rebinds() if p.binding != f.binding}
        found = likeliest(root, r, excludes, taken | offered)
        if found is None:
            return None
        new, score = found
        done, outcome = store.propose(
            binding=f.binding,
            path=f.path,
            old=f.selector,
            new=new,
            derived_from=f.ground,
            score=round(score, 3),
        )
    return done.id, outcome
