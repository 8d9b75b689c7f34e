"""What a restore's guard finds hidden in a section, and the fix it advises.

restore_swallowed.py ``swallowed`` finds the first heading an edit's block hides in a
section; this is that answer as a value, with the fix in words: the block closed
before the heading, or, ground's lines after it (a heading typed into the block above
them: closed before it, it would cut the section short over them), before the first
of those; a fence closed further on, its own closing line taken out first (left, it
would open a fence over what follows).
Stores: nothing.
Refuses: nothing.
Returns: ``Hidden`` (``close_before``, ``fix``: a refusal's words, and, ``named``, a
route's: check/route_swallowed.py); ``HIDERS``, the kinds of block that
hide, in words.
Test: tests/check/test_route_swallowed.py, tests/custody/test_restore_swallowed.py
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_files.custody.hidden_close import HIDERS, close_advice


@dataclass(frozen=True)
class Hidden:
    """A heading the section hides now (0-based indexes into the section's lines)."""

    line: int  # the heading's first line
    source: str  # the heading's first line as written (a heading is a name, not body)
    level: int  # 0: past more blocks left open than are read (``line``: the last)
    block: int  # the first line of the fence or HTML block hiding it
    kind: str  # that block's kind (md_blocks.py)
    tail: bool  # of the section's level or higher, after every line of ground's kept
    closer: str | None = None  # the line that closes that block (closing_line)
    end: int = -1  # the block's closing line, when it closes in the section (-1: it runs on)
    resume: int = -1  # the first line of ground's after the heading (-1: none)
    alone: bool = True  # the closing line (``end``) holds the block's end alone (ends_alone)

    @property
    def close_before(self) -> int:
        """The line to close the block before: the heading's, or, ground's lines after
        it (a line the edit typed into the block), the first of them: closed before
        the heading, it would cut the section short over ground's lines."""
        if self.resume < 0 or 0 <= self.end < self.resume:
            return self.line
        return self.resume

    def fix(self, first: int, *, named: bool = False) -> str:
        """The fix in words (``first``: the section's first line in the file): the block
        closed before ``close_before`` or taken out, the line that closes it named; a
        fence closed further on, its own closing line taken out first (left, it would
        open a fence over what follows; the lines above it keep their numbers).
        ``named``: the block named by its first line (a route's note, which says it
        nowhere else: check/route_swallowed.py), not as ``that`` block of a refusal."""
        return close_advice(
            self.kind,
            first + self.close_before,
            self.closer,
            opened=first + self.block if named else 0,
            closing=first + self.end if self.end >= 0 else 0,
            alone=self.alone,
        )


__all__ = ["HIDERS", "Hidden"]
