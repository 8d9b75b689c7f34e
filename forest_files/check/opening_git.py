"""The custody of a git source: the git index (the staged ledger and files) or a commit.

``open_git`` keys the source's view (``index_fingerprint`` for the index, one
``rev-parse`` for a commit through ``_commit_key``), then takes the cheapest
evidence: no binding at all when a staged change touches no bound path
(``PATHS``; for the index, only where no view is needed to deny a contest either:
the segments read after a clone show none possible), else the view's binding map
(opening_views.py). A caller opening many
commits of one ledger (a CI range) hands in the bound paths of the views it opened
(``bound``), so each view's remembered set is read once: a view derived here
(HEAD's, on a fresh clone) puts the set it wrote there too. Called by
check/opening.py only (``open_custody``, the one way into custody).

Stores: the view aliases it derives (viewkey.py), and what opening_views.py stores.
Refuses: an unknown revision (``UnknownRef``), an option given as a revision, and
what a replay refuses (a forged or damaged ledger).
Returns: a ``Custody`` (check/opened.py); the staged ledger's view key.
Test: tests/check/test_opening.py, tests/gate/test_ci_git_calls.py,
tests/check/test_check_evidence.py
"""

from __future__ import annotations

from forest_files.check.opened import ABSENT, INDEX, PATHS, Custody
from forest_files.check.opening_views import bound_paths_of, view_map

TYPE_CHECKING = False
if TYPE_CHECKING:  # the light doors (fastcheck, the hook) load none of this
    from pathlib import Path

    from forest_files.custody.content import GitTreeSource
    from forest_files.custody.source_config import SourceConfig


def index_fingerprint(
    root: Path, head: tuple[str, str] | None, ledger_staged: bool, *, keep_index_file: bool
) -> str:
    """The staged ledger's view key. While no ledger file is staged it is HEAD's,
    known by its tree id through the alias an earlier run wrote (no listing)."""
    from forest_files.custody.viewkey import ledger_fingerprint, read_alias, write_alias

    same_as_head = head is not None and not ledger_staged
    found = read_alias(root, head[1]) if same_as_head and head is not None else None
    if found is None:
        found = ledger_fingerprint(root, INDEX, keep_index_file=keep_index_file)
        if same_as_head and head is not None:
            write_alias(root, head[1], found)
    return found


def open_git(
    root: Path,
    source: str,
    within: tuple[str, ...],
    touched: set[str] | None,
    keep_index_file: bool,
    fingerprint: str | None,
    replay: bool,
    key: tuple[str, str] | None,
    config: SourceConfig | None = None,
    bound: dict[Path, set[str]] | None = None,
    listing: GitTreeSource | None = None,
) -> Custody:
    from forest_files.custody.viewkey import ledger_fingerprint, view_path

    if source == INDEX:
        if fingerprint is None:
            fingerprint = ledger_fingerprint(root, source, keep_index_file=keep_index_file)
    elif fingerprint is None:
        source, fingerprint = _commit_key(root, source, key)
    else:
        from forest_files import gitio

        source = gitio.resolve_commit(root, source)
    view = view_path(root, fingerprint)
    rev = None if source == INDEX else source
    only = tuple(sorted(touched)) if touched is not None else ()
    tree = (rev, keep_index_file, only)  # the content source, made when first read
    given = listing if (rev, only) == (None, ()) else None  # the whole index, listed already
    free = False  # no contest possible: the segments or the sealed view said so
    if touched is not None:
        known = bound.get(view) if bound is not None else None
        forked = False
        if known is None:
            known, forked, free = bound_paths_of(root, source, view, keep_index_file)
            if bound is not None and known is not None:
                bound[view] = known
        # The staged ledger's contests are asked of its view (check/staged_contests.py):
        # one the segments cannot rule out is judged by building it.
        if known is not None and not (known & touched) and not (forked and source == INDEX):
            return Custody(root, source, PATHS, [], {}, view=view, tree=tree, contest_free=free)
    wanted = sorted(touched) if touched is not None else None
    got = view_map(root, source, view, keep_index_file, wanted, replay, config, bound)
    if got is None:
        return Custody(root, source, ABSENT, [], {}, view=view, content=given, tree=tree)
    via, found = got
    bindings = found.bindings
    if touched is not None:
        bindings = [b for b in bindings if b.path in touched]
    if within:
        from forest_files.kernel.repopath import under

        bindings = [b for b in bindings if any(under(b.path, p) for p in within)]
    return Custody(
        root,
        source,
        via,
        bindings,
        found.grounds,
        view=view,
        content=given,
        tree=tree,
        contest_free=free,
    )


def _commit_key(root: Path, rev: str, known: tuple[str, str] | None) -> tuple[str, str]:
    """(the commit ``rev`` names, its view key): one ``rev-parse`` names the commit and
    its ledger tree, whose alias an earlier run wrote holds the key (no listing); a
    range judges each commit with this one git call. A commit without a ledger tree
    or forest.toml is resolved on its own (UnknownRef when ``rev`` names no commit)
    and its ledger listed. ``known``: ``head_custody(root, rev)`` asked already."""
    from forest_files.custody.viewkey import (
        head_custody,
        ledger_fingerprint,
        read_alias,
        write_alias,
    )

    if known is None:
        known = head_custody(root, rev)
    if known is None:
        from forest_files import gitio

        commit = gitio.resolve_commit(root, rev)
        return commit, ledger_fingerprint(root, commit)
    commit, tree_key = known
    found = read_alias(root, tree_key)
    if found is None:
        found = ledger_fingerprint(root, commit)
        write_alias(root, tree_key, found)
    return commit, found


__all__ = ["index_fingerprint", "open_git"]
