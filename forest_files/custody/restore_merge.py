"""Ground's lines merged into a section's lines: the text a restore writes there.

The section's lines are read as the binding reads them (``read``: its text after
exclusions and declared normalisations, LF line ends). Each line is first mapped to
the lines of that reading it became: one for one where the reading keeps the count
(line ends, ``trailing-whitespace``, ``list-markers``, ``emphasis``), none for a line
a normalisation drops (a comment line under ``py-comments``, a docstring under
``py-docstrings``, the blank lines ``blank-lines`` folds or drops, a link definition
``link-style`` inlines), and a group of lines to a group where it folds several
into fewer. The reading is then compared with ground line by line: a line whose
reading is ground's keeps its bytes (its own line end, its ``*`` bullet, its trailing
comment), a line that reads as nothing stays where it is, and only where the reading
differs is ground's text written, as ground holds it (the normalised text: the bytes
a normalisation drops are in no record), with the section's line end. Without
normalisations the reading is the lines themselves, so each unchanged line is reused
byte for byte and every other is ground's.

Stores: nothing (lines in, text out).
Refuses: nothing (restore_splice.py reads the result back and refuses what does not
read as ground).
Returns: the section's new text, the excluded lines (``inserts[k]``: before what kept
line ``k`` became) put back where they stood.
Test: tests/custody/test_restore_normalised.py, tests/custody/test_restore.py,
tests/custody/test_restore_cost.py
"""

from __future__ import annotations

import re

from forest_files.text.ends import common_ends
from forest_files.text.line_align import line_opcodes

_NORMAL_LINE = re.compile(r"[^\n]*\n|[^\n]+$")

Unit = tuple[int, int, int, int]  # section lines [a0, a1) read as reading lines [b0, b1)


def merge_lines(
    section: list[str],
    ground: str,
    eol: str,
    inserts: dict[int, list[str]] | None = None,
    read: str | None = None,
) -> str:
    """``ground`` written over ``section`` (its kept lines, with their own line ends):
    lines whose reading (``read``, by default the lines themselves) is ground's keep
    their bytes, lines that read as nothing stay, the rest become ground's lines
    ending in ``eol``; ``inserts[k]`` (excluded lines) go back before what line ``k``
    became."""
    inserts = inserts or {}
    raw = [line.rstrip("\r\n") + ("\n" if line.endswith(("\n", "\r")) else "") for line in section]
    reading = raw if read is None else _NORMAL_LINE.findall(read)
    want = _NORMAL_LINE.findall(ground)
    same, repl, before = _plan(reading, want)
    units = _units(raw, reading)
    last = max((i for i, u in enumerate(units) if u[2] < u[3]), default=-1)
    out: list[str] = []

    def new(lines: list[str]) -> None:
        out.extend(x.rstrip("\n") + (eol if x.endswith("\n") else "") for x in lines)

    if last < 0:
        new(before.get(len(reading), []))
    for i, (a0, a1, b0, b1) in enumerate(units):
        if b0 < b1:
            new(before.get(b0, []))
        # a line that reads as nothing (b0 == b1) stays; so does a group reading as ground
        keep = b0 == b1 or (
            a0 < a1 and all(same[b0:b1]) and not any(before.get(j) for j in range(b0 + 1, b1))
        )
        for k in range(a0, a1):
            out.extend(inserts.get(k, ()))
            if keep:
                out.append(section[k])
        if not keep:
            for j in range(b0, b1):
                if j > b0:
                    new(before.get(j, []))
                new([reading[j]] if same[j] else repl.get(j, []))
        if i == last:
            new(before.get(len(reading), []))
    out.extend(inserts.get(len(section), ()))
    return "".join(out)


def _plan(
    reading: list[str], want: list[str]
) -> tuple[list[bool], dict[int, list[str]], dict[int, list[str]]]:
    """Per reading line: whether ground holds it as it is; ground's lines that take
    its place otherwise (a group of them on the last line of a changed group); and
    ground's lines that go before it (``before[len(reading)]``: after the last)."""
    same = [False] * len(reading)
    repl: dict[int, list[str]] = {}
    before: dict[int, list[str]] = {}
    for tag, j0, j1, k0, k1 in line_opcodes(reading, want):
        if tag == "equal":
            same[j0:j1] = [True] * (j1 - j0)
        elif j0 == j1:
            before.setdefault(j0, []).extend(want[k0:k1])
        elif j1 - j0 == k1 - k0:
            repl.update((j0 + n, want[k0 + n : k0 + n + 1]) for n in range(j1 - j0))
        else:
            repl[j1 - 1] = want[k0:k1]
    return same, repl, before


def _units(raw: list[str], reading: list[str]) -> list[Unit]:
    """The section's lines in order, each with the reading lines it became: one for
    one where they match or a group changed line for line, none for a dropped line, a
    group for a group where a normalisation folded lines together."""
    if len(raw) == len(reading):  # the reading keeps each line where it was
        return [(k, k + 1, k, k + 1) for k in range(len(raw))]
    units: list[Unit] = []
    # matched without trailing blanks, so a blank line of spaces and the empty line
    # ``blank-lines`` reads it as pair up, as do the lines ``trailing-whitespace`` trims
    keys = ([x.rstrip() for x in raw], [x.rstrip() for x in reading])
    for equal, a0, a1, b0, b1 in _changes(*keys):
        if equal or a1 - a0 == b1 - b0:
            units.extend((a0 + k, a0 + k + 1, b0 + k, b0 + k + 1) for k in range(a1 - a0))
        elif b0 == b1:
            units.extend((a, a + 1, b0, b0) for a in range(a0, a1))
        elif b1 - b0 < a1 - a0 and (a1 - a0) * (b1 - b0) <= _MAX_PAIRS:
            units.extend(_dropped(raw, reading, a0, a1, b0, b1))
        else:
            units.append((a0, a1, b0, b1))
    return units


def _changes(a: list[str], b: list[str]) -> list[tuple[bool, int, int, int, int]]:
    """``line_opcodes`` with each run of changes between two equal blocks as one (a
    line deleted then one inserted is one line changed)."""
    out: list[tuple[bool, int, int, int, int]] = []
    for tag, a0, a1, b0, b1 in line_opcodes(a, b):
        if tag != "equal" and out and not out[-1][0]:
            out[-1] = (False, out[-1][1], a1, out[-1][3], b1)
        else:
            out.append((tag == "equal", a0, a1, b0, b1))
    return out


_MAX_PAIRS = 40_000  # beyond, a changed group is one unit (ground written over all of it)


def _dropped(raw: list[str], reading: list[str], a0: int, a1: int, b0: int, b1: int) -> list[Unit]:
    """Fewer reading lines than section lines (a normalisation dropped some, and read
    the others differently: ``py-comments`` cuts a comment line and the comment after
    a statement): each reading line is given the section line most like it, in order
    (the most characters shared at both ends over the group), and the rest read as
    nothing."""
    m, n = a1 - a0, b1 - b0
    score = [[_alike(raw[a0 + i], reading[b0 + j]) for j in range(n)] for i in range(m)]
    best = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, min(i, n) + 1):
            took = best[i - 1][j - 1] + score[i - 1][j - 1]
            best[i][j] = took if j == i else max(took, best[i - 1][j])
    units: list[Unit] = []
    i, j = m, n
    while i > 0:
        if j > 0 and (j == i or best[i][j] == best[i - 1][j - 1] + score[i - 1][j - 1]):
            units.append((a0 + i - 1, a0 + i, b0 + j - 1, b0 + j))
            j -= 1
        else:
            units.append((a0 + i - 1, a0 + i, b0 + j, b0 + j))
        i -= 1
    return units[::-1]


def _alike(line: str, read: str) -> int:
    """How many characters ``line`` and ``read`` share at their start and their end."""
    head, tail = common_ends(line, read)
    return head + tail
