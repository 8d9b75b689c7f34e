"""Renamed sections: each unresolved binding's candidates, likeliest first, none shared.

Stores: nothing.
Refuses: nothing (a candidate whose text cannot be read keeps its place, scored
by its heading name alone; a ground whose body is sealed or erased, the same).
Returns: the findings with their ``candidates`` (and ``candidate_lines``)
reordered, likeliest first — a heading of the ground's own level first, then
the most shared text (the section's lines against the ground's, and the
heading names, case-blind, so a case-only rename comes first), then document
order — and each candidate kept only at the binding it fits best, so two
bindings are never offered the same target (ties: the binding listed first).
Test: tests/check/test_renames.py

Only unresolved findings that carry candidates cost anything here (a read of
their file and one parse, and the ground body from the store): a clean or
drifted check never imports this module.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.text.extract import Document

Score = tuple[int, float]
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
    texts: dict[str, _Sections] = {}
    scores: dict[str, dict[str, Score]] = {}
    for f in asking:
        if f.path not in texts:
            parsed = (documents or {}).get(f.path)
            texts[f.path] = _Sections(read, f.path, parsed[1] if parsed else None)
        ground = ground_body(conn, f.ground)
        scores[f.binding] = {c: _score(f.selector, c, ground, texts[f.path]) for c in f.candidates}
    owner = _owners(asking, scores)
    mine_ids = {id(f) for f in asking}
    out: list[Finding] = []
    for f in findings:
        if id(f) not in mine_ids:
            out.append(f)
            continue
        mine = [c for c in f.candidates if owner.get(c) == f.binding]
        line_of = dict(zip(f.candidates, f.candidate_lines, strict=False))
        order = sorted(mine, key=lambda c: scores[f.binding][c], reverse=True)  # stable
        out.append(
            replace(
                f,
                candidates=tuple(order),
                candidate_lines=tuple(line_of[c] for c in order if c in line_of),
            )
        )
    return out


def _owners(asking: Sequence[Finding], scores: dict[str, dict[str, Score]]) -> dict[str, str]:
    """Each candidate's binding: the one it scores best for (ties: the first listed)."""
    owner: dict[str, str] = {}
    best: dict[str, Score] = {}
    for f in asking:
        for c in f.candidates:
            s = scores[f.binding][c]
            if c not in best or s > best[c]:
                owner[c], best[c] = f.binding, s
    return owner


def _score(old: str, new: str, ground: str | None, texts: _Sections) -> Score:
    """(same heading level as ground, shared text in [0, 2]) of candidate ``new``."""
    name = _ratio(_last(old).casefold(), _last(new).casefold())
    body = texts.get(new)
    if ground is None or body is None:
        return (0, name)
    level = int(_level(ground) == _level(body) != 0)
    shared = _ratio_lines(ground.splitlines()[1:], body.splitlines()[1:])
    return (level, round(name + shared, 6))


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _ratio_lines(a: list[str], b: list[str]) -> float:
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _last(selector: str) -> str:
    """The last part of a heading or symbol selector (its own name)."""
    for mark in ("#", "::"):
        if mark in selector:
            selector = selector.rsplit(mark, 1)[1]
    return selector.rsplit("/", 1)[-1]


def _level(text: str) -> int:
    """The Markdown level of the section's first line (0: not an ATX heading)."""
    first = text.lstrip("\n").split("\n", 1)[0]
    hashes = len(first) - len(first.lstrip("#"))
    return hashes if 0 < hashes <= 6 and first[hashes : hashes + 1] in (" ", "") else 0


class _Sections:
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
