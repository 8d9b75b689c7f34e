"""The exclusions an unbound required file's peers were adopted with, for its adopt route.

A team adopts its accepted ADRs with ``--exclude meta:status`` (docs/adr.md) so their
status may change while the decision stays frozen; a newly accepted ADR's route must
bind it the same way, or pasted, its binding hashes the status and the next status
change is a drift. The ledger records how each binding was made (its selector and its
exclusions, normalisations as ``normalise:NAME@V``): the peers are the live bindings of
the other files the same ``[require]`` rules ask for. When they all agree, the route
offers their exclusions (after forest.toml's ``[bind]`` defaults); when they disagree,
it offers none of theirs and says so, naming each (never a guess, never a majority).

Stores: nothing.
Refuses: nothing.
Returns: ``with_peers``: the finding with the agreed exclusions and a ``peer-excludes``
reason (``what``: "" when the peers agree, else each set of theirs; ``advice``: the
rules' globs), or as it was when no peer binds a file of those rules.
Test: tests/check/test_require_peer_excludes.py
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from forest_files.check.finding import Reason

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from forest_files.check.engine import Finding
    from forest_files.custody.config import RequireRule


class Peer(Protocol):
    """A live binding as its peers are read: its file and the exclusions it was made with."""

    @property
    def path(self) -> str: ...

    @property
    def excludes(self) -> tuple[str, ...]: ...


def peer_sets(
    path: str, rules: Sequence[RequireRule], peers: Iterable[Peer]
) -> list[tuple[str, ...]]:
    """Each distinct set of exclusions the live bindings of the other files ``rules``
    match were made with (in the order first met; one set however its items are
    ordered)."""
    seen: dict[frozenset[str], tuple[str, ...]] = {}
    for p in peers:
        if p.path != path and any(r.matches(p.path) for r in rules):
            seen.setdefault(frozenset(p.excludes), p.excludes)
    return list(seen.values())


def with_peers(f: Finding, rules: Sequence[RequireRule], sets: list[tuple[str, ...]]) -> Finding:
    """``f`` (an unbound finding, its ``excludes`` the ``[bind]`` defaults) with its
    peers' exclusions when they agree, or the reason naming how they differ."""
    if not sets:
        return f
    globs = ", ".join(repr(r.glob) for r in rules)
    if len(sets) == 1:
        agreed = (*f.excludes, *(x for x in sets[0] if x not in f.excludes))
        return replace(f, excludes=agreed, reason=Reason("peer-excludes", advice=globs))
    said = "; ".join(options_text(s) or "none" for s in sets)
    return replace(f, reason=Reason("peer-excludes", what=said, advice=globs))


def options_text(excludes: tuple[str, ...]) -> str:
    """The options that make a binding with ``excludes``: ``--exclude E``, and
    ``--normalise NAME@V`` for each normalisation (each value quoted for a shell)."""
    from forest_files.kernel.shellword import shell_word

    return " ".join(
        f"--normalise {shell_word(x[10:])}"
        if x.startswith("normalise:")
        else f"--exclude {shell_word(x)}"
        for x in excludes
    )


__all__ = ["Peer", "options_text", "peer_sets", "with_peers"]
