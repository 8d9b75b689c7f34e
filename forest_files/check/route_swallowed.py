"""A drift's restore route when that restore would be refused: the section excludes
parts and an edit in it hides a heading.

A section bound with exclusions (``--exclude '#sub'``) keeps no heading an edit hides:
the hidden part may be an excluded one, whose text no record holds, so ``forest
restore`` refuses (custody/restore_swallowed.py ``guard``), naming the block to close.
The check's route says the same instead of printing that refused command: the block
closed before the first heading it hides (the line that closes it named), after which
the restore is routed again and works pasted.

Stores: nothing. Refuses: nothing.
Returns: ``swallowed_route``: the advice route that replaces such a drift's restore
route, or None (the restore route stands). Asked only of a drifted heading section
whose binding excludes parts (not a normaliser's item), in the working tree or the
index (the route acts on the working tree): the working file and ground's body, read
from the ledger (its name is its hash: what it read is ground), and the restore
worked out in memory, nothing written (restore_rewrite.py ``plan_rewrite``: the
restore's own refusal, so the route and the command agree).
Test: tests/check/test_route_swallowed.py
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Route
from forest_files.kernel.errors import ForestError
from forest_files.text.normalisers import PREFIX as NORMALISED

if TYPE_CHECKING:
    from forest_files.check.finding import Finding
    from forest_files.custody.restore_swallowed import Swallowed

CLOSE = "close the block"


def cuts(f: Finding) -> bool:
    """``f`` is a drifted heading section whose binding excludes parts: its restore
    refuses every heading an edit hides (restore_swallowed.py ``guard``)."""
    return (
        f.kind == "drifted"
        and "#" in f.selector
        and any(not e.startswith(NORMALISED) for e in f.excludes)
    )


def swallowed_route(f: Finding, root: Path) -> Route | None:
    """The block to close, as advice, when ``forest restore`` of ``f`` (a drift that
    ``cuts``) would refuse a heading an edit hides; None when the restore goes through
    or refuses for another reason (it says so itself), or ground's body is not read."""
    from forest_files.custody.restore_rewrite import plan_rewrite
    from forest_files.custody.restore_swallowed import Swallowed

    ground = _ground(root, f.expected_hash)
    if ground is None:
        return None
    try:
        plan_rewrite(root, f.path, f.selector, f.excludes, ground)
    except Swallowed as refused:
        return Route(CLOSE, note=_advice(refused, f.selector))
    except ForestError:
        return None
    return None


def _advice(refused: Swallowed, selector: str) -> str:
    """The refusal's fix as a route's note: the block, its line, the line to close it
    before, the line that closes it, then the restore."""
    from forest_files.custody.hidden_place import HIDERS
    from forest_files.kernel.shellword import forest_text

    hidden, first = refused.hidden, refused.first
    again = forest_text("restore", selector)
    return (
        f"close the {HIDERS[hidden.kind]} opened at line {first + hidden.block} before "
        f"line {first + hidden.line} (or take it out){refused.closing}; then `{again}`"
    )


def _ground(root: Path, body_hash: str | None) -> str | None:
    """Ground's body as the ledger holds it, when its bytes hash to ``body_hash``."""
    from forest_files.kernel.paths import LEDGER_DIR
    from forest_files.ledger.segments import read_body

    if body_hash is None:
        return None
    try:
        text = read_body(root / LEDGER_DIR, body_hash)
    except ForestError:
        return None
    if text is None or hashlib.sha256(text.encode("utf-8")).hexdigest() != body_hash:
        return None
    return text
