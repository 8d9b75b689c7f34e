"""The default scrub: Forest 0.4's tag stripper, applied to bodies before they are stored.

Stores: nothing.
Refuses: nothing; any ``str`` is accepted and returned cleaned.
Returns: ``default_scrub(text)``: ``text`` stripped, with every opening or
closing tag whose name starts with ``think``, ``scratchpad`` or ``system``
(any case, running to the next ``>``) deleted, then stripped again. Only the
tags go; what they enclose stays (``"<think>a</think>b"`` -> ``"ab"``), exactly
as Forest 0.4 does it. Hosts that must drop the enclosed reasoning pass a
stronger ``ScrubFn``; ``examples/scrubs.py`` has two.
Test: tests/face/test_scrub.py
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["ScrubFn", "default_scrub"]

ScrubFn = Callable[[str], str]
"""A scrub takes the raw text of a body and returns the text to store."""

# The name is a prefix match on purpose (Forest eats <thinking>, <system-reminder>).
# No whitespace is allowed between "<" or "</" and the name, and "[^>]*" may span
# newlines; both are Forest 0.4's behaviour, kept so stored hashes agree.
_MARKER_TAG = re.compile(r"</?(?:think|scratchpad|system)[^>]*>", re.IGNORECASE)


def default_scrub(text: str) -> str:
    """Strip ``text`` and delete think/scratchpad/system tags, keeping their contents."""
    return _MARKER_TAG.sub("", text.strip()).strip()
