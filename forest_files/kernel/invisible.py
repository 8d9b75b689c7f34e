"""Characters a terminal shows as nothing or as a plain space: the one test of them.

Stores: nothing. Refuses: nothing.
Returns: ``invisible(ch)``: a format character (category Cf: U+200B, U+00AD, U+200F,
U+2060, a tag), a private-use or unassigned code point, a space other than U+0020
(U+00A0), a variation selector or a filler that shows blank. text/unseen.py writes each
as its code in prose (``<U+200B>``), kernel/shellword.py as ``$'\\ooo'`` in a command.
Test: tests/kernel/test_shellword.py, tests/proposals/test_proposals.py
"""

from __future__ import annotations

import unicodedata

_INVISIBLE_CATEGORIES = frozenset({"Cf", "Co", "Cn"})
# Shown as blank though their category is a letter, a mark or a symbol.
_BLANK = frozenset({0x034F, 0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0})


def invisible(ch: str) -> bool:
    """``ch`` shows as nothing, or as a plain space, on a terminal."""
    code = ord(ch)
    if ch.isascii():
        return False
    category = unicodedata.category(ch)
    return (
        category in _INVISIBLE_CATEGORIES
        or category == "Zs"
        or code in _BLANK
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
    )
