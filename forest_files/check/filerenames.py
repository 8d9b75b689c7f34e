"""Renamed files: where a missing file's bound section stands now, by similar text.

Stores: nothing.
Refuses: nothing (a file that cannot be read, parsed or named by the binding's
selector is no candidate; a ground whose body is sealed or erased finds none).
Returns: the findings, each ``missing`` one (the file gone, its unchanged text
nowhere: a plain move is ``moved`` already) carrying as ``candidates`` the
selectors its section has in the files that hold similar text, the way git's
rename detection pairs a deleted file with an added one: at least
``SIMILAR`` (git's default 50%) of the lines alike, the most alike first. A
file renamed and edited in one commit keeps its chain with
``forest rebind OLD NEW --words``. Each target is offered to one binding only.
Test: tests/check/test_renames.py

Cost: only when a check has such a finding, and only files of the same suffix
that no finding of the check names, ``MAX_FILES`` of them at most.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from forest_files.check.renames import ground_body
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.custody.content import ContentSource

SIMILAR = 0.5  # git diff -M's default: 50% similar
MAX_FILES = 2000  # candidate files read for one check at most
Found = tuple[float, str, int]  # (similarity, selector, first line)


def renamed_files(
    findings: Sequence[Finding],
    conn: sqlite3.Connection | None,
    source: Callable[[], ContentSource],
) -> list[Finding]:
    """``findings`` with each missing file's likely new places as its candidates."""
    asking = [f for f in findings if f.kind == "missing" and not f.candidates]
    if not asking or conn is None:
        return list(findings)
    named = {f.path for f in findings}
    suffixes = {_suffix(f.path) for f in asking}
    content = source()
    pool = [p for p in content.paths() if _suffix(p) in suffixes and p not in named]
    texts = _Texts(content)
    found: dict[int, list[Found]] = {}
    for f in asking:
        ground = ground_body(conn, f.ground)
        if ground is not None:
            alike = (_alike(f, p, ground, texts) for p in pool[:MAX_FILES])
            found[id(f)] = sorted((a for a in alike if a is not None), reverse=True)
    taken: set[str] = set()
    out: list[Finding] = []
    for f in findings:
        places = [x for x in found.get(id(f), []) if x[1] not in taken]
        taken.update(x[1] for x in places)
        if not places:
            out.append(f)
            continue
        out.append(
            replace(
                f,
                candidates=tuple(x[1] for x in places),
                candidate_lines=tuple(x[2] for x in places),
            )
        )
    return out


class _Texts:
    """Each candidate file's normalised text, read once (None: not text)."""

    def __init__(self, content: ContentSource) -> None:
        self._content = content
        self._seen: dict[str, str | None] = {}

    def get(self, path: str) -> str | None:
        from forest_files.text.normalise import decode_bytes, normalise_text

        if path not in self._seen:
            data = self._content.read(path)
            try:
                self._seen[path] = (
                    None if data is None else normalise_text(decode_bytes(data, path))
                )
            except ForestError:
                self._seen[path] = None
        return self._seen[path]


def _alike(f: Finding, path: str, ground: str, texts: _Texts) -> Found | None:
    """(similarity, selector, line) of the binding's section in ``path``, when at
    least ``SIMILAR`` of its lines are alike."""
    from forest_files.check.engine import with_path
    from forest_files.text.extract import extract
    from forest_files.text.selector import parse_selector

    text = texts.get(path)
    if text is None:
        return None
    try:
        target = with_path(f.selector, f.path, path)
        section = extract(text, parse_selector(target), ())
    except ForestError:
        return None
    matcher = difflib.SequenceMatcher(
        None, ground.splitlines(), section.text.splitlines(), autojunk=False
    )
    if matcher.real_quick_ratio() < SIMILAR or matcher.quick_ratio() < SIMILAR:
        return None
    ratio = matcher.ratio()
    return (ratio, target, section.start_line) if ratio >= SIMILAR else None


def _suffix(path: str) -> str:
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""
