"""Tombstones: salted fingerprints of an erased body's long lines, never its text.

A line is normalised (NFC; leading Markdown markers ``#``, ``>``, ``-``, ``*``,
``+``, ``|`` and list numbers dropped; runs of whitespace made one space;
trailing ``|`` dropped) and kept only when at least ``MIN_LINE`` characters
remain, so a common short line (``## Status``) is never blocked. Its
fingerprint is ``sha256(project_id + NUL + line)``: the same on every clone (the
tombstone travels in the erase act), different across projects. This is a
salted hash, not a keyed one: anyone holding the project id can test a guessed
line against it (docs/governance.md says what that allows).

Stores: ``tombstone_lines`` rows (fingerprint, erase act id) in the index: the
act's ``lines`` and the mark of its body hash (``body_mark``).
Refuses: nothing (pure functions and two statements).
Returns: fingerprints; the erase acts a text hits.
Test: tests/custody/test_tombstone.py
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping

from forest_files.store import queries
from forest_files.store.forest import ForestStore

MIN_LINE = 16
_MARKERS = re.compile(r"^(?:[#>*+|\-]+|\d{1,9}[.)])\s*")
_SPACES = re.compile(r"\s+")

Tombs = Mapping[str, frozenset[str]]


def normalise_line(line: str) -> str:
    """The form a line is fingerprinted in (see the module docstring)."""
    text = _SPACES.sub(" ", unicodedata.normalize("NFC", line)).strip()
    for _ in range(4):  # "> - 1. text": a few nested markers, no more
        stripped = _MARKERS.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    return text.rstrip("| ").strip()


def fingerprint(project: str, line: str) -> str:
    return hashlib.sha256(f"{project}\0{line}".encode()).hexdigest()


def body_mark(project: str, body_hash: str) -> str:
    """The tombstone row every erase makes for its body hash itself (by id, as
    TrueHeart does): the identical body is refused even when no line is long."""
    return fingerprint(project, f"\0body {body_hash}")


def line_fingerprints(project: str, text: str) -> frozenset[str]:
    """Fingerprints of every normalised line of ``text`` with ``MIN_LINE`` characters."""
    out = set()
    for raw in text.splitlines():
        line = normalise_line(raw)
        if len(line) >= MIN_LINE:
            out.add(fingerprint(project, line))
    return frozenset(out)


def tombstone_for(project: str, body: str, keep: Iterable[str] = ()) -> tuple[str, ...]:
    """The sorted tombstone of ``body``: its long lines' fingerprints, less those of
    any text in ``keep`` (live ground still holds them: they are no secret, and
    blocking them would block every later edit of that ground)."""
    kept: set[str] = set()
    for text in keep:
        kept |= line_fingerprints(project, text)
    return tuple(sorted(line_fingerprints(project, body) - kept))


def load(store: ForestStore) -> dict[str, frozenset[str]]:
    """Every tombstone line of the index: fingerprint -> the erase acts carrying it."""
    out: dict[str, set[str]] = {}
    for fp, act_id in store.conn.execute(queries.ALL_TOMBSTONE_LINES):
        out.setdefault(str(fp), set()).add(str(act_id))
    return {fp: frozenset(acts) for fp, acts in out.items()}


def record(store: ForestStore, act_id: str, lines: Iterable[str]) -> None:
    store.conn.executemany(queries.INSERT_TOMBSTONE_LINE, [(fp, act_id) for fp in lines])


def erase_acts(store: ForestStore) -> list[str]:
    """The erase acts that carry a tombstone (a new adopt or supersede depends on them)."""
    return [str(r[0]) for r in store.conn.execute(queries.TOMBSTONE_ACTS)]


def hits(tombs: Tombs, project: str, text: str, body_hash: str) -> frozenset[str]:
    """The erase acts whose tombstone holds a line of ``text`` or its body hash."""
    if not tombs:
        return frozenset()
    found: set[str] = set(tombs.get(body_mark(project, body_hash), frozenset()))
    for fp in line_fingerprints(project, text):
        found |= tombs.get(fp, frozenset())
    return frozenset(found)


def refuse_erased(store: ForestStore, project: str, text: str, what: str) -> None:
    """ForestError when ``text`` holds a line (or is the body) a forget tombstoned:
    for local copies that are not acts (a proposal written into a file, a capture)."""
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.hashing import hash_body

    found = hits(load(store), project, text, hash_body(text))
    if found:
        raise ForestError(
            f"{what} holds a line that erase act {min(found)} removed (forest forget); "
            "nothing was written — take that line out first"
        )
