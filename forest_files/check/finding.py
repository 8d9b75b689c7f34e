"""One finding: what a check says of one binding (or of no binding), as a value.

Stores: nothing.
Refuses: nothing; every problem is a finding. Kinds (DESIGN.md "Drift"):
``clean`` (the section hashes to current ground), ``drifted`` (it does not),
``missing`` (the bound file is gone), ``unresolved`` (the selector matches
nothing, the file is no longer UTF-8 text, or the bound path holds no regular
file: ``not a regular file (symlink)``, ``(directory)``, ``(fifo)``,
``(submodule)``, the same from every source; or, made so by conflicts.py when the
routes are built, a failed binding's file has unresolved merge conflicts),
``moved`` (the file is gone or the selector matches nothing, and the unchanged
section stands at exactly one other place — another file, or another selector of
the same file — by section hash; one search per run, moves.py; an unresolved
section that did not move carries the sections standing where it stood as
``candidates``),
``contested`` (two live successors of the ground, or two bindings of one
path + selector), ``erased-content`` (its ground's body was removed by an
erase that never saw it: erased_ground.py), ``unbound`` (a file or heading
forest.toml's ``[require]`` names that no binding covers; made by coverage.py, never by a binding's
check). A contest no binding reports (contests.py), tracked local state
(localstate.py) and the CI gate's kinds are findings of no binding, of the
same ``Finding`` (every kind: kinds.py). Every kind but ``clean`` fails a
check (the hook only warns of ``unbound``: a draft may be committed).
Returns: ``Finding`` values carrying paths, line ranges and hashes — never
section text; ``replaced`` (a copy with some fields changed); ``target`` (the one
place a failed finding's section stands now, if it names exactly one). Callers
import them from engine.py; findings.py renders them with their routes.
Test: tests/check/test_check.py
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_files.check.kinds import KINDS
from forest_files.kernel.repopath import not_utf8_reason

# Every kind (check/kinds.py names each once); check_binding makes the first six,
# coverage.py ``unbound``, the rest come from contests.py, localstate.py and the gate.
FINDING_KINDS = tuple(KINDS)

# The details of an ``unresolved`` sealed ground (binding_check.py makes them,
# routes.py picks each one's routes by them): sealed, and sealed with its text
# erased by a forget (no unseal alone gets it back: there is no text to read).
SEALED_DETAIL = "its ground is sealed"
SEALED_ERASED_DETAIL = f"{SEALED_DETAIL} and its text was erased by forest forget"

# The detail of an ``unresolved`` section whose unchanged text stands at several places
# (move_search.py makes it, routes.py routes it): a copy to delete, or one to bind.
COPIES_DETAIL = "its unchanged text stands at"


@dataclass(frozen=True)
class Finding:
    kind: str
    path: str
    selector: str
    binding: str
    ground: str | None
    expected_hash: str | None
    actual_hash: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    detail: str = ""
    moved_to: str | None = None  # the full selector where the unchanged section stands
    candidates: tuple[str, ...] = ()  # contest heads; an unresolved section's new places
    candidate_lines: tuple[int, ...] = ()  # the first line of each new place
    act: str | None = None  # the act a ledger finding names (the CI gate's)
    # an unbound target's [bind] default exclusions; a missing or unresolved binding's own
    excludes: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        return self.kind != "clean"


def replaced(base: Finding, **changes: object) -> Finding:
    return Finding(**{**base.__dict__, **changes})  # dataclasses.replace(), 6x faster


_ONE_PLACE = ("moved", "unresolved", "missing")


def target(f: Finding) -> str | None:
    """The one place a failed finding's section stands now, or None (none, a choice,
    or a file whose name is not UTF-8: no rebind can record it; check/routes.py
    routes the rename first). The commit's one route rebinds to it (commit_plan.py);
    a moved chapter carries its subsections there (move_carried.py)."""
    if f.kind == "moved":
        place = f.moved_to
    elif f.kind in _ONE_PLACE and len(f.candidates) == 1:
        place = f.candidates[0]
    else:
        return None
    return place if place is not None and not_utf8_reason(place) is None else None
