"""The close advice of a drift whose restore would refuse a heading an edit hides,
worked out in memory: the note check/route_swallowed.py routes that drift with, and
check/hidden_heading.py a heading the same block hides (one close for both).

Stores: nothing. Refuses: nothing.
Returns: ``refused_close``: the line of the block, the advice (the refusal's fix,
restore_hiding.py ``Hidden.fix``, or, a heading that may be new, its close where the
block's lines end: ``Swallowed.close``; the block named by its line, then the restore), and
whether the refusal is of a heading that may be new; or None (the restore goes
through, refuses for another reason, or ground's body is not read: from the ledger,
its name its hash). The restore is restore_rewrite.py ``plan_rewrite``, nothing written.
Test: tests/check/test_route_swallowed.py
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.custody.restore_swallowed import Swallowed


def refused_close(
    root: Path, target: tuple[str, str, tuple[str, ...]], body_hash: str | None
) -> tuple[int, str, bool] | None:
    """When the restore of ``target`` (path, selector, exclusions) to the ground whose
    body hashes to ``body_hash`` would refuse a heading an edit hides: the line of the
    block that hides it, the close advice (the note of that drift's route), and whether
    the refusal is of a heading that may be new (a line of the block, which only the
    user can tell: ``Swallowed.new``); else None. A hidden heading whose holder's
    restore is refused over the same block, not so, is routed with this advice too
    (hidden_heading.py): one close for both."""
    from forest_files.custody.restore_rewrite import plan_rewrite
    from forest_files.custody.restore_swallowed import Swallowed

    path, selector, excludes = target
    ground = _ground(root, body_hash)
    if ground is None:
        return None
    try:
        plan_rewrite(root, path, selector, excludes, ground)
    except Swallowed as refused:
        at = refused.first + refused.hidden.block
        return at, _advice(refused, selector), refused.new is not None
    except ForestError:
        return None
    return None


def _advice(refused: Swallowed, selector: str) -> str:
    """The refusal's fix as a route's note (restore_hiding.py ``Hidden.fix``; a heading
    that may be new, restore_swallowed.py ``Swallowed.close``: where the block's lines
    end, which only the user knows; the block named by its line), then the restore."""
    from forest_files.kernel.shellword import forest_text

    again = forest_text("restore", selector)
    if refused.new is not None:  # a line of the block or a new section: the user's call
        return f"{refused.close_said(named=True)}; then `{again}`"
    return f"{refused.hidden.fix(refused.first, named=True)}; then `{again}`"


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
