"""Text as one Markdown code span, for a door whose reader renders Markdown (an MCP
client, a GitHub step summary): a command, a path or a selector shown as the characters
it is, whatever it holds.

A single-backquote fence is closed by the first backquote inside (a ledger's selector
is any text), so the reader saw a command cut there and the rest as prose. CommonMark
closes a span only at a run of backquotes as long as its opening one: the fence here
is one longer than the longest run inside. A span that starts or ends with a
backquote, or with a space at both ends, is padded with one space each side, which
CommonMark strips (one each side, and only when both are there).

Stores: nothing. Refuses: nothing.
Returns: ``code_span``'s Markdown text; a parser reads back exactly ``text`` (line
endings in it read back as spaces: CommonMark's rule, so callers pass one line).
Test: tests/text/test_codespan.py, tests/doors/test_mcp_code_spans.py
"""

from __future__ import annotations

import re

_RUNS = re.compile("`+")


def code_span(text: str) -> str:
    """``text`` between backquote fences longer than any run of backquotes in it."""
    fence = "`" * (max((len(run) for run in _RUNS.findall(text)), default=0) + 1)
    pad = text.startswith("`") or text.endswith("`")
    pad = pad or (len(text) > 1 and text[0] == text[-1] == " " and text.strip(" ") != "")
    space = " " if pad else ""
    return f"{fence}{space}{text}{space}{fence}"
