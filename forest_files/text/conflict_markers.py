"""Git's merge conflict markers in a file's bytes: a file no section stands in yet.

Stores: nothing.
Refuses: nothing.
Returns: ``has_markers`` (a ``<<<<<<<`` line, then a ``=======`` line, then a
``>>>>>>>`` line, at the start of their lines, in that order: a heading underlined
with ``=======`` alone is none); ``sides`` (the bytes with HEAD's side of every
conflict kept, and with the other side kept: check/conflicts.py judges a section the
conflicts leave whole). The move and rename searches (check/moves.py,
check/filerenames.py) skip such a file; check/conflicts.py reports a bound one;
restore writes nothing into one (custody/restore_splice.py).
Test: tests/check/test_conflicts.py, tests/custody/test_restore.py
"""

from __future__ import annotations

import re

_START = re.compile(rb"^<{7}(?: |\r?$)", re.MULTILINE)
_MIDDLE = re.compile(rb"^={7}\r?$", re.MULTILINE)
_END = re.compile(rb"^>{7}(?: |\r?$)", re.MULTILINE)


def has_markers(data: bytes) -> bool:
    """``data`` holds a ``<<<<<<<`` line, then ``=======``, then ``>>>>>>>`` (git's
    conflict markers, at the start of their lines, in that order)."""
    if b"<<<<<<<" not in data:  # most files: one fast scan
        return False
    start = _START.search(data)
    middle = _MIDDLE.search(data, start.end()) if start is not None else None
    return middle is not None and _END.search(data, middle.end()) is not None


_LINE = re.compile(rb"[^\n]*\n|[^\n]+$")
_OPEN, _BASE, _SPLIT, _CLOSE = (
    re.compile(m)
    for m in (
        rb"<{7}(?: |\r?\n|$)",
        rb"\|{7}(?: |\r?\n|$)",
        rb"={7}\r?(?:\n|$)",
        rb">{7}(?: |\r?\n|$)",
    )
)


def sides(data: bytes) -> tuple[bytes, bytes]:
    """``data`` with HEAD's side of each conflict kept, and with the other side kept
    (git's markers and a diff3 ``|||||||`` base dropped)."""
    ours: list[bytes] = []
    theirs: list[bytes] = []
    state = "both"
    for line in _LINE.findall(data):
        if _OPEN.match(line) and state == "both":
            state = "ours"
        elif _BASE.match(line) and state == "ours":
            state = "base"
        elif _SPLIT.match(line) and state in ("ours", "base"):
            state = "theirs"
        elif _CLOSE.match(line) and state == "theirs":
            state = "both"
        else:
            if state in ("both", "ours"):
                ours.append(line)
            if state in ("both", "theirs"):
                theirs.append(line)
    return b"".join(ours), b"".join(theirs)
