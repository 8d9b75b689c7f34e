"""Tombstones: salted fingerprints of an erased body's long lines, never its text.

A line is normalised (NFC; leading Markdown markers ``#``, ``>``, ``-``, ``*``,
``+``, ``|`` and list numbers dropped; runs of whitespace made one space;
trailing ``|`` dropped) and kept only when at least ``MIN_LINE`` characters
remain, so a common short line (``## Status``) is never blocked. Its
fingerprint is ``sha256(project_id + NUL + line)``: the same on every clone (the
tombstone travels in the erase act), different across projects. This is a
salted hash, not a keyed one: anyone holding the project id can test a guessed
line against it (docs/governance.md and docs/tombstones.md say what that allows).

An erase act of ledger format 3 also carries ``tokens``: fingerprints of the
erased body's long, secret-like tokens (custody/tombtokens.py), so the same
token in another line, alone, or in any text field of a later act is caught.
Both kinds live in one table; their fingerprints are domain-separated, so a
hit knows whether a line, a token or the body itself matched.

Stores: ``tombstone_lines`` rows (fingerprint, erase act id) in the index: the
act's ``lines``, its ``tokens`` and the mark of its body hash (``body_mark``).
Refuses: nothing (pure functions and two statements).
Returns: fingerprints; the erase acts a text hits (``hits``), or each hit with
its match kind and line number (``located``); the erase acts a new act names
(``erase_heads``).
Test: tests/custody/test_tombstone.py
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from forest_files.custody import applied, tombtokens
from forest_files.custody.tombtokens import normalise_line as normalise_line
from forest_files.store import queries
from forest_files.store.forest import ForestStore

MIN_LINE = 16

Tombs = Mapping[str, frozenset[str]]


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


def tokens_for(
    project: str,
    body: str,
    keep: Iterable[str] = (),
    innocent: Callable[[str], bool] | None = None,
) -> tuple[str, ...]:
    """The sorted token fingerprints of ``body`` (tombtokens.py), less every token
    any text in ``keep`` offers (live ground holds it: no secret) and those
    ``innocent`` names (the repository's own object names)."""
    kept: set[str] = set()
    for text in keep:
        kept.update(fp for _, fp in tombtokens.all_fingerprints(project, text))
    return tuple(sorted(tombtokens.token_fingerprints(project, body, innocent) - kept))


@dataclass(frozen=True)
class Hit:
    """One place a text holds tombstoned content: never the text itself."""

    match: str  # "line", "token" or "body" (the very erased body, by its hash)
    line: int  # 1-based line of the text (0 for a body match)
    acts: frozenset[str]  # the erase acts whose tombstone holds it


def located(tombs: Tombs, project: str, text: str, body_hash: str | None = None) -> list[Hit]:
    """Every hit of ``text`` against ``tombs``, in line order (a body match first)."""
    if not tombs:
        return []
    out: list[Hit] = []
    if body_hash is not None and body_mark(project, body_hash) in tombs:
        out.append(Hit("body", 0, tombs[body_mark(project, body_hash)]))
    for number, raw in enumerate(text.splitlines(), 1):
        line = normalise_line(raw)
        if len(line) >= MIN_LINE:
            acts = tombs.get(fingerprint(project, line))
            if acts:
                out.append(Hit("line", number, acts))
    for number, fp in tombtokens.all_fingerprints(project, text):
        acts = tombs.get(fp)
        if acts:
            out.append(Hit("token", number, acts))
    return sorted(out, key=lambda h: (h.line, h.match))


def load(store: ForestStore) -> dict[str, frozenset[str]]:
    """Every tombstone line of the index: fingerprint -> the erase acts carrying it."""
    out: dict[str, set[str]] = {}
    for fp, act_id in store.conn.execute(queries.ALL_TOMBSTONE_LINES):
        out.setdefault(str(fp), set()).add(str(act_id))
    return {fp: frozenset(acts) for fp, acts in out.items()}


def record(store: ForestStore, act_id: str, lines: Iterable[str]) -> None:
    store.conn.executemany(queries.INSERT_TOMBSTONE_LINE, [(fp, act_id) for fp in lines])


def erase_acts(store: ForestStore) -> list[str]:
    """The erase acts that carry a tombstone (every one since format 2: its body's mark)."""
    return [str(r[0]) for r in store.conn.execute(queries.TOMBSTONE_ACTS)]


def erase_heads(store: ForestStore) -> list[str]:
    """The erase acts no other erase act names in its deps: a new act depends on these
    (repository.py), and through them on every erase act a live command saw, since
    each erase it records names the heads of its time (its dependency closure holds
    them all, and replay judges tombstones over the closure). Erase acts of branches
    that never saw each other are each a head until the next erase names them."""
    acts = erase_acts(store)
    named: set[str] = set()
    for deps in applied.recorded_deps(store, acts).values():
        named |= deps
    return [act for act in acts if act not in named]


def hits(tombs: Tombs, project: str, text: str, body_hash: str) -> frozenset[str]:
    """The erase acts whose tombstone holds a line or token of ``text``, or its body hash."""
    found: set[str] = set()
    for hit in located(tombs, project, text, body_hash):
        found |= hit.acts
    return frozenset(found)


def refuse_erased(store: ForestStore, project: str, text: str, what: str) -> None:
    """ForestError when ``text`` holds a line (or is the body) a forget tombstoned:
    for local copies that are not acts (a proposal written into a file, a capture)."""
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.hashing import hash_body

    found = located(load(store), project, text, hash_body(text))
    if found:
        hit = found[0]
        where = f", line {hit.line}," if hit.line else ""
        raise ForestError(
            f"{what}{where} holds a {hit.match} that erase act {min(hit.acts)} removed "
            f"(forest forget; {hit.match} match); nothing was written — take it out first"
        )
