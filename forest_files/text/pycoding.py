"""Whether Python reads a file in the UTF-8 forest reads it in (PEP 263 declarations).

forest decodes every bound file as UTF-8 and parses Python from that text, where a
coding declaration is ignored; Python honours one on line 1, or on line 2 when line 1
is blank or a comment (the rule of ``tokenize.detect_encoding``). A declaration under
which the file's bytes decode to other text (``utf-7`` turning ``+AAo-`` in a comment
into a line end, ``latin-1`` turning ``é`` into two characters), or that Python cannot
decode with at all, means the code that runs is not the text a binding holds.

Stores: nothing.
Refuses: nothing (pydefs.py refuses what this finds).
Returns: ``read_otherwise``: (line, declared name) of such a declaration, or None.
Test: tests/text/test_python_coding.py
"""

from __future__ import annotations

import re

# tokenize's cookie_re and blank_re, over text (ASCII classes, as over bytes).
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)
_BLANK = re.compile(r"^[ \t\f]*(?:[#\r\n]|$)", re.ASCII)


def read_otherwise(text: str) -> tuple[int, str] | None:
    """(line, name) of the coding declaration Python honours in ``text`` when, under
    it, the file's UTF-8 bytes do not read as ``text``; None when there is none or it
    reads the same (``utf-8``, or ``latin-1`` over ASCII)."""
    first = text.find("\n")
    second = text.find("\n", first + 1) if first >= 0 else -1
    head = text if second < 0 else text[:second]  # lines 1 and 2 only
    if "coding" not in head:
        return None
    for number, line in enumerate(head.split("\n"), 1):
        found = _COOKIE.match(line)
        if found:
            name = found.group(1)
            try:
                same = text.encode("utf-8").decode(name) == text
            except (LookupError, UnicodeError, ValueError):
                same = False  # no such text codec: Python refuses to run the file
            return None if same else (number, name)
        if not _BLANK.match(line):
            return None
    return None
