"""A word-level diff of two texts, for a terminal (never for logs or machine output).

Stores: nothing.
Refuses: nothing.
Returns: one string: unchanged words as they are, removed words as ``[-…-]``,
added words as ``{+…+}`` (git's ``--word-diff=plain`` marks), whitespace kept.
Test: tests/proposals/test_proposals.py
"""

from __future__ import annotations

import difflib
import re

_TOKEN = re.compile(r"\s+|[^\s]+")


def word_diff(old: str, new: str) -> str:
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out.append("".join(a[i1:i2]))
            continue
        if op in ("delete", "replace"):
            out.append(f"[-{''.join(a[i1:i2])}-]")
        if op in ("insert", "replace"):
            out.append(f"{{+{''.join(b[j1:j2])}+}}")
    return "".join(out)
