"""Reference definitions a Markdown section uses but does not hold in its hash.

A reference-style link or image (``[text][label]``, ``[label][]``, ``[label]``) and
a footnote reference (``[^label]``) are read through a definition that may sit
anywhere in the file. A section hashes its own lines only, so when that definition
lies outside them, a change to it (a new link target, a new footnote text) changes
what a reader of the section sees and is no drift. This finds those labels, for a
warning at adoption; it never changes what a section hashes.

Read with the project's CommonMark parser (pulldown-cmark through pyromark, as
markdown.py does, with footnotes on, as GitHub renders them): the uses are the
parser's link, image and footnote-reference events that start on a held line. A
footnote definition is an event, so its line is the parser's offset. A link
reference definition makes no event (the parser resolves it), so its line is that
of the first top-level definition of the label in the lines no block event covers
(mdnormal.py's reading, which link-style already relies on); pulldown-cmark takes
the first definition of a label. A label defined only inside a container (a list
item, a block quote) is judged by parsing the held lines alone: resolved there to
the same destination and title, it is held; else outside, line unknown (0).

Stores: nothing.
Refuses: nothing.
Returns: ``Outside`` values (label as first written, ``^`` for a footnote; the
definition's 1-based line, 0 when unknown), in order of first use; ``References``
reads a file once for all of its sections.
Test: tests/text/test_refdefs.py
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from forest_files.text.markdown import front_matter_end
from forest_files.text.mdnormal import gap_definitions, link_label
from forest_files.text.normalise import LineIndex

if TYPE_CHECKING:
    from pyromark import Options

_REFS = ("Reference", "Collapsed", "Shortcut")
Event = tuple[object, int, int]


@dataclass(frozen=True)
class Outside:
    """A label a section uses whose definition lies outside its held lines."""

    label: str  # as first written in the section; ``^name`` for a footnote
    line: int  # the definition's first line in the file, 0 when not known


@functools.cache
def _options() -> Options:
    import pyromark

    return pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_FOOTNOTES


def _events(text: str) -> list[Event]:
    import pyromark

    return [
        (event, span["start"], span["end"])
        for event, span in pyromark.events_with_range(text, options=_options())
    ]


class References:
    """One file's references, parsed once for every section of it that is judged."""

    __slots__ = ("_defined", "_events", "_lines", "_starts", "_use_lines", "_uses", "data")

    def __init__(self, text: str) -> None:
        self._lines = LineIndex(text)
        fm_end = front_matter_end(self._lines)
        masked = "\n" * fm_end + text[self._lines.offset(fm_end + 1) :] if fm_end else text
        self.data = masked.encode("utf-8")
        self._starts = [0, *(i + 1 for i, b in enumerate(self.data) if b == 10)]
        self._events = _events(masked) if b"[" in self.data else []
        self._defined: dict[str, list[int]] | None = None
        self._uses = _uses(self._events, self.line_of)
        self._use_lines = [use[0] for use in self._uses]

    def line_of(self, offset: int) -> int:
        """The 1-based line holding byte ``offset``."""
        return bisect.bisect_right(self._starts, offset)

    def outside(self, held: Sequence[tuple[int, int]], *, links: bool = True) -> list[Outside]:
        """The labels the ``held`` lines (inclusive 1-based ranges) use whose definition
        is not on a held line. ``links=False``: footnotes only (a binding declaring
        link-style carries link targets in its hash already)."""

        def is_held(line: int) -> bool:
            return any(lo <= line <= hi for lo, hi in held)

        used: dict[str, tuple[str, tuple[str, str]]] = {}
        for lo, hi in held:
            first = bisect.bisect_left(self._use_lines, lo)
            last = bisect.bisect_right(self._use_lines, hi)
            for _, key, written, target in self._uses[first:last]:
                if links or key.startswith("^"):
                    used.setdefault(key, (written, target))
        if not used:
            return []
        if self._defined is None:
            self._defined = _definitions(self.data, self._events, self.line_of)
        out: list[Outside] = []
        alone: dict[str, tuple[str, str]] | None = None
        for key, (written, target) in used.items():
            lines_of = self._defined.get(key, [])
            if key.startswith("^"):  # every definition of a footnote is rendered with it
                away = [n for n in lines_of if not is_held(n)]
                if away:
                    out.append(Outside(written, away[0]))
            elif lines_of:  # the first definition is the one the link reads
                if not is_held(lines_of[0]):
                    out.append(Outside(written, lines_of[0]))
            else:
                alone = _resolved(_held_text(self._lines, held)) if alone is None else alone
                if alone.get(key) != target:
                    out.append(Outside(written, 0))
        return out


def outside(text: str, held: Sequence[tuple[int, int]], *, links: bool = True) -> list[Outside]:
    """``References(text).outside(held, links=links)``: one section of one text."""
    return References(text).outside(held, links=links)


Use = tuple[int, str, str, tuple[str, str]]  # line, label key, as written, (url, title)


def _uses(events: list[Event], at: Callable[[int], int]) -> list[Use]:
    """Each reference link, image and footnote reference, in file order: its line,
    label key (``^`` first for a footnote), label as written and resolved target."""
    found: list[Use] = []
    for event, start, _ in events:
        if not isinstance(event, dict):
            continue
        note = event.get("FootnoteReference")
        if isinstance(note, str):
            found.append((at(start), "^" + link_label(note), "^" + note, ("", "")))
            continue
        opened = event.get("Start")
        link = (opened.get("Link") or opened.get("Image")) if isinstance(opened, dict) else None
        if isinstance(link, dict) and link.get("link_type") in _REFS:
            name = str(link["id"])
            target = (str(link["dest_url"]), str(link["title"]))
            found.append((at(start), link_label(name), name, target))
    return found


def _definitions(
    data: bytes, events: list[Event], at: Callable[[int], int]
) -> dict[str, list[int]]:
    """label key -> first lines of its definitions in file order: footnote
    definitions (any depth) and top-level link reference definitions."""
    found: dict[str, list[int]] = {}
    for event, start, _ in events:
        opened = event.get("Start") if isinstance(event, dict) else None
        if isinstance(opened, dict) and "FootnoteDefinition" in opened:
            key = "^" + link_label(str(opened["FootnoteDefinition"]))
            found.setdefault(key, []).append(at(start))
    for start, _, key in gap_definitions(data, events, 0):
        found.setdefault(key, []).append(at(start))
    return found


def _held_text(lines: LineIndex, held: Sequence[tuple[int, int]]) -> str:
    return "".join(
        lines.text[lines.offset(lo) : lines.offset(hi + 1)] for lo, hi in held if hi >= lo
    )


def _resolved(text: str) -> dict[str, tuple[str, str]]:
    """label key -> (url, title) of each reference link ``text`` resolves alone."""
    got: dict[str, tuple[str, str]] = {}
    for event, _, _ in _events(text):
        opened = event.get("Start") if isinstance(event, dict) else None
        link = (opened.get("Link") or opened.get("Image")) if isinstance(opened, dict) else None
        if isinstance(link, dict) and link.get("link_type") in _REFS:
            got.setdefault(link_label(str(link["id"])), (str(link["dest_url"]), str(link["title"])))
    return got
