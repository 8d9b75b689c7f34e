"""Splitting a selector's path from its section (selector.py's first step).

A selector's path ends at its first marker, ``#``, ``@`` or ``::``; in a file name
those characters are written ``\\#``, ``\\@``, ``\\:``. With no backslash in the text
nothing is escaped, so one regex search finds the marker; only a text holding a
backslash is walked char by char.

Stores: nothing.
Refuses: nothing (the path is judged by selector.py).
Returns: ``(path, marker, rest)``, marker one of ``''``, ``'#'``, ``'::'``, ``'@'``.
Test: tests/text/test_selector_split.py
"""

from __future__ import annotations

import re

PATH_ESCAPES = "#@:"
_MARKER_RE = re.compile(r"[#@]|::")


def split_path(text: str) -> tuple[str, str, str]:
    """Split off the path (unescaped); ``walk_path``'s answer, fast when no backslash."""
    if "\\" in text:
        return walk_path(text)
    m = _MARKER_RE.search(text)
    if m is None:
        return text, "", ""
    return text[: m.start()], m.group(), text[m.end() :]


def walk_path(text: str) -> tuple[str, str, str]:
    """``split_path`` char by char, a backslash escaping a path's '#', '@' or ':'."""
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in PATH_ESCAPES:
            buf.append(text[i + 1])
            i += 2
            continue
        if c in "#@":
            return "".join(buf), c, text[i + 1 :]
        if c == ":" and text.startswith("::", i):
            return "".join(buf), "::", text[i + 2 :]
        buf.append(c)
        i += 1
    return "".join(buf), "", ""
