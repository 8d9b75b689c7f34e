"""Diffs ground -> now for a terminal (never in machine output: CI logs are public).

Stores: nothing.
Refuses: nothing; a section that cannot be read yields a one-line note.
Returns: unified line diff text of the bound section, or (``words=True``, for
prose) its changed lines with the changed words marked ``[-old-]{+new+}``;
``colourise`` adds terminal colour to either; ``for_terminal``, the one way a door
prints a diff: each control character of the text shown escaped (kernel/shellword.py
``printable``: the text's own escapes never reach the terminal), then coloured;
``section_diff`` with a ``limit``, a drift's diff as check and review print it:
``MAX_DIFF_LINES`` lines, worked out no further (``word_diff``'s ``limit``: no changed
run past them aligned), then that more follow (how many, for a line diff) and the
``forest diff`` that prints every one.
Lines are split at ``\n`` alone: U+2028 or a form feed inside a line stays in it.
Test: tests/doors/test_cli_files.py, tests/text/test_word_diff.py,
tests/text/test_word_diff_cost.py, tests/check/test_control_chars.py,
tests/check/test_diff_bound.py, tests/doors/test_diff_header_name.py

Word diffs tokenise into runs of word characters, runs of whitespace and single
other characters (so ``.`` -> ``!`` marks one character), and align the tokens
with ``difflib.SequenceMatcher``; a long text is aligned by its lines first (a patience
diff, as the line diff is), and its words inside each changed run of lines, at a
bounded cost (check/diff_align.py). A change that spans lines is marked on each line
it touches, so every printed line stands alone.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from forest_files.check.diff_align import lines_of, unified
from forest_files.check.diff_align import pieces as aligned
from forest_files.check.engine import Finding
from forest_files.custody.content import ContentSource
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import printable

if TYPE_CHECKING:
    from forest_files.store.forest import ForestStore

PROSE_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".txt", ".rst", ".adoc"})
_RED, _GREEN, _CYAN, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[36m", "\x1b[0m"
_MARKS = re.compile(r"\[-.*?-\]|\{\+.*?\+\}")


def is_prose(path: str) -> bool:
    """A file whose diffs read better by words than by lines (Markdown, text)."""
    return PurePosixPath(path).suffix.lower() in PROSE_SUFFIXES


def ground_text(store: ForestStore, content_id: str | None) -> str | None:
    local = None if content_id is None else store.id_for_content(content_id)
    row = None if local is None else store.get(local)
    return None if row is None else str(row["body"])


def current_text(finding: Finding, excludes: tuple[str, ...], content: ContentSource) -> str | None:
    from forest_files.text.extract import extract
    from forest_files.text.normalise import decode_bytes, normalise_text
    from forest_files.text.selector import parse_selector

    data = content.read(finding.path)
    if data is None:
        return None
    try:
        text = normalise_text(decode_bytes(data, finding.path))
        return extract(text, parse_selector(finding.selector), excludes).text
    except ForestError:
        return None


def section_diff(
    store: ForestStore,
    finding: Finding,
    content: ContentSource,
    excludes: tuple[str, ...] = (),
    *,
    words: bool = False,
    limit: int | None = None,
    source: str = "worktree",
) -> str:
    """Ground -> now of the bound section: by lines, or with ``words`` by words.
    ``limit``: at most that many lines, then, when more follow, one saying so and the
    ``forest diff`` that prints every one (``_cut``); ``source``, where now was read."""
    old = ground_text(store, finding.ground)
    new = current_text(finding, excludes, content)
    if old is None or new is None:
        return "  (no diff: ground or section not readable)"
    head = [f"--- ground {finding.selector}", f"+++ now {finding.selector}"]
    if words:
        body = word_diff(
            old,
            new,
            first_line=finding.start_line or 1,
            limit=None if limit is None else max(limit - len(head), 0),
        )
        if not body:
            return ""
        shown = "\n".join([*head, body])
        return (
            shown
            if limit is None
            else _cut(shown.split("\n"), None, finding, (limit, words, source))
        )
    lines = unified(lines_of(old), lines_of(new), head[0][4:], head[1][4:])
    if limit is None:
        return "".join(lines).rstrip("\n")
    kept, total, last = [], 0, ""
    for last in lines:  # formatted to be counted, joined only while shown: cheap
        if total <= limit:
            kept.append(last)
        total += last.count("\n")
    total += 0 if last.endswith("\n") else 1  # the lines "".join(lines).rstrip("\n") holds
    return _cut("".join(kept).rstrip("\n").split("\n"), total, finding, (limit, words, source))


def _cut(lines: list[str], total: int | None, finding: Finding, how: tuple[int, bool, str]) -> str:
    """``lines`` as at most ``limit``, then, when more follow, one saying how many (when
    ``total`` counts them: a word diff is aligned no further than its shown lines, so
    its total is not known) and the ``forest diff`` that prints every one: the working
    tree's, which at the index (the hook) or a commit may not be the diff shown."""
    from forest_files.kernel.shellword import forest_text

    limit, words, source = how
    if len(lines) <= limit:
        return "\n".join(lines)
    every = forest_text("diff", finding.selector, options=("--words",) if words else ())
    more = "more lines" if total is None else f"{total - limit} more line(s)"
    if source == "worktree":
        tail = f"every line: `{every}`"
    else:  # forest diff reads the working tree; the hook's or a commit's file may differ
        whose = "the staged file's" if source == "index" else "the commit's"
        tail = f"every line of the working tree's diff ({whose} may differ): `{every}`"
    return "\n".join([*lines[:limit], f"… {more} not shown; {tail}"])


def for_terminal(diff: str, *, colour: bool) -> str:
    """``diff`` as a door prints it: every control character but newline and tab shown
    escaped (a file's own ESC, CSI, BEL, CR, U+2028 or bidirectional override never
    reaches the terminal), each character a terminal shows as nothing or a plain space
    written as its code (a zero-width space slipped into a word), then coloured when
    ``colour``. One escaping, ``printable``'s, for the header's name and the lines
    alike: the name reads as the finding's headline and routes say it (``\\u202e``,
    ``<U+200B>``), the lines as a proposal's diff shows them (proposals/view.py)."""
    shown = printable(diff, keep="\n\t")
    return colourise(shown) if colour and shown else shown


# Lines of a drift's diff ``forest check``, ``forest review`` and the hook print per
# finding: a section rewritten whole is twice its length, and a terminal is no pager.
MAX_DIFF_LINES = 200


def _marked_lines(old: str, new: str) -> Iterator[tuple[str, bool, int]]:
    """(line text with marks, whether it changed, its line number in ``new``), each
    worked out when it is asked for."""
    text, changed, number = "", False, 1
    for piece, side in aligned(old, new):  # "=" both, "-" old only, "+" new only
        for part in re.split(r"(\n)", piece):
            if part == "\n":
                yield (text, changed or side != "=", number)
                text, changed = "", False
                number += 0 if side == "-" else 1  # a deleted line break ends no line of new
            elif part:
                text += part
                changed = changed or side != "="
    if text or changed:
        yield (text, changed, number)


def _hunks(lines: Iterator[tuple[str, bool, int]], context: int, first_line: int) -> Iterator[str]:
    """The changed lines with ``context`` lines around them, an ``@@ line N @@`` header
    opening each run of them: one line at a time, so a caller may stop."""
    before: deque[tuple[int, str, int]] = deque(maxlen=context or None)
    last, after = -2, 0  # the index of the last line shown; lines still to show after one
    for i, (text, changed, number) in enumerate(lines):
        if not changed and after == 0:
            if context:
                before.append((i, text, number))
            continue
        run = [*before, (i, text, number)] if changed else [(i, text, number)]
        before.clear()
        after = context if changed else after - 1
        for j, shown, at in run:
            if j != last + 1:
                yield f"@@ line {first_line + at - 1} @@"
            yield shown
            last = j


def word_diff(
    old: str,
    new: str,
    *,
    context: int | None = 1,
    first_line: int = 1,
    colour: bool = False,
    limit: int | None = None,
) -> str:
    """``new`` with its changed words marked against ``old``: ``[-gone-]{+added+}``.

    Only changed lines are shown, with ``context`` lines around them and an
    ``@@ line N @@`` header (N counted from ``first_line``) per hunk; ``context=None``
    shows every line. "" when nothing changed. ``limit`` (with a ``context``): at most
    ``limit`` lines and, when more follow, one more, the next; the text is aligned no
    further than those lines (``diff_head``).
    """
    if context is None:
        lines = list(_marked_lines(old, new))
        if not any(changed for _, changed, _ in lines):
            return ""
        out = "\n".join(text for text, _, _ in lines)
    else:
        shown = _hunks(_marked_lines(old, new), context, first_line)
        out = "\n".join(shown if limit is None else itertools.islice(shown, limit + 1))
    return colourise(out) if colour else out


def colourise(diff: str) -> str:
    """Terminal colour for a diff: ``-``/``+`` lines of a line diff, marked words of a
    word diff (their markers kept, so the text reads the same without colour)."""
    out: list[str] = []
    for line in diff.split("\n"):
        if line.startswith(("---", "+++")):
            out.append(line)
        elif line.startswith("@@"):
            out.append(f"{_CYAN}{line}{_RESET}")
        elif _MARKS.search(line):
            out.append(_MARKS.sub(_paint, line))
        elif line.startswith("-"):
            out.append(f"{_RED}{line}{_RESET}")
        elif line.startswith("+"):
            out.append(f"{_GREEN}{line}{_RESET}")
        else:
            out.append(line)
    return "\n".join(out)


def _paint(m: re.Match[str]) -> str:
    return f"{_RED if m.group(0).startswith('[-') else _GREEN}{m.group(0)}{_RESET}"
