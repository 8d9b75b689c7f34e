"""Example scrubs stronger than ``forest_files.default_scrub``: they drop the reasoning itself.

The default scrub deletes only the ``<think>``-style tags and keeps what they
enclose, so a model's private reasoning still lands in the store. These two
remove it. Pass one as ``scrub=`` to ``write``, ``write_pair`` or ``commit_turn``.
This file needs only the standard library, so a host can load it by path:

    spec = importlib.util.spec_from_file_location("scrubs", "examples/scrubs.py")

Stores: nothing.
Refuses: nothing; an all-reasoning text comes back as ``""`` (the store then
refuses the empty body, which is the right outcome).
Returns: ``tool_trace_scrub(text)`` and ``cot_marker_scrub(text)``, both ``str -> str``.
Test: tests/face/test_scrub.py
"""

from __future__ import annotations

import re

__all__ = ["cot_marker_scrub", "tool_trace_scrub"]

# Tag families whose whole block (tags and content) is removed. A family is a
# name prefix, as in the default scrub, so <thinking> and <system-reminder> count.
_FAMILIES = (
    "think",
    "scratchpad",
    "reasoning",
    "system",
    "tool_call",
    "tool_result",
    "tool_use",
    "function_call",
    "function_result",
)
_FAMILY = "|".join(_FAMILIES)

# Innermost block first: the content may not open another tag of the same
# family, so nested blocks are peeled one level per pass instead of the lazy
# match stopping at the inner closing tag and leaking the outer tail.
_BLOCK = re.compile(
    rf"<(?P<fam>{_FAMILY})[^>]*>(?:(?!<(?P=fam)).)*?</(?P=fam)[^>]*>",
    re.IGNORECASE | re.DOTALL,
)
_STRAY_TAG = re.compile(rf"</?(?:{_FAMILY})[^>]*>", re.IGNORECASE)

# Upper-case markers with an underscore only, so prose such as "Tool use: ..." stays.
_MARKER = r"(?:TOOL|FUNCTION)_(?:CALL|RESULT|USE|OUTPUT|RESPONSE)S?"
_TOOL_LINE = re.compile(rf"^[ \t]*(?:{_MARKER}[ \t]*:|\[{_MARKER}\]).*(?:\n|\Z)", re.MULTILINE)

# A fenced block tagged as reasoning. An unclosed fence runs to the end of the
# text, as in CommonMark, so a cut-off reasoning block is still removed.
_FENCE = re.compile(
    r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})[ \t]*(?:thinking|think|scratchpad|reasoning)\b[^\n]*"
    r"(?:\n.*?^[ \t]{0,3}(?P=fence)[`~]*[ \t]*$|.*\Z)\n?",
    re.IGNORECASE | re.DOTALL | re.MULTILINE,
)
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n){2,}")


def _drop_blocks(text: str) -> str:
    while True:
        text, count = _BLOCK.subn("", text)
        if not count:
            return text


def tool_trace_scrub(text: str) -> str:
    """Drop tool-call/result lines, reasoning and tool blocks with content, stray tags.

    Runs of three or more newlines (blank lines may hold spaces) become two,
    and the result is stripped.
    """
    text = _drop_blocks(text)
    text = _TOOL_LINE.sub("", text)
    text = _STRAY_TAG.sub("", text)
    return _BLANK_RUN.sub("\n\n", text).strip()


def cot_marker_scrub(text: str) -> str:
    """Everything ``tool_trace_scrub`` does, after removing fenced reasoning blocks.

    Fences tagged ``thinking``, ``think``, ``scratchpad`` or ``reasoning``
    (backticks or tildes) go first, so tags quoted inside them cannot confuse
    the block matcher.
    """
    return tool_trace_scrub(_FENCE.sub("", text))
