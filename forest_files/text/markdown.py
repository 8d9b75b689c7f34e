"""Markdown heading outline and heading-path resolution (pulldown-cmark, CommonMark).

Section boundaries (exact): a heading's section starts at the heading's first
source line (for a setext heading, its first text line) and ends at the line
before the next heading of the same or a higher level (fewer ``#``), or at the
end of the file. Trailing blank lines before that next heading belong to the
section; a heading with no body is a valid (one-line) section. Headings are
top-level ATX or setext headings as a CommonMark parser (pulldown-cmark,
through pyromark, with GFM tables) sees them: lines in fenced or indented
code, HTML blocks, block quotes, list items and tables are not headings. A
leading YAML front-matter block (``---`` on line 1 up to the next ``---`` or
``...`` line) is not Markdown, so it is masked before parsing. A heading is
named by its source text: ATX closing ``#``s and surrounding spaces dropped, a
multi-line setext heading joined with single spaces; inline markup is kept as
written. A heading's full path is the chain of enclosing headings (each the
nearest earlier heading of a lower level).

A heading is also named by its text with inline HTML comments removed
(``## How It Works <!-- How It Works -->`` is ``How It Works``): the comment
and the spaces around it collapse to one space, or to nothing at either end.
A heading that is nothing but a comment keeps its source text as its name.
A closing attribute list (``## Status { #status }``) and empty HTML anchors
(``<a id="status"></a>``) are not part of the name either; their ids name
the heading as ``file.md#{status}`` (anchors.py).
That comment-free name is what a binding records; a path part matches a
heading by either name, so a binding recorded with the comment still
resolves. Only matching changes: the section (its lines, its text, its hash)
is the same either way.

A selector's heading path matches every heading whose full path ends with it
(a unique tail such as ``#Elias`` suffices); ``[n]`` picks the n-th match.
The canonical selector a binding records is the full path, with ``[n]``
counted the same way (among the headings that full path matches as a tail)
whenever it alone would match more than once — so the recorded selector
resolves to the same heading, and an index the user gave is kept when needed.

The parser is pulldown-cmark rather than markdown-it-py because it is ten times
faster (≈ 56 µs against ≈ 550 µs for a 12 KiB file) and imports in 6 ms
rather than 46 ms. The two agree on every real document we hold; they differ
only where the specifications are subtle: link reference definitions followed
by indented or HTML lines (pulldown-cmark follows CommonMark 0.31), lines
straight after a table (it follows GFM: a table runs to a blank line), and a
one-column table whose delimiter row has no pipe (it reads a setext heading).
tests/text/test_markdown_parity.py pins the agreement.

Stores: nothing. Imports pyromark only when a file is actually parsed.
Refuses: ``SectionNotFound`` (listing nearby headings, a path two share with its
``[n]``; or the heading that differs from the selector only in Unicode
normalisation, with the selector to give) and
``AmbiguousSelector`` (listing each candidate's full path with ``[n]`` and its
line).
Returns: ``Heading`` outlines and the resolved heading with its canonical
full-path selector (the tail match itself, ``matching`` and ``Peers``, is
headingpath.py's, re-exported here).
Test: tests/text/test_selectors.py, tests/text/test_extract.py, tests/text/test_selector_rules.py,
tests/text/test_markdown_nearby.py
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from forest_files.text.anchors import split_heading
from forest_files.text.headingpath import Peers as Peers  # re-exported: extract, exclude, moves
from forest_files.text.headingpath import matching as matching  # re-exported: exclude
from forest_files.text.normalise import LineIndex
from forest_files.text.selector import Selector, render, render_heading_path
from forest_files.text.selector_errors import SectionNotFound
from forest_files.text.selector_pick import pick

if TYPE_CHECKING:
    from pyromark import Options
    from pyromark.event import Range

_SETEXT_JOIN = re.compile(r"[ \t]*\n[ \t]*")
_FENCE_CLOSE = ("---", "...")


@dataclass(frozen=True)
class Heading:
    """One heading and its section (1-based inclusive lines)."""

    level: int
    text: str  # the source text of the heading (inline comments kept)
    path: tuple[str, ...]  # the chain of ``name``s: what a binding records
    start_line: int
    end_line: int
    name: str = ""  # ``text`` without inline HTML comments
    raw_path: tuple[str, ...] = ()  # the chain of ``text``s (older bindings name these)
    anchors: tuple[str, ...] = ()  # stable ids (attribute list, HTML anchor): anchors.py


@functools.cache
def _options() -> Options:
    import pyromark

    return pyromark.Options.ENABLE_TABLES


def front_matter_end(lines: LineIndex) -> int:
    """Last line of a leading YAML front-matter block, or 0 when there is none."""
    if lines.count < 2 or lines.line(1).rstrip() != "---":
        return 0
    text = lines.text
    for m in re.finditer(r"^(?:---|\.\.\.)[ \t]*$", text[lines.offset(2) :], re.M):
        return lines.line_of(lines.offset(2) + m.start())
    return 0


def outline(text: str, lines: LineIndex | None = None) -> list[Heading]:
    """Every top-level heading of normalised ``text`` in document order."""
    lines = lines or LineIndex(text)
    fm_end = front_matter_end(lines)
    masked = "\n" * fm_end + text[lines.offset(fm_end + 1) :] if fm_end else text
    return _sections(_top_level_headings(masked), lines.count)


Found = tuple[int, str, str, int, tuple[str, ...]]  # level, text, name, line, ids


def _top_level_headings(text: str) -> list[Found]:
    """(level, source text, name, first line, ids) of each heading outside every
    container block.

    The parser reports UTF-8 byte spans. A heading is named by the source span
    of its inline content (first to last inline event), so markup stays as
    written and ATX closing ``#``s fall outside it; its name also drops the
    spans of inline HTML comments (``InlineHtml`` events from ``<!--`` to
    ``-->``), and a closing attribute list and empty HTML anchors, whose ids it
    reports (anchors.py).
    """
    import pyromark

    data = text.encode("utf-8")
    found: list[Found] = []
    comments: list[tuple[int, int]] = []
    in_comment = False
    depth = 0
    line, counted = 1, 0
    level = start = 0
    first, last = -1, -1
    inside = False
    for event, span in pyromark.events_with_range(text, options=_options()):
        if event.__class__ is dict:
            opened = event.get("Start")
            if opened is not None:
                if depth == 0 and opened.__class__ is dict and "Heading" in opened:
                    inside = True
                    level = int(opened["Heading"]["level"][1:])
                    start, first, last = span["start"], -1, -1
                    comments, in_comment = [], False
                elif inside:
                    first, last = _widen(first, last, span)
                depth += 1
                continue
            if "End" in event:
                depth -= 1
                if depth == 0 and inside:
                    inside = False
                    line += data.count(b"\n", counted, start)
                    counted = start
                    raw = data[first:last].decode("utf-8").strip() if first >= 0 else ""
                    raw = _SETEXT_JOIN.sub(" ", raw)
                    name = _without(data, first, last, comments) if comments else raw
                    ids: tuple[str, ...] = ()
                    if "{" in name or "<" in name:
                        name, ids = split_heading(name or raw)
                    found.append((level, raw, name or raw, line, ids))
                continue
        if inside:
            first, last = _widen(first, last, span)
            html = event.get("InlineHtml") if event.__class__ is dict else None
            if html is not None and (in_comment or html.startswith("<!--")):
                comments.append((span["start"], span["end"]))
                in_comment = not html.rstrip().endswith("-->")
    return found


def _without(data: bytes, first: int, last: int, cuts: list[tuple[int, int]]) -> str:
    """The heading source ``data[first:last]`` with the ``cuts`` (comments) removed;
    whitespace touching a cut collapses to one space between words."""
    pieces: list[str] = []
    pos = first
    for lo, hi in cuts:
        pieces.append(data[pos:lo].decode("utf-8"))
        pos = hi
    pieces.append(data[pos:last].decode("utf-8"))
    out = pieces[0]
    for piece in pieces[1:]:
        if out[-1:].isspace() or piece[:1].isspace():
            out = out.rstrip() + " " + piece.lstrip()
        else:
            out += piece
    return _SETEXT_JOIN.sub(" ", out.strip()).strip()


def _widen(first: int, last: int, span: Range) -> tuple[int, int]:
    lo, hi = span["start"], span["end"]
    return (lo if first < 0 or lo < first else first), (hi if hi > last else last)


def _sections(found: list[Found], last_line: int) -> list[Heading]:
    ends = [last_line] * len(found)
    open_: list[int] = []  # positions of headings whose section is still open
    paths: list[tuple[str, ...]] = []
    raws: list[tuple[str, ...]] = []
    for pos, (level, raw, name, start, _) in enumerate(found):
        while open_ and found[open_[-1]][0] >= level:
            ends[open_.pop()] = start - 1
        parent = open_[-1] if open_ else None
        paths.append((*(paths[parent] if parent is not None else ()), name))
        raws.append((*(raws[parent] if parent is not None else ()), raw))
        open_.append(pos)
    return [
        Heading(level, raw, paths[pos], start, ends[pos], name, raws[pos], ids)
        for pos, (level, raw, name, start, ids) in enumerate(found)
    ]


def resolve_heading(
    text: str,
    sel: Selector,
    headings: list[Heading] | None = None,
    peers: Peers | None = None,
) -> tuple[Heading, Selector]:
    """The heading ``sel`` names and the canonical full-path selector for it.
    ``peers`` (``Peers`` of ``headings``), shared by every selector of one text,
    answers each from its suffix index instead of a scan of every heading."""
    headings = outline(text) if headings is None else headings
    same = Peers(headings) if peers is None else peers
    found = pick(
        same.full_paths(),
        same(sel.parts) if peers is not None else matching(headings, sel.parts),
        sel.index,
        lambda parts, n: render(replace(sel, parts=parts, index=n)),
        f"heading selector {render(sel)!r}",
        lines=same.start_lines(),
        same=same,
    )
    if found is None:
        raise SectionNotFound(_not_found(sel, headings))
    pos, index = found
    return headings[pos], replace(sel, parts=headings[pos].path, index=index)


def _not_found(sel: Selector, headings: list[Heading]) -> str:
    head = f"{render(sel)}: no heading matches"
    hits = len(matching(headings, sel.parts))
    if hits:
        head = f"{render(sel)}: only {hits} heading(s) match, so [{sel.index}] does not exist"
    if not headings:
        return f"{head}; the file has no Markdown headings"
    twin = _twin(sel, headings)
    if twin is not None:
        return f"{head}; {twin}"
    names = sorted({h.name for h in headings})
    import difflib  # only when a selector misses: suggestions

    near = set(difflib.get_close_matches(sel.parts[-1], names, n=5, cutoff=0.5))
    shown = [pos for pos, h in enumerate(headings) if h.name in near][:5] or list(
        range(min(5, len(headings)))
    )
    listed = ", ".join("#" + _nameable(headings, pos) for pos in shown)
    return f"{head}; nearby headings: {listed}"


def _nameable(headings: list[Heading], pos: int) -> str:
    """The heading path that names ``headings[pos]`` alone: with its ``[n]`` when other
    headings' paths end with it too (a bare one would be refused as ambiguous)."""
    path = headings[pos].path
    same = matching(headings, path)
    return render_heading_path(path, same.index(pos) + 1 if len(same) > 1 else None)


def _twin(sel: Selector, headings: list[Heading]) -> str | None:
    """The clause naming the heading ``sel`` names but for Unicode normalisation (its
    first such heading), or None. Never a match: the selector stays exact bytes."""
    from forest_files.text.unicode_twin import nfc, twin_clause

    typed = render_heading_path(sel.parts, None)
    if typed.isascii() and all(h.name.isascii() for h in headings):
        return None
    wanted = tuple(nfc(p) for p in sel.parts)
    k = len(wanted)
    if any(tuple(h.path[-k:]) == tuple(sel.parts) for h in headings):
        return None  # spelled as typed: only the ``[n]`` is past the last match
    for h in headings:
        if len(h.path) >= k and tuple(nfc(p) for p in h.path[-k:]) == wanted:
            spelled = render_heading_path(h.path[-k:], None)
            full = render(replace(sel, parts=h.path, index=None))
            return twin_clause("#" + typed, "#" + spelled, full)
    return None
