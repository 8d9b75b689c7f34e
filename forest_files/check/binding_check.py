"""The finding of one binding: its ground, the bytes a content source holds, a verdict.

Stores: nothing itself; the content source's hash caches (statcache.py) remember the
file hashes it computed, and ``Sections`` the places it parsed.
Refuses: nothing; every problem is a finding (finding.py names the kinds). A binding
whose ground neither the store nor a binding map knows is an error: run `forest sync`.
Returns: ``check_binding`` (a binding's ``Finding``; a section gone from its place is
searched for elsewhere at once, or left for the run's one search: move_search.py).
Test: tests/check/test_check.py, tests/check/test_check_evidence.py,
tests/check/test_cold_check.py

Evidence: a verdict comes only from the bytes the check read, or from a cache
this machine computed from such bytes — never from a hash the ledger or the
index records (a forged rebind act could choose it). A whole-file binding
without exclusions is clean when the normalised file hash is ground's (its
section IS the normalised file: no parse); a section binding is located by the
parse cache under the file hash, else parsed (sections.py). In the working tree
the file hash comes from the stat cache when the file's stat is unchanged (no read
at all; statcache.py); in the git index or a commit, from the blob-hash cache
when this machine hashed that blob before (a blob id names its bytes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.check.finding import (
    SEALED_DETAIL,
    SEALED_ERASED_DETAIL,
    Finding,
    Reason,
    clean_finding,
    replaced,
)
from forest_files.check.move_search import search_moves
from forest_files.check.sections import NotFound, Sections, Why
from forest_files.custody.bindings import Binding
from forest_files.custody.content import ContentSource, GitTreeSource, WorktreeSource
from forest_files.custody.erased_ground import erased_by, sealed_erased
from forest_files.custody.ground import Ground, ground_of
from forest_files.custody.special import not_regular
from forest_files.kernel.errors import ForestError
from forest_files.text.normalise import normalised_hash

if TYPE_CHECKING:  # annotations only: checks from a binding map never open a store
    from forest_files.store.forest import ForestStore


def check_binding(
    store: ForestStore | None,
    binding: Binding,
    source: ContentSource,
    *,
    all_paths: list[str] | None,
    located: Sections | None = None,
    peers: tuple[str, ...] = (),
    grounds: dict[int, Ground] | None = None,
    defer: list[Binding] | None = None,
) -> Finding:
    """The finding of one binding. A section gone from its place (file missing,
    selector matching nothing) is searched for elsewhere (``moved``) at once, or,
    with ``defer``, appended there for the caller's one search of the run."""
    located = Sections(None, [binding]) if located is None else located
    found = _judge(store, binding, source, located=located, peers=peers, grounds=grounds)
    gone = found.kind == "missing" or isinstance(found.detail, NotFound)
    if not gone or found.expected_hash is None:
        return found
    if defer is not None:
        defer.append(binding)
        return found
    return search_moves(source, [(found, binding)], all_paths, (), located.documents)[0]


def _judge(
    store: ForestStore | None,
    binding: Binding,
    source: ContentSource,
    *,
    located: Sections,
    peers: tuple[str, ...],
    grounds: dict[int, Ground] | None,
) -> Finding:
    if grounds is not None and binding.entry_id in grounds:
        ground, expected, heads = grounds[binding.entry_id]
    elif store is not None:
        ground, expected, heads = ground_of(store, binding)
    else:
        from forest_files.kernel.shellword import forest_text

        raise ForestError(f"no ground known for {binding.selector}; run `{forest_text('sync')}`")
    base = clean_finding(binding.path, binding.selector, binding.bind_act, ground, expected)
    gone = erased_by(heads)
    if gone is not None and not binding.contested:
        return _erased(base, *gone)
    forgotten = sealed_erased(heads)
    if forgotten is not None and not binding.contested:
        detail = f"{SEALED_ERASED_DETAIL} ({forgotten[:12]}); unseal and supersede, or retire"
        return replaced(base, kind="unresolved", detail=detail, reason=Reason("sealed-erased"))
    if binding.contested or heads:
        if binding.contested:
            why = "two bindings of this section: keep one with `forest retire TARGET --binding ID`"
            contested = replaced(base, kind="contested", candidates=peers, detail=why)
        else:
            contested = replaced(
                base, kind="contested", candidates=heads, detail="two live successors"
            )
        return _standing(contested, binding, source, located)
    if expected is None:
        detail = f"{SEALED_DETAIL}; unseal or retire"
        return replaced(base, kind="unresolved", detail=detail, reason=Reason("sealed"))
    cached = source if isinstance(source, (WorktreeSource, GitTreeSource)) else None
    known = cached.known_hash(binding.path) if cached is not None else None
    if _whole_file_clean(binding, known, expected):
        return base
    found = located.get(known, binding)
    if found is None:
        data = source.read(binding.path)
        if data is None:
            kind = source.special(binding.path)
            if kind is not None:  # put back as a missing file is: its exclusions too
                return replaced(
                    base,
                    kind="unresolved",
                    detail=not_regular(kind),
                    excludes=binding.excludes,
                    reason=Reason("not-regular", kind),
                )
            variant = source.variant(binding.path)  # a case-only or NFC/NFD rename
            detail = "the bound file is gone" + (f"; {variant}" if variant else "")
            # its exclusions reach the routes: restore cannot write back what they leave out
            return replaced(base, kind="missing", detail=detail, excludes=binding.excludes)
        file_hash = normalised_hash(data)
        if cached is not None:
            cached.remember(binding.path, file_hash)
        if _whole_file_clean(binding, file_hash, expected):
            return base
        found = located.get(file_hash, binding)
        if found is None:
            found = located.locate(data, file_hash, binding)
    if isinstance(found, Why):  # its exclusions reach the routes, as a missing file's
        return replaced(
            base, kind="unresolved", detail=found, excludes=binding.excludes, reason=found.reason
        )
    actual, start, end = found
    if actual == expected:
        return replaced(base, actual_hash=actual, start_line=start, end_line=end)
    # its exclusions reach the routes: a restore of a section excluding parts refuses
    # any heading an edit hides (route_swallowed.py)
    return replaced(
        base,
        kind="drifted",
        actual_hash=actual,
        start_line=start,
        end_line=end,
        excludes=binding.excludes,
    )


def _erased(base: Finding, erase: str, maker: str) -> Finding:
    """Live ground whose body an erase removed (erased_ground.py): no file can be
    compared with it; the text comes out of the file and a new ground is adopted."""
    made = f"act {maker[:12]}" if maker else "no act"
    detail = (
        f"its ground {(base.ground or '')[:12]} (made by {made}) had its body removed by "
        f"erase act {erase[:12]} (forest forget), which never saw that adoption; take the "
        "text out of the file and supersede, or retire the binding"
    )
    return replaced(base, kind="erased-content", detail=detail, act=erase or None)


def _standing(
    found: Finding, binding: Binding, source: ContentSource, located: Sections
) -> Finding:
    """``found`` (a contest) with the hash and lines of the bound section as the content
    holds it now, when it stands there: the routes then tell a file that holds one
    head's text from one in which git merged both edits (explain.py), and, of two
    bindings of one section, the one whose ground the file holds (routes.py)."""
    data = source.read(binding.path)
    if data is None:
        return found
    place = located.locate(data, normalised_hash(data), binding)
    if isinstance(place, Why):
        return found
    actual, start, end = place
    return replaced(found, actual_hash=actual, start_line=start, end_line=end)


def _whole_file_clean(binding: Binding, file_hash: str | None, expected: str) -> bool:
    """A whole-file binding without exclusions whose locally computed file hash is
    ground's: its section IS the normalised file, so no parse is needed. (A path
    holding ``#``, ``@`` or ``:`` renders escaped, so its selector differs from its
    path and it takes the parse-cache route instead: slower, never wrong.)"""
    return (
        file_hash is not None
        and file_hash == expected
        and not binding.excludes
        and binding.selector == binding.path
    )
