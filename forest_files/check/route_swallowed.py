"""A drift's restore route when that restore would be refused: an edit in the section
opened a block that hides a heading.

``forest restore`` of a heading section refuses a heading an edit hides where it cannot
stay after ground (ground's lines follow it: a ```` ``` ```` then ``# B`` typed above
them), and, the section excluding parts (``--exclude '#sub'``), any heading an edit
hides (the hidden part may be an excluded one, whose text no record holds):
custody/restore_swallowed.py ``guard``, naming the block to close. The check's route
says the same instead of printing that refused command: the block closed before the
first heading it hides (the line that closes it named; a fence closed further on, its
own closing line taken out first; a heading that may be a line of the block, where the
block's lines end, as the refusal says), after which the restore is routed again and
works pasted.

Stores: nothing. Refuses: nothing.
Returns: ``may_hide``: whether a drift may be such a one, read cheaply (a drifted
heading section whose working lines hold a line that may open a fence or an HTML
block: an ordinary drift is routed at no further cost); ``swallowed_route``: the advice
route that replaces such a drift's restore route, or None (the restore route stands);
route_close.py ``refused_close`` works that advice out (a hidden heading whose holder's
restore is refused over that block is routed with it: hidden_heading.py).
Asked only where ``may_hide``, in the working tree or the index (the route acts on the
working tree): the working file and ground's body, read from the ledger (its name is
its hash: what it read is ground), and the restore worked out in memory, nothing
written (restore_rewrite.py ``plan_rewrite``: the restore's own refusal, so the route
and the command agree).
Test: tests/check/test_route_swallowed.py
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Route
from forest_files.check.route_close import refused_close
from forest_files.custody.content import read_regular

if TYPE_CHECKING:
    from forest_files.check.finding import Finding

CLOSE = "close the block"

# A line that may open a fence or an HTML block (md_blocks.py), read loosely: past any
# indent, quote or list marks, three backticks or tildes, or a ``<``. Only a block an
# edit opened hides a heading; a line of none of these opens none.
_OPENER = re.compile(rb"^[ \t>*+\-0-9.)]*(?:```|~~~|<)", re.MULTILINE)


def may_hide(f: Finding, root: Path, source: str) -> bool:
    """``f`` is a drifted heading section whose working lines (the section's, read in
    the working tree; the whole working file when the check read the index, whose
    lines may differ) hold a line that may open a block: only then may its restore
    refuse a heading an edit hides (restore_swallowed.py ``guard``)."""
    if f.kind != "drifted" or "#" not in f.selector:
        return False
    data = read_regular(str(root / f.path))
    if data is None:
        return False
    if source == "worktree" and f.start_line is not None and f.end_line is not None:
        data = b"\n".join(data.split(b"\n")[f.start_line - 1 : f.end_line])
    return _OPENER.search(data) is not None


def swallowed_route(f: Finding, root: Path) -> Route | None:
    """The block to close, as advice, when ``forest restore`` of ``f`` (a drift that
    ``may_hide``) would refuse a heading an edit hides; None when the restore goes through
    or refuses for another reason (it says so itself), or ground's body is not read."""
    refused = refused_close(root, (f.path, f.selector, f.excludes), f.expected_hash)
    return None if refused is None else Route(CLOSE, note=refused[1])
