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
section text — and, where routes differ by it, a typed ``Reason``; ``replaced`` (a
copy with some fields changed) and ``clean_finding`` (a binding's clean finding),
both built without the frozen ``__init__``; ``target`` (the one place a failed finding's section
stands now, if it names exactly one); ``has_reason``; ``places_of`` (every place of a
binding rebound twice, where it stands first). Callers
import them from engine.py; findings.py renders them with their routes.
Test: tests/check/test_check.py, tests/check/test_route_reasons.py
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Literal, NamedTuple

from forest_files.check.kinds import KINDS
from forest_files.kernel.repopath import not_utf8_reason

# Every kind (check/kinds.py names each once); check_binding makes the first six,
# coverage.py ``unbound``, the rest come from contests.py, localstate.py and the gate.
FINDING_KINDS = tuple(KINDS)

# The details of an ``unresolved`` sealed ground (binding_check.py makes them, with
# their ``Reason``, which route_unresolved.py picks each one's routes by): sealed, and
# sealed with its text erased by a forget (no unseal alone gets it back: there is no
# text to read).
SEALED_DETAIL = "its ground is sealed"
SEALED_ERASED_DETAIL = f"{SEALED_DETAIL} and its text was erased by forest forget"

# The detail of an ``unresolved`` section whose unchanged text stands at several places
# (move_search.py makes it, with its ``Reason``, which routes.py routes it by): a copy
# to delete, or one to bind.
COPIES_DETAIL = "its unchanged text stands at"


# Why a finding is so, where its routes differ by it (routes.py, route_unresolved.py,
# route_not_text.py choose by this, never by the detail's words). An ``unresolved`` one:
# its ground sealed
# (``sealed``), sealed with its text erased (``sealed-erased``), the bound path no
# regular file (``not-regular``), its unchanged text at several places (``copies``), the
# file no text the reader takes (``not-text``: a NUL byte, not UTF-8, a lone CR), a
# symbol's file not Python (``not-python``), the bound definition bound anew later
# in its block (``replaced``), or the section standing where it stood bound by another
# binding whose text there reads as this one's (``bound-there``: bound_there.py), or its
# heading hidden by a fence or comment an edit put above it (``hidden``:
# hidden_heading.py), or its block id's paragraph split by a fence opened inside it,
# which only taking that line out mends (``hidden-split``); a
# ``drifted`` one: that other binding, its text there reading as the renamed section's
# ground rather than its own (``renamed-onto``: bound_there.py). Any
# failed binding's: its file in a merge conflict (``conflict``: conflicts.py, a contest's
# too), its staged blob git's conversion of the working file (``converted``:
# converted.py). An ``unbound`` one: its name no selector can name, a backslash or a
# drive (``unnameable``), or holding a control character (``control-name``: coverage.py).
# A ``contested`` one: its binding rebound on two merged branches (``rebound-twice``:
# contests.py; ``what``: another place it was rebound to).
ReasonKind = Literal[
    "sealed",
    "sealed-erased",
    "not-regular",
    "copies",
    "not-text",
    "not-python",
    "replaced",
    "bound-there",
    "renamed-onto",
    "conflict",
    "converted",
    "unnameable",
    "control-name",
    "blank-ends",
    "hidden",
    "hidden-split",
    "rebound-twice",
    "peer-excludes",
]


class Reason(NamedTuple):
    """Why a finding is so, as a value its routes choose by (the detail says it in
    words, for people). ``what``: a ``not-regular`` path's kind (``symlink`` …), a
    ``conflict``'s file state (conflicts.py ``UNMERGED`` or ``MARKED``), the attributes
    that make a staged blob ``converted``, why a name is ``unnameable``, a
    ``not-text`` refusal's reason (normalise.py's words), a ``not-python`` error's place
    and message, what binds a ``replaced`` name anew, the selector of the section
    ``bound-there``, the selector of the section ``renamed-onto`` this one, the
    selector of the place holding its text but for the ``blank-ends`` (its trailing
    blank lines: move_near.py), the bound section whose restore with this one brings
    back the heading a block ``hidden`` (or ``hidden-split``: "" for none); ``line``:
    the line a ``not-text`` refusal, a ``replaced`` name or that section names, the
    ``hidden`` heading's (0: none); ``offset``: a ``not-text`` byte offset; ``advice``:
    a ``not-text`` refusal's own advice (a lone CR's fix), the ``hidden`` heading's
    (the block closed before it); ``binding``: the bind act of
    the other binding that holds the section ``bound-there``. ``peer-excludes`` (an
    unbound required file): ``what`` "" when its peers were adopted with one set of
    exclusions (the finding's ``excludes`` hold it), else each set of theirs;
    ``advice`` the ``[require]`` globs (check/coverage_peers.py)."""

    kind: ReasonKind
    what: str = ""
    line: int = 0
    offset: int = 0
    advice: str = ""
    binding: str = ""


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
    # an unbound target's [bind] default exclusions; a missing, unresolved or drifted
    # binding's own
    excludes: tuple[str, ...] = ()
    reason: Reason | None = None  # why an unresolved finding is so: its routes choose by it
    # a binding rebound twice (contests.py): every place it was rebound to, where it
    # stands first (a check given paths reports it when one lies under them)
    places: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        return self.kind != "clean"


def has_reason(f: Finding, kind: ReasonKind) -> bool:
    """Whether ``f`` is so for the reason ``kind`` (what its routes choose by)."""
    return f.reason is not None and f.reason.kind == kind


def places_of(f: Finding) -> tuple[tuple[str, str], ...]:
    """(path, selector) of every place of ``f``: where it stands, then, for a binding
    rebound twice, every other place it was rebound to (``places``)."""
    if not f.places:
        return ((f.path, f.selector),)
    from forest_files.kernel.errors import ForestError
    from forest_files.text.selector import parse_selector

    out = [(f.path, f.selector)]
    for place in f.places:
        try:
            out.append((parse_selector(place).path, place))
        except ForestError:  # a place a rebind recorded parses; else only where it stands
            continue
    return tuple(dict.fromkeys(out))


_NEW = object.__new__
_SET = object.__setattr__
_FIELDS = frozenset(f.name for f in fields(Finding))
_DEFAULTS = {f.name: f.default for f in fields(Finding) if f.default is not MISSING}


def _built(values: dict[str, object]) -> Finding:
    """The ``Finding`` holding ``values`` (every field, in field order): the value
    ``Finding(**values)`` makes, without the frozen ``__init__``'s ``object.__setattr__``
    per field (a check of 2,000 moved sections builds 6,000). The one fast build:
    ``replaced`` and ``clean_finding`` both come here."""
    made = _NEW(Finding)
    _SET(made, "__dict__", values)
    return made


def replaced(base: Finding, **changes: object) -> Finding:
    """``base`` with ``changes``: ``dataclasses.replace``'s value. A name that is no
    field is refused as ``Finding(**...)`` refuses it."""
    if not _FIELDS.issuperset(changes):
        unknown = ", ".join(sorted(set(changes) - _FIELDS))
        raise TypeError(f"Finding has no field {unknown}")
    return _built({**base.__dict__, **changes})


def clean_finding(
    path: str, selector: str, binding: str, ground: str | None, expected_hash: str | None
) -> Finding:
    """The clean finding of a binding: ``Finding(kind="clean", ...)``, every other field
    its default."""
    return _built(
        {
            "kind": "clean",
            "path": path,
            "selector": selector,
            "binding": binding,
            "ground": ground,
            "expected_hash": expected_hash,
            **_DEFAULTS,
        }
    )


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
