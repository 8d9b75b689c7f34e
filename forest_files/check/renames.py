"""Renamed sections: each unresolved binding's candidates, likeliest first, none shared.

Stores: nothing.
Refuses: nothing (a candidate whose text cannot be read keeps its place, scored
by its heading name alone; a ground whose body is sealed or erased, the same).
Returns: the findings with their ``candidates`` (and ``candidate_lines``)
reordered, likeliest first — a heading of the ground's own level first, then
the most shared text (the section's lines against the ground's, each without
its indentation, aligned as text/line_align.py ``line_ratio`` does, and the
heading or symbol names, case-blind and without an ``[n]``, so a case-only
rename comes first and a symbol wrapped in an ``if`` is found at its own copies;
a heading id's name is its heading's), then document order — the first
``MAX_CANDIDATES`` of them, each candidate section kept only at the binding it
fits best (one heading named two ways, by id and by path, is one target), so two bindings
are never offered the same target (ties: the binding listed first); for
bound_there.py, ``SectionTexts`` (one file's sections, each read when asked),
``shared_lines`` (how much text two sections share) and ``ground_body``.
Test: tests/check/test_renames.py, tests/check/test_move_candidates.py,
      tests/check/test_rename_rank_python.py

Only unresolved findings that carry candidates cost anything here (a read of
the file of their candidates and one parse, and the ground body from the store;
a candidate may stand in another file, a section pasted into another page:
move_near.py): a clean or drifted check never imports this module.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from forest_files.check.move_renamed import MAX_CANDIDATES
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.text.extract import Document

Score = tuple[int, float]
_NTH = re.compile(r"\[[0-9]+\]$")
ReadFile = Callable[[str], "bytes | None"]


def ranked(
    findings: Sequence[Finding],
    conn: sqlite3.Connection | None,
    read: ReadFile,
    documents: Mapping[str, tuple[str, Document]] | None = None,
) -> list[Finding]:
    """``findings`` with every unresolved finding's candidates ranked and shared out."""
    asking = [f for f in findings if f.kind == "unresolved" and f.candidates]
    if not asking:
        return list(findings)
    texts: dict[str, SectionTexts] = {}

    def sections_of(path: str) -> SectionTexts:
        if path not in texts:
            parsed = (documents or {}).get(path)
            texts[path] = SectionTexts(read, path, parsed[1] if parsed else None)
        return texts[path]

    scores: dict[str, dict[str, Score]] = {}
    for f in asking:
        ground = ground_body(conn, f.ground)
        scores[f.binding] = {
            c: _score(f.selector, c, ground, sections_of(_path(f, c))) for c in f.candidates
        }
    owner = _owners(asking, scores)
    mine_ids = {id(f) for f in asking}
    out: list[Finding] = []
    for f in findings:
        if id(f) not in mine_ids:
            out.append(f)
            continue
        line_of = dict(zip(f.candidates, f.candidate_lines, strict=False))
        mine = [c for c in f.candidates if owner.get(_place(f, c, line_of)) == f.binding]
        order = sorted(mine, key=lambda c: scores[f.binding][c], reverse=True)  # stable
        order = order[:MAX_CANDIDATES]
        out.append(
            replace(
                f,
                candidates=tuple(order),
                candidate_lines=tuple(line_of[c] for c in order if c in line_of),
            )
        )
    return out


Place = tuple[str, "int | str"]  # (path, first line), or (path, selector) with no line


def _place(f: Finding, candidate: str, line_of: Mapping[str, int]) -> Place:
    """The section a candidate names: by its file and first line, so one heading named
    two ways (``#{id}`` for an anchored binding, its heading path for another) is one
    target."""
    line = line_of.get(candidate)
    return (_path(f, candidate), line if line is not None else candidate)


def _path(f: Finding, candidate: str) -> str:
    """The file a candidate stands in: the finding's own, or another one (a section
    pasted into another page: move_near.py)."""
    from forest_files.text.selector import parse_selector

    try:
        return parse_selector(candidate).path
    except ForestError:
        return f.path


def _owners(asking: Sequence[Finding], scores: dict[str, dict[str, Score]]) -> dict[Place, str]:
    """Each candidate section's binding: the one it scores best for (ties: the first
    listed)."""
    owner: dict[Place, str] = {}
    best: dict[Place, Score] = {}
    for f in asking:
        line_of = dict(zip(f.candidates, f.candidate_lines, strict=False))
        for c in f.candidates:
            s, at = scores[f.binding][c], _place(f, c, line_of)
            if at not in best or s > best[at]:
                owner[at], best[at] = f.binding, s
    return owner


def _score(old: str, new: str, ground: str | None, texts: SectionTexts) -> Score:
    """(same heading level as ground, shared text in [0, 2]) of candidate ``new``."""
    body = texts.get(new)
    name = _ratio(_name(old, ground).casefold(), _name(new, body).casefold())
    if ground is None or body is None:
        return (0, name)
    level = int(_level(ground) == _level(body) != 0)
    shared = _ratio_lines(_stripped(ground), _stripped(body))
    return (level, round(name + shared, 6))


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _stripped(section: str) -> list[str]:
    """The lines after the section's first, each without its indentation: a symbol
    now inside an ``if`` (or a class) shares its text, every line indented deeper."""
    return [line.strip() for line in section.splitlines()[1:]]


def shared_lines(a: str, b: str) -> float:
    """How much text two sections share, in [0, 1]: their lines after the first (the
    heading or ``def``), each without its indentation."""
    return _ratio_lines(_stripped(a), _stripped(b))


def _ratio_lines(a: list[str], b: list[str]) -> float:
    """difflib's line ratio; past 100 x 100 lines, that of the patience diff's matched
    lines (text/line_align.py: a long section no longer walked once per block)."""
    from forest_files.text.line_align import line_ratio

    return line_ratio(a, b)


def _last(selector: str) -> str:
    """The last part of a heading or symbol selector (its own name; an ``[n]`` that
    picks one of its repeats is no part of it)."""
    for mark in ("#", "::"):
        if mark in selector:
            selector = selector.rsplit(mark, 1)[1]
    return _NTH.sub("", selector.rsplit("/", 1)[-1])


def _name(selector: str, section: str | None) -> str:
    """The section's own name: a heading id's (``file.md#{id}``) is its heading's, read
    from the section's first line without the attribute list; else the selector's
    last part."""
    last = _last(selector)
    if not (last.startswith("{") and last.endswith("}")) or section is None:
        return last
    from forest_files.text.anchors import split_heading

    first = section.lstrip("\n").split("\n", 1)[0]
    if not _level(first):
        return last
    return split_heading(first.strip().lstrip("#").strip())[0]


def _level(text: str) -> int:
    """The Markdown level of the section's first line (0: not an ATX heading)."""
    first = text.lstrip("\n").split("\n", 1)[0]
    hashes = len(first) - len(first.lstrip("#"))
    return hashes if 0 < hashes <= 6 and first[hashes : hashes + 1] in (" ", "") else 0


class SectionTexts:
    """The sections of one file, each extracted when first asked (None: not found,
    or the file cannot be read or parsed)."""

    def __init__(self, read: ReadFile, path: str, parsed: Document | None = None) -> None:
        from forest_files.text.extract import Document
        from forest_files.text.normalise import decode_bytes, normalise_text

        data = read(path)
        self._text: Document | None = None
        self._found: dict[str, str | None] = {}
        if data is not None:
            try:
                text = normalise_text(decode_bytes(data, path))
            except ForestError:
                return
            # the check's own parse when the file still holds what it parsed
            self._text = parsed if parsed is not None and parsed.text == text else Document(text)

    def get(self, selector: str) -> str | None:
        from forest_files.text.extract import extract
        from forest_files.text.selector import parse_selector

        if self._text is None:
            return None
        if selector not in self._found:
            try:
                self._found[selector] = extract(self._text, parse_selector(selector), ()).text
            except ForestError:
                self._found[selector] = None
        return self._found[selector]


def ground_body(conn: sqlite3.Connection | None, content_id: str | None) -> str | None:
    if conn is None or content_id is None:
        return None
    row = conn.execute("SELECT body FROM entries WHERE content_id = ?", (content_id,)).fetchone()
    body = None if row is None else row[0]
    return body if isinstance(body, str) and body else None
