"""A coding declaration that makes Python read a bound file otherwise than forest does.

forest reads every file as UTF-8; Python honours a PEP 263 declaration on line 1 or 2.
A ``# -*- coding: utf-7 -*-`` line added above a bound function (outside every
section) turns ``+AAo-`` in one of its comments into a line end: code that runs while
the section's text, and so its hash, stands unchanged (under ``py-comments`` the
comment itself passes too). Such a file is refused as Python; a declaration that
reads the file as UTF-8 does (``latin-1`` over ASCII, ``utf-8``) is accepted.
"""

from __future__ import annotations

import pytest

from forest_files.text.extract import extract
from forest_files.text.pysymbol import SymbolSourceError, resolve_symbol, symbols
from forest_files.text.selector import parse_selector

BODY = "def verify(sig):\n    # see RFC 2104 +AAo-    return True\n    return check(sig)\n"


@pytest.mark.parametrize(
    "head",
    [
        "# -*- coding: utf-7 -*-\n",
        "#!/usr/bin/env python\n# vim: set fileencoding=utf-7 :\n",
        "\n# coding=utf_7\n",
    ],
)
def test_coding_declaration_read_otherwise_refused_hostile(head: str) -> None:
    text = head + BODY
    with pytest.raises(SymbolSourceError) as info:
        extract(text, parse_selector("m.py::verify"), ())
    message = str(info.value)
    assert message.startswith("m.py: not valid Python (line ")
    assert "utf" in message and "+AAo-" not in message


def test_latin1_declaration_over_non_ascii_string_refused_hostile() -> None:
    """``"é"`` in a bound function reads as two characters under latin-1."""
    text = '# coding: latin-1\ndef name():\n    return "café"\n'
    with pytest.raises(SymbolSourceError, match=r"'latin-1'"):
        symbols(text, "m.py")


def test_unknown_or_bytes_codec_declaration_refused() -> None:
    for name in ("no-such-codec", "hex", "rot13"):
        with pytest.raises(SymbolSourceError, match=name):
            symbols(f"# coding: {name}\ndef f():\n    pass\n", "m.py")


@pytest.mark.parametrize(
    "head",
    [
        "# -*- coding: utf-8 -*-\n",
        "# -*- coding: latin-1 -*-\n",  # an ASCII file reads the same
        "# coding: ascii\n",
        "x = 1\n# coding: utf-7\n",  # line 2 after code: Python ignores it
        "\n\n# coding: utf-7\n",  # line 3: ignored
    ],
)
def test_coding_declaration_read_the_same_accepted(head: str) -> None:
    text = head + "def verify(sig):\n    return check(sig)\n"
    symbol, _ = resolve_symbol(text, parse_selector("m.py::verify"))
    assert symbol.path == ("verify",)
