"""The close advice: how a fence or HTML block that hides a heading is closed, in words.

A block an edit opened over a heading is closed by a line of its own kind: a fence by
its mark as many times, an HTML block by the end its kind waits for, or a blank line;
the advice names that line, the line to close the block before, and a closing line
further on to take out first (hidden_place.py ``Hidden.close``, a route's note and
restore_hidden.py's refusal; restore_hiding.py ``Hidden.fix``, restore_swallowed.py's
refusal and check/route_swallowed.py's note: one wording).
Stores: nothing.
Refuses: nothing.
Returns: ``HIDERS`` (the kinds of block that hide, in words); ``closing_line(kind,
opener)``: the line that closes a block its first line opens; ``closed_by(kind,
closer)``: that line in words; ``ends_alone``: a block's closing line holds its end
alone (the advice takes it out; one holding words stays); ``close_advice``: the advice
in words.
Test: tests/custody/test_restore_closed.py, tests/custody/test_restore_swallowed_close.py,
tests/check/test_hidden_heading.py
"""

from __future__ import annotations

import re

HIDERS = {"fence": "code fence", "html": "HTML comment or block"}  # md_blocks.py kinds


# The HTML blocks (CommonMark's kinds 1 to 5) that run to a line holding their end;
# any other (``<div>``, a tag alone on its line) ends at a blank line.
_RAW = re.compile(r"<(script|pre|style|textarea)(?=[\s>]|$)", re.IGNORECASE)
_ENDS = (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">"))


def closing_line(kind: str, opener: str) -> str:
    """The line that closes a block of ``kind`` (md_blocks.py's ``fence`` or ``html``)
    opened by the line ``opener``: a fence's own mark as many times as it opens with
    (```` ```` ```` closes only with four backticks or more, ``~~~`` only with tildes;
    no info string), the end an HTML block's kind waits for (``-->``, ``?>``, ``]]>``,
    ``>``, ``</pre>``), or "" for one a blank line ends."""
    text = opener.rstrip("\r\n").lstrip(" \t")
    if kind == "fence":
        mark = text[:1]
        return mark * (len(text) - len(text.lstrip(mark))) if mark else ""
    raw = _RAW.match(text)
    if raw is not None:
        return f"</{raw.group(1).lower()}>"
    return next((end for start, end in _ENDS if text.startswith(start)), "")


def closed_by(kind: str, closer: str | None) -> str:
    """The line ``closer`` that closes a block of ``kind`` (``closing_line``), in words
    after the advice to close it (``: a line of just 4 backticks closes it``: no mark
    written, a refusal quotes its commands in backticks), "" when not known (None)."""
    if closer is None:
        return ""
    if not closer:
        return ": a blank line closes it"
    if kind != "fence":
        return f": the line {closer} closes it"
    marks = "backticks" if closer.startswith("`") else "tildes"
    return f": a line of just {len(closer)} {marks} closes it"


def ends_alone(kind: str, closer: str | None, line: str) -> bool:
    """The line ``line`` that closes a block of ``kind`` holds its end alone: a fence's
    always (a closing fence holds no word), an HTML block's when it is its end
    (``closer``: ``-->``, ``]]>``, ``?>``, ``>``, ``</pre>``) and blanks; one holding
    words too is the user's text, which the close advice leaves in place."""
    if kind == "fence":
        return True
    return bool(closer) and line.strip().lower() == (closer or "").lower()


def close_advice(
    kind: str,
    before: int,
    closer: str | None,
    *,
    opened: int = 0,
    closing: int = 0,
    alone: bool = True,
) -> str:
    """The block of ``kind`` closed before line ``before`` or taken out, in words, the
    line that closes it named (``closer``: ``closed_by``): the block named by the line
    it was ``opened`` at (a route's note), or, 0, as ``that`` block (a refusal's, which
    names it before). A block ``closing`` at a line (0: it runs on; an HTML block a
    blank line ends: none) has that line taken out first when it holds the block's end
    ``alone`` (``ends_alone``; left, a fence's would open a fence of its own over what
    follows, an HTML block's ``-->`` would stay in the text; taken out, the lines above
    it keep their numbers), else the advice says it stays (the words on it are the
    user's). The one wording of the close advice (hidden_place.py ``Hidden.close``,
    restore_hiding.py ``Hidden.fix``)."""
    what = HIDERS[kind]
    the, block = ("the", f"the {what} opened at line {opened}") if opened else ("that", "")
    close = f"close {block or f'that {what}'} before line {before} (or take it out)"
    close += closed_by(kind, closer)
    if not closing or (kind != "fence" and not closer):
        return close  # runs on, or an HTML block a blank line ends (or of an end not known)
    if not alone:
        return f"{close} (line {closing}, which closes it now, stays: the words on it are yours)"
    left = f"open a {what} of its own" if kind == "fence" else "stay, a stray line of text"
    return (
        f"take out line {closing} ({the} {what}'s closing line: left, it would {left}), "
        f"then {close}"
    )


__all__ = ["HIDERS", "close_advice", "closed_by", "closing_line", "ends_alone"]
