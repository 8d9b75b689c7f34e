"""The check engine: bindings + ground + a content source -> findings. Never writes.

Stores: nothing.
Refuses: nothing; every problem is a finding (the kinds: finding.py).
Returns: ``check_all`` (the ``Finding`` of every live binding, or of those under some
paths, in binding order) — paths, line ranges and hashes, never section text. The
one import path of the check's names: ``Finding``, ``FINDING_KINDS`` (finding.py),
``check_binding`` (one binding's finding: binding_check.py), ``Sections`` (where
each bound section stands, one parse per content: sections.py), ``search_moves``
(the run's one search of moves: move_search.py), ``with_path``, ``parse_target``.
Test: tests/check/test_check.py, tests/check/test_parse_once.py,
tests/check/test_cold_check.py

One run: the grounds come from a binding map or else the store, at once for every
binding; a working tree's file hashes are prefetched and a git source's blobs read in
batches; a whole-file binding whose file this run read and hashed to ground's is
clean without a judge; every section gone from its place waits for one search of
moves. Evidence (binding_check.py): a verdict comes only from the bytes the check
read, or from a cache this machine computed from such bytes. Those caches in
``.git/forest`` are the only thing a check writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.binding_check import check_binding
from forest_files.check.finding import FINDING_KINDS, Finding, clean_finding
from forest_files.check.move_search import search_moves
from forest_files.check.sections import Sections
from forest_files.custody.bindings import Binding
from forest_files.custody.content import ContentSource, GitTreeSource, WorktreeSource
from forest_files.custody.ground import Ground, ground_map
from forest_files.custody.statcache import ParseCache
from forest_files.kernel.errors import ForestError
from forest_files.kernel.repopath import under

if TYPE_CHECKING:  # annotations only: checks from a binding map never open a store
    from forest_files.check.move_rebound import BindingHistory
    from forest_files.store.forest import ForestStore
    from forest_files.text.extract import Document
    from forest_files.text.selector import Selector

__all__ = [
    "FINDING_KINDS",
    "Finding",
    "Sections",
    "check_all",
    "check_binding",
    "parse_target",
    "search_moves",
    "with_path",
]


def with_path(selector: str, old_path: str, new_path: str) -> str:
    """``selector`` re-rooted at ``new_path`` (same section spec)."""
    from dataclasses import replace

    from forest_files.text.selector import parse_selector, render

    del old_path  # the selector carries its own path
    return render(replace(parse_selector(selector), path=new_path))


_BLOB_BATCH = 1000  # blobs read per ``git cat-file --batch`` (and held at once)


def check_all(
    store: ForestStore | None,
    bindings: list[Binding],
    source: ContentSource,
    *,
    paths: tuple[str, ...] = (),
    grounds: dict[int, Ground] | None = None,
    documents: dict[str, tuple[str, Document]] | None = None,
    history: BindingHistory | None = None,
    head: str | None = None,
) -> list[Finding]:
    """Findings for every live binding (or those under ``paths``), in binding order.
    ``grounds`` (from a binding map, bindmap.py) spares the store; without it the
    store answers. ``documents``, when given, receives the files the check parsed
    where a selector found nothing (path -> (file hash, parsed)), so the routes'
    search of rename candidates reads the same parse. ``history``: the binding history
    of the rows the grounds came from (a ``Custody``; without it, the store's rows),
    asked only of a renamed subsection whose parent is gone (move_rebound.py).
    ``head``: HEAD's commit when the caller holds it (``""``: unborn), the base of the
    index's change a gone section is searched in (move_search.py); None: asked of git."""
    chosen = [b for b in bindings if not paths or any(under(b.path, p) for p in paths)]
    deferred: list[Binding] = []
    root = getattr(source, "root", None)
    parsed = ParseCache(root) if isinstance(root, Path) else None
    located = Sections(parsed, chosen)
    worktree = source if isinstance(source, WorktreeSource) else None
    findings: list[Finding] = []
    if grounds is None:
        if store is None:
            raise ForestError("a check needs the store or the ground of every binding")
        grounds = ground_map(store, chosen)
    read: Mapping[str, str] = {}
    if worktree is not None:
        worktree.prefetch_hashes([b.path for b in chosen])
        read = worktree.hashes_read()
    peers = _Peers(bindings)
    prefetch = getattr(source, "prefetch", None)  # a git source: blobs in batches
    for index, binding in enumerate(chosen):
        if prefetch is not None and index % _BLOB_BATCH == 0:
            prefetch([b.path for b in chosen[index : index + _BLOB_BATCH]])
        found = _whole_file_read_clean(binding, grounds.get(binding.entry_id), read)
        if found is None:
            found = check_binding(
                store,
                binding,
                source,
                all_paths=None,
                located=located,
                peers=peers.of(binding) if binding.contested else (),
                grounds=grounds,
                defer=deferred,
            )
        findings.append(found)
    if deferred:  # one search of the run for every section gone from its place
        if history is None and store is not None:  # the binding history of its own rows
            from forest_files.check.move_rebound import RowHistory

            history = RowHistory(store.conn)
        findings = _with_moves(
            findings, deferred, source, bindings, located.documents, history, head
        )
    _save_caches(source, parsed)
    if documents is not None:
        documents.update(located.documents)
    return findings


def _save_caches(source: ContentSource, parsed: ParseCache | None) -> None:
    if isinstance(source, (WorktreeSource, GitTreeSource)):
        source.save_cache()
    if parsed is not None:
        parsed.save()


class _Peers:
    """The bind acts of every binding of one path + selector (a contest's candidates),
    grouped on first use: only a contested binding asks."""

    def __init__(self, bindings: list[Binding]) -> None:
        self.bindings = bindings
        self._by: dict[tuple[str, str], list[str]] | None = None

    def of(self, binding: Binding) -> tuple[str, ...]:
        if self._by is None:
            self._by = {}
            for b in self.bindings:
                self._by.setdefault((b.path, b.selector), []).append(b.bind_act)
        return tuple(sorted(self._by[(binding.path, binding.selector)]))


def _whole_file_read_clean(
    binding: Binding, ground: Ground | None, read: Mapping[str, str]
) -> Finding | None:
    """The clean finding ``_judge`` gives a whole-file binding without exclusions of a
    single live, unsealed, unerased ground whose file this run read and hashed to
    ground's hash (``read``: the working tree's ``hashes_read``); None for any other
    binding (``check_binding`` judges it). Built as ``_judge`` builds it
    (``clean_finding``, finding.py): a cold check of 10,000 files builds 10,000."""
    if ground is None or ground[2] or binding.contested or binding.excludes:
        return None
    expected = ground[1]
    if expected is None or read.get(binding.path) != expected or binding.selector != binding.path:
        return None
    return clean_finding(binding.path, binding.selector, binding.bind_act, ground[0], expected)


def _with_moves(
    findings: list[Finding],
    deferred: list[Binding],
    source: ContentSource,
    bindings: list[Binding],
    documents: dict[str, tuple[str, Document]],
    history: BindingHistory | None,
    head: str | None,
) -> list[Finding]:
    from forest_files.check.move_rebound import Rebound

    where = {b.bind_act: pos for pos, b in enumerate(deferred)}
    gone = [(f, deferred[where[f.binding]]) for f in findings if f.binding in where]
    live = [b for b in bindings if not b.retired]
    bound = tuple(sorted({b.selector for b in live}))
    cuts = {b.selector: b.excludes for b in live if b.excludes}  # a hidden block's holder
    rebound = Rebound(history, source) if history is not None else None
    drifted = {
        f.selector: f.expected_hash for f in findings if f.kind == "drifted" and f.expected_hash
    }
    placed = iter(
        search_moves(source, gone, None, bound, documents, rebound, cuts, drifted, head=head)
    )
    return [next(placed) if f.binding in where else f for f in findings]


def parse_target(spec: str) -> Selector:
    from forest_files.text.selector import parse_selector  # not on a clean check

    return parse_selector(spec)
